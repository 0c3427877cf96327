// check-dll-dependency: both natives of the dependency JAR are read in place and reported with their platforms; the
// .so's records equal the recording of the real cuobjdump for the same build; per device the report names each
// platform's worst.
File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))

String log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
assert log.contains('Reading 2 library entries of ') && log.contains(' in place using native reader')
assert !log.contains('no-such-cuobjdump') : 'cuobjdump must not be needed for a JAR'

def report = It.readReport(basedir)
String jar = 'dll-natives-1.0.jar!/native/'
String soLabel = jar + 'linux-x86_64/libstackdemo.so'
String dllLabel = jar + 'win-x64/ort_slice.dll'
assert report.libraries*.library.sort() == [soLabel, dllLabel] : "libraries: ${report.libraries*.library}"
def so = report.libraries.find { it.library == soLabel }
def dll = report.libraries.find { it.library == dllLabel }
assert so.platform == 'linux-x86_64'
assert dll.platform == 'windows-x86_64'
assert !so.containsKey('gated') && !dll.containsKey('gated') : 'every platform is gated by default'
assert dll.arches == ['sm_75', 'sm_86', 'sm_89']
assert dll.kernels == 10 && dll.records == 30

def rec = It.parseResourceUsage(It.recording(basedir, 'libstackdemo.so'))
int records = rec.values().sum { it.size() } as int
def soKernels = report.kernels.findAll { it.library == soLabel }
assert soKernels.size() == records : "${soKernels.size()} records of the .so, the recording has ${records}"
rec.each { arch, functions ->
    functions.each { name, stack ->
        def k = soKernels.find { it.name == name && it.arch == arch }
        assert k != null : "no kernel record ${name} ${arch}"
        assert k.stack == stack : "${name} ${arch}: stack ${k.stack}, recorded ${stack}"
    }
}
assert report.kernels.findAll { it.library == dllLabel }.size() == 30

def l4 = It.device(report, 'l4')
assert l4.platforms*.platform == ['linux-x86_64', 'windows-x86_64']
def linux = l4.platforms[0]
def windows = l4.platforms[1]
def worst = It.worst(rec, 'sm_80')
assert linux.gated && windows.gated
assert linux.worstKernel.library == soLabel && linux.worstKernel.name == worst.key
assert linux.reservationBytes == 89088L * It.roundup16(worst.value)
assert windows.worstKernel.library == dllLabel && windows.worstKernel.stack == 0 && windows.reservationBytes == 0
assert l4.staticReservationBytes == linux.reservationBytes
def h200 = It.device(report, 'h200-141gb')
assert h200.status == 'pass'
assert h200.platforms.find { it.platform == 'windows-x86_64' }.status == 'skipped' : 'no sm_90 SASS in the DLL'
String text = new File(basedir, 'target/cuda-stack-budget/cuda-stack-budget.txt').text
assert text.contains('  per platform (static worst case):')
assert text.contains('    windows-x86_64: skipped (none of its SASS runs here)')
return true
