// check-suppressions: four builds of the stack-demo library against an H200 budget of 3 GiB (invoker.properties);
// every figure is computed from the recording of the real cuobjdump for libstackdemo.so.
import groovy.json.JsonSlurper

File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))

It.assertRecordingMatchesBuild(basedir, 'libstackdemo.so')
def rec = It.parseResourceUsage(It.recording(basedir, 'libstackdemo.so'))
long threads = 132 * 2048                       // docs/gpu-catalog.csv: h200-141gb, 132 SMs x 2048
long budget = 3L << 30
def sm90a = rec['sm_90a']
def worst = It.worst(rec, 'sm_90a')
assert worst.key == '_ZN4demo10stageTilesEPKfPfii'
long worstReservation = threads * It.roundup16(worst.value)
def next = sm90a.findAll { it.key != worst.key && it.value != null }.max { it.value }
long nextReservation = threads * It.roundup16(next.value)
assert worstReservation > budget && nextReservation <= budget : 'the IT needs the worst kernel alone over the budget'

def report = { String out ->
    File json = new File(basedir, "target/${out}/cuda-stack-budget.json")
    assert json.isFile() : "no JSON report at ${json}"
    return It.asVersionOne(new JsonSlurper().parse(json) as Map)
}
def failure = { String log ->
    def m = log =~ /(?s)Failed to execute goal [^\n]*?:check [^\n]*?: (.*?) -> \[Help 1\]/
    assert m.find() : 'no "Failed to execute goal ...:check" error in the log'
    return m.group(1)
}

// 1. without suppressions the H200 is over its budget
String without = new File(basedir, 'without.log').text
assert without.contains('BUILD FAILURE') && without.contains('MojoFailureException')
def plain = report('without')
assert It.device(plain, 'h200-141gb').status == 'fail'
assert It.device(plain, 'h200-141gb').reservationBytes == worstReservation
assert plain.suppressed == null : 'no suppressions, no suppressed key'

// 2. an expired entry suppresses nothing and fails naming the entry
String expired = new File(basedir, 'expired.log').text
assert expired.contains('BUILD FAILURE') && expired.contains('MojoFailureException')
assert expired =~ /\[ERROR\] \S*expired\.xml: suppression\[1\] \(kernel 'demo::stageTiles\*', line 4\) expired on 2020-01-01 \(today is \d{4}-\d\d-\d\d\): it suppresses nothing, its kernels are judged again/
assert failure(expired).contains('and 1 more violation(s)') : failure(expired)
def old = report('expired')
assert It.device(old, 'h200-141gb').reservationBytes == worstReservation
assert old.suppressed == null

// 3. failOnUnusedSuppressions: the unused entry fails the build, though the budget holds
String strict = new File(basedir, 'strict.log').text
assert strict.contains('BUILD FAILURE') && strict.contains('MojoFailureException')
String strictMessage = failure(strict)
assert strictMessage.contains("suppression[2] (kernel 'demo::noSuchKernel*', line 11) matches no kernel on any device: remove it") : strictMessage
assert It.device(report('strict'), 'h200-141gb').status == 'pass'

// 4. the active entry turns the build green: the next-worst kernel decides; the unused entry warns
String log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
assert log =~ /\[WARNING\] \S*active\.xml: suppression\[2\] \(kernel 'demo::noSuchKernel\*', line 11\) matches no kernel on any device: remove it \(-DcudaStackBudget\.failOnUnusedSuppressions=true fails the build on it\)/
assert log.contains('Suppressed kernels (left out of the verdicts; 1):')
assert log.contains('    suppression[1], until 2099-12-31: tile staging needs the scratch; rewritten in 2.0 (ISSUE-42)')
def active = report('active')
def h200 = It.device(active, 'h200-141gb')
assert h200.status == 'pass'
assert h200.reservationBytes == nextReservation
assert h200.worstKernel.name == next.key
// the suppressed kernel is not among the H200's counted images; the L4 is outside the entry's device pattern:
// its verdict still counts the kernel
assert !h200.selectedKernels.collect { active.kernels[it as int].name }.contains(worst.key)
assert It.device(active, 'l4').selectedKernels.collect { active.kernels[it as int].name }.contains(worst.key)
assert active.suppressed.size() == 1 : active.suppressed
def s = active.suppressed[0]
assert s.device == 'h200-141gb'
assert active.kernels[s.kernel as int].name == worst.key
assert active.kernels[s.kernel as int].arch == 'sm_90a'
assert s.reservationBytes == worstReservation
assert s.entry == 1 && s.pattern == 'demo::stageTiles*' && s.until == '2099-12-31'
assert s.reason == 'tile staging needs the scratch; rewritten in 2.0 (ISSUE-42)'
// each entry is a gate check: the active one passes, the unused one warns
assert active.checks.collect { [it.category, it.name, it.outcome] } == [
        ['suppression', 'suppression[1] demo::stageTiles*', 'pass'],
        ['suppression', 'suppression[2] demo::noSuchKernel*', 'warn']]
assert report('expired').checks.collect { [it.name, it.outcome] } == [['suppression[1] demo::stageTiles*', 'fail']]
assert new File(basedir, 'target/active/cuda-stack-budget.txt').text.contains('Suppressed kernels')
String page = new File(basedir, 'target/active/cuda-stack-budget.html').text
assert page.contains('<h2>Suppressed kernels</h2>') && page.contains('ISSUE-42')
return true
