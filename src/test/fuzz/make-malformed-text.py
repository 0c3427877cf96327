#!/usr/bin/env python3
"""Writes the text half of the malformed-input corpus (issue 10) under src/test/resources/malformed/:
cuobjdump-text/, launch-log/, library-log/, sizes/ and report-json/, each case cut from a real recording (the recorded
cuobjdump 13.0 text of libframes.so, the recorded launch and library logs of the launch probe, the JSON report of the
stack-demo golden input) and its cases.tsv row with the exact one-line message (format: MalformedCorpus's javadoc).

Run from the repository root: python3 src/test/fuzz/make-malformed-text.py
"""
import json
import os

ROOT = os.path.join("src", "test", "resources", "malformed")
RECORDED = os.path.join("src", "test", "resources", "recorded")
USAGE = open(os.path.join(RECORDED, "cuobjdump", "libframes.so.resource-usage.txt"), "rb").read()
LAUNCH = open(os.path.join(RECORDED, "launch", "launch-probe.launch.log"), "rb").read()
LIBRARIES = open(os.path.join(RECORDED, "launch", "launch-probe.launch.log.libraries"), "rb").read()
REPORT = json.load(open(os.path.join("src", "test", "resources", "io", "github", "cudastackbudget", "fuzz",
                                     "ParserFuzzTestInputs", "reportJson", "seed-stack-demo.json"), encoding="utf-8"))
REPORT2 = json.load(open(os.path.join("src", "test", "resources", "io", "github", "cudastackbudget", "fuzz",
                                      "ParserFuzzTestInputs", "reportJson", "seed-v2-stack-demo.json"),
                         encoding="utf-8"))

CUOBJDUMP = "--engine cuobjdump --cuobjdump @REPLAY@ @TEST_CUDA@/libframes.so"
ENGINE = "cuda-stack-budget: @TEST_CUDA@/libframes.so: cuobjdump printed output this plugin cannot read (line %s); " \
         "report it with the cuobjdump version (Cuda compilation tools, release 13.0, V13.0.85)"
SUMMARY = "CUDA stack budget: 1 device(s): 1 pass, 0 fail, 0 skipped; 5 functions in 1 file(s)"
LAUNCH_ARGS = "--launch-log @CASE@ @TEST_CUDA@/libframes.so"
LIBRARY_ARGS = "--launch-log @DIR@/launch.log --library-log @CASE@ @TEST_CUDA@/libframes.so"


def replace_once(data, old, new):
    assert data.count(old) >= 1, old
    return data.replace(old, new, 1)


