// check-properties: every library read, the report's place and the devices came from -D user properties; two-item
// comma-separated lists prove that Maven split them (an unsplit value names no existing file and matches no entry).
import groovy.json.JsonSlurper

String log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')

// the deprecated property of devicePresets: read, with exactly one warning naming the new one
def deprecations = log.readLines().findAll { it.contains('deprecated') }
assert deprecations == ['[WARNING] cudaStackBudget.devices is deprecated: use cudaStackBudget.devicePresets=' +
        'h200-141gb,l4 (read this time)'] : "deprecation lines: ${deprecations}"

// outputDirectory from -DcudaStackBudget.outputDirectory (relative to the base directory)
File json = new File(basedir, 'target/from-property/cuda-stack-budget.json')
assert json.isFile() : "no report at ${json}"
assert !new File(basedir, 'target/cuda-stack-budget/cuda-stack-budget.json').exists()
Map report = new JsonSlurper().parse(json) as Map

assert report.devices*.name.sort() == ['h200-141gb', 'l4'] : "devices: ${report.devices*.name}"

def paths = report.libraries*.path.collect { it.toString().replace('\\', '/') }
// libraryFiles: both files of the list (an unsplit value names no file and fails the build)
assert paths.size() == 2 : "${paths}"
assert paths.count { it.endsWith('target/classes/native/linux-x86_64/libstackdemo.so') } == 1 : "${paths}"
assert paths.count { it.endsWith('target/classes/native/extra/libstackdemo.so') } == 1 : "${paths}"
// jarIncludes: the JAR's linux-x86_64 entry is found (an unsplit pattern matches nothing); it has the bytes of the
// file scanned, which says so; jarExcludes: its second pattern leaves the native/extra entry out
String jar = 'check-properties-1.0-SNAPSHOT.jar!/native/'
def entryLines = log.readLines().findAll { it.contains(jar) }
assert entryLines.size() == 1 && entryLines[0].contains(jar + 'linux-x86_64/libstackdemo.so: the same bytes as ') :
        "JAR entry lines: ${entryLines}"
return true
