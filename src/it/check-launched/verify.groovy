// check-launched: prepare-agent + check over the REAL launch log that the CUPTI injection library wrote when the
// probe (src/test/native/launch-probe.cu) ran on the project's H200 (NVIDIA H200, driver 580.159.04; recorded by
// dev/cupti-validate.sh, see src/test/resources/recorded/launch/README.txt), with the real cuobjdump output
// recorded for the same probe build. Expected figures are computed from the recordings and also stated in bytes.
import groovy.json.JsonSlurper

File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))
File recorded = new File((new File(basedir, 'pom.xml').text =~ /<recorded\.launch>([^<]+)</)[0][1])

String log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS') : 'the L4 budget passes only on the launched figure'

// prepare-agent: the library is extracted and the properties drive the "GPU run" (exec) and the check
File agent = new File(basedir, 'target/cuda-stack-budget-agent/libcuda-stack-budget-cupti.so')
assert agent.isFile() && agent.length() > 0 : "prepare-agent did not extract ${agent}"
File launchLog = new File(basedir, 'target/cuda-stack-budget/launch.log')
assert log.contains("recorded H200 launch log copied to ${launchLog.absolutePath}")
assert launchLog.text == new File(recorded, 'launch-probe.launch.log').text

// the recordings describe the probe built here (same source, same nvcc line)
def rec = It.parseResourceUsage(new File(recorded, 'launch-probe.resource-usage.txt'))
assert rec.keySet() == ['sm_90'] as Set : rec.keySet()
def built = It.parsePtxas(new File(basedir, 'target/native/launch-probe.ptxas.txt'))
assert built == rec : "the recording ${recorded}/launch-probe.resource-usage.txt no longer matches the nvcc build of " +
        "the probe (recorded ${rec}, built ${built}): re-record it on the GPU machine (dev/cupti-validate.sh)"
It.assertRecordingMatchesBuild(basedir, 'libstackdemo.so')
def demo = It.parseResourceUsage(It.recording(basedir, 'libstackdemo.so'))

// the real launch log: header, status, data lines (kernel, attribution, max dynamic shared)
List<String> lines = launchLog.readLines()
assert lines[0] == '# cuda-stack-budget launch log 1'
assert lines.any { it == '# status: ok' } : lines.findAll { it.startsWith('#') }
Map<String, Long> dynamicShared = [:]
lines.findAll { !it.startsWith('#') && !it.isBlank() }.each {
    def f = it.split('\t', -1)
    dynamicShared[f[0]] = Math.max(dynamicShared.getOrDefault(f[0], 0L), f[2] as long)
}
Set<String> launched = dynamicShared.keySet()
Set<String> matched = launched.findAll { rec.sm_90.containsKey(it) || demo.values().any { m -> m.containsKey(it) } }
Set<String> unmatched = launched - matched

def report = It.readReport(basedir)
// issue 12: report paths are relative to the project
assert report.launched.log == "target/cuda-stack-budget/launch.log" : "check did not read the log prepare-agent set: ${report.launched.log}"
assert report.launched.status == 'ok'
assert report.launched.headline == true
assert report.launched.kernels == launched.size()
assert report.launched.matched == matched.size()
assert report.launched.unmatched == unmatched.size()
assert (report.unmatchedLaunchedKernels*.name as Set) == unmatched

// H200: the launched kernels' largest frame (probe, sm_90), against the static worst case over both files
long h200Threads = 132 * 2048
def launchedWorst = rec.sm_90.findAll { k, v -> launched.contains(k) }.max { it.value }
long launchedBytes = h200Threads * It.roundup16(launchedWorst.value)
long staticBytes = h200Threads * It.roundup16(Math.max(rec.sm_90.values().max(), demo.sm_90a.values().max()))
def h200 = It.device(report, 'h200-141gb')
assert h200.launchedHeadline == true
assert h200.reservationBytes == launchedBytes
assert h200.launchedReservationBytes == launchedBytes
assert h200.staticReservationBytes == staticBytes
assert h200.launchedWorstKernel.name == launchedWorst.key
assert h200.worstKernel.name == launchedWorst.key && h200.worstKernel.library == 'launch-probe'
assert h200.status == 'pass' && h200.budgetBytes == 4L << 30
assert (h200.launchedKernels*.library as Set) == ['launch-probe'] as Set : 'stack-demo kernels were never launched'
assert (h200.launchedKernels*.name as Set) == matched
h200.launchedKernels.each {
    assert it.maxDynamicShared == dynamicShared[it.name]
    assert it.sharedPerBlock == it.shared + dynamicShared[it.name]
}
assert h200.launchedKernels.any { it.maxDynamicShared > 0 } : 'the probe launches with dynamic shared memory'

// L4 (CC 8.9): the probe (sm_90 only) cannot run there, so nothing launched runs: launched 0 B; the static figure
// of the stack-demo library (sm_80 image) exceeds the 512 MiB budget, and the verdict still passes
long l4Threads = 58 * 1536
long l4Static = l4Threads * It.roundup16(demo.sm_80.values().max())
def l4 = It.device(report, 'l4')
assert l4.staticReservationBytes == l4Static
assert l4Static > 512L << 20
assert l4.reservationBytes == 0 && l4.launchedReservationBytes == 0
assert l4.status == 'pass' : 'the budget must judge the launched figure'
assert (l4.launchedCannotRunKernels*.name as Set) == matched
assert report.violations.isEmpty()

// the same figures in exact bytes (frames from the recordings: probe frameKernel<12288> = 12,288 B on sm_90;
// stack-demo sortScratch<10200> = 10,200 B on sm_80)
assert launchedWorst.value == 12288
assert h200.reservationBytes == 3_321_888_768L     // 270,336 x 12,288
assert l4.staticReservationBytes == 909_410_304L   // 89,088 x 10,208

// the log shows launched vs static and the counts
assert log.contains("launched kernels:            ${launched.size()} (${matched.size()} matched, ${unmatched.size()} in no scanned library)")
assert log.contains('launched reservation: ')
assert log.contains('DYN')
return true
