#!/usr/bin/env bash
# A/B of two plugin jars as fresh processes, alternating with cuobjdump in the same rounds (issue 11): what one change
# does to a cold check, on a machine whose speed varies from run to run.
#
#   [CARRY=DIR] [OLD=DIR] [ROUNDS=3] [CORES="all 4"] [LIBS="..."] bash dev/bench-jar-ab.sh OUTDIR
#        CARRY (default .devcarry/bench, from 'bench-cold.sh prepare'): its jre/ and lib/ (the new plugin jar and the
#        runtime jars); OLD (default CARRY/old): the other plugin jar, or a folder holding it (and any runtime jar it needs that lib/ lacks), which replaces lib/'s. Per
#        library and core count, each round runs cuobjdump --dump-resource-usage, then the old and the new jar's
#        `cli.Main --engine native --no-cache` (3 devices, all reports; the order of old and new alternates by round).
#        OLD_ARGS / NEW_ARGS: more arguments for the old / the new jar's command line (e.g. NEW_ARGS="--parallelism 16"
#        with OLD=CARRY/lib/THE-PLUGIN.jar: one jar, two settings); JAVA_OPTS: JVM options for both (e.g. -Xmx512m).
#        Prints a Markdown table (median (min-max) seconds, cuobjdump/new, old/new, peak RSS) and writes
#        OUTDIR/ab.md and OUTDIR/ab.tsv.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CARRY="${CARRY:-$ROOT/.devcarry/bench}"
OLD="${OLD:-$CARRY/old}"
OUT="${1:?usage: $0 OUTDIR}"
mkdir -p "$OUT"
JAVA="$CARRY/jre/bin/java"
NEW_CP="$CARRY/lib/*"
OLD_JAR="$OLD"
[[ -f "$OLD_JAR" ]] || OLD_JAR="$(ls "$OLD"/*.jar | tr '\n' ':')"
OLD_CP="$OLD_JAR:$(ls "$CARRY"/lib/*.jar | { grep -v cuda-stack-budget-maven-plugin || true; } | tr '\n' ':')"  # none since the jar is shaded
CUOBJDUMP="$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)"
[[ -x "$CUOBJDUMP" ]] || { echo "(no cuobjdump: its column stays empty)"; CUOBJDUMP=""; }
ROUNDS="${ROUNDS:-3}" CORES="${CORES:-all 4}" LIBS="${LIBS:-libtorch_cuda.so libcublasLt.so.13 libcudnn_engines_precompiled.so.9}" \
OLD_ARGS="${OLD_ARGS:-}" NEW_ARGS="${NEW_ARGS:-}" JAVA_OPTS="${JAVA_OPTS:-}" JAVA="$JAVA" NEW_CP="$NEW_CP" OLD_CP="$OLD_CP" CUOBJDUMP="$CUOBJDUMP" OUT="$OUT" python3 - <<'PY'
import os, subprocess, statistics, tempfile, shutil, time
env = os.environ
site = subprocess.run(["python3", "-c", "import importlib.util,os;s=importlib.util.find_spec('torch');"
                       "print(os.path.dirname(os.path.dirname(s.origin)) if s else '')"],
                      capture_output=True, text=True).stdout.strip()
def find(name):
    if "/" in name:
        return name
    best = None
    for d, _, files in os.walk(site or "/"):
        if name in files:
            p = os.path.join(d, name)
            if best is None or os.path.getsize(p) > os.path.getsize(best):
                best = p
    return best
def timed(cmd, cores):
    if cores != "all":
        cmd = ["taskset", "-c", f"0-{int(cores) - 1}"] + cmd
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    return time.perf_counter() - start, usage.ru_maxrss, os.waitstatus_to_exitcode(status)
rows = []
out = env["OUT"]
tsv = open(os.path.join(out, "ab.tsv"), "w")
tsv.write("library\tcores\tround\tmode\tseconds\tpeak_rss_kib\tstatus\n")
for lib in env["LIBS"].replace(",", " ").split():
    path = find(lib)
    if not path:
        print("not found:", lib)
        continue
    for cores in env["CORES"].split():
        times = {"cuobjdump": [], "old": [], "new": []}
        rss = {"cuobjdump": [], "old": [], "new": []}
        for r in range(int(env["ROUNDS"])):
            order = ["cuobjdump", "old", "new"] if r % 2 == 0 else ["cuobjdump", "new", "old"]
            if not env["CUOBJDUMP"]:
                order.remove("cuobjdump")
            for mode in order:
                work = tempfile.mkdtemp()
                if mode == "cuobjdump":
                    cmd = [env["CUOBJDUMP"], "--dump-resource-usage", path]
                else:
                    cmd = ([env["JAVA"]] + env["JAVA_OPTS"].split() + ["-cp", env["NEW_CP"] if mode == "new" else env["OLD_CP"],
                           "io.github.cudastackbudget.cli.Main", "--engine", "native", "--devices",
                           "h200-141gb,h100-sxm5-80gb,a100-sxm4-80gb", "--output", work + "/o", "--no-cache", "-q"]
                           + env["NEW_ARGS" if mode == "new" else "OLD_ARGS"].split() + [path])
                s, m, rc = timed(cmd, cores)
                shutil.rmtree(work, ignore_errors=True)
                tsv.write(f"{os.path.basename(path)}\t{cores}\t{r}\t{mode}\t{s:.3f}\t{m}\t{rc}\n")
                tsv.flush()
                print(f"  {os.path.basename(path)} cores {cores} round {r} {mode}: {s:.3f} s, {m} KiB, exit {rc}", flush=True)
                if rc in (0, 1):
                    times[mode].append(s)
                    rss[mode].append(m)
        rows.append((os.path.basename(path), os.path.getsize(path) // 1000000, cores, times, rss))
def fmt(v):
    return f"{statistics.median(v):.2f} ({min(v):.2f}-{max(v):.2f})" if v else "n/a"
lines = ["| library | MB | cores | cuobjdump s | old jar s | new jar s | cuobjdump/new | old/new | RSS old | RSS new |",
         "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|"]
for name, mb, cores, t, m in rows:
    ratio = lambda a, b: f"{statistics.median(a) / statistics.median(b):.2f}" if a and b else "n/a"
    gib = lambda v: f"{max(v) / 1048576:.2f} GiB" if v else "n/a"
    lines.append(f"| {name} | {mb} | {cores} | {fmt(t['cuobjdump'])} | {fmt(t['old'])} | {fmt(t['new'])} | "
                 f"{ratio(t['cuobjdump'], t['new'])} | {ratio(t['old'], t['new'])} | {gib(m['old'])} | {gib(m['new'])} |")
open(os.path.join(out, "ab.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
