#!/usr/bin/env bash
# The cold-run benchmark of issue 11: what a build feels, against raw cuobjdump, measured in one run, alternating.
#
#   [JRE=/path/to/jre] [ASYNC_PROFILER=/path/libasyncProfiler.so] bash dev/bench-cold.sh prepare [DIR]
#        (here: JDK, Maven) builds the plugin and the dev classes and fills the carry folder DIR (default
#        $CARRY, else .devcarry/bench, git-ignored): jre/ (a copy of $JRE, else a jlink runtime made here),
#        lib/ (the plugin jar, which holds the core's runtime libraries, shaded; the report API and the site
#        stack stay out), tools/ (BenchCold, BenchColdCheck, BenchCachedAB); then runs the carried command line once
#        as a check and prints the sizes (carry plus tracked tree must stay under 64 MiB for the device tool).
#   [ROUNDS=3] [CORES="all 4 2"] [LIBS="..."] [ALL=1] [BUDGET_S=500] [DEVICES=a,b,c] bash dev/bench-cold.sh run OUTDIR
#        (the GPU machine, or here on any files) per library and per core count, alternating A/B in one run:
#          (1)  cuobjdump --dump-resource-usage FILE > /dev/null
#          (2)  the check as a fresh process: java -cp 'lib/*' io.github.cudastackbudget.cli.Main --engine native
#               --devices DEVICES --output TMP [--no-cache] FILE (all reports written)
#          (1') cuobjdump again, started from inside the JVM of (3), alternating with it
#          (3)  the same check inside one running JVM, a fresh class loader per round (BenchCold)
#          (4)  a warm re-check with the content cache in that JVM (where the build has the cache; else "n/a")
#        plus, once per library (first core count), (2) under -Xmx512m (the memory target): pass or fail.
#        Prints progress lines, then a Markdown table (median (min-max) seconds, ratios of medians, peak RSS);
#        writes OUTDIR/bench-cold.md, the raw rounds as OUTDIR/bench-cold.tsv and OUTDIR/progress.log.
#   [ROUNDS=3] [COPIES="1 10 100"] bash dev/bench-cold.sh ci-size OUTDIR
#        (here) synthetic inputs of real nvcc-built bytes (target/test-cuda, target/native-matrix) packed N times:
#        a bare fatbin of N copies of the real fatbins' containers, an ar archive of N renamed copies of the real
#        objects and cubins, a folder of N copies of real host libraries; times (2) (and (1) where cuobjdump is
#        found) with peak RSS per size.
#
# Settings (environment): CARRY (the carry folder, default .devcarry/bench under the repository root); ROUNDS
# (default 3); CORES (default "all 4 2": "all" runs unpinned, N runs under taskset -c 0-(N-1)); LIBS (names found
# under the Python environment's site-packages, or paths; comma- or space-separated; default the seven libraries of
# issue 11); ALL=1 (also every other file with device code in that environment, all cores only, smallest first);
# BUDGET_S (default 500: no step starts that the same step's last time says would end past it; the table covers what
# finished); DEVICES (catalog presets, default h200-141gb,h100-sxm5-80gb,a100-sxm4-80gb); PYTHON (the Python of the
# PyTorch environment, if python3 is not it). cuobjdump is taken from PATH, else /usr/local/cuda/bin; without it
# mode (1) is skipped with a line saying so. Needs python3 (standard library only) to time processes: peak RSS is the
# child's getrusage (os.wait4), so /usr/bin/time is not needed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CARRY="${CARRY:-$ROOT/.devcarry/bench}"
MODULES=java.base,java.logging,java.xml,jdk.unsupported,java.management,jdk.management,jdk.jfr
usage() {
    echo "usage: [JRE=/path/to/jre] $0 prepare [DIR] | $0 run OUTDIR | $0 ci-size OUTDIR (settings: see the script's header)" >&2
    exit 2
}

