// Helpers shared by the invoker ITs' prebuild.groovy and verify.groovy scripts.
//
// Each IT pom names this folder in the property <it.shared>@project.basedir@/src/it/shared</it.shared>
// (filtered by the invoker), and each script loads this class with:
//
//   File shared = new File((new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</)[0][1])
//   def It = new GroovyClassLoader(getClass().classLoader).parseClass(new File(shared, 'ItSupport.groovy'))
//
// Expected figures are computed here from the recordings of the real cuobjdump
// (recordings/*.resource-usage.txt), never typed into the tests.

import groovy.json.JsonSlurper

class ItSupport {

    static final String REPORT = 'target/cuda-stack-budget/cuda-stack-budget.json'

    /** The shared IT folder, as named by the IT pom's it.shared property. */
    static File sharedDir(File basedir) {
        def m = new File(basedir, 'pom.xml').text =~ /<it\.shared>([^<]+)</
        assert m.find() : "the IT pom must define the property it.shared"
        return new File(m.group(1))
    }

    static File recording(File basedir, String library) {
        return new File(sharedDir(basedir), "recordings/${library}.resource-usage.txt")
    }

    /**
     * For prebuild.groovy: make the shared scripts executable (the invoker copies files without their modes:
     * maven-toolchain.md, problem 3) and stop early, with the fix, when a recording of one of the libraries the
     * IT scans is missing (none needed when the IT never runs cuobjdump).
     */
    static void prepare(File basedir, List<String> libraries) {
        File shared = sharedDir(basedir)
        File replay = new File(shared, 'replay-cuobjdump.sh')
        assert replay.isFile() : "missing ${replay}"
        replay.setExecutable(true, false)
        File root = shared.parentFile.parentFile.parentFile
        File buildSh = new File(root, 'examples/stack-demo/src/main/cuda/build.sh')
        assert buildSh.isFile() : "missing ${buildSh}"
        buildSh.setExecutable(true, false)
        if (libraries.isEmpty()) {
            return
        }
        List<String> missing = ['cuobjdump-version.txt'] + libraries.collect { "${it}.resource-usage.txt".toString() }
        missing = missing.findAll { !new File(shared, "recordings/${it}").isFile() }
        assert missing.isEmpty() : "no recording of the real cuobjdump for this IT: ${missing} missing in " +
                "${new File(shared, 'recordings')}; run dev/record-cuobjdump.sh OUTDIR on a machine with cuobjdump " +
                "and copy OUTDIR/* there (see recordings/README.md)"
    }

    /**
     * For the aggregate ITs' prebuild.groovy: the real nvcc-built libraries of target/test-cuda (the pom's
     * <it.testCuda>) into the three modules' build directories, as a module's own nvcc step would put them there:
     * kernels gets libjitmixed.so, fine libframes.so, docs a host-only library and a text file (no device code).
     */
    static void reactorModules(File basedir) {
        File testCuda = new File((new File(basedir, 'pom.xml').text =~ /<it\.testCuda>([^<]+)</)[0][1])
        def put = { String module, String library ->
            File source = new File(testCuda, library)
            assert source.isFile() : "${source} is built by src/test/cuda/build-test-binaries.sh (mvn generate-test-resources)"
            File target = new File(basedir, "${module}/target/native/${library}")
            target.parentFile.mkdirs()
            java.nio.file.Files.copy(source.toPath(), target.toPath(), java.nio.file.StandardCopyOption.REPLACE_EXISTING)
        }
        put('kernels', 'libjitmixed.so')
        put('fine', 'libframes.so')
        put('docs', 'libhostonly.so')
        new File(basedir, 'docs/target/notes.txt').text = 'no native code here\n'
    }

    /**
     * Parses `cuobjdump --dump-resource-usage` output: [arch: [mangled function: stack]], SASS entries only.
     * A library carries several fatbin entries per arch (some without functions); they are merged per arch.
     * STACK:UNKNOWN is kept as null.
     */
    static Map<String, Map<String, Integer>> parseResourceUsage(File file) {
        Map<String, Map<String, Integer>> result = new TreeMap<>()
        String kind = null
        String arch = null
        String function = null
        file.eachLine { String line ->
            if (line.startsWith('Fatbin ')) {
                kind = line.contains(' elf code') ? 'elf' : 'other'
                arch = null
            } else if (line.startsWith('arch = ')) {
                arch = line.substring('arch = '.length()).trim()
                if (kind == 'elf') {
                    result.computeIfAbsent(arch, { new TreeMap<String, Integer>() })
                }
            } else if (line.startsWith(' Function ') && line.endsWith(':')) {
                function = line.substring(' Function '.length(), line.length() - 1)
            } else if (function != null && line.contains('STACK:')) {
                def m = line =~ /\bSTACK:(\d+|UNKNOWN)\b/
                assert m.find() : "cannot read STACK in '${line}' of ${file}"
                assert kind == 'elf' && arch != null : "a function outside an elf entry in ${file}"
                result[arch][function] = m.group(1) == 'UNKNOWN' ? null : Integer.valueOf(m.group(1))
                function = null
            }
        }
        assert !result.isEmpty() : "no SASS entries in ${file}"
        return result
    }