def cuobjdump_cases():
    sm80_frame = b" Function _Z11frameKernelILi2550EEvPii:\n  REG:38 STACK:10200 SHARED:0 LOCAL:0"
    cases = [
        ("garbage-figures.txt", replace_once(USAGE, b"REG:38 STACK:10200", b"REG:38 STACK:10z00"),
         ENGINE % "50: unreadable resource usage 'REG:38 STACK:10z00 SHARED:0 LOCAL:0 CONSTANT[0]:364 TEXTURE:0 "
                  "SURFACE:0 SAMPLER:... (1 more characters)' (expected REG:n STACK:n|UNKNOWN SHARED:n LOCAL:n)"),
        # a line that is no part of the format (binary junk) is passed over, as cuobjdump's own extra lines are: no
        # kernel is lost, the figures are those of the recording
        ("binary-junk.txt", replace_once(USAGE, b"  REG:24 STACK:0", b"\x00\x01\xff\xfe\x7fELF\x02\x01\n  REG:24 STACK:0"),
         SUMMARY),
        ("interleaved-errors.txt", replace_once(replace_once(USAGE, b"\nFatbin ptx code:",
                                                             b"cuobjdump error   : Unknown option '--bogus'\n"
                                                             b"\nFatbin ptx code:"),
                                                b"Resource usage:\n", b"Resource usage:\ncuobjdump info    : File "
                                                                      b"'libframes.so' does not contain device code\n"),
         SUMMARY),
        ("usage-without-function.txt", replace_once(USAGE, b" Function _Z15recursiveKernelPii:\n", b""),
         ENGINE % "45: a resource usage line with no 'Function NAME:' line before it"),
        ("function-without-usage.txt", replace_once(USAGE, b"  REG:24 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:364 "
                                                           b"TEXTURE:0 SURFACE:0 SAMPLER:0\n", b""),
         ENGINE % "45: Function _Z15recursiveKernelPii has no resource usage line (REG:n STACK:n SHARED:n LOCAL:n) "
                  "before the next 'Function' line"),
        ("function-without-colon.txt", replace_once(USAGE, b"Function _Z13noStackKernelPi:", b"Function _Z13noStackKernelPi"),
         ENGINE % "47: unreadable Function line ' Function _Z13noStackKernelPi' (expected 'Function NAME:')"),
        ("last-function-without-usage.txt", USAGE.rstrip(b"\n").rsplit(b"\n", 1)[0] + b"\n",
         ENGINE % "104: Function _Z11frameKernelILi64EEvPii has no resource usage line (REG:n STACK:n SHARED:n LOCAL:n) "
                  "before the end of the output"),
        ("arch-unknown.txt", replace_once(USAGE, b"arch = sm_90a", b"arch = sm_9z"),
         ENGINE % "26: unknown CUDA arch 'sm_9z' in the arch line (expected 'arch = sm_NN')"),
        ("arch-malformed.txt", replace_once(USAGE, b"arch = sm_90a", b"arch = sm_90 sm_90a"),
         ENGINE % "26: unreadable arch line 'arch = sm_90 sm_90a' (expected 'arch = sm_NN')"),
        ("arch-control-characters.txt", replace_once(USAGE, b"arch = sm_90a", b"arch = sm_90\x1b[2J"),
         ENGINE % "26: unknown CUDA arch 'sm_90\\x1b[2J' in the arch line (expected 'arch = sm_NN')"),
        ("usage-before-arch.txt", USAGE.replace(b"arch = sm_80\n", b"", 2).replace(b"Fatbin elf code:\n================\n"
                                                                                     b"code version", b"Fatbin elf code:\n"
                                                                                     b"================\narch = sm_80\n"
                                                                                     b"code version", 1),
         ENGINE % "45: the resource usage of _Z15recursiveKernelPii follows no 'arch = sm_NN' line"),
        ("reg-over-2-31.txt", replace_once(USAGE, b"REG:38 STACK:10200", b"REG:2147483648 STACK:10200"),
         ENGINE % "50: REG 2147483648 is out of range (at most 65535)"),
        ("stack-over-2-63.txt", replace_once(USAGE, b"REG:38 STACK:10200", b"REG:38 STACK:9223372036854775808"),
         ENGINE % "50: STACK 9223372036854775808 is out of range (at most 4294967295)"),
        ("shared-huge.txt", replace_once(USAGE, b"REG:38 STACK:10200 SHARED:0", b"REG:38 STACK:10200 SHARED:"
                                         + b"9" * 100),
         ENGINE % ("50: SHARED " + "9" * 80 + "... (20 more characters) is out of range (at most 4294967295)")),
        ("local-negative.txt", replace_once(USAGE, b"REG:38 STACK:10200 SHARED:0 LOCAL:0",
                                            b"REG:38 STACK:10200 SHARED:0 LOCAL:-8"),
         ENGINE % "50: LOCAL -8 is negative"),
        ("truncated-mid-line.txt", USAGE[:USAGE.index(b"REG:38 STACK:10200") + len(b"REG:38 STA")],
         ENGINE % "50: unreadable resource usage 'REG:38 STA' (expected REG:n STACK:n|UNKNOWN SHARED:n LOCAL:n)"),
        ("crlf.txt", USAGE.replace(b"\n", b"\r\n"),
         SUMMARY),
        ("empty.txt", b"",
         "cuda-stack-budget: @TEST_CUDA@/libframes.so: cuobjdump described no device code although the file has ELF64 "
         "with .nv_fatbin; the figures cannot be trusted"),
    ]
    return [(name, data, CUOBJDUMP, expected) for name, data, expected in cases]


