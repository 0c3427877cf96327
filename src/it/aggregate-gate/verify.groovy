// aggregate-gate: suppressions, rules and a baseline through the aggregate, over the union of the modules' libraries.
import groovy.json.JsonSlurper

String all = new File(basedir, 'build.log').text
List<String> builds = all.split(/(?m)^\[INFO\] Scanning for projects\.\.\.$/).drop(1) as List
assert builds.size() == 2

// 1. suppressed: the H200's worst kernel is now fine's, within the budget; the LIBRARY rule warns on fine's library
String first = builds[0]
assert first.contains('BUILD SUCCESS')
def report = new JsonSlurper().parse(new File(basedir, 'target/first/cuda-stack-budget.json'))
def h200 = report.devices.find { it.name == 'h200-141gb' }
assert h200.status == 'pass'
assert report.suppressed.size() == 1 : report.suppressed
assert report.suppressed[0].toString().contains('ISSUE-7')
assert report.violations.isEmpty()
assert report.checks.any { it.category == 'rule' && it.outcome == 'warn' && it.library == 'libframes.so' } : report.checks
assert first =~ /\[WARNING\] .*libframes\.so/

// 2. not suppressed, against the first report: the H200 grew from 2.57 GiB to 4.13 GiB, over maxGrowth 10%
String second = builds[1]
assert second.contains('BUILD FAILURE')
assert second.contains('MojoFailureException')
// the budget is exceeded too; the growth lines name the device, the old and the new reservation and the kernel
assert second =~ /\[ERROR\] h200-141gb: the reservation grew from [^\n]* to 4\.13 GiB \(4,433,510,400 B\) [^\n]*over the baseline target\/first\/cuda-stack-budget\.json, more than maxGrowth 10% allows[^\n]*kernel void jitFrame<16400>\(char\*, int\) \[sm_90\] in libjitmixed\.so/
def m = second =~ /(?s)Failed to execute goal [^\n]*?:aggregate [^\n]*?: (.*?) -> \[Help 1\]/
assert m.find()
assert m.group(1).contains('(module io.github.cudastackbudget.it:kernels:1.0-SNAPSHOT) (and 2 more violation(s))')
def grown = new JsonSlurper().parse(new File(basedir, 'target/second/cuda-stack-budget.json'))
assert grown.checks.any { it.category == 'baseline' && it.outcome == 'fail' && it.device == 'h200-141gb' } : grown.checks
return true
