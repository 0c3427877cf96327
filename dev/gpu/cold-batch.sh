#!/usr/bin/env bash
# One short GPU-machine batch for issue 11's cold-run targets, sized for a session's device time (about 3-4 min):
# the current jar's (1)-(4) against cuobjdump, and an A/B of mode (3) against an older jar in the same JVM.
#
#   bash dev/gpu/cold-batch.sh prepare OLD.jar      (here, after 'bash dev/bench-cold.sh prepare')
#        writes CARRY/patch-old.jar (CARRY: $CARRY, else .devcarry/bench): OLD.jar's versions of the class files that
#        differ in the carried plugin jar, so that 'patch-old.jar:carried.jar' loads as OLD.jar where the classes
#        changed (two whole jars do not fit the device tool's 64 MiB). A class only in OLD.jar is an error (the patch
#        could not stand for it).
#   [LIBS="..."] [LIBS4="..."] [ROUNDS=1] bash dev/gpu/cold-batch.sh run OUTDIR      (the GPU machine; CARRY carried)
#        1. two fresh uncached checks of the first library of LIBS on all cores with -Xlog:gc,safepoint and
#           --timings (OUTDIR/fresh-N.out, gc-N.log: the count of "GCLocker Initiated GC" pauses tells whether the
#           decoders' JNI critical regions stall the decode threads);
#        2. dev/bench-cold.sh run on LIBS (default: libcublasLt.so.13 libcudnn_engines_precompiled.so.9
#           libtorch_cuda.so), all cores, ROUNDS rounds -> OUTDIR/bench-all/; then on LIBS4 (default:
#           libcublasLt.so.13) on 4 cores, 1 round -> OUTDIR/bench-4/;
#        3. where CARRY/patch-old.jar exists: BenchCachedAB --uncached (mode (3), one JVM, the two alternating, 5
#           rounds, the first two dropped) of the carried jar against patch-old.jar over it, on the first library
#           -> OUTDIR/ab.txt (its stage lines too).
#        Everything also in OUTDIR.tar.gz (the device tool brings back at most 8 files, 2 folders down).
#        Libraries are names found under the Python environment's site-packages, or paths.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CARRY="${CARRY:-$ROOT/.devcarry/bench}"
usage() {
    echo "usage: $0 prepare OLD.jar | $0 run OUTDIR (settings: see the script's header)" >&2
    exit 2
}
[[ $# -eq 2 ]] || usage
JAR="$(ls "$CARRY"/lib/cuda-stack-budget-maven-plugin-*.jar 2>/dev/null | head -1)"
[[ -n "$JAR" ]] || { echo "$0: no plugin jar in $CARRY/lib: run 'bash dev/bench-cold.sh prepare' first" >&2; exit 2; }
case "$1" in
prepare)
    [[ -f "$2" ]] || { echo "$0: no jar $2" >&2; exit 2; }
    python3 - "$2" "$JAR" "$CARRY/patch-old.jar" <<'PY'
import sys, zipfile
old, new, out = sys.argv[1:]
a, b = zipfile.ZipFile(old), zipfile.ZipFile(new)
an, bn = set(a.namelist()), set(b.namelist())
only_old = sorted(n for n in an - bn if n.endswith('.class'))
if only_old:
    sys.exit(f"{old}: classes the carried jar lacks ({len(only_old)}, e.g. {only_old[0]}); a patch cannot stand for "
             "them: carry the old jar whole instead")
changed = sorted(n for n in bn if n.endswith('.class') and n in an and a.read(n) != b.read(n))
with zipfile.ZipFile(out, 'w') as z:
    for n in changed:
        z.writestr(n, a.read(n))
print(f"{out}: {len(changed)} class file(s) of {old}")
PY
    ;;
run)
    OUT="$2"
    mkdir -p "$OUT"
    J="$CARRY/jre/bin/java"
    LIBS="${LIBS:-libcublasLt.so.13 libcudnn_engines_precompiled.so.9 libtorch_cuda.so}"
    LIBS4="${LIBS4:-libcublasLt.so.13}"
    resolve() {
        if [[ -f "$1" ]]; then echo "$1"; return; fi
        "${PYTHON:-python3}" -c 'import site,glob,sys
hits=[h for d in site.getsitepackages() for h in glob.glob(d+"/**/"+sys.argv[1],recursive=True)]
print(hits[0] if hits else "")' "$1"
    }
    FIRST="$(resolve "${LIBS%% *}")"
    [[ -n "$FIRST" ]] || { echo "$0: ${LIBS%% *} not found under site-packages" >&2; exit 2; }
    for i in 1 2; do
        rm -rf "$OUT/fresh-out"
        "$J" "-Xlog:gc,safepoint:file=$OUT/gc-$i.log" -cp "$JAR" io.github.cudastackbudget.cli.Main --engine native \
            --no-cache --timings --output "$OUT/fresh-out" "$FIRST" > "$OUT/fresh-$i.out" 2>&1 || true
        echo "fresh $i: $(grep -c 'GCLocker Initiated GC' "$OUT/gc-$i.log" || true) GCLocker-initiated GC(s)," \
            "$(grep -c 'Pause Young' "$OUT/gc-$i.log" || true) young pause(s)"
    done
    rm -rf "$OUT/fresh-out"
    BUDGET_S="${BUDGET_S:-110}" ROUNDS="${ROUNDS:-1}" CORES=all LIBS="$LIBS" bash "$ROOT/dev/bench-cold.sh" run \
        "$OUT/bench-all" > "$OUT/bench-all.out" 2>&1 || echo "bench-cold (all cores) failed: $OUT/bench-all.out"
    BUDGET_S=40 ROUNDS=1 CORES=4 LIBS="$LIBS4" bash "$ROOT/dev/bench-cold.sh" run "$OUT/bench-4" \
        > "$OUT/bench-4.out" 2>&1 || echo "bench-cold (4 cores) failed: $OUT/bench-4.out"
    if [[ -f "$CARRY/patch-old.jar" ]]; then
        "$J" -Dbench.timings=true -cp "$CARRY/tools" io.github.cudastackbudget.dev.BenchCachedAB --tools "$CARRY/tools" \
            --work "$OUT/ab-work" --rounds 5 --uncached "$JAR,$CARRY/patch-old.jar:$JAR" "$FIRST" > "$OUT/ab.txt" 2>&1 \
            || echo "A/B failed: $OUT/ab.txt"
        rm -rf "$OUT/ab-work"
        grep -v '^\[timings\]' "$OUT/ab.txt" || true
    fi
    cat "$OUT/bench-all/bench-cold.md" "$OUT/bench-4/bench-cold.md" 2>/dev/null | grep '^|' || true
    # the device tool brings back at most 8 files, 2 folders down: all of it in one archive
    tar -czf "$OUT.tar.gz" -C "$(dirname "$OUT")" "$(basename "$OUT")"
    echo "all of $OUT in $OUT.tar.gz"
    ;;
*)
    usage
    ;;
esac
