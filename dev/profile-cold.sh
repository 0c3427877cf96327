#!/usr/bin/env bash
# Where a cold run's time and memory go (issue 11): JFR recordings of fresh, uncached and cached command-line checks.
#
#   [CARRY=DIR] [LIBS="..."] [DEVICES=a,b,c] [CORES="all 4"] bash dev/profile-cold.sh OUTDIR
#        (the GPU machine, with the folder of 'bash dev/bench-cold.sh prepare' carried; or here on any files)
#        Per library (names under the PyTorch environment's site-packages, or paths; default libtorch_cuda.so,
#        libcublasLt.so.13, libcudnn_engines_precompiled.so.9) and per core count ("all" unpinned, N under
#        taskset -c 0-(N-1)):
#          - cuobjdump --dump-resource-usage once (where found), as the anchor of the same run;
#          - two fresh uncached checks (cli.Main --engine native --no-cache --timings, all reports), wall seconds,
#            with the time of each stage (NAME.CORES.fresh-N.timings.txt);
#          - one fresh uncached check under JFR (settings=profile) -> OUTDIR/NAME.CORES.cold.jfr, with the GC log
#            (NAME.CORES.cold.gc.log) and the check's standard error, each line stamped with its elapsed seconds
#            (NAME.CORES.cold.stderr.txt);
#          - at the first core count: one uncached check under -Xmx512m with native memory tracking
#            (NAME.xmx512m.nmt.txt: where the RSS over the heap goes) and its peak RSS;
#          - the cache primed once in a fresh folder, then two cached checks (their stage times in
#            NAME.CORES.cached-N.timings.txt) and one under JFR (NAME.CORES.cached.jfr).
#          - with ASYNC_PROFILER=/path/to/libasyncProfiler.so (tools.profiler:async-profiler from Maven Central,
#            linux-x64/ of its jar; bench-cold.sh prepare copies it into CARRY/ap/ when ASYNC_PROFILER is set there,
#            and CARRY/ap/libasyncProfiler.so is then used by default): one fresh uncached check sampled by it
#            (CPU time of every thread, 1 ms: the JIT compilers, the GC and native decoders too, which JFR's
#            execution samples leave out) -> NAME.CORES.cold.collapsed (collapsed stacks, one line per stack, the
#            thread first), and one with -XX:+CITime (the JIT compilers' total time: NAME.CORES.citime.txt).
#        OUTDIR/profile-cold.tsv: library, cores, step, seconds, peak RSS KiB, exit status; OUTDIR.tar.gz: all of it.
#        Read the recordings where a JDK is: jfr summary F.jfr; jfr print --events jdk.ExecutionSample F.jfr;
#        jfr view hot-methods F.jfr (JDK 21 and later).
# The carried runtime needs the jdk.jfr module (bench-cold.sh prepare adds it).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CARRY="${CARRY:-$ROOT/.devcarry/bench}"
OUT="${1:-}"
[[ -n "$OUT" ]] || { echo "usage: [CARRY=DIR] [LIBS=...] [CORES=...] $0 OUTDIR" >&2; exit 2; }
JAVA="$CARRY/jre/bin/java"
[[ -x "$JAVA" ]] || { echo "$0: $CARRY has no jre/bin/java: run 'bash dev/bench-cold.sh prepare' and carry it" >&2; exit 2; }
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
LIBS="${LIBS:-libtorch_cuda.so libcublasLt.so.13 libcudnn_engines_precompiled.so.9}"
DEVICES="${DEVICES:-h200-141gb,h100-sxm5-80gb,a100-sxm4-80gb}"
CORES="${CORES:-all 4}"
ASYNC_PROFILER="${ASYNC_PROFILER:-}"
[[ -n "$ASYNC_PROFILER" || ! -f "$CARRY/ap/libasyncProfiler.so" ]] || ASYNC_PROFILER="$CARRY/ap/libasyncProfiler.so"
CUOBJDUMP="$(command -v cuobjdump || true)"
[[ -n "$CUOBJDUMP" || ! -x /usr/local/cuda/bin/cuobjdump ]] || CUOBJDUMP=/usr/local/cuda/bin/cuobjdump
MAIN=io.github.cudastackbudget.cli.Main
TSV="$OUT/profile-cold.tsv"
printf 'library\tcores\tstep\tseconds\tpeak_rss_kib\tstatus\n' > "$TSV"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

site=""
for py in "${PYTHON:-}" python3 python; do
    [[ -n "$py" ]] && command -v "$py" > /dev/null || continue
    site="$("$py" -c "import importlib.util,os;s=importlib.util.find_spec('torch');print(os.path.dirname(os.path.dirname(s.origin)) if s else '')" 2> /dev/null || true)"
    [[ -n "$site" ]] && break
done

