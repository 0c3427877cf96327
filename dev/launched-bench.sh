#!/usr/bin/env bash
# Measures what launched mode adds to a check: the same check of a real library's recorded kernels, without and with a
# launch log (reading the log and the library log, matching, the launched figures and report keys).
#
#   dev/launched-bench.sh [ROWS_PER_KERNEL] [RUNS]      (defaults: 20 attributions per kernel, 5 runs)
#
# Input: the nvcc-built target/test-cuda/libframes.so staged as libnccl.so.2, read by a stand-in for cuobjdump that
# replays the REAL cuobjdump 13.0 output recorded for libnccl.so.2 (../shared/fixtures/cuobjdump/, 5,312 records of
# 771 functions). The launch log lists every function of that recording ROWS_PER_KERNEL times with different
# attributions, in the injection library's format. Needs a built tree (./mvnw -B -o test-compile) and prints the
# median wall time of the command-line check in each mode.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROWS="${1:-20}"
RUNS="${2:-5}"
FIXTURE="$ROOT/../shared/fixtures/cuobjdump/libnccl.so.2.resource-usage.txt.gz"
[[ -f "$FIXTURE" ]] || { echo "missing $FIXTURE (the shared fixtures beside the clone)" >&2; exit 1; }
[[ -f "$ROOT/target/test-cuda/libframes.so" && -d "$ROOT/target/classes" ]] \
    || { echo "build first: ./mvnw -B -o test-compile" >&2; exit 1; }
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
(cd "$ROOT" && ./mvnw -B -o -q dependency:build-classpath -Dmdep.outputFile="$WORK/cp.txt" -Dmdep.includeScope=runtime)
CP="$ROOT/target/classes:$(cat "$WORK/cp.txt")"
mkdir -p "$WORK/libs"
cp "$ROOT/target/test-cuda/libframes.so" "$WORK/libs/libnccl.so.2"
cat > "$WORK/cuobjdump" <<SCRIPT
#!/bin/sh
# replays the REAL cuobjdump 13.0 output recorded for libnccl.so.2
if [ "\$1" = --version ]; then cat "$ROOT/src/it/shared/recordings/cuobjdump-version.txt"; exit 0; fi
exec gzip -dc "$FIXTURE"
SCRIPT
chmod +x "$WORK/cuobjdump"
{
    echo "# cuda-stack-budget launch log 1"
    echo "# status: ok"
    echo "# processes: 1"
    gzip -dc "$FIXTURE" | sed -n 's/^ *Function \(.*\):$/\1/p' | sort -u | while read -r name; do
        for ((i = 0; i < ROWS; i++)); do printf '%s\tworker-%d\t%d\n' "$name" "$i" $((i * 128)); done
    done
} > "$WORK/launch.log"
printf '# cuda-stack-budget library log 1\n%s\n' "$WORK/libs/libnccl.so.2" > "$WORK/launch.log.libraries"
echo "launch log: $(grep -vc '^#' "$WORK/launch.log") rows, $(wc -c < "$WORK/launch.log") bytes"

once() {
    local start end
    start=$(date +%s%N)
    java -cp "$CP" io.github.cudastackbudget.cli.Main --no-detect --devices h200-141gb,l4,b200 --engine cuobjdump \
        --cuobjdump "$WORK/cuobjdump" --output "$WORK/out" -q "$@" "$WORK/libs" > /dev/null 2>&1 || [[ $? -eq 1 ]]
    end=$(date +%s%N)
    echo $(((end - start) / 1000000))
}
median() {
    printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"
}
# alternate the two modes, so that load from other processes hits both alike
static_times=()
launched_times=()
for ((r = 0; r < RUNS; r++)); do
    static_times+=("$(once)")
    launched_times+=("$(once --launch-log "$WORK/launch.log")")
done
static_ms=$(median "${static_times[@]}")
launched_ms=$(median "${launched_times[@]}")
echo "static check:   median ${static_ms} ms over $RUNS runs (${static_times[*]})"
echo "launched check: median ${launched_ms} ms over $RUNS runs (${launched_times[*]}); difference $((launched_ms - static_ms)) ms"
python3 - "$WORK/out/cuda-stack-budget.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
launched = report["launched"]
print(f"last launched report: {launched['kernels']} kernels, {launched['matched']} matched, "
      f"{launched['unmatched']} unmatched; h200 launched {report['devices'][0]['launchedReservationBytes']} B, "
      f"static {report['devices'][0]['staticReservationBytes']} B")
PY
