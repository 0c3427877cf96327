// check-tool-error: a check that cannot run writes its error into every selected report and deletes the others;
// failOnError=false turns the MojoExecutionException into one WARN line.
import groovy.json.JsonSlurper
import javax.xml.parsers.DocumentBuilderFactory

String log = new File(basedir, 'build.log').text
// first build
assert log.contains('BUILD FAILURE')
assert log.contains('MojoExecutionException') : 'a tool error must fail the build with MojoExecutionException'
assert !log.contains('MojoFailureException')
assert log.contains('no-such-cuobjdump')
// second build: one warning naming the property, and the build goes on
def warnings = log.readLines().findAll { it.startsWith('[WARNING] The CUDA stack budget check could not run: ') }
assert warnings.size() == 1 : warnings
assert warnings[0].contains('no-such-cuobjdump')
assert warnings[0].endsWith('(the build continues because cudaStackBudget.failOnError is false; the reports say so)')
assert log.contains('BUILD SUCCESS')

File out = new File(basedir, 'target/cuda-stack-budget')
assert out.list().findAll { new File(out, it).isFile() } as Set == ['cuda-stack-budget.json', 'cuda-stack-budget.txt',
        'TEST-cuda-stack-budget.xml', 'cuda-stack-budget.sarif'] as Set : "not selected, so deleted: ${out.list()}"
def json = new JsonSlurper().parse(new File(out, 'cuda-stack-budget.json'))
assert json.schemaVersion == 2
assert json.error.contains('no-such-cuobjdump')
assert json.keySet() == ['schemaVersion', 'error'] as Set : 'no figures of any run'
String message = json.error
assert new File(out, 'cuda-stack-budget.txt').text.contains('ERROR: the check could not run: ' + message)
def junit = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new File(out, 'TEST-cuda-stack-budget.xml'))
assert junit.documentElement.getAttribute('errors') == '1'
assert junit.getElementsByTagName('error').item(0).getAttribute('message') == message
def sarif = new JsonSlurper().parse(new File(out, 'cuda-stack-budget.sarif'))
assert sarif.version == '2.1.0'
assert sarif.runs[0].invocations[0].executionSuccessful == false
assert sarif.runs[0].invocations[0].toolExecutionNotifications[0].message.text == message
assert sarif.runs[0].results.isEmpty()
return true
