// check-baseline: the growth over the baseline fails the build with one message naming the device, the old and the
// new reservation and the kernel that grew; the reports carry the comparison (JSON baseline and checks, text).
import groovy.json.JsonSlurper

File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))

String log = new File(basedir, 'build.log').text
assert log.contains('BUILD FAILURE')
assert log.contains('MojoFailureException') : 'a growth over maxGrowth must fail like a budget (MojoFailureException)'

def earlier = new JsonSlurper().parse(new File(basedir, 'target/v1-report/cuda-stack-budget.json'))
def report = It.readReport(basedir)
long old = It.device(earlier, 'h200-141gb').reservationBytes
long now = It.device(report, 'h200-141gb').reservationBytes
// 132 SMs x 2048 threads x the frames ptxas gave the two builds (1 KiB and 4 KiB)
assert old == 132L * 2048 * 1024 : old
assert now == 132L * 2048 * 4096 : now

def m = log =~ /(?s)Failed to execute goal [^\n]*?:check \(check\)[^\n]*?: (.*?) -> \[Help 1\]/
assert m.find() : 'no "Failed to execute goal ...:check (check)" error in build.log'
String message = m.group(1)
['h200-141gb: the reservation grew from', 'more than maxGrowth 10% allows', 'growKernel(int*, int)', '[sm_90]',
 'in libgrow.so grew: its frame was 1,024 B, now 4,096 B', 'v1-report/cuda-stack-budget.json'].each {
    assert message.contains(it) : "the failure message lacks '${it}': ${message}"
}
assert It.mentionsBytes(message, old) : "the failure message lacks the old reservation ${old}: ${message}"
assert It.mentionsBytes(message, now) : "the failure message lacks the new reservation ${now}: ${message}"

// the JSON report, written before the build failed, carries the comparison and its checks
def h200 = report.baseline.devices.find { it.device == 'h200-141gb' }
assert report.baseline.source == 'target/v1-report/cuda-stack-budget.json'
assert h200.previousBytes == old && h200.currentBytes == now && h200.deltaBytes == now - old
assert h200.maxGrowth == '10%' && h200.allowedGrowthBytes == old.intdiv(10) && h200.outcome == 'fail'
assert h200.kernelChange == 'grew' && h200.previousStack == 1024
assert report.baseline.overall.outcome == 'fail'
def checks = report.checks.findAll { it.category == 'baseline' }
assert checks*.name == ['baseline h200-141gb', 'baseline overall']
assert checks.every { it.outcome == 'fail' }
// the budgets themselves are not exceeded
assert report.violations.isEmpty()
String text = new File(basedir, 'target/cuda-stack-budget/cuda-stack-budget.txt').text
assert text.contains('Baseline: target/v1-report/cuda-stack-budget.json')
return true
