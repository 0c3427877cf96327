#!/usr/bin/env bash
# gpu-validate.sh OUTDIR
#
# Runs on the GPU machine (the `device` tool), which has cuobjdump, nvcc and real CUDA libraries but no Java or
# Maven: carry a jlink runtime in .devcarry/jre and the plugin jar plus its runtime jars in .devcarry/lib
# (see src/site/markdown/command-line.md, "Validating on a GPU machine").
#
# For each library it
#   1. times the real `cuobjdump --dump-resource-usage LIB` and keeps its output (the recording),
#   2. runs the plugin core (io.github.cudastackbudget.cli.Main) with the real cuobjdump,
#   3. runs the core again with a replay script that prints the recording instead of running cuobjdump,
#   4. compares the two JSON reports (everything but the engine description must be identical),
# and prints one table. It also records cuobjdump on the nvcc-built unit-test binaries (archive, objects, cubin,
# fatbin, a device-linked -rdc library with recursion) and runs the core on them with the real tool.
set -uo pipefail
export CSB_DEV="$(cd "$(dirname "$0")" && pwd)"  # report_v1.py
OUTDIR="${1:?usage: $0 OUTDIR}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAVA="$ROOT/.devcarry/jre/bin/java"
CP="$ROOT/.devcarry/lib/*"
MAIN=io.github.cudastackbudget.cli.Main
CUOBJDUMP="$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)"
export PATH="$(dirname "$CUOBJDUMP"):$PATH"
DEVICES=h200-141gb,h100-sxm5-80gb,a100-sxm4-80gb,l4,b200,rtx-5090
mkdir -p "$OUTDIR/recordings" "$OUTDIR/reports" "$OUTDIR/logs"
WORK="$(mktemp -d)"

SP="$(python3 -c 'import site; print(site.getsitepackages()[0])')"
find_one() { find "$SP" /usr/local/cuda/ -name "$1" -type f 2>/dev/null | head -1; }
LIBS=()
for name in libtorch_cuda.so libcublasLt.so.13 libnccl.so.2 '*prefixctc*.so' libcusparse.so.12 \
        xla_cuda_plugin.so libcudnn_engines_precompiled.so.9; do
    found="$(find_one "$name")"
    if [[ -n "$found" ]]; then LIBS+=("$found"); else echo "not found: $name"; fi
done

now() { date +%s.%N; }
elapsed() { python3 -c "print(f'{$2-$1:.2f}')"; }

cat > "$WORK/replay-cuobjdump" <<REPLAY
#!/bin/sh
# Replays recordings of the real cuobjdump made by this script (same machine, same run).
if [ "\$1" = "--version" ]; then cat "$OUTDIR/recordings/cuobjdump-version.txt"; exit 0; fi
f="$OUTDIR/recordings/\$(basename "\$2").resource-usage.txt"
[ -f "\$f" ] || { echo "no recording for \$2" >&2; exit 1; }
cat "\$f"
REPLAY
chmod +x "$WORK/replay-cuobjdump"
"$CUOBJDUMP" --version > "$OUTDIR/recordings/cuobjdump-version.txt"

printf '%-28s %9s %9s %9s %9s  %s\n' library records cuobjdump_s real_scan_s replay_s identical > "$OUTDIR/table.txt"
for lib in "${LIBS[@]}"; do
    base="$(basename "$lib")"
    t0=$(now); "$CUOBJDUMP" --dump-resource-usage "$lib" > "$OUTDIR/recordings/$base.resource-usage.txt"; t1=$(now)
    t2=$(now); "$JAVA" -cp "$CP" $MAIN -v --no-detect --devices $DEVICES --output "$WORK/real/$base" "$lib" \
        > "$OUTDIR/logs/$base.real.log" 2>&1; rc_real=$?; t3=$(now)
    t4=$(now); "$JAVA" -cp "$CP" $MAIN -v --no-detect --devices $DEVICES --cuobjdump "$WORK/replay-cuobjdump" \
        --output "$WORK/replay/$base" "$lib" > "$OUTDIR/logs/$base.replay.log" 2>&1; rc_replay=$?; t5=$(now)
    same=$(python3 - "$WORK/real/$base/cuda-stack-budget.json" "$WORK/replay/$base/cuda-stack-budget.json" \
        "$OUTDIR/reports/$base.devices.json" <<'PY'
import json, os, sys
sys.path.insert(0, os.environ["CSB_DEV"])
import report_v1  # schema 2 read as schema 1's shape
a, b = (report_v1.load(p) for p in sys.argv[1:3])
for d in (a, b):
    d.pop("engine", None)
json.dump({"libraries": a["libraries"], "devices": [{k: v for k, v in dev.items()
          if k not in ("ambiguousKernels", "jitKernels", "cannotRunKernels")} | {
          "jit": len(dev["jitKernels"]), "cannotRun": len(dev["cannotRunKernels"]),
          "ambiguous": len(dev["ambiguousKernels"])} for dev in a["devices"]],
          "kernelRecords": len(a["kernels"]), "violations": a["violations"], "warnings": a["warnings"]},
          open(sys.argv[3], "w"), indent=1)
print("yes" if a == b else "NO")
PY
)
    records=$(grep -c 'REG:' "$OUTDIR/recordings/$base.resource-usage.txt")
    printf '%-28s %9s %9s %9s %9s  %s (rc %s/%s)\n' "$base" "$records" "$(elapsed $t0 $t1)" "$(elapsed $t2 $t3)" \
        "$(elapsed $t4 $t5)" "$same" "$rc_real" "$rc_replay" >> "$OUTDIR/table.txt"