def launch_cases():
    lines = LAUNCH.split(b"\n")
    data_line = 4  # 1-based line number of the first data line (_Z11emptyKernelv worker-0 0)

    def with_line(number, text):
        copy = list(lines)
        copy[number - 1] = text
        return b"\n".join(copy)

    warn = "WARNING: @CASE@:%d: malformed line skipped: %s"
    cases = [
        ("binary-junk.log", with_line(data_line, b"\x7fELF\x02\x01\x01\x00\x00\x00\xff\xfe\tworker-0\t0"),
         warn % (data_line, "the kernel name '\\x7fELF\\x02\\x01\\x01\\x00\\x00\\x00\\ufffd\\ufffd' is empty or "
                            "not a mangled name (it holds white space, parentheses or control characters)")),
        ("missing-columns.log", with_line(data_line, b"_Z11emptyKernelv"),
         warn % (data_line, "expected MANGLED-NAME<TAB>ATTRIBUTION<TAB>MAX-DYNAMIC-SHARED-BYTES, found 1 "
                            "tab-separated field")),
        ("extra-columns.log", with_line(data_line, b"_Z11emptyKernelv\tworker-0\t0\t0\t0"),
         warn % (data_line, "expected MANGLED-NAME<TAB>ATTRIBUTION<TAB>MAX-DYNAMIC-SHARED-BYTES, found more than 3 "
                            "tab-separated fields")),
        ("negative-dynamic-shared.log", with_line(data_line, b"_Z11emptyKernelv\tworker-0\t-4096"),
         warn % (data_line, "the dynamic shared memory -4096 is negative")),
        ("enormous-dynamic-shared.log", with_line(data_line, b"_Z11emptyKernelv\tworker-0\t" + b"9" * 40),
         warn % (data_line, "the dynamic shared memory " + "9" * 40 + " is more than any device has (at most "
                            "4294967295)")),
        ("dynamic-shared-over-32-bits.log", with_line(data_line, b"_Z11emptyKernelv\tworker-0\t4294967296"),
         warn % (data_line, "the dynamic shared memory 4294967296 is more than any device has (at most 4294967295)")),
        ("dynamic-shared-not-a-number.log", with_line(data_line, b"_Z11emptyKernelv\tworker-0\t1e3"),
         warn % (data_line, "the dynamic shared memory '1e3' is not a byte count")),
        ("nul-in-name.log", with_line(data_line, b"_Z11empty\x00Kernelv\tworker-0\t0"),
         warn % (data_line, "the kernel name '_Z11empty\\x00Kernelv' is empty or not a mangled name (it holds white "
                            "space, parentheses or control characters)")),
        ("crlf.log", LAUNCH.replace(b"\n", b"\r\n"),
         SUMMARY),
        ("duplicate-legacy-kernel.log", b"_Z12sharedKernelPi\tworker-0\n_Z12sharedKernelPi\tworker-1\n",
         SUMMARY),
        ("newer-version.log", replace_once(LAUNCH, b"launch log 1", b"launch log 2"),
         "cuda-stack-budget: --launch-log @CASE@ is a launch log of format version '2', but this plugin version reads "
         "version 1: use the plugin version whose prepare-agent goal wrote it"),
        ("version-control-characters.log", replace_once(LAUNCH, b"launch log 1", b"launch log 1\x1b[31m"),
         "cuda-stack-budget: --launch-log @CASE@ is a launch log of format version '1\\x1b[31m', but this plugin "
         "version reads version 1: use the plugin version whose prepare-agent goal wrote it"),
        ("not-a-launch-log.log", b"# some other tool's log\n" + LAUNCH,
         "cuda-stack-budget: --launch-log @CASE@ is not a cuda-stack-budget launch log: it starts with '# some other "
         "tool's log' instead of '# cuda-stack-budget launch log 1'; point --launch-log at the file the injection "
         "library wrote"),
        ("status-not-ok.log", replace_once(LAUNCH, b"# status: ok", b"# status: killed\x07 by signal 9"),
         "WARNING: launch log @CASE@ says the run was not recorded completely (status: killed\\x07 by signal 9); the "
         "headline stays the static figure"),
    ]
    return [(name, data, LAUNCH_ARGS, expected) for name, data, expected in cases]


