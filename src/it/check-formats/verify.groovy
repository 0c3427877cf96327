// check-formats: every selected format is written and valid; the Markdown summary is appended to GITHUB_STEP_SUMMARY.
import groovy.json.JsonSlurper
import javax.xml.parsers.DocumentBuilderFactory

File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))

String log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
File out = new File(basedir, 'target/cuda-stack-budget')
assert out.list().findAll { !it.endsWith('.tmp') && new File(out, it).isFile() } as Set == ['cuda-stack-budget.json',
        'cuda-stack-budget.txt', 'cuda-stack-budget.html', 'cuda-stack-budget.md', 'TEST-cuda-stack-budget.xml',
        'cuda-stack-budget.sarif'] as Set : out.list()

def report = It.readReport(basedir)
def h200 = It.device(report, 'h200-141gb')
assert h200.status == 'fail'
assert report.devices.size() == 2
// paths relative to the project
assert report.libraries*.path == ['target/native/libstackdemo.so'] : report.libraries*.path
assert !new File(out, 'cuda-stack-budget.txt').text.contains(basedir.absolutePath)

// JUnit: parsed by the JDK's parser; one test case per device budget, the H200's a failure
def junit = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new File(out, 'TEST-cuda-stack-budget.xml'))
def suite = junit.documentElement
assert suite.tagName == 'testsuite'
def cases = junit.getElementsByTagName('testcase')
assert cases.length == report.devices.size() + (report.checks ?: []).size()
assert suite.getAttribute('tests') == "${cases.length}"
assert suite.getAttribute('failures') == '1'
def failed = (0..<cases.length).collect { cases.item(it) }.find { it.getAttribute('name') == 'h200-141gb' }
assert failed.getAttribute('classname') == 'cuda-stack-budget.device'
assert failed.getElementsByTagName('failure').item(0).textContent.contains('demo::stageTiles(float const*, float*, int, int)')

// SARIF 2.1.0: version, $schema, runs[].tool.driver, results[].ruleId/level/message/locations
def sarif = new JsonSlurper().parse(new File(out, 'cuda-stack-budget.sarif'))
assert sarif.version == '2.1.0'
assert sarif.'$schema' == 'https://json.schemastore.org/sarif-2.1.0.json'
assert sarif.runs.size() == 1
def run = sarif.runs[0]
assert run.tool.driver.name == 'cuda-stack-budget'
// the plugin's version, as this IT's POM names it
String pluginVersion = (new File(basedir, 'pom.xml').text =~ /(?s)<artifactId>cuda-stack-budget-maven-plugin<\/artifactId>\s*<version>([^<]+)</)[0][1]
assert run.tool.driver.version == pluginVersion
assert run.tool.driver.rules*.id == ['maxReservation']
assert run.invocations[0].executionSuccessful == true
assert run.results.size() == report.violations.size()
run.results.each { result ->
    assert result.ruleId == 'maxReservation'
    assert result.level == 'error'
    assert result.message.text.contains('h200-141gb')
    assert result.locations[0].physicalLocation.artifactLocation.uri == 'target/native/libstackdemo.so'
    assert result.locations[0].physicalLocation.artifactLocation.uriBaseId == '%SRCROOT%'
    assert result.properties.device == 'h200-141gb'
    assert result.properties.kernel == '_ZN4demo10stageTilesEPKfPfii'
    assert result.properties.bytes == h200.reservationBytes
}

// Markdown: the file, and the same summary appended to GITHUB_STEP_SUMMARY after the earlier step's
String markdown = new File(out, 'cuda-stack-budget.md').text
assert markdown.startsWith('## CUDA stack budget: FAIL\n')
assert markdown.contains('| h200-141gb | FAIL |')
assert markdown.contains('[TEST-cuda-stack-budget.xml](TEST-cuda-stack-budget.xml)')
String summary = new File(basedir, 'step-summary.md').text
assert summary.startsWith('## An earlier step\n## CUDA stack budget: FAIL\n') : summary
assert summary.contains('| h200-141gb | FAIL |')
return true