case "${1:-}" in
prepare)
    DIR="${2:-$CARRY}"
    mkdir -p "$DIR"
    DIR="$(cd "$DIR" && pwd)"
    cd "$ROOT"
    if [[ -n "${JRE:-}" ]]; then
        [[ -x "$JRE/bin/java" ]] || { echo "$0: JRE=$JRE has no bin/java" >&2; exit 2; }
        rm -rf "$DIR/jre"
        cp -r "$JRE" "$DIR/jre"
    elif [[ ! -x "$DIR/jre/bin/java" ]]; then
        command -v jlink > /dev/null || { echo "$0: no JRE=/path given and no jlink on PATH to make one" >&2; exit 2; }
        jlink --add-modules "$MODULES" --strip-debug --no-man-pages --no-header-files --compress=2 --output "$DIR/jre"
        # the native libraries' symbol tables (4 MB of libjvm.so's 23 MB): room in the device tool's 64 MiB
        if command -v strip > /dev/null; then
            strip --strip-unneeded "$DIR/jre/lib/server/libjvm.so" "$DIR/jre/lib/"*.so
        fi
    fi
    ./mvnw -B -o -q package -DskipTests -Dinvoker.skip=true
    TMP="$(mktemp -d)"
    trap 'rm -rf "$TMP"' EXIT
    JAR="$(ls target/cuda-stack-budget-maven-plugin-*.jar | grep -v -e '-sources' -e '-javadoc' | head -n 1)"
    rm -rf "$DIR/lib" "$DIR/tools"
    mkdir -p "$DIR/lib" "$DIR/tools/io/github/cudastackbudget/dev"
    # the plugin jar holds the core's runtime libraries (shaded, issue 11): the command line needs nothing else; the
    # report API and the site stack, which it never loads, stay out
    cp "$JAR" "$DIR/lib/"
    # the carried jar leaves out zstd-jni's and lz4-java's native libraries for other platforms than linux-x86_64
    # (about 15 MB: with its class files stored, the whole jar no longer fits the device tool's 64 MiB beside the
    # runtime); every class and the linux-x86_64 libraries stay, each entry as it was stored
    python3 - "$DIR/lib/$(basename "$JAR")" << 'PY'
import re, sys, zipfile
path = sys.argv[1]
foreign = re.compile(r"^(aix|darwin|freebsd|win|linux/(?!amd64/)[^/]+)/|^net/jpountz/util/(?!linux/amd64/)[^/]+/[^/]+/")
with zipfile.ZipFile(path) as source:
    entries = [(info, source.read(info)) for info in source.infolist() if not foreign.match(info.filename)]
with zipfile.ZipFile(path, "w") as target:
    for info, data in entries:
        target.writestr(info, data, compress_type=info.compress_type)
