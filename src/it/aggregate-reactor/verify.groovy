// aggregate-reactor: one gate over the union of three modules' libraries. The H200's worst kernel lives in the kernels
// module and exceeds the budget; the L4's lives in the fine module; docs has none (one INFO line). The JSON in the root's
// target/cuda-stack-budget-aggregate lists both libraries, each attributed to its module.
import groovy.json.JsonSlurper
import javax.xml.parsers.DocumentBuilderFactory

File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))

String all = new File(basedir, 'build.log').text
// build.log holds the three invocations: the two skipped ones, then the gate
List<String> builds = all.split(/(?m)^\[INFO\] Scanning for projects\.\.\.$/).drop(1) as List
assert builds.size() == 3
['cudaStackBudget.aggregate.skip', 'cudaStackBudget.skip'].eachWithIndex { String property, int i ->
    assert builds[i].contains('BUILD SUCCESS')
    def skipLines = builds[i].readLines().findAll { it.contains('Skipping the CUDA stack budget aggregate') }
    assert skipLines == ["[INFO] Skipping the CUDA stack budget aggregate: ${property} is set.".toString()]
    assert !builds[i].contains('Aggregating the CUDA stack budget')
}
String log = builds[2]
assert log.contains('BUILD FAILURE')
assert log.contains('MojoFailureException') : 'a violation must fail the build with MojoFailureException'
assert !log.contains('MojoExecutionException')
// an aggregator goal on the command line: once, after every module's lifecycle, on the root
assert log.count('Aggregating the CUDA stack budget of 4 module(s)') == 1
assert log.indexOf('Aggregating the CUDA stack budget') > log.lastIndexOf('Building docs')

String group = 'io.github.cudastackbudget.it'
String kernels = "${group}:kernels:1.0-SNAPSHOT"
String fine = "${group}:fine:1.0-SNAPSHOT"
String docs = "${group}:docs:1.0-SNAPSHOT"
String root = "${group}:aggregate-reactor:1.0-SNAPSHOT"
// modules without native libraries: one INFO line each (the root pom has none either); kernels and fine have some
assert log.contains("[INFO] Module ${docs}: no native libraries (looked in docs/target)")
assert log.contains("[INFO] Module ${root}: no native libraries (looked in target)")
assert !log.contains("Module ${kernels}: no native libraries")
assert !log.contains("Module ${fine}: no native libraries")

// the failure names the device, the kernel, its library and its module
def m = log =~ /(?s)Failed to execute goal [^\n]*?:aggregate [^\n]*?: (.*?) -> \[Help 1\]/
assert m.find() : 'no "Failed to execute goal ...:aggregate" error in build.log'
String message = m.group(1)
['h200-141gb', 'exceeds', 'jitFrame<16400>', 'sm_90', 'libjitmixed.so', "module ${kernels}"].each {
    assert message.contains(it) : "the failure message lacks '${it}': ${message}"
}
assert !message.contains('l4') : "the L4 passes: ${message}"

File json = new File(basedir, 'target/cuda-stack-budget-aggregate/cuda-stack-budget.json')
assert json.isFile() : "no aggregate JSON at ${json}"
// every format formats selects, with check's file names, under the root's target
['cuda-stack-budget.txt', 'cuda-stack-budget.html', 'cuda-stack-budget.md', 'cuda-stack-budget.sarif',
 'TEST-cuda-stack-budget.xml'].each {
    assert new File(basedir, "target/cuda-stack-budget-aggregate/${it}").isFile() : "no aggregate ${it}"
}
def junit = DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new File(basedir, 'target/cuda-stack-budget-aggregate/TEST-cuda-stack-budget.xml'))
assert junit.getElementsByTagName('failure').length == 1 : 'one failed test case: the H200 budget'
def sarif = new JsonSlurper().parse(new File(basedir, 'target/cuda-stack-budget-aggregate/cuda-stack-budget.sarif'))
assert sarif.version == '2.1.0'
assert sarif.runs[0].results.size() == 1
// the SARIF artifact and the JSON paths: relative to the root, so each names the module's directory
assert sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri.contains('kernels/target/native/libjitmixed.so')
def report = It.asVersionOne(new JsonSlurper().parse(json) as Map)
// the union: both modules' libraries, each attributed to its module; the host-only library holds no device code
assert report.libraries*.library.toSorted() == ['libframes.so', 'libjitmixed.so']
assert report.libraries.find { it.library == 'libjitmixed.so' }.usedBy == kernels
assert report.libraries.find { it.library == 'libframes.so' }.usedBy == fine
assert report.libraries.find { it.library == 'libjitmixed.so' }.path == 'kernels/target/native/libjitmixed.so'
assert report.libraries.find { it.library == 'libframes.so' }.path == 'fine/target/native/libframes.so'

// per device the worst kernel wherever it lives
def h200 = It.device(report, 'h200-141gb')
assert h200.status == 'fail'
assert h200.worstKernel.library == 'libjitmixed.so'
assert h200.worstKernel.name.contains('jitFrameILi16400E')
assert h200.reservationBytes == 132L * 2048 * It.roundup16(h200.worstKernel.stack as long)
assert h200.budgetBytes == 3L << 30
def l4 = It.device(report, 'l4')
assert l4.status == 'pass'
assert l4.worstKernel.library == 'libframes.so'

assert report.violations.size() == 1 : report.violations
assert report.violations[0].device == 'h200-141gb'

// no per-module reports: check did not run
assert !new File(basedir, 'kernels/target/cuda-stack-budget').exists()
return true
