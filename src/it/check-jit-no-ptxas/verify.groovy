// check-jit-no-ptxas: without JIT frames (jitFrames off, the default) and without ptxas (a ptxas that does not exist),
// the RTX 5090 is SKIPPED as before issue 13, and the log has the one-line hint naming jitFrames.
import groovy.json.JsonSlurper

String log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
def hint = log.readLines().findAll { it.contains('would be JIT-compiled from PTX on rtx-5090 (sm_120)') &&
        it.contains('-DcudaStackBudget.jitFrames=ptxas') }
assert hint.size() == 2 : "one hint per execution: ${hint}"
assert log.contains("no-such-ptxas' is not an executable file: JIT frames are not computed; -DcudaStackBudget.ptxas=")

for (String dir : ['target/cuda-stack-budget', 'target/no-ptxas']) {
    def report = new JsonSlurper().parse(new File(basedir, dir + '/cuda-stack-budget.json'))
    def rtx = report.devices.find { it.name == 'rtx-5090' }
    assert rtx.status == 'skipped' : "${dir}: ${rtx.status}"
    assert rtx.skipReason.endsWith('6 function(s) would be JIT-compiled from PTX, frame unknown at build time')
    assert rtx.jitKernels.size() == 6
    assert !new File(basedir, dir + '/cuda-stack-budget.json').text.contains('frameSource')
}
return true
