// check-device-without-sass: T4 (CC 7.5) cannot run sm_90/sm_90a SASS and the library has no PTX: skipped, with a
// reason; the H200 is still checked, against the recording of the real cuobjdump for libstackdemo_sm90.so.
File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))

String log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')

It.assertRecordingMatchesBuild(basedir, 'libstackdemo_sm90.so')
def rec = It.parseResourceUsage(It.recording(basedir, 'libstackdemo_sm90.so'))
assert rec.keySet() == ['sm_90', 'sm_90a'] as Set

def report = It.readReport(basedir)
assert report.schemaVersion == 2
assert report.devices*.name as Set == ['t4', 'h200-141gb'] as Set

def t4 = It.device(report, 't4')
assert t4.status == 'skipped'
assert t4.containsKey('chosenArch') && t4.chosenArch == null : "t4 chosenArch must be null: ${t4}"
assert t4.skipReason instanceof String && !t4.skipReason.trim().isEmpty() : "t4 needs a skipReason: ${t4}"
assert t4.computeCapability == '7.5'

def h200 = It.device(report, 'h200-141gb')
def worst = It.worst(rec, 'sm_90a')
assert h200.status == 'pass'
assert h200.chosenArch == 'sm_90a'
assert h200.reservationBytes == (132L * 2048) * It.roundup16(worst.value)   // docs/gpu-catalog.csv: 132 SMs x 2048
assert h200.worstKernel.name == worst.key
assert h200.worstKernel.library == 'libstackdemo_sm90.so'
assert report.violations == null || report.violations.isEmpty()

// the log says that t4 was skipped, and why
def t4Lines = log.readLines().findAll { it.contains('t4') && it.toLowerCase(Locale.ROOT).contains('skip') }
assert !t4Lines.isEmpty() : 'no log line says that t4 was skipped'
assert log.contains(t4.skipReason) || t4Lines.any { it.contains('SASS') || it.contains('sm_90') } :
        "the log does not give the skip reason of t4 (${t4.skipReason})"
return true