PY
    # the dev mains, compiled by the build (dev/java is a test source root)
    cp target/test-classes/io/github/cudastackbudget/dev/BenchCold*.class \
        target/test-classes/io/github/cudastackbudget/dev/BenchCachedAB.class "$DIR/tools/io/github/cudastackbudget/dev/"
    # profile-cold.sh's sampling step: async-profiler's agent (0.5 MB), when given
    rm -rf "$DIR/ap"
    if [[ -n "${ASYNC_PROFILER:-}" ]]; then
        mkdir -p "$DIR/ap" && cp "$ASYNC_PROFILER" "$DIR/ap/libasyncProfiler.so"
    fi
    # the carried runtime runs the command line and the class-loader round on a real test binary
    # (--no-cache where the build has the content cache: never fill the user's cache from here)
    no_cache=()
    case "$("$DIR/jre/bin/java" -cp "$DIR/lib/*" io.github.cudastackbudget.cli.Main --help)" in
        *--no-cache*) no_cache=(--no-cache) ;;
    esac
    "$DIR/jre/bin/java" -cp "$DIR/lib/*" io.github.cudastackbudget.cli.Main --engine native --devices h200-141gb \
        --output "$TMP/out" "${no_cache[@]}" target/test-cuda/libframes.so > "$TMP/smoke.txt" 2>&1 \
        || { cat "$TMP/smoke.txt" >&2; echo "$0: the carried command line failed (above)" >&2; exit 1; }
    "$DIR/jre/bin/java" -cp "$DIR/tools" io.github.cudastackbudget.dev.BenchCold --classpath "$DIR/lib/*:$DIR/tools" \
        --work "$TMP/work" --rounds 1 target/test-cuda/frames.fatbin > "$TMP/smoke.tsv" 2> "$TMP/smoke.err" \
        || { cat "$TMP/smoke.err" >&2; echo "$0: the carried class-loader round failed (above)" >&2; exit 1; }
    echo "lib/: $(ls "$DIR/lib" | tr '\n' ' ')"
    carry_kib="$(du -sk "$DIR" | cut -f1)"
    tree_kib="$(( $(git ls-files -z | xargs -0 du -cb 2>/dev/null | tail -n 1 | cut -f1) / 1024 ))"
    echo "carry $DIR: $((carry_kib / 1024)) MiB; tracked tree: $((tree_kib / 1024)) MiB; together $(((carry_kib + tree_kib) / 1024)) MiB (limit 64 MiB)"
    (( carry_kib + tree_kib < 64 * 1024 )) || { echo "$0: over the device tool's 64 MiB" >&2; exit 1; }
    ;;
run | ci-size)
    [[ -n "${2:-}" ]] || usage
    command -v python3 > /dev/null || { echo "$0: needs python3 (standard library only) to time processes" >&2; exit 2; }
    exec python3 - "$1" "$2" "$ROOT" "$CARRY" <<'PY'
import glob, json, os, platform, shutil, statistics, subprocess, sys, tempfile, time

MODE, OUTDIR, ROOT, CARRY = sys.argv[1:5]
T0 = time.time()
MAIN = "io.github.cudastackbudget.cli.Main"
DEFAULT_LIBS = ("libtorch_cuda.so libcublasLt.so.13 libcudnn_engines_precompiled.so.9 libcufft.so.12 libnccl.so.2 "
                "xla_cuda_plugin.so libcusparseLt.so.0")
JAVA = os.path.join(CARRY, "jre", "bin", "java")
LIB = os.path.join(CARRY, "lib")
TOOLS = os.path.join(CARRY, "tools")
CP = LIB + "/*"
if not os.access(JAVA, os.X_OK) or not os.path.isdir(LIB):
    sys.exit(f"bench-cold: {CARRY} has no jre/bin/java or lib/: run 'bash dev/bench-cold.sh prepare' where Maven is "
             "(JRE=/path or jlink on PATH), carry that folder, or set CARRY=")
ROUNDS = int(os.environ.get("ROUNDS", "3"))
BUDGET = float(os.environ.get("BUDGET_S", "500"))
DEADLINE = T0 + BUDGET
DEVICES = os.environ.get("DEVICES", "h200-141gb,h100-sxm5-80gb,a100-sxm4-80gb")
CUOBJDUMP = shutil.which("cuobjdump") or (
    "/usr/local/cuda/bin/cuobjdump" if os.access("/usr/local/cuda/bin/cuobjdump", os.X_OK) else None)
TASKSET = shutil.which("taskset")
os.makedirs(os.path.join(OUTDIR, "logs"), exist_ok=True)
LOG = open(os.path.join(OUTDIR, "progress.log"), "w")


def say(message):
    line = f"[{time.time() - T0:6.1f}s] {message}"
    print(line, file=sys.stderr, flush=True)
    LOG.write(line + "\n")
    LOG.flush()


def cpus(cores):
    """None for all cores, else the first N CPUs this process may use."""
    if cores == "all":
        return None
    allowed = sorted(os.sched_getaffinity(0))
    n = int(cores)
    if n > len(allowed):
        return False
    return allowed[:n]


def pinned(cmd, cores):
    """The command pinned with taskset -c (else the affinity set in the child before exec)."""
    cpu = cpus(cores)
    if cpu is None:
        return cmd, None
    if TASKSET:
        return ["taskset", "-c", ",".join(map(str, cpu))] + cmd, None
    return cmd, (lambda: os.sched_setaffinity(0, cpu))


def timed(cmd, cores="all", err=None):
    """Runs cmd (stdout discarded): wall seconds, the child's peak RSS in KiB (getrusage via wait4), exit status."""
    cmd, pre = pinned(cmd, cores)
    errfile = open(err, "wb") if err else subprocess.DEVNULL
    try:
        start = time.perf_counter()
        process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=errfile, preexec_fn=pre)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
    finally:
        if err:
            errfile.close()
    return seconds, usage.ru_maxrss, process.returncode


def first_line(path):
    try:
        with open(path, errors="replace") as f:
            for line in f:
                if line.strip():
                    return line.strip()[:160]
    except OSError:
        pass
    return ""


# what this build's command line offers (the content cache came with issue 11)
help_text = subprocess.run([JAVA, "-cp", CP, MAIN, "--help"], capture_output=True, text=True).stdout
CLI_CACHE = "--no-cache" in help_text
NO_CACHE = ["--no-cache"] if CLI_CACHE else []

TSV_COLUMNS = ["library", "path", "bytes", "cores", "mode", "round", "seconds", "peak_rss_kib", "status", "note"]
TSV = open(os.path.join(OUTDIR, "bench-cold.tsv" if MODE == "run" else "ci-size.tsv"), "w")
TSV.write("\t".join(TSV_COLUMNS) + "\n")
ROWS = []


def record(path, cores, mode, rnd, seconds, rss=None, status=0, note="", name=None):
    row = {"library": name or os.path.basename(path), "path": path, "bytes": size_of(path), "cores": cores,
           "mode": mode, "round": rnd, "seconds": seconds, "peak_rss_kib": rss, "status": status, "note": note}
    ROWS.append(row)
    TSV.write("\t".join("" if row[c] is None else (f"{row[c]:.4f}" if isinstance(row[c], float) else str(row[c]))
                        for c in TSV_COLUMNS) + "\n")
    TSV.flush()


def size_of(path):
    if os.path.isdir(path):
        return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)
    return os.path.getsize(path) if os.path.exists(path) else 0


def environment():
    lines = [f"date: {time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime(T0))} UTC; host: {platform.platform()}; "
             f"cpus: {os.cpu_count()} (usable {len(os.sched_getaffinity(0))})"]
    try:
        with open("/proc/cpuinfo") as f:
            model = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "")
        lines.append(f"cpu: {model}")
    except OSError:
        pass
    if CUOBJDUMP:
        version = subprocess.run([CUOBJDUMP, "--version"], capture_output=True, text=True).stdout.strip().splitlines()
        lines.append(f"cuobjdump: {CUOBJDUMP} ({version[-1] if version else '?'})")
    else:
        lines.append("cuobjdump: not found on PATH or in /usr/local/cuda/bin: mode (1) skipped")
    java = subprocess.run([JAVA, "-version"], capture_output=True, text=True).stderr.strip().splitlines()
    jars = sorted(os.listdir(LIB))
    plugin = next((j for j in jars if j.startswith("cuda-stack-budget")), "?")
    lines.append(f"java: {java[0] if java else '?'}; {plugin} + {len(jars) - 1} runtime jars")
    lines.append(f"command line: --engine native --devices {DEVICES}, all reports written; content cache: "
                 + ("yes, (2) and (3) run with --no-cache" if CLI_CACHE else "none in this build"))
    lines.append(f"rounds: {ROUNDS}; budget: {BUDGET:.0f} s; pinning: "
                 + ("taskset -c" if TASKSET else "sched_setaffinity") + "; peak RSS: the child's getrusage (wait4)")
    return lines


def stats(values):
    if not values:
        return None
    return statistics.median(values), min(values), max(values)


def cell(values):
    s = stats(values)
    if s is None:
        return ""
    if len(values) == 1:
        return f"{s[0]:.2f}"
    return f"{s[0]:.2f} ({s[1]:.2f}-{s[2]:.2f})"


def ratio(a, b):
    sa, sb = stats(a), stats(b)
    return f"{sa[0] / sb[0]:.2f}" if sa and sb and sb[0] > 0 else ""


def mib(kib):
    if not kib:
        return ""
    return f"{kib / 1048576:.2f} GiB" if kib >= 1048576 else f"{kib / 1024:.0f} MiB"


def seconds_of(rows, mode):
    return [r["seconds"] for r in rows if r["mode"] == mode and r["status"] == 0]


def errors_of(rows, mode):
    return [r for r in rows if r["mode"] == mode and r["status"] != 0]


# ---------------------------------------------------------------------------------------------------------------- run
def site_packages():
    """The PyTorch environment's site-packages: found through a Python that can import torch, else a scan."""
    found = []
    for python in [os.environ.get("PYTHON"), "python3", "python", sys.executable, "/opt/conda/bin/python",
                   "/usr/bin/python3"]:
        if not python or not shutil.which(python):
            continue
        try:
            out = subprocess.run([python, "-c", "import importlib.util,os;s=importlib.util.find_spec('torch');"
                                  "print(os.path.dirname(os.path.dirname(s.origin)) if s else '')"],
                                 capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            continue
        line = out.stdout.strip().splitlines()[-1] if out.stdout.strip() else ""
        if out.returncode == 0 and line and os.path.isdir(line):
            found.append(os.path.realpath(line))
            break
    if not found:
        for base in ["/usr", "/opt", "/root", "/home", "/venv", "/workspace"]:
            for d, dirs, _ in os.walk(base):
                if d.count(os.sep) - base.count(os.sep) > 6:
                    dirs[:] = []
                    continue
                if os.path.basename(d) in ("site-packages", "dist-packages"):
                    dirs[:] = []
                    if os.path.isdir(os.path.join(d, "torch")) or os.path.isdir(os.path.join(d, "nvidia")):
                        found.append(os.path.realpath(d))
    return sorted(set(found))


def index(dirs):
    """Every regular file under the folders, by name (real paths, each once)."""
    by_name, seen = {}, set()
    for top in dirs:
        for d, _, files in os.walk(top):
            for f in files:
                path = os.path.join(d, f)
                if os.path.islink(path) or not os.path.isfile(path):
                    continue
                real = os.path.realpath(path)
                if real not in seen:
                    seen.add(real)
                    by_name.setdefault(f, []).append(real)
    return by_name


MAGICS = (b"\x7fELF", b"!<ar", b"\x50\xed\x55\xba")
SKIP = (".py", ".pyc", ".pyi", ".h", ".hpp", ".cuh", ".txt", ".json", ".md")


def with_device_code(by_name, work):
    candidates = []
    for paths in by_name.values():
        for p in paths:
            if p.endswith(SKIP):
                continue
            try:
                if os.path.getsize(p) > 1024:
                    with open(p, "rb") as f:
                        if f.read(4) in MAGICS:
                            candidates.append(p)
            except OSError:
                pass
    listing = os.path.join(work, "candidates.txt")
    with open(listing, "w") as f:
        f.write("\n".join(candidates) + "\n")
    out = subprocess.run([JAVA, "-cp", TOOLS, "io.github.cudastackbudget.dev.BenchCold", "--classpath",
                          CP + os.pathsep + TOOLS, "--detect", listing], capture_output=True, text=True)
    if out.returncode != 0:
        say("device-code detection failed: " + (out.stderr.strip().splitlines() or ["?"])[-1])
        return []
    return [l for l in out.stdout.splitlines() if l]


LAST = {}  # (path, cores, step) -> seconds of the last such step: no step starts that would end past the budget


def predicted(key):
    """The step's last time; else the same library's at other core counts; else scaled by size from other files."""
    if key in LAST:
        return LAST[key]
    path, _, step = key
    same = [v for (p, _, s), v in LAST.items() if p == path and s == step]
    if same:
        return max(same)
    rates = [v / max(size_of(p), 1) for (p, _, s), v in LAST.items() if s == step]
    return max(rates) * size_of(path) if rates else 0


def fits(key):
    return time.time() + predicted(key) <= DEADLINE


def unit(path, cores, memory_run):
    name = os.path.basename(path)
    say(f"{name} ({size_of(path) / 1e6:.0f} MB), cores {cores}")
    work = tempfile.mkdtemp(prefix="bench-cold-")
    err = os.path.join(OUTDIR, "logs", f"{name}.{cores}.stderr.txt")
    try:
        for rnd in range(1, ROUNDS + 1):
            if not fits((path, cores, "round")):
                record(path, cores, "budget", rnd, 0.0, note="round not started: time budget")
                say(f"  round {rnd} not started: time budget")
                break
            start = time.time()
            parts = []
            if CUOBJDUMP:
                s, rss, rc = timed([CUOBJDUMP, "--dump-resource-usage", path], cores)
                record(path, cores, "1", rnd, s, rss, rc, "" if rc == 0 else f"cuobjdump exit status {rc}")
                parts.append(f"(1) {s:.2f} s {mib(rss)}")
            out = os.path.join(work, "out2")
            shutil.rmtree(out, ignore_errors=True)
            s, rss, rc = timed([JAVA, "-cp", CP, MAIN, "--engine", "native", "--devices", DEVICES, "--output", out]
                               + NO_CACHE + [path], cores, err)
            ok = rc in (0, 1)
            record(path, cores, "2", rnd, s, rss, 0 if ok else rc, "" if ok else first_line(err))
            parts.append(f"(2) {s:.2f} s {mib(rss)}" + ("" if ok else f" FAILED rc {rc}: {first_line(err)}"))
            say(f"  round {rnd}: " + ", ".join(parts))
            LAST[(path, cores, "round")] = time.time() - start
        if memory_run and fits((path, cores, "round")):
            out = os.path.join(work, "outx")
            xerr = os.path.join(OUTDIR, "logs", f"{name}.xmx512m.stderr.txt")
            s, rss, rc = timed([JAVA, "-Xmx512m", "-cp", CP, MAIN, "--engine", "native", "--devices", DEVICES,
                                "--output", out] + NO_CACHE + [path], cores, xerr)
            ok = rc in (0, 1)
            record(path, cores, "2x", 1, s, rss, 0 if ok else rc, "" if ok else first_line(xerr))
            say(f"  (2) -Xmx512m: {'pass' if ok else 'FAIL rc ' + str(rc) + ': ' + first_line(xerr)}, "
                f"{s:.2f} s, {mib(rss)}")
        if fits((path, cores, "jvm")):
            start = time.time()
            # its rounds' stage times (the check's debug lines) and progress lines in logs/NAME.CORES.jvm.stderr.txt
            cmd = [JAVA, "-Dbench.timings=true", "-cp", TOOLS, "io.github.cudastackbudget.dev.BenchCold", "--classpath",
                   CP + os.pathsep + TOOLS,
                   "--devices", DEVICES, "--work", os.path.join(work, "jvm"), "--rounds", str(ROUNDS),
                   "--deadline-ms", str(int(DEADLINE * 1000))] + (["--cuobjdump", CUOBJDUMP] if CUOBJDUMP else [])
            cmd, pre = pinned(cmd + [path], cores)
            with open(os.path.join(OUTDIR, "logs", f"{name}.{cores}.jvm.stderr.txt"), "w") as jerr:
                process = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=jerr, text=True, preexec_fn=pre)
            with open(os.path.join(OUTDIR, "logs", f"{name}.{cores}.jvm.stderr.txt")) as jerr:
                for line in jerr:
                    if not line.startswith("[timings]"):
                        say(line.rstrip("\n"))
            for line in process.stdout.splitlines():
                fields = line.split("\t")
                if len(fields) == 6:
                    record(path, cores, fields[1], int(fields[2]), float(fields[3]), None, int(fields[4]), fields[5])
            if process.returncode != 0:
                say(f"  the in-JVM rounds ended with exit status {process.returncode}")
            LAST[(path, cores, "jvm")] = time.time() - start
        else:
            record(path, cores, "budget", 0, 0.0, note="in-JVM rounds not started: time budget")
            say("  in-JVM rounds not started: time budget")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run_table(units_done):
    head = ["library", "MB", "cores", "(1) cuobjdump s", "(2) fresh JVM s", "(1)/(2)", "(1') in JVM s",
            "(3) fresh loader s", "(1')/(3)", "(4) cached s", "(3)/(4)", "RSS (1)", "RSS (2)", "(2) -Xmx512m"]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---:" if i not in (0, 2, 13) else "---"
                                                          for i in range(len(head))) + "|"]
    for path, cores in units_done:
        rows = [r for r in ROWS if r["path"] == path and r["cores"] == cores]
        one, two, onej, three, four = (seconds_of(rows, m) for m in ("1", "2", "1j", "3", "4"))
        xmx = [r for r in rows if r["mode"] == "2x"]
        memory = ""
        if xmx:
            r = xmx[0]
            memory = (f"pass, {r['seconds']:.2f} s, {mib(r['peak_rss_kib'])}" if r["status"] == 0
                      else f"FAIL (rc {r['status']}: {r['note'][:60]})")
        rss1 = max((r["peak_rss_kib"] or 0 for r in rows if r["mode"] == "1"), default=0)
        rss2 = max((r["peak_rss_kib"] or 0 for r in rows if r["mode"] == "2"), default=0)
        fails = [f"({m}) failed {len(errors_of(rows, m))}x" for m in ("1", "2", "1j", "3", "4") if errors_of(rows, m)]
        four_cell = cell(four) if four else ("n/a" if not any(r["mode"] == "4p" for r in rows) else "")
        lines.append("| " + " | ".join([
            os.path.basename(path) + (" (" + "; ".join(fails) + ")" if fails else ""),
            f"{size_of(path) / 1e6:.0f}" if size_of(path) >= 1e7 else f"{size_of(path) / 1e6:.2f}", cores, cell(one), cell(two), ratio(one, two), cell(onej), cell(three),
            ratio(onej, three), four_cell, ratio(three, four), mib(rss1), mib(rss2), memory]) + " |")
    return lines


def run():
    names = (os.environ.get("LIBS") or DEFAULT_LIBS).replace(",", " ").split()
    core_list = os.environ.get("CORES", "all 4 2").split()
    every = os.environ.get("ALL", "") not in ("", "0")
    header = environment()
    by_name = None
    libs = []
    if any("/" not in n for n in names) or every:
        sites = site_packages()
        header.append("site-packages: " + (", ".join(sites) if sites else "none found (PYTHON=/path/to/python?)"))
        by_name = index(sites)
    for n in names:
        if "/" in n:
            if os.path.isfile(n) or os.path.isdir(n):
                libs.append(os.path.abspath(n))
            else:
                say(f"not found: {n}")
        elif by_name.get(n):
            libs.append(sorted(by_name[n], key=lambda p: (-os.path.getsize(p), p))[0])
        else:
            say(f"not found under site-packages: {n}")
    for line in header:
        say(line)
    if not CUOBJDUMP:
        say("(1) skipped: no cuobjdump on PATH or in /usr/local/cuda/bin")
    units = [(p, core_list[0]) for p in libs]
    if every:
        work = tempfile.mkdtemp(prefix="bench-cold-detect-")
        others = [p for p in with_device_code(by_name, work) if p not in libs]
        shutil.rmtree(work, ignore_errors=True)
        others.sort(key=lambda p: (os.path.getsize(p), p))
        say(f"ALL=1: {len(others)} more files with device code in the environment, at {core_list[0]} cores")
        units += [(p, core_list[0]) for p in others]
    units += [(p, c) for c in core_list[1:] for p in libs]
    done, skipped = [], []
    for path, cores in units:
        if cpus(cores) is False:
            say(f"cores {cores}: this machine has only {len(os.sched_getaffinity(0))} usable: skipped")
            continue
        if time.time() >= DEADLINE:
            skipped.append(f"{os.path.basename(path)}@{cores}")
            continue
        unit(path, cores, cores == core_list[0])
        done.append((path, cores))
    table = run_table(done)
    notes = ["", "Seconds: median (min-max) of the rounds; ratios are of medians, above 1 where the plugin is faster "
             "((3)/(4): how much faster the cached re-check is). (1) and (2) alternate in one loop; (1') and (3) (and (4)) "
             "alternate inside one JVM, a fresh class loader per round. RSS: the largest peak of the rounds."]
    if not CUOBJDUMP:
        notes.append("(1) skipped: no cuobjdump on PATH or in /usr/local/cuda/bin.")
    if not any(r["mode"] == "4p" for r in ROWS):
        notes.append("(4) n/a: this build has no cache.")
    if skipped:
        notes.append(f"Not run (time budget {BUDGET:.0f} s): " + ", ".join(skipped))
    text = ["# bench-cold", ""] + ["- " + l for l in header] + [""] + table + notes
    with open(os.path.join(OUTDIR, "bench-cold.md"), "w") as f:
        f.write("\n".join(text) + "\n")
    say(f"done in {time.time() - T0:.0f} s; {OUTDIR}/bench-cold.md, bench-cold.tsv, progress.log")
    sys.stderr.flush()
    print("\n".join(table + notes), flush=True)


# ------------------------------------------------------------------------------------------------------------ ci-size
def write_ar(path, members):
    """A GNU ar archive of (name, source file) members, long names in the // table."""
    table, offsets = b"", {}
    for name, _ in members:
        if len(name) > 15:
            offsets[name] = len(table)
            table += name.encode() + b"/\n"

    def header(f, name, size):
        f.write(f"{name:<16}{'0':<12}{'0':<6}{'0':<6}{'644':<8}{size:<10}`\n".encode())

    with open(path, "wb") as f:
        f.write(b"!<arch>\n")
        if table:
            f.write(f"{'//':<48}{len(table):<10}`\n".encode())
            f.write(table + (b"\n" if len(table) % 2 else b""))
        for name, source in members:
            with open(source, "rb") as s:
                data = s.read()
            header(f, f"/{offsets[name]}" if name in offsets else name + "/", len(data))
            f.write(data + (b"\n" if len(data) % 2 else b""))


def ci_size():
    tc, nm = os.path.join(ROOT, "target", "test-cuda"), os.path.join(ROOT, "target", "native-matrix")
    fatbins = sorted(glob.glob(os.path.join(nm, "fatbin", "*.fatbin"))) + sorted(glob.glob(os.path.join(tc, "*.fatbin")))
    objects = (sorted(glob.glob(os.path.join(tc, "*.o"))) + sorted(glob.glob(os.path.join(nm, "rdc", "*.o")))
               + sorted(glob.glob(os.path.join(tc, "*.cubin"))) + sorted(glob.glob(os.path.join(nm, "cubin", "*.cubin"))))
    libraries = [p for p in (os.path.join(tc, "libframes.so"), os.path.join(tc, "libframes_zstd.so"),
                             os.path.join(tc, "libframes_lz4.so"), os.path.join(nm, "so", "libmatrix_default.so"))
                 if os.path.isfile(p)]
    if not fatbins or not objects or not libraries:
        sys.exit("bench-cold ci-size: no nvcc-built test binaries in target/test-cuda and target/native-matrix: "
                 "run ./mvnw -o generate-test-resources first")
    copies = [int(c) for c in os.environ.get("COPIES", "1 10 100").split()]
    header = environment()
    header.append("inputs: fatbin = N x the containers of " + ", ".join(os.path.basename(p) for p in fatbins)
                  + f" concatenated; archive = ar of N renamed copies of {len(objects)} objects and cubins; "
                  + "libraries = a folder of N copies of " + ", ".join(os.path.basename(p) for p in libraries))
    for line in header:
        say(line)
    if not CUOBJDUMP:
        say("(1) skipped: no cuobjdump on PATH or in /usr/local/cuda/bin")
    work = tempfile.mkdtemp(prefix="bench-cold-ci-")
    done = []
    try:
        for n in copies:
            inputs = []
            fat = os.path.join(work, f"ci-{n}x.fatbin")
            with open(fat, "wb") as out:
                for _ in range(n):
                    for p in fatbins:
                        with open(p, "rb") as f:
                            out.write(f.read())
            inputs.append(("fatbin", fat, 1))
            archive = os.path.join(work, f"libci-{n}x.a")
            write_ar(archive, [(f"c{i:03d}_{os.path.basename(p)}", p) for i in range(n) for p in objects])
            inputs.append(("archive", archive, 1))
            folder = os.path.join(work, f"libraries-{n}x")
            os.makedirs(folder)
            for i in range(n):
                for p in libraries:
                    base = os.path.basename(p)
                    shutil.copyfile(p, os.path.join(folder, base.replace(".so", f"_c{i:03d}.so")))
            inputs.append(("libraries", folder, n * len(libraries)))
            for kind, path, files in inputs:
                label = f"{kind} {n}x"
                say(f"{label}: {size_of(path) / 1e6:.1f} MB")
                records = ""
                for rnd in range(1, ROUNDS + 1):
                    parts = []
                    if CUOBJDUMP and kind != "libraries":
                        s, rss, rc = timed([CUOBJDUMP, "--dump-resource-usage", path])
                        record(path, "all", "1", rnd, s, rss, rc, "", label)
                        parts.append(f"(1) {s:.2f} s {mib(rss)}")
                    out = os.path.join(work, "out")
                    shutil.rmtree(out, ignore_errors=True)
                    err = os.path.join(OUTDIR, "logs", f"ci-{kind}-{n}x.stderr.txt")
                    s, rss, rc = timed([JAVA, "-cp", CP, MAIN, "--engine", "native", "--devices", DEVICES,
                                        "--output", out] + NO_CACHE + [path], "all", err)
                    ok = rc in (0, 1)
                    record(path, "all", "2", rnd, s, rss, 0 if ok else rc, "" if ok else first_line(err), label)
                    parts.append(f"(2) {s:.2f} s {mib(rss)}" + ("" if ok else f" FAILED rc {rc}: {first_line(err)}"))
                    if not records:
                        try:
                            with open(os.path.join(out, "cuda-stack-budget.json")) as f:
                                report = json.load(f)
                            records = str(sum(int(l.get("records", 0)) for l in report.get("libraries", [])))
                        except (OSError, ValueError, AttributeError, TypeError):
                            records = "?"
                    say(f"  round {rnd}: " + ", ".join(parts))
                done.append((kind, n, path, files, records))
            shutil.rmtree(folder, ignore_errors=True)
            for p in (fat, archive):
                os.remove(p)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    head = ["input", "copies", "files", "MB", "records", "(1) cuobjdump s", "(2) fresh JVM s", "(2) vs 1x",
            "RSS (1)", "RSS (2)", "RSS (2) vs 1x"]
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    base = {}
    for kind, n, path, files, records in done:
        rows = [r for r in ROWS if r["path"] == path]
        one, two = seconds_of(rows, "1"), seconds_of(rows, "2")
        rss1 = max((r["peak_rss_kib"] or 0 for r in rows if r["mode"] == "1"), default=0)
        rss2 = max((r["peak_rss_kib"] or 0 for r in rows if r["mode"] == "2"), default=0)
        mb = max(r["bytes"] for r in rows) / 1e6
        if n == copies[0]:
            base[kind] = (stats(two)[0] if two else None, rss2)
        t0, r0 = base.get(kind, (None, None))
        grow_t = f"{stats(two)[0] / t0:.2f}x" if two and t0 else ""
        grow_r = f"{rss2 / r0:.2f}x" if rss2 and r0 else ""
        lines.append("| " + " | ".join([kind, str(n), str(files), f"{mb:.1f}", records, cell(one), cell(two), grow_t,
                                        mib(rss1), mib(rss2), grow_r]) + " |")
    notes = ["", f"Seconds: median (min-max) of {ROUNDS} rounds, (1) and (2) alternating; growth against the "
             f"{copies[0]}x input of the same kind. (2): the command line as a fresh JVM, all reports written."]
    if not CUOBJDUMP:
        notes.append("(1) skipped: no cuobjdump on PATH or in /usr/local/cuda/bin.")
    with open(os.path.join(OUTDIR, "ci-size.md"), "w") as f:
        f.write("\n".join(["# bench-cold ci-size", ""] + ["- " + l for l in header] + [""] + lines + notes) + "\n")
    say(f"done in {time.time() - T0:.0f} s; {OUTDIR}/ci-size.md, ci-size.tsv")
    sys.stderr.flush()
    print("\n".join(lines + notes), flush=True)


run() if MODE == "run" else ci_size()
PY
    ;;
*)
    usage
    ;;
esac