done

# the whole torch/lib folder in one run (parallel reads), against the sum of cuobjdump's own times
TORCH_LIB="$(dirname "${LIBS[0]}")"
t0=$(now); total_cuobjdump=0
for f in $(find "$TORCH_LIB" -maxdepth 1 -name '*.so*' -type f); do
    s0=$(now); "$CUOBJDUMP" --dump-resource-usage "$f" > /dev/null 2>&1; s1=$(now)
    total_cuobjdump=$(python3 -c "print($total_cuobjdump + $s1 - $s0)")
done
t1=$(now)
"$JAVA" -cp "$CP" $MAIN -q --no-detect --devices $DEVICES --output "$WORK/torchlib" "$TORCH_LIB" \
    > "$OUTDIR/logs/torch-lib-dir.log" 2>&1; rc=$?; t2=$(now)
echo "torch/lib folder: cuobjdump one file at a time $(elapsed $t0 $t1) s; whole scan (parallel, JSON, demangling) $(elapsed $t1 $t2) s, rc $rc" >> "$OUTDIR/table.txt"

# the example library built here by the example's own build.sh, checked with the real cuobjdump, against the IT recording
DEMO="$WORK/demo"; mkdir -p "$DEMO"
bash "$ROOT/examples/stack-demo/src/main/cuda/build.sh" "$ROOT/examples/stack-demo/src/main/cuda/stack_demo.cu" \
    "$DEMO/libstackdemo.so" > "$OUTDIR/logs/stackdemo-build.log" 2>&1
"$CUOBJDUMP" --dump-resource-usage "$DEMO/libstackdemo.so" > "$WORK/stackdemo.txt"
if cmp -s "$WORK/stackdemo.txt" "$ROOT/src/it/shared/recordings/libstackdemo.so.resource-usage.txt"; then
    echo "stack-demo: real cuobjdump output identical to the IT recording" >> "$OUTDIR/table.txt"
else
    echo "stack-demo: real cuobjdump output DIFFERS from the IT recording" >> "$OUTDIR/table.txt"
fi
"$JAVA" -cp "$CP" $MAIN -v --no-detect --devices h200-141gb,l4,rtx-5090 --max-reservation 4GiB --output "$WORK/demo-report" \
    "$DEMO/libstackdemo.so" > "$OUTDIR/logs/stackdemo-check.log" 2>&1
echo "stack-demo check rc=$?" >> "$OUTDIR/table.txt"

# default devices: nvidia-smi detection on this machine
"$JAVA" -cp "$CP" $MAIN --output "$WORK/detect" "${LIBS[2]:-${LIBS[0]}}" > "$OUTDIR/logs/detect.log" 2>&1
echo "detect rc=$?" >> "$OUTDIR/table.txt"

# unit-test binaries built here with nvcc: archive/object/cubin/fatbin formats and a real STACK:UNKNOWN
BIN="$WORK/test-cuda"
bash "$ROOT/src/test/cuda/build-test-binaries.sh" "$BIN" > "$OUTDIR/logs/test-binaries-build.log" 2>&1
nvcc -O2 -shared -Xcompiler -fPIC -rdc=true -arch=sm_90 "$ROOT/src/test/cuda/frames.cu" -o "$BIN/libframes_rdc.so" \
    >> "$OUTDIR/logs/test-binaries-build.log" 2>&1
for f in "$BIN"/*.so "$BIN"/*.o "$BIN"/*.a "$BIN"/*.cubin "$BIN"/*.fatbin; do
    "$CUOBJDUMP" --dump-resource-usage "$f" > "$OUTDIR/recordings/test-$(basename "$f").resource-usage.txt" 2>&1
    echo "$(basename "$f") exit=$?" >> "$OUTDIR/recordings/test-binaries-exit-codes.txt"
done
"$JAVA" -cp "$CP" $MAIN -v --top 0 --no-detect --devices h200-141gb,a100-sxm4-80gb --output "$WORK/testbin" "$BIN" \
    > "$OUTDIR/logs/test-binaries.log" 2>&1
echo "test binaries rc=$?" >> "$OUTDIR/table.txt"
cp "$WORK/testbin/cuda-stack-budget.json" "$OUTDIR/reports/test-binaries.json" 2>/dev/null
(cd "$OUTDIR" && tar czf recordings.tgz recordings && tar czf logs.tgz logs reports && rm -rf recordings logs reports)
cat "$OUTDIR/table.txt"