    /**
     * Parses the nvcc -Xptxas -v log written by build.sh: [arch: [mangled entry function: stack]], where the
     * stack is ptxas' "N bytes cumulative stack size" (0 when ptxas prints none), which is what cuobjdump
     * reports as STACK for a whole-program build (cuda-binary-format.md).
     */
    static Map<String, Map<String, Integer>> parsePtxas(File file) {
        Map<String, Map<String, Integer>> result = new TreeMap<>()
        String function = null
        String arch = null
        file.eachLine { String line ->
            def entry = line =~ /Compiling entry function '([^']+)' for '([^']+)'/
            if (entry.find()) {
                function = entry.group(1)
                arch = entry.group(2)
                return
            }
            if (function != null && line.contains(': Used ')) {
                def m = line =~ /(\d+) bytes cumulative stack size/
                result.computeIfAbsent(arch, { new TreeMap<String, Integer>() })[function] =
                        m.find() ? Integer.valueOf(m.group(1)) : 0
                function = null
            }
        }
        assert !result.isEmpty() : "no entry functions in ${file}"
        return result
    }

    /**
     * The recording must describe the library this IT just built: compare it with the ptxas log of the local
     * build (same source, same nvcc command line through build.sh).
     */
    static void assertRecordingMatchesBuild(File basedir, String library) {
        File ptxasLog = new File(basedir, "target/native/${library.replaceFirst(/\.so$/, '')}.ptxas.txt")
        assert ptxasLog.isFile() : "build.sh did not write ${ptxasLog}"
        def recorded = parseResourceUsage(recording(basedir, library)).findAll { k, v -> !v.isEmpty() }
        def built = parsePtxas(ptxasLog)
        assert recorded == built : "the recording ${recording(basedir, library)} no longer matches the nvcc build " +
                "of this source (recorded ${recorded}, built ${built}): re-run dev/record-cuobjdump.sh on a " +
                "machine with cuobjdump and copy its output into src/it/shared/recordings/"
    }

    static long roundup16(long n) {
        return (n + 15L) & ~15L
    }

    /** [function, stack] of the largest STACK among the records of one arch. */
    static Map.Entry<String, Integer> worst(Map<String, Map<String, Integer>> recording, String arch) {
        Map<String, Integer> records = recording[arch]
        assert records : "no ${arch} records in the recording (has ${recording.keySet()})"
        return records.max { it.value }
    }

    /**
     * The check's JSON report (schema 2) as the scripts read it: schema 1's shape (flat kernels, kernel objects for
     * record positions, notes with their function's names), the migration of src/site/markdown/report-schema.md.
     * schemaVersion stays 2.
     */
    static Map readReport(File basedir) {
        File json = new File(basedir, REPORT)
        assert json.isFile() : "no JSON report at ${json}"
        Map report = new JsonSlurper().parse(json) as Map
        assert report.schemaVersion == 2 : "schemaVersion ${report.schemaVersion}"
        return asVersionOne(report)
    }

    static Map asVersionOne(Map report) {
        List kernels = []
        List functions = []
        report.functions.each { f ->
            String library = report.libraryLabels[f.library]
            String displayName = f.displayName ?: f.name
            functions << [name: f.name, displayName: displayName, library: library]
            f.images.each { image ->
                Map k = [name: f.name, displayName: displayName, library: library, arch: image[0],
                         registers: image[1], stack: image[2], shared: image[3], local: image[4]]
                if (image[2] == null) {
                    k.stackUnknown = true
                }
                kernels << k
            }
        }
        def record = { v -> v instanceof Number ? new LinkedHashMap(kernels[v as int]) : v }
        def records = { Map node ->
            ['worstKernel', 'worstLocalKernel', 'nextWorstKernel', 'launchedWorstKernel', 'staticWorstKernel'].each {
                if (node.containsKey(it)) {
                    node[it] = record(node[it])
                }
            }
        }
        report.libraries.each { records(it) }
        report.devices.each { Map d ->
            records(d)
            d.unknownStackKernels = d.unknownStackKernels.collect { record(it) }
            ['ambiguousKernels', 'jitKernels', 'cannotRunKernels', 'launchedJitKernels',
             'launchedCannotRunKernels'].each { field ->
                if (d.containsKey(field)) {
                    d[field] = d[field].collect { n -> new LinkedHashMap(functions[n.function]) +
                            n.findAll { it.key != 'function' } }
                }
            }
            if (d.containsKey('launchedKernels')) {
                d.launchedKernels = d.launchedKernels.collect { row -> record(row.kernel) +
                        row.findAll { it.key != 'kernel' } }
            }
            (d.platforms ?: []).each { records(it) }
        }
        report.kernels = kernels
        return report
    }

    static Map device(Map report, String name) {
        def d = report.devices.find { it.name == name }
        assert d != null : "no device '${name}' in the report (devices: ${report.devices*.name})"
        return d as Map
    }

    /**
     * Ways a log line may state a byte figure: 3321888768, 3,321,888,768, or in units with up to two
     * decimals (3.09 GiB, 3168 MiB, 3.1 GiB, 3.32 GB).
     */
    static List<String> byteForms(long n) {
        List<String> forms = [Long.toString(n), String.format(Locale.ROOT, '%,d', n)]
        [['GiB', 1L << 30], ['MiB', 1L << 20], ['KiB', 1L << 10], ['GB', 1000000000L], ['MB', 1000000L]].each { unit, size ->
            double v = n / (double) size
            if (v >= 1) {
                forms << String.format(Locale.ROOT, '%.2f %s', v, unit)
                forms << String.format(Locale.ROOT, '%.1f %s', v, unit)
                if (n % size == 0) {
                    forms << "${n.intdiv(size)} ${unit}".toString()
                }
            }
        }
        return forms + forms.findAll { it.contains(' ') }.collect { it.replace(' ', '') } +
                forms.findAll { it.contains(' ') }.collect { it.replace(' ', '\u00a0') }
    }

    static boolean mentionsBytes(String text, long n) {
        return byteForms(n).any { text.contains(it) }
    }
}
