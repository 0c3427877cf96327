// check-fail-budget: the violation message and the report written before failing, against the recording of
// the real cuobjdump for libstackdemo.so.
File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))

String log = new File(basedir, 'build.log').text
assert log.contains('BUILD FAILURE')
// a budget exceeded is a MojoFailureException (the [Help 1] link of Maven's error summary names it)
assert log.contains('MojoFailureException') : 'a violation must fail the build with MojoFailureException'
assert !log.contains('MojoExecutionException')

It.assertRecordingMatchesBuild(basedir, 'libstackdemo.so')
def rec = It.parseResourceUsage(It.recording(basedir, 'libstackdemo.so'))

// H200 (CC 9.0) runs the sm_90a image; its largest frame decides the reservation
def worst = It.worst(rec, 'sm_90a')
long threads = 132 * 2048                       // docs/gpu-catalog.csv: h200-141gb, 132 SMs x 2048
long reservation = threads * It.roundup16(worst.value)
long budget = 256L << 20
assert reservation > budget

// The worst kernel, readable (as llvm-cxxfilt prints _ZN4demo10stageTilesEPKfPfii)
assert worst.key == '_ZN4demo10stageTilesEPKfPfii'
String readable = 'demo::stageTiles(float const*, float*, int, int)'

// The MojoFailureException message (Maven prints it between "Failed to execute goal ...:check ...: " and
// " -> [Help 1]") names the device, "exceeds", the reservation, the budget, the kernel, its arch and library
def m = log =~ /(?s)Failed to execute goal [^\n]*?:check [^\n]*?: (.*?) -> \[Help 1\]/
assert m.find() : 'no "Failed to execute goal ...:check" error in build.log'
String message = m.group(1)
['h200-141gb', 'exceeds', readable, 'sm_90a', 'libstackdemo.so'].each {
    assert message.contains(it) : "the failure message lacks '${it}': ${message}"
}
assert It.mentionsBytes(message, reservation) : "the failure message lacks the reservation ${reservation}: ${message}"
assert It.mentionsBytes(message, budget) : "the failure message lacks the budget ${budget}: ${message}"
// the way out, spelled as a user types it
assert message.contains('or set -DcudaStackBudget.failOnViolation=false to only warn.') : message

// The JSON report is written before the build fails
def report = It.readReport(basedir)
assert report.schemaVersion == 2
def h200 = It.device(report, 'h200-141gb')
assert h200.status == 'fail'
assert h200.chosenArch == 'sm_90a'
assert h200.reservationBytes == reservation
assert h200.budgetBytes == budget
assert h200.worstKernel.name == worst.key
assert h200.worstKernel.displayName == readable
assert h200.worstKernel.arch == 'sm_90a'
assert h200.worstKernel.library == 'libstackdemo.so'

// L4 has no budget: reported, never a violation
def l4 = It.device(report, 'l4')
assert l4.status == 'pass' : "l4 has no budget: ${l4}"
assert l4.budgetBytes == null
assert l4.chosenArch == 'sm_80'

assert report.violations.size() == 1 : report.violations
def v = report.violations[0]
assert v.device == 'h200-141gb'
assert v.kind == 'reservation'
assert v.actual == reservation
assert v.limit == budget
assert v.kernel == worst.key
return true
