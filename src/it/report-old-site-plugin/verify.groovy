// report-old-site-plugin: maven-site-plugin 3.12.1 would skip the report (LinkageError warning, BUILD SUCCESS);
// the report goal stops the build instead, with one line naming the version to pin.
String log = new File(basedir, 'build.log').text
assert log.contains('BUILD FAILURE')
String line = 'The CUDA Stack Budget report needs maven-site-plugin 3.20.0 or newer (Doxia 2), but this build uses ' +
        'maven-site-plugin 3.12.1: pin org.apache.maven.plugins:maven-site-plugin:'
def error = log =~ /\[ERROR\] Failed to execute goal org\.apache\.maven\.plugins:maven-site-plugin:3\.12\.1:site [^\n]*?: (.*) -> \[Help 1\]/
assert error.find() : 'no error line from the site plugin'
assert error.group(1).contains(line) : error.group(1)
assert !log.contains('LinkageError')
// (site 3.12.1 leaves an empty page file behind: not asserted)
return true