# timed NAME CORES STEP ERRFILE CMD...: runs CMD (stdout discarded, stderr stamped into ERRFILE), one TSV row
timed() {
    local name="$1" cores="$2" step="$3" err="$4"
    shift 4
    local pin=()
    [[ "$cores" == all ]] || pin=(taskset -c "0-$((cores - 1))")
    python3 - "$err" "${pin[@]}" "$@" <<'PY' | { read -r s rss rc; printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$cores" "$step" "$s" "$rss" "$rc" >> "$TSV"; echo "  $name cores $cores $step: $s s, peak RSS $rss KiB, exit $rc"; }
import os, subprocess, sys, threading, time
err, cmd = sys.argv[1], sys.argv[2:]
start = time.perf_counter()
keep = os.environ.get("TIMED_STDOUT")
p = subprocess.Popen(cmd, stdout=open(keep, "w") if keep else subprocess.DEVNULL, stderr=subprocess.PIPE)
with open(err, "w") as f:
    for line in p.stderr:
        f.write(f"{time.perf_counter() - start:8.3f} {line.decode(errors='replace')}")
_, status, usage = os.wait4(p.pid, 0)
print(f"{time.perf_counter() - start:.3f} {usage.ru_maxrss} {os.waitstatus_to_exitcode(status)}")
PY
}

first=""
for lib in $LIBS; do
    path="$lib"
    if [[ "$lib" != */* ]]; then
        [[ -n "$site" ]] || { echo "no site-packages found for $lib (PYTHON=/path?)"; continue; }
        path="$(find "$site" -name "$lib" -type f -printf '%s %p\n' 2> /dev/null | sort -rn | head -n 1 | cut -d' ' -f2-)"
    fi
    [[ -f "$path" ]] || { echo "not found: $lib"; continue; }
    name="$(basename "$path")"
    echo "$name: $path ($(stat -c %s "$path") bytes)"
    first_cores=""
    for cores in $CORES; do
        [[ -n "$first_cores" ]] || first_cores="$cores"
        [[ -z "$CUOBJDUMP" ]] || timed "$name" "$cores" cuobjdump /dev/null "$CUOBJDUMP" --dump-resource-usage "$path"
        for i in 1 2; do
            rm -rf "$WORK/o"
            TIMED_STDOUT="$OUT/$name.$cores.fresh-$i.timings.txt" timed "$name" "$cores" "fresh-$i" "$WORK/err" \
                "$JAVA" -cp "$CARRY/lib/*" $MAIN --engine native --devices "$DEVICES" --output "$WORK/o" --no-cache \
                --timings -q "$path"
        done
        rm -rf "$WORK/o"
        timed "$name" "$cores" fresh-jfr "$OUT/$name.$cores.cold.stderr.txt" "$JAVA" \
            "-XX:StartFlightRecording=settings=profile,filename=$OUT/$name.$cores.cold.jfr" \
            "-Xlog:gc*:file=$OUT/$name.$cores.cold.gc.log" -cp "$CARRY/lib/*" $MAIN --engine native \
            --devices "$DEVICES" --output "$WORK/o" --no-cache -v "$path"
        ls -l "$WORK/o" > "$OUT/$name.reports.txt"
        if [[ -n "$ASYNC_PROFILER" ]]; then
            rm -rf "$WORK/o"
            timed "$name" "$cores" fresh-async-profiler "$WORK/err" "$JAVA" \
                "-agentpath:$ASYNC_PROFILER=start,event=cpu,interval=1ms,threads,collapsed,file=$OUT/$name.$cores.cold.collapsed" \
                -cp "$CARRY/lib/*" $MAIN --engine native --devices "$DEVICES" --output "$WORK/o" --no-cache -q "$path"
            rm -rf "$WORK/o"
            TIMED_STDOUT="$OUT/$name.$cores.citime.txt" timed "$name" "$cores" fresh-citime "$WORK/err" "$JAVA" \
                -XX:+UnlockDiagnosticVMOptions -XX:+CITime -cp "$CARRY/lib/*" $MAIN --engine native \
                --devices "$DEVICES" --output "$WORK/o" --no-cache -q "$path"
        fi
        if [[ "$cores" == "$first_cores" ]]; then
            rm -rf "$WORK/o"
            timed "$name" "$cores" xmx512m-nmt "$WORK/err" "$JAVA" -Xmx512m -XX:NativeMemoryTracking=summary \
                -XX:+UnlockDiagnosticVMOptions -XX:+PrintNMTStatistics -cp "$CARRY/lib/*" $MAIN --engine native \
                --devices "$DEVICES" --output "$WORK/o" --no-cache "$path"
            # the NMT summary is printed on standard output at exit: run once more to keep it
            "$JAVA" -Xmx512m -XX:NativeMemoryTracking=summary -XX:+UnlockDiagnosticVMOptions -XX:+PrintNMTStatistics \
                -cp "$CARRY/lib/*" $MAIN --engine native --devices "$DEVICES" --output "$WORK/o" --no-cache -q "$path" \
                > "$OUT/$name.xmx512m.nmt.txt" 2>&1 || true
        fi
        rm -rf "$WORK/cache"
        timed "$name" "$cores" cache-prime "$WORK/err" "$JAVA" -cp "$CARRY/lib/*" $MAIN --engine native \
            --devices "$DEVICES" --output "$WORK/o" --cache-directory "$WORK/cache" "$path"
        for i in 1 2; do
            TIMED_STDOUT="$OUT/$name.$cores.cached-$i.timings.txt" timed "$name" "$cores" "cached-$i" "$WORK/err" \
                "$JAVA" -cp "$CARRY/lib/*" $MAIN --engine native --devices "$DEVICES" --output "$WORK/o" \
                --cache-directory "$WORK/cache" --timings -q "$path"
        done
        timed "$name" "$cores" cached-jfr "$OUT/$name.$cores.cached.stderr.txt" "$JAVA" \
            "-XX:StartFlightRecording=settings=profile,filename=$OUT/$name.$cores.cached.jfr" \
            -cp "$CARRY/lib/*" $MAIN --engine native --devices "$DEVICES" --output "$WORK/o" \
            --cache-directory "$WORK/cache" "$path"
    done
done
# one archive of everything (the device tool brings back a limited number of files)
tar -czf "$OUT.tar.gz" -C "$(dirname "$OUT")" "$(basename "$OUT")"
echo "done: $TSV; all of $OUT in $OUT.tar.gz"