def library_cases():
    lines = LIBRARIES.split(b"\n")

    def with_line(number, text):
        copy = list(lines)
        copy[number - 1] = text
        return b"\n".join(copy)

    warn = "WARNING: @CASE@:%d: malformed line skipped: %s"
    cases = [
        ("nul-in-path.libraries", with_line(2, b"/lib/x86_64-linux-gnu/lib\x00c.so.6"),
         warn % (2, "the path holds a NUL byte")),
        ("relative-path.libraries", with_line(2, b"lib/x86_64-linux-gnu/libc.so.6"),
         warn % (2, "expected one absolute path per line, found 'lib/x86_64-linux-gnu/libc.so.6'")),
        ("binary-junk.libraries", with_line(2, b"\x7fELF\x02\x01\x01\x00\x00\x00\x00"),
         warn % (2, "expected one absolute path per line, found '\\x7fELF\\x02\\x01\\x01\\x00\\x00\\x00\\x00'")),
        ("tab-in-path.libraries", with_line(2, b"/lib/x86_64-linux-gnu/libc.so.6\t0"),
         warn % (2, "expected one absolute path per line, found '/lib/x86_64-linux-gnu/libc.so.6\\t0'")),
        ("newer-version.libraries", replace_once(LIBRARIES, b"library log 1", b"library log 7"),
         "cuda-stack-budget: --library-log @CASE@ is a library log of format version '7', but this plugin version "
         "reads version 1: use the plugin version whose prepare-agent goal wrote it"),
        ("crlf.libraries", LIBRARIES.replace(b"\n", b"\r\n"),
         SUMMARY),
    ]
    return [(name, data, LIBRARY_ARGS, expected) for name, data, expected in cases]


def sizes_cases():
    percent = "cuda-stack-budget: --max-reservation '%s' is not a percentage: use e.g. 2%% or 0.5%%"
    size = ("cuda-stack-budget: --max-reservation '%s' is not a size: use bytes (1073741824) or a number with a unit: "
            "KiB, MiB, GiB, TiB (powers of 1024) or kB, MB, GB, TB (powers of 1000), e.g. 1.5 GiB")
    stack = ("cuda-stack-budget: --max-stack '%s' is not a size: use bytes (1073741824) or a number with a unit: "
             "KiB, MiB, GiB, TiB (powers of 1024) or kB, MB, GB, TB (powers of 1000), e.g. 1.5 GiB")
    cases = [
        ("max-reservation-exponent.txt", b"1e-999999999%", "--max-reservation", percent % "1e-999999999%"),
        ("percent-exponent-timeout.txt", b"1e-111211110%", "--max-reservation", percent % "1e-111211110%"),
        ("percent-over-100.txt", b"150%", "--max-reservation",
         "cuda-stack-budget: --max-reservation '150%' must be between 0% and 100%"),
        ("percent-negative.txt", b"-2%", "--max-reservation",
         "cuda-stack-budget: --max-reservation '-2%' must be between 0% and 100%"),
        ("percent-empty.txt", b"%", "--max-reservation", percent % "%"),
        ("size-exponent.txt", b"1e3 MiB", "--max-reservation", size % "1e3 MiB"),
        ("size-negative.txt", b"-1GiB", "--max-reservation",
         "cuda-stack-budget: --max-reservation '-1GiB' is negative: a size is 0 or more bytes"),
        ("size-huge.txt", b"99999999999 TiB", "--max-reservation",
         "cuda-stack-budget: --max-reservation '99999999999 TiB' is too large (at most 9223372036854775807 bytes, "
         "8 EiB)"),
        ("size-many-digits.txt", b"1" * 120, "--max-reservation", size % ("1" * 37 + "...")),
        ("size-unknown-unit.txt", b"2 PiB", "--max-reservation", size % "2 PiB"),
        ("stack-exponent.txt", b"1e4", "--max-stack", stack % "1e4"),
        ("stack-control-characters.txt", b"4\x1bKiB", "--max-stack", stack % "4?KiB"),
    ]
    return [(name, data, option + " @CONTENT@ @TEST_CUDA@/libframes.so", expected)
            for name, data, option, expected in cases]


