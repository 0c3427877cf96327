// check-all-devices-without-sass: none of t4, l4, rtx-5090 can run the sm_90/sm_90a-only library: the check has
// nothing to measure, which is a usage error (MojoExecutionException), not a budget violation.
File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))

String log = new File(basedir, 'build.log').text
assert log.contains('BUILD FAILURE') || log.contains('[ERROR]')
assert log.contains('MojoExecutionException') : 'every device lacking compatible SASS is a MojoExecutionException'
assert !log.contains('MojoFailureException') : 'this is not a budget violation'

// the library was built and read: the failure is about the devices, not a broken input
assert new File(basedir, 'target/native/libstackdemo_sm90.so').isFile()
It.assertRecordingMatchesBuild(basedir, 'libstackdemo_sm90.so')

// one clear line: no configured device can run the library's SASS
def m = log =~ /(?s)Failed to execute goal [^\n]*?:check [^\n]*?: (.*?) -> \[Help 1\]/
assert m.find() : 'no "Failed to execute goal ...:check" error in build.log'
String message = m.group(1)
String lower = message.toLowerCase(Locale.ROOT)
assert lower =~ /\b(no|none of the)\b.*\bdevices?\b/ && (lower.contains('sass') || lower.contains('run')) :
        "the error should say that no configured device can run the library's SASS: ${message}"
return true
