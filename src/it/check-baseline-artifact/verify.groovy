// check-baseline-artifact: 1.0 attached its JSON report and install put it into the local repository; 2.0 resolved it
// through baselineArtifact and failed on the growth.
import groovy.json.JsonSlurper

File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))

String log = new File(basedir, 'build.log').text
assert log.contains('BUILD FAILURE') : 'release 2.0 must fail on the growth'
File repo = new File(localRepositoryPath.toString())
String group = 'io.github.cudastackbudget.it'
File installed = new File(repo, group.replace('.', '/')
        + '/check-baseline-artifact/1.0/check-baseline-artifact-1.0-cuda-stack-budget.json')
assert installed.isFile() : "install did not publish the attached report: ${installed}"
def old = new JsonSlurper().parse(installed)
assert It.device(old, 'h200-141gb').reservationBytes == 132L * 2048 * 1024
// the attached file is the report 1.0's check wrote
assert installed.bytes == new File(basedir, 'v1/target/cuda-stack-budget/cuda-stack-budget.json').bytes

def report = new JsonSlurper().parse(new File(basedir, 'v2/target/cuda-stack-budget/cuda-stack-budget.json'))
String coordinates = group + ':check-baseline-artifact:1.0:cuda-stack-budget'
assert report.baseline.source == coordinates
def h200 = report.baseline.devices.find { it.device == 'h200-141gb' }
assert h200.previousBytes == 132L * 2048 * 1024 && h200.currentBytes == 132L * 2048 * 4096
assert h200.maxGrowth == '64 MiB' && h200.outcome == 'fail'
def m = log =~ /(?s)Failed to execute goal [^\n]*?:check [^\n]*?: (.*?) -> \[Help 1\]/
assert m.find()
assert m.group(1).startsWith('h200-141gb: the reservation grew from ') : m.group(1)
assert m.group(1).contains('over the baseline ' + coordinates + ', more than maxGrowth 64 MiB allows')
return true
