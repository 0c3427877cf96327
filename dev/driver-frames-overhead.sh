#!/usr/bin/env bash
# driver-frames-overhead.sh OUTDIR: the launch overhead part of driver-frames-validate.sh alone, more rounds:
# runtime launches (<<<>>>, launch-probe overhead) and driver launches (cuLaunchKernel, nvrtc-frame overhead) of a tiny
# kernel, 100,000 per process (best of 5 rounds inside), without a library / the format-1 library / this one, 4 rounds
# in rotating order, each process pinned to CPU 2 (taskset). Same folder layout as driver-frames-validate.sh.
set -uo pipefail
OUTDIR="${1:?usage: $0 OUTDIR}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WORK="$(mktemp -d)"; mkdir -p "$OUTDIR"; export PATH="/usr/local/cuda/bin:$PATH"; CUDA=/usr/local/cuda
bash "$HERE/native/build.sh" "$WORK/v2" > /dev/null && bash "$HERE/native-v1/build.sh" "$WORK/v1" > /dev/null || exit 1
gcc -O2 -I$CUDA/include "$HERE/nvrtc-frame.c" -L$CUDA/lib64 -L$CUDA/lib64/stubs -lnvrtc -lcuda -o "$WORK/nvrtc-frame" || exit 1
nvcc -O2 -gencode arch=compute_90,code=sm_90 -o "$WORK/launch-probe" "$HERE/launch-probe.cu" -ldl -lpthread || exit 1
run() { local lib="$1"; shift
    if [[ "$lib" == none ]]; then taskset -c 2 "$@"; else
        CUDA_INJECTION64_PATH="$lib" NVTX_INJECTION64_PATH="$lib" CUDA_STACK_BUDGET_LAUNCH_LOG="$WORK/o.log" taskset -c 2 "$@"; fi \
        2>&1 | grep OVERHEAD | tail -1 | grep -o '[0-9]*$'; }
variants=(plain v1 v2)
for round in 1 2 3 4; do
    for i in 0 1 2; do
        v=${variants[$(( (i + round) % 3 ))]}
        case $v in plain) lib=none ;; v1) lib="$WORK/v1/libcuda-stack-budget-cupti.so" ;; v2) lib="$WORK/v2/libcuda-stack-budget-cupti.so" ;; esac
        echo "round=$round variant=$v-rt launchesPerSecond=$(run "$lib" "$WORK/launch-probe" overhead 100000)"
        echo "round=$round variant=$v-drv launchesPerSecond=$(run "$lib" "$WORK/nvrtc-frame" overhead 100000)"
    done
done | tee "$OUTDIR/overhead-pinned.txt"
python3 - "$OUTDIR/overhead-pinned.txt" <<'PY'
import re, statistics, sys
rates = {}
for line in open(sys.argv[1]):
    m = re.search(r"variant=(\S+) launchesPerSecond=(\d+)", line)
    if m: rates.setdefault(m.group(1), []).append(int(m.group(2)))
for k in sorted(rates):
    v = rates[k]; med = statistics.median(v)
    print(f"{k}: median {med:.0f} launches/s ({1e9/med:.0f} ns per launch), runs {v}")
PY