def report_cases():
    def dumped(mutate):
        report = json.loads(json.dumps(REPORT))
        mutate(report)
        return json.dumps(report, indent=1, ensure_ascii=False).encode("utf-8") + b"\n"

    def set_path(path, value):
        def mutate(report):
            node = report
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = value
        return mutate

    def delete(path):
        def mutate(report):
            node = report
            for key in path[:-1]:
                node = node[key]
            del node[path[-1]]
        return mutate

    text = json.dumps(REPORT, indent=1)
    KERNEL = "{\"name\":\"_ZN4demo10stageTilesEPKfPfii\",\"displayName\":\"demo::stageTiles(float const*, float*, int, int)\",\"library\":\"libst"
    rewrite = "; run the check goal of this plugin version again to rewrite it"
    cases = [
        ("utf32-bom.json", b"\x00\x00\xfe\xff" + text.encode("utf-32-be")[:4000],
         "@CASE@: the JSON report is UTF-32BE text (it starts with that byte order mark); a report is UTF-8: run the "
         "check goal again to rewrite it"),
        ("utf16-bom.json", b"\xff\xfe" + text.encode("utf-16-le")[:4000],
         "@CASE@: the JSON report is UTF-16LE text (it starts with that byte order mark); a report is UTF-8: run the "
         "check goal again to rewrite it"),
        ("utf32-no-bom.json", text.encode("utf-32-be")[:4000],
         "@CASE@: the JSON report is UTF-16 or UTF-32 (a NUL byte in its first characters, no byte order mark) text; "
         "a report is UTF-8: run the check goal again to rewrite it"),
        ("latin1.json", dumped(set_path(["libraries", 0, "usedBy"], "caf\u00e9")).replace(b"caf\xc3\xa9", b"caf\xe9"),
         "@CASE@: the JSON report holds bytes that are not UTF-8 text; run the check goal again to rewrite it"),
        ("truncated.json", text.encode("utf-8")[:2000],
         "@CASE@: not valid JSON at line 75, column 11 (Unexpected end-of-input in field name); run the check goal "
         "again to rewrite it"),
        ("not-an-object.json", b"[1, 2, 3]\n", "@CASE@: the top level is not a JSON object" + rewrite),
        ("schema-version-float.json", dumped(set_path(["schemaVersion"], 1.5)),
         "@CASE@: schemaVersion 1.5 is not a whole number: not a cuda-stack-budget report" + rewrite),
        ("stack-as-string.json", dumped(set_path(["libraries", 0, "worstKernel", "stack"], "12288")),
         "@CASE@: 'stack' is missing or not a whole number in " + KERNEL + "... (80 more characters)" + rewrite),
        ("stack-huge.json", dumped(set_path(["libraries", 0, "worstKernel", "stack"], 10 ** 30)),
         "@CASE@: 'stack' 1000000000000000000000000000000 is out of range (at most 9223372036854775807) in " + KERNEL
         + "... (104 more characters)" + rewrite),
        ("stack-negative.json", dumped(set_path(["libraries", 0, "worstKernel", "stack"], -16)),
         "@CASE@: 'stack' -16 is negative in " + KERNEL + "... (76 more characters)" + rewrite),
        ("registers-over-2-31.json", dumped(set_path(["libraries", 0, "worstKernel", "registers"], 2 ** 31)),
         "@CASE@: 'registers' 2147483648 is out of range in " + KERNEL + "... (86 more characters)" + rewrite),
        ("arch-digits-overflow.json", dumped(set_path(["libraries", 0, "arches"], ["sm_" + "8" * 60])),
         "@CASE@: 'sm_" + "8" * 60 + "' in the arches of library @REPO@/target/test-cuda/stack-demo/libstackdemo.so "
         "is not a CUDA arch label (e.g. sm_90)" + rewrite),
        ("kernels-missing.json", dumped(delete(["kernels"])), "@CASE@: 'kernels' is missing or not a list" + rewrite),
        ("violation-kind-control.json", dumped(set_path(["violations"], [{"device": "h200-141gb",
                                                                          "kind": "reservatio\n\x1b",
                                                                          "actual": 1, "limit": 0,
                                                                          "kernel": "_Z1kv"}])),
         "@CASE@: violation kind 'reservatio\\n\\x1b' is not one of reservation, stack" + rewrite),
        ("files-probed-text.json", dumped(set_path(["filesProbed"], "two")),
         "@CASE@: 'filesProbed' is missing or not a whole number in the top level" + rewrite),
    ]
    cases += report2_cases(rewrite)
    return [(name, data, "report-json", expected) for name, data, expected in cases]


