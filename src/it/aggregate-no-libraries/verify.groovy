// aggregate-no-libraries: nothing to scan is one INFO line per module and a pass; with failIfNoLibraries a
// MojoFailureException that names the property.
String all = new File(basedir, 'build.log').text
List<String> builds = all.split(/(?m)^\[INFO\] Scanning for projects\.\.\.$/).drop(1) as List
assert builds.size() == 2

String group = 'io.github.cudastackbudget.it'
builds.each { String build ->
    assert build.contains("[INFO] Module ${group}:aggregate-no-libraries:1.0-SNAPSHOT: no native libraries (looked in target)")
    assert build.contains("[INFO] Module ${group}:api:1.0-SNAPSHOT: no native libraries (looked in api/target)")
    assert build.contains("[INFO] Module ${group}:docs:1.0-SNAPSHOT: no native libraries (looked in docs/target)")
    assert build.contains('No CUDA kernels found in 1 scanned file(s): nothing to check.')
}
assert builds[0].contains('BUILD SUCCESS')

String failed = builds[1]
assert failed.contains('BUILD FAILURE')
assert failed.contains('MojoFailureException')
assert !failed.contains('MojoExecutionException')
def m = failed =~ /(?s)Failed to execute goal [^\n]*?:aggregate [^\n]*?: (.*?) -> \[Help 1\]/
assert m.find()
assert m.group(1) == 'The CUDA stack budget aggregate found no native library with device code in 3 module(s): ' +
        'build them before the aggregate runs, point <libraries> at them, or set -DcudaStackBudget.failIfNoLibraries=false.'
return true
