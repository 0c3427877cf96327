// check-pass: figures of the JSON report against the recording of the real cuobjdump for libstackdemo.so.
File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))

String log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')

// The recording describes the library built here (same source, same nvcc line).
It.assertRecordingMatchesBuild(basedir, 'libstackdemo.so')
def rec = It.parseResourceUsage(It.recording(basedir, 'libstackdemo.so'))
assert rec.keySet() == ['sm_80', 'sm_90', 'sm_90a', 'sm_120'] as Set

def report = It.readReport(basedir)
assert report.schemaVersion == 2

// libraries
def lib = report.libraries.find { new File(it.path as String).name == 'libstackdemo.so' }
assert lib != null : "libstackdemo.so missing in libraries: ${report.libraries*.path}"
assert report.libraries.size() == 1 : "only target/native/libstackdemo.so has device code: ${report.libraries*.path}"
assert (lib.arches as Set).containsAll(rec.keySet()) : "arches ${lib.arches}, recording ${rec.keySet()}"
assert lib.kernels > 0

// kernels: every record read, all arches, with the recorded STACK
int records = rec.values().sum { it.size() } as int
assert report.kernels.size() == records : "${report.kernels.size()} kernel records, the recording has ${records}"
rec.each { arch, functions ->
    functions.each { name, stack ->
        def k = report.kernels.find { it.name == name && it.arch == arch }
        assert k != null : "no kernel record ${name} ${arch}"
        assert k.stack == stack : "${name} ${arch}: stack ${k.stack}, recorded ${stack}"
        assert k.library == 'libstackdemo.so'
    }
}
def scratch = report.kernels.find { it.name == '_ZN4demo11sortScratchILi10200EEEvPKiPii' && it.arch == 'sm_90' }
assert scratch.displayName.contains('demo::sortScratch<10200>(int const*, int*, int)') : scratch.displayName

// devices: name = preset id; figures from docs/gpu-catalog.csv; chosen arch = highest embedded SASS that runs
long gib4 = 4L << 30
def expected = [
        // device      resident threads (catalog)  chosen arch  fell back (chosen CC != device CC)
        ['h200-141gb', 132 * 2048,                 'sm_90a',    false],
        ['l4',         58 * 1536,                  'sm_80',     true],
        ['rtx-5090',   170 * 1536,                 'sm_120',    false],
]
assert report.devices.size() == 3 : report.devices*.name
expected.each { name, threads, arch, fellBack ->
    def d = It.device(report, name)
    def worst = It.worst(rec, arch)
    long reservation = (threads as long) * It.roundup16(worst.value)
    assert d.status == 'pass' : "${name}: ${d}"
    assert d.maxResidentThreads == threads : "${name}: ${d.maxResidentThreads}"
    assert d.chosenArch == arch : "${name}: chose ${d.chosenArch}"
    assert d.fellBack == fellBack : "${name}: fellBack ${d.fellBack}"
    assert d.reservationBytes == reservation : "${name}: ${d.reservationBytes} != ${threads} x roundup16(${worst.value})"
    assert d.staticReservationBytes == reservation
    assert d.budgetBytes == gib4
    assert d.worstKernel.name == worst.key : "${name}: worst ${d.worstKernel.name}, recording ${worst.key}"
    assert d.worstKernel.arch == arch
    assert d.worstKernel.stack == worst.value
    assert d.worstKernel.library == 'libstackdemo.so'
}
assert report.violations == null || report.violations.isEmpty() : report.violations

// H200 runs the sm_90a image: its worst kernel there is stageTiles (12288 bytes in sm_90a, 4096 in sm_90)
def h200 = It.device(report, 'h200-141gb')
assert h200.chosenArch == 'sm_90a'
assert rec['sm_90a'][h200.worstKernel.name] > rec['sm_90'].values().max() : 'the sm_90a image must differ from sm_90'

// log: the device and its reservation; verbose lists the kernels with a frame by readable name
assert log.contains('h200-141gb')
assert It.mentionsBytes(log, h200.reservationBytes as long) :
        "the log does not state the h200-141gb reservation ${h200.reservationBytes} (${It.byteForms(h200.reservationBytes as long)})"
assert log.contains('demo::stageTiles(float const*, float*, int, int)')
assert log.contains('demo::sortScratch<512>') : 'verbose=true should list every kernel'
assert log.contains('libstackdemo.so')

// the standalone page next to the JSON: every device by name, the reservation exactly, offline (no script or style
// from elsewhere), kernel names escaped
File html = new File(basedir, 'target/cuda-stack-budget/cuda-stack-budget.html')
assert html.isFile() : "no standalone page ${html}"
String page = html.getText('UTF-8')
assert log.contains('cuda-stack-budget.html') : 'the log names the page'
report.devices.each { d ->
    assert page.contains(">${d.name}<") : "device ${d.name} missing on the page"
}
assert page.contains(String.format(Locale.ROOT, '%,d', h200.reservationBytes as long))
// names are HTML-escaped in the markup; the JSON data block (type application/json, schema 2) holds them raw
String markup = page.replaceAll(/(?s)<script type="application\/json" id="csb-data">.*?<\/script>/, '')
assert markup.contains('demo::sortScratch&lt;10200&gt;') && !markup.contains('sortScratch<10200>')
assert !(page =~ /(?i)<(script|link|img)[^>]+(src|href)=/) : 'the page must not load anything'

return true