def report2_cases(rewrite):
    """Schema 2 (the stack-demo golden report as this version writes it) damaged where schema 1 has no such field."""
    def dumped(path, value=None, remove=False):
        report = json.loads(json.dumps(REPORT2))
        node = report
        for key in path[:-1]:
            node = node[key]
        if remove:
            del node[path[-1]]
        else:
            node[path[-1]] = value
        return json.dumps(report, indent=1, ensure_ascii=False).encode("utf-8") + b"\n"

    image = "an image of function 0 (_ZN4demo10stageTilesEPKfPfii)"
    return [
        ("v2-schema-version-3.json", dumped(["schemaVersion"], 3),
         "@CASE@: schemaVersion 3 is not supported (this version reads 1 and 2)" + rewrite),
        ("v2-functions-missing.json", dumped(["functions"], remove=True),
         "@CASE@: 'functions' is missing or not a list" + rewrite),
        ("v2-library-labels-missing.json", dumped(["libraryLabels"], remove=True),
         "@CASE@: 'libraryLabels' is missing or not a list" + rewrite),
        ("v2-image-fields-reordered.json", dumped(["imageFields"], ["arch", "stack", "registers", "shared", "local"]),
         "@CASE@: imageFields [arch, stack, registers, shared, local] is not [arch, registers, stack, shared, local] "
         "(the figures this version reads)" + rewrite),
        ("v2-function-not-an-object.json", dumped(["functions", 0], 5),
         "@CASE@: function 0 is 5, not an object" + rewrite),
        ("v2-function-library-out-of-range.json", dumped(["functions", 0, "library"], 99),
         "@CASE@: function 0: 'library' 99 is not an index in libraryLabels (0..1)" + rewrite),
        ("v2-image-short.json", dumped(["functions", 0, "images", 0], ["sm_80", 32]),
         "@CASE@: " + image + " is [\"sm_80\",32], not an array of 5 values [arch, registers, stack, shared, local]"
         + rewrite),
        ("v2-image-arch-bad.json", dumped(["functions", 0, "images", 0, 0], "sm_x"),
         "@CASE@: 'sm_x' in " + image + " is not a CUDA arch label (e.g. sm_90)" + rewrite),
        ("v2-image-stack-string.json", dumped(["functions", 0, "images", 0, 2], "4096"),
         "@CASE@: 'stack' is \"4096\", not a whole number, in " + image + rewrite),
        ("v2-image-stack-negative.json", dumped(["functions", 0, "images", 0, 2], -16),
         "@CASE@: 'stack' -16 is negative in " + image + rewrite),
        ("v2-image-stack-huge.json", dumped(["functions", 0, "images", 0, 2], 10 ** 30),
         "@CASE@: 'stack' 1000000000000000000000000000000 is out of range (at most 9223372036854775807) in " + image
         + rewrite),
        ("v2-image-registers-over-2-31.json", dumped(["functions", 0, "images", 0, 1], 2 ** 31),
         "@CASE@: 'registers' 2147483648 is out of range in " + image + rewrite),
        ("v2-records-mismatch.json", dumped(["records"], 7),
         "@CASE@: 'records' is 7 but the functions hold 30 images" + rewrite),
        ("v2-record-position-out-of-range.json", dumped(["libraries", 0, "worstKernel"], 999999),
         "@CASE@: 999999 is not a record position (0..29) nor a kernel object: 'worstKernel' in "
         "{\"path\":\"@REPO@/target/test-cuda/stack-demo/libstackdemo.so\",\"library\":\"libstackdemo.so\","
         "\"kernels\":5,\"records\":20,\"arche... (169 more characters)" + rewrite),
        ("v2-selected-position-negative.json", dumped(["devices", 0, "selectedKernels"], [-1]),
         "@CASE@: device 'h200-141gb': selectedKernels holds -1, which is not a position in kernels (0..29)" + rewrite),
        ("v2-note-function-out-of-range.json", dumped(["devices", 0, "cannotRunKernels"], [{"function": 999}]),
         "@CASE@: 'function' 999 is not an index in functions (0..9) in {\"function\":999}" + rewrite),
        ("v2-note-not-an-object.json", dumped(["devices", 0, "jitKernels"], [3]),
         "@CASE@: a note is 3, not an object" + rewrite),
    ]


