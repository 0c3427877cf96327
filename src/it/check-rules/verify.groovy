// check-rules: WARN rules only warn (warn.log); ERROR rules fail on the included library and kernel, never on the
// excluded ones (build.log). Figures from the recording of the real cuobjdump for libstackdemo.so.
File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))

It.assertRecordingMatchesBuild(basedir, 'libstackdemo.so')
def rec = It.parseResourceUsage(It.recording(basedir, 'libstackdemo.so'))
long h200 = 132 * 2048                          // docs/gpu-catalog.csv: h200-141gb, 132 SMs x 2048
def worst = It.worst(rec, 'sm_90a')
assert worst.key == '_ZN4demo10stageTilesEPKfPfii'
long reservation = h200 * It.roundup16(worst.value)
String tiles = 'demo::stageTiles(float const*, float*, int, int)'
String scratch = 'demo::sortScratch<10200>'
assert rec['sm_90a']['_ZN4demo11sortScratchILi10200EEEvPKiPii'] > 8192 : 'the excluded kernel must be over 8 KiB too'

// 1. WARN rules: warnings naming device, figure and kernel; the build passes; the per-device
//    <maxStackPerThread> is accepted
String warn = new File(basedir, 'warn.log').text
assert warn.contains('BUILD SUCCESS')
assert !warn.contains("Cannot find 'maxStackPerThread'")
def deviceWarning = warn =~ /\[WARNING\] rule\[1\] DEVICE RESERVATION <= 1 GiB: device h200-141gb: reservation (.*?) exceeds the maximum 1 GiB \(1,073,741,824 B\); kernel (.*?) \[sm_90a\] in lib(stackdemo|vendor)\.so \(level WARN\)/
assert deviceWarning.find() : 'no WARN line for the H200 device rule'
assert It.mentionsBytes(deviceWarning.group(1), reservation)
assert deviceWarning.group(2) == tiles
assert !(warn =~ /\[WARNING\] rule\[1\] DEVICE RESERVATION <= 1 GiB: device l4/) : 'the L4 is within 1 GiB'
['libstackdemo.so', 'libvendor.so'].each { lib ->
    assert warn.contains("[WARNING] rule[2] KERNEL FRAME <= 8 KiB: kernel ${tiles} [sm_90a] in ${lib} on h200-141gb: " +
            "stack frame ${String.format(Locale.ROOT, '%,d', worst.value)} B per thread exceeds the maximum 8 KiB (8,192 B) (level WARN)")
}
assert !warn.contains("kernel ${scratch}") : 'the excluded kernel is never judged'
assert !warn.contains('[ERROR]')

// 2. ERROR rules: the included library and kernel fail the build, the excluded ones are never judged
String log = new File(basedir, 'build.log').text
assert log.contains('BUILD FAILURE')
assert log.contains('MojoFailureException') : 'a rule breached at ERROR fails like a budget'
assert !log.contains('MojoExecutionException')
def library = log =~ /\[ERROR\] rule\[1\] LIBRARY RESERVATION <= 3 GiB: library libstackdemo\.so on h200-141gb: reservation (.*?) exceeds the maximum 3 GiB \(3,221,225,472 B\); kernel (.*?) \[sm_90a\] in libstackdemo\.so/
assert library.find() : 'no ERROR line for the included library'
assert It.mentionsBytes(library.group(1), reservation) && library.group(2) == tiles
assert !log.contains('library libvendor.so on') : 'the excluded library is never judged'
assert !(log =~ /\[ERROR\] rule\[1\] LIBRARY [^\n]*on l4/) : 'on the L4 the library is within 3 GiB'
['libstackdemo.so', 'libvendor.so'].each { lib ->
    assert log.contains("[ERROR] rule[2] KERNEL FRAME <= 8 KiB: kernel ${tiles} [sm_90a] in ${lib} on h200-141gb: " +
            "stack frame ${String.format(Locale.ROOT, '%,d', worst.value)} B per thread exceeds the maximum 8 KiB (8,192 B)")
}
assert !log.contains("kernel ${scratch}") : 'the excluded kernel is never judged'
def m = log =~ /(?s)Failed to execute goal [^\n]*?:check [^\n]*?: (.*?) -> \[Help 1\]/
assert m.find()
assert m.group(1).startsWith('rule[1] LIBRARY RESERVATION <= 3 GiB: library libstackdemo.so on h200-141gb') : m.group(1)
assert m.group(1).contains('(and 2 more violation(s))') : m.group(1)
// the JSON report is written before the build fails; no flat budget: the devices themselves pass
def report = new groovy.json.JsonSlurper().parse(new File(basedir, 'target/error/cuda-stack-budget.json'))
assert report.violations.isEmpty()
assert report.devices.every { it.status == 'pass' }
return true
