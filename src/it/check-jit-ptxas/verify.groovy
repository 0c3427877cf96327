// check-jit-ptxas: the RTX 5090 (sm_120) JIT-compiles the PTX-only library; with jitFrames=ptxas it gets a figure and a
// verdict; every frame is ptxas's for sm_120, as the nvcc -Xptxas -v log of this build records it; labelled JIT.
import groovy.json.JsonSlurper

String log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
assert log.contains('JIT frames: compiling 1 PTX module(s)') : 'no progress line for the ptxas compilation'
assert log.contains('declared as CUDA 12.8 (driverCudaVersion)') : 'no warning for the driver of another release'

// the recorded log: "Compiling entry function 'NAME' for 'sm_120'" then "N bytes stack frame"
Map<String, Long> recorded = [:]
String entry = null
new File(basedir, 'target/ptxas-sm_120.txt').eachLine { line ->
    def compiling = line =~ /Compiling entry function '([^']+)' for 'sm_120'/
    if (compiling) { entry = compiling[0][1]; return }
    def frame = line =~ /^\s*(\d+) bytes stack frame/
    if (frame && entry != null) { recorded[entry] = Math.max(recorded.get(entry, 0L), frame[0][1] as long); entry = null }
}
assert recorded.size() == 6 : "the log names 6 kernels: ${recorded}"

def report = new JsonSlurper().parse(new File(basedir, 'target/cuda-stack-budget/cuda-stack-budget.json'))
assert report.schemaVersion == 2
def rtx = report.devices.find { it.name == 'rtx-5090' }
assert rtx.status == 'pass' : "rtx-5090: ${rtx.status} ${rtx.skipReason}"
assert rtx.chosenArch == 'sm_120'
long worstFrame = recorded.values().max()
assert rtx.worstKernel.stack == worstFrame
assert rtx.worstKernel.frameSource == 'jit-ptxas'
assert rtx.worstKernel.jitFrom == 'compute_80'
assert rtx.worstKernel.frameTool ==~ /ptxas \d+\.\d+\.\d+/
assert rtx.reservationBytes == 261120L * ((worstFrame + 15).intdiv(16) * 16)   // 170 SMs x 1536
assert rtx.selectedKernels.size() == 6
rtx.selectedKernels.each { k ->
    assert k.frameSource == 'jit-ptxas' : "not labelled: ${k}"
    assert k.stack == recorded[k.name] : "${k.name}: ${k.stack} != ${recorded[k.name]}"
}
assert report.warnings.any { it.contains('driverCudaVersion') }
// the text report and the log label the figure
String text = new File(basedir, 'target/cuda-stack-budget/cuda-stack-budget.txt').text
assert text.contains('[sm_120 JIT from compute_80, ptxas ')
assert log.contains('[sm_120 JIT from compute_80, ptxas ')
return true