AREAS = {
    "cuobjdump-text": ("cuobjdump --dump-resource-usage output (the recorded cuobjdump 13.0 text of libframes.so, cut "
                       "and damaged), printed by the @REPLAY@ stand-in", cuobjdump_cases),
    "launch-log": ("kernel launch logs cut from the recorded launch-probe.launch.log", launch_cases),
    "library-log": ("library logs cut from the recorded launch-probe.launch.log.libraries (launch.log is the recorded "
                    "launch log)", library_cases),
    "sizes": ("sizes and percentages as option values (@CONTENT@)", sizes_cases),
    "report-json": ("JSON reports (the stack-demo golden report) damaged: read by the report goal's reader",
                    report_cases),
}

EXIT_ZERO = {"cuobjdump-text/interleaved-errors.txt", "cuobjdump-text/binary-junk.txt", "cuobjdump-text/crlf.txt", "launch-log/crlf.log",
             "launch-log/duplicate-legacy-kernel.log", "library-log/crlf.libraries"}
WARNING_ONLY = {"launch-log", "library-log"}


def main():
    for area, (what, make) in AREAS.items():
        directory = os.path.join(ROOT, area)
        os.makedirs(directory, exist_ok=True)
        rows = ["# " + what + " (written by src/test/fuzz/make-malformed-text.py)",
                "# file\targuments\texpected line\texit"]
        for name, data, arguments, expected in make():
            with open(os.path.join(directory, name), "wb") as out:
                out.write(data)
            key = area + "/" + name
            exit_code = "0" if key in EXIT_ZERO or area in WARNING_ONLY and expected and expected.startswith("WARNING:") \
                else "2"
            rows.append("\t".join([name, arguments, expected or "TODO", exit_code]))
        if area == "library-log":
            with open(os.path.join(directory, "launch.log"), "wb") as out:
                out.write(LAUNCH)
        with open(os.path.join(directory, "cases.tsv"), "w", encoding="utf-8") as out:
            out.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
