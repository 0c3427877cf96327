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
def warned = new groovy.json.JsonSlurper().parse(new File(basedir, 'target/warn/cuda-stack-budget.json'))
assert warned.checks.find { it.name == 'rule[1] DEVICE h200-141gb RESERVATION <= 1 GiB' }?.outcome == 'warn'
assert warned.checks.find { it.name == 'rule[1] DEVICE l4 RESERVATION <= 1 GiB' }?.outcome == 'pass'
assert warned.checks.findAll { it.outcome == 'warn' }.size() == 3 : warned.checks

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
// every limit on every element judged is a gate check: the included library on both devices, none for the excluded
def rules = report.checks.findAll { it.category == 'rule' }
def libraryChecks = rules.findAll { it.name.startsWith('rule[1] ') }
assert libraryChecks*.name as Set == ['rule[1] LIBRARY libstackdemo.so on h200-141gb RESERVATION <= 3 GiB',
        'rule[1] LIBRARY libstackdemo.so on l4 RESERVATION <= 3 GiB',
        'rule[1] LIBRARY libstackdemo.so on h200-141gb MEMORY_SHARE <= 5%',
        'rule[1] LIBRARY libstackdemo.so on l4 MEMORY_SHARE <= 5%'] as Set
def h200Library = libraryChecks.find { it.name == 'rule[1] LIBRARY libstackdemo.so on h200-141gb RESERVATION <= 3 GiB' }
assert h200Library.outcome == 'fail' && h200Library.actual == reservation && h200Library.limit == 3L << 30
assert h200Library.kernel == worst.key && h200Library.library == 'libstackdemo.so' && h200Library.arch == 'sm_90a'
assert libraryChecks.count { it.outcome == 'fail' } == 1
def kernelFailures = rules.findAll { it.name.startsWith('rule[2] ') && it.outcome == 'fail' }
assert kernelFailures*.library as Set == ['libstackdemo.so', 'libvendor.so'] as Set
assert kernelFailures.every { it.kernel == worst.key && it.device == 'h200-141gb' && it.actual == worst.value }
assert rules.find { it.name == 'rule[2] KERNEL l4 FRAME <= 8 KiB' }?.outcome == 'pass'
assert !rules.any { it.name.startsWith('rule[2] ') && it.kernel == '_ZN4demo11sortScratchILi10200EEEvPKiPii' } : 'the KERNEL rule excludes it'
// and so every other output: a JUnit test case per check, a failure for each failed one
def factory = javax.xml.parsers.DocumentBuilderFactory.newInstance()
factory.setFeature('http://apache.org/xml/features/disallow-doctype-decl', true)
def junit = factory.newDocumentBuilder().parse(new File(basedir, 'target/error/TEST-cuda-stack-budget.xml'))
def testcases = junit.getElementsByTagName('testcase')
def cases = (0..<testcases.length).collect { testcases.item(it) }
rules.each { check ->
    assert cases.any { it.getAttribute('name').contains(check.name) } : "no JUnit test case for ${check.name}"
}
def failed = cases.findAll { it.getElementsByTagName('failure').length > 0 }*.getAttribute('name')
assert failed.count { it.contains('rule[') } == 3 : failed
return true
