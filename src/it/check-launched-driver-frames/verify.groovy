// check-launched-driver-frames: check over the REAL format-2 launch log of nvrtc-frame (two kernels compiled at run
// time, in no file) recorded on the project's H200 (src/test/resources/recorded/launch-driver-frames/README.txt).
// Expected figures come from the log's own columns and are also stated in bytes.
File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))
File recorded = new File((new File(basedir, 'pom.xml').text =~ /<recorded\.launch>([^<]+)</)[0][1])

String log = new File(basedir, 'build.log').text
assert log.contains('BUILD FAILURE') : 'the driver-reported frame exceeds the H200 budget: the build must fail'
assert log.contains('MojoFailureException') && !log.contains('MojoExecutionException')
File launchLog = new File(basedir, 'target/cuda-stack-budget/launch.log')
assert launchLog.text == new File(recorded, 'nvrtc.launch.log').text

// the log: format 2, the driver's figures per kernel (LOCAL, REGS, SHARED, arch)
List<String> lines = launchLog.readLines()
assert lines[0] == '# cuda-stack-budget launch log 2'
Map<String, Long> frames = [:]
lines.findAll { !it.startsWith('#') && !it.isBlank() }.each {
    def f = it.split('\t', -1)
    assert f.length == 7 && f[6] == 'sm_90'
    frames[f[0]] = f[3] as long
}
assert frames == [bigFrame: 12000L, ptxFrame: 6000L]

def report = It.readReport(basedir)
assert report.launched.format == 'cuda-stack-budget launch log 2'
assert report.launched.kernels == 2 && report.launched.matched == 0 && report.launched.unmatched == 2
assert report.unmatchedLaunchedKernels.collectEntries { [it.name, it.driverFrame.localBytes] } == frames
assert report.unmatchedLaunchedKernels.every { it.driverFrame.arch == 'sm_90' }

long h200Threads = 132 * 2048
long launchedBytes = h200Threads * It.roundup16(frames.values().max())
assert launchedBytes == 3_244_032_000L
def h200 = It.device(report, 'h200-141gb')
assert h200.launchedHeadline == true
assert h200.launchedReservationBytes == launchedBytes && h200.reservationBytes == launchedBytes
assert h200.status == 'fail' && h200.budgetBytes == 3L << 30
assert h200.launchedWorstKernel.name == 'bigFrame' && h200.launchedWorstKernel.library == 'no scanned file'
assert h200.launchedKernels*.frameSource == ['driver', 'driver']
assert h200.launchedKernels*.name == ['bigFrame', 'ptxFrame']
assert h200.launchedKernels*.stack == [12000, 6000]
assert h200.launchedDriverDifferences == [] && h200.launchedDriverOtherArch == []

// L4 (CC 8.9): the driver loaded sm_90 images, which cannot run there: not counted, listed
def l4 = It.device(report, 'l4')
assert l4.launchedReservationBytes == 0 && l4.launchedKernels == []
assert l4.launchedDriverOtherArch == ['bigFrame', 'ptxFrame']
assert l4.status == 'skipped' && l4.skipReason.startsWith('no embedded SASS runs on sm_89') // the probe is sm_90 only

// the text report and the build log label the figure as driver-reported; no "not counted" warning
File text = new File(basedir, 'target/cuda-stack-budget/cuda-stack-budget.txt')
assert text.text.contains('largest launched frame 12,000 B in no scanned file [sm_90] (driver-reported)')
assert text.text.contains('Launched kernels in no scanned library (2, 2 counted with the driver-reported frame, 0 not counted):')
assert log.contains('2 launched kernel(s) in no scanned library are counted with the frame the driver reported for them')
assert !log.contains('so their frames are not counted')
assert !log.contains('matches no kernel of the scanned libraries')
def m = log =~ /(?s)Failed to execute goal [^\n]*?:check [^\n]*?: (.*?) -> \[Help 1\]/
assert m.find() && m.group(1).contains('bigFrame') : 'the violation names the driver-reported kernel'
return true
