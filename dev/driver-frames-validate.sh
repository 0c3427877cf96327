#!/usr/bin/env bash
# driver-frames-validate.sh OUTDIR
#
# GPU validation of the launch log's driver frames (issue 13, format 2). Runs on the GPU machine (the `device` tool:
# one H200, CUDA 13.0, PyTorch; no Maven) from a folder holding (a carried copy of) these paths:
#   native/        src/main/native (build.sh + cupti-injection/): the library under test, built here
#   native-v1/     the same folder of the base commit (format 1, no driver query): the overhead comparison
#   nvrtc-frame.c, launch-probe.cu (src/test/native), this script, and optionally lib/ (the plugin's jar and its
#   runtime jars) with a Java runtime ($JAVA, default jre/bin/java here) to run the check itself on the recorded logs
#
#  1. builds both libraries, the NVRTC workload (gcc) and the probe (nvcc, with -DLAUNCH_PROBE_GRAPHS)
#  2. nvrtc-frame frames under the library: two run-time compiled kernels (SASS via nvrtcGetCUBIN, PTX JIT-compiled
#     by the driver) launched with cuLaunchKernel, frames in no file
#  3. launch-probe phases and graphs under the library (runtime <<<>>>, cudaLaunchKernelEx, cuLaunchKernel, graph
#     kernel nodes): the driver frames against cuobjdump's STACK
#  4. PyTorch under the library: FFT (cuFFT runtime kernels), the jiterator (torch.special.i0e on contiguous,
#     non-contiguous and float64 input, i1e, bessel_j0), torch.special.gammainc on float64 (10,208 B frame in
#     libtorch_cuda.so), a cuDNN convolution; the stack limit read at the end
#  5. the check (Java CLI) on each log: launched reservation vs 270,336 x roundup16(limit), unmatched kernels counted
#  6. launch overhead: launches/s without a library, with the format-1 library, with this one (driver launches of an
#     NVRTC kernel, runtime launches of the probe's empty kernel), 3 rounds in rotating order
set -uo pipefail
OUTDIR="${1:?usage: $0 OUTDIR}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WORK="$(mktemp -d)"
mkdir -p "$OUTDIR"
export PATH="/usr/local/cuda/bin:$PATH"
CUDA=/usr/local/cuda
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    nvcc --version | tail -2
    python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version())' 2>&1
} > "$OUTDIR/environment.txt"
cat "$OUTDIR/environment.txt"

# 1. builds
bash "$HERE/native/build.sh" "$WORK/v2" > "$WORK/build.log" 2>&1 || { cat "$WORK/build.log"; exit 1; }
bash "$HERE/native-v1/build.sh" "$WORK/v1" >> "$WORK/build.log" 2>&1 || { cat "$WORK/build.log"; exit 1; }
LIB="$WORK/v2/libcuda-stack-budget-cupti.so"; LIB1="$WORK/v1/libcuda-stack-budget-cupti.so"
gcc -O2 -I$CUDA/include "$HERE/nvrtc-frame.c" -L$CUDA/lib64 -L$CUDA/lib64/stubs -lnvrtc -lcuda -o "$WORK/nvrtc-frame" \
    || exit 1
nvcc -O2 -gencode arch=compute_90,code=sm_90 -DLAUNCH_PROBE_GRAPHS -o "$WORK/launch-probe" "$HERE/launch-probe.cu" \
    -ldl -lpthread || exit 1
cuobjdump --dump-resource-usage "$WORK/launch-probe" > "$OUTDIR/launch-probe.resource-usage.txt"
echo "built: $(tail -2 "$WORK/build.log" | tr '\n' ' ')"
inject() { local lib="$1" log="$2"; shift 2
    CUDA_INJECTION64_PATH="$lib" NVTX_INJECTION64_PATH="$lib" CUDA_STACK_BUDGET_LAUNCH_LOG="$log" "$@"; }

# 2. NVRTC
"$WORK/nvrtc-frame" frames > "$OUTDIR/nvrtc-plain.txt" 2>&1; echo "nvrtc plain: rc $?"
CUDA_STACK_BUDGET_DEBUG=1 inject "$LIB" "$OUTDIR/nvrtc.launch.log" "$WORK/nvrtc-frame" frames \
    > "$OUTDIR/nvrtc-injected.txt" 2>&1; echo "nvrtc injected: rc $?"
cat "$OUTDIR/nvrtc-injected.txt" "$OUTDIR/nvrtc.launch.log"

# 3. probe
CUDA_STACK_BUDGET_DEBUG=1 inject "$LIB" "$OUTDIR/probe.launch.log" "$WORK/launch-probe" phases \
    > "$OUTDIR/probe-injected.txt" 2>&1; echo "probe phases: rc $?"
CUDA_STACK_BUDGET_DEBUG=1 inject "$LIB" "$OUTDIR/graphs.launch.log" "$WORK/launch-probe" graphs \
    > "$OUTDIR/graphs-injected.txt" 2>&1; echo "probe graphs: rc $?"
grep -h 'cuda-stack-budget:' "$OUTDIR/probe-injected.txt" "$OUTDIR/graphs-injected.txt"
cat "$OUTDIR/probe.launch.log" "$OUTDIR/graphs.launch.log"

# 4. PyTorch
cat > "$WORK/torch-work.py" <<'PY'
import ctypes, sys
import torch
torch.cuda.init()
torch.empty(1, device="cuda")
cudart = next((l.split()[-1] for l in open("/proc/self/maps") if "libcudart.so" in l), "libcudart.so")
runtime = ctypes.CDLL(cudart)
def limit():
    v = ctypes.c_size_t(); assert runtime.cudaDeviceGetLimit(ctypes.byref(v), 0) == 0; return v.value
nvtx = torch.cuda.nvtx
start = limit()
nvtx.range_push("fft")
for n in (1000, 1031, 4096, 3 * 7 * 11 * 13, 65537):
    x = torch.randn(8, n, device="cuda", dtype=torch.complex64)
    torch.fft.ifft(torch.fft.fft(x))
    torch.fft.irfft(torch.fft.rfft(torch.randn(4, n, device="cuda")), n=n)
torch.fft.fftn(torch.randn(16, 33, 47, device="cuda", dtype=torch.complex128))
torch.cuda.synchronize(); nvtx.range_pop()
nvtx.range_push("jiterator")
a = torch.randn(1 << 16, device="cuda")
torch.special.i0e(a); torch.special.i0e(a[::3]); torch.special.i0e(a.double())
torch.special.i1e(a); torch.special.bessel_j0(a)
torch.cuda.synchronize(); nvtx.range_pop()
nvtx.range_push("igamma")  # a large static frame (10,208 B in libtorch_cuda.so): static against driver figure
g = torch.rand(1 << 16, dtype=torch.float64, device="cuda") * 10 + 0.1
torch.special.gammainc(g, g.flip(0))
torch.cuda.synchronize(); nvtx.range_pop()
nvtx.range_push("cudnn-conv")
torch.backends.cudnn.benchmark = False
conv = torch.nn.Conv2d(16, 32, 3, padding=1).cuda()
img = torch.randn(8, 16, 64, 64, device="cuda")
conv(img).sum().backward()
with torch.autocast("cuda", dtype=torch.float16):
    conv(img)
torch.cuda.synchronize(); nvtx.range_pop()
p = torch.cuda.get_device_properties(0)
print(f"TORCH version={torch.__version__} sms={p.multi_processor_count} limitStart={start} limitEnd={limit()}")
PY
python3 "$WORK/torch-work.py" > "$OUTDIR/torch-plain.txt" 2>&1; echo "torch plain: rc $? $(tail -1 "$OUTDIR/torch-plain.txt")"
CUDA_STACK_BUDGET_DEBUG=1 inject "$LIB" "$OUTDIR/torch.launch.log" python3 "$WORK/torch-work.py" \
    > "$OUTDIR/torch-injected.txt" 2>&1; echo "torch injected: rc $? $(grep -h 'TORCH\|cuda-stack-budget:' "$OUTDIR/torch-injected.txt" | tr '\n' ' ')"
echo "torch log: $(grep -vc '^#' "$OUTDIR/torch.launch.log") rows, $(grep -v '^#' "$OUTDIR/torch.launch.log" | cut -f4 | grep -c unknown) with an unknown frame"
rm -f "$OUTDIR"/*.lock

# 5. the check on each log
JAVA="${JAVA:-$HERE/jre/bin/java}"
TORCH_LIB="$(python3 -c 'import torch, os; print(os.path.join(os.path.dirname(torch.__file__), "lib"))')"
check() { local name="$1" log="$2"; shift 2
    if [[ -x "$JAVA" ]]; then
        ( time timeout 150 "$JAVA" -Xmx24g -cp "$HERE/lib/*" io.github.cudastackbudget.cli.Main --devices h200-141gb \
            --launch-log "$log" --library-log "$log.libraries" --output "$WORK/check-$name" --no-cache --parallelism 16 \
            -v "$@" ) > "$OUTDIR/check-$name.txt" 2>&1
        echo "check $name: rc $?"; cp "$WORK/check-$name/cuda-stack-budget.json" "$OUTDIR/check-$name.json" 2>/dev/null
        grep -h 'WARNING\|launched reservation\|driver-reported\|^real' "$OUTDIR/check-$name.txt" | cut -c1-400 | head -30
    fi
}
check nvrtc "$OUTDIR/nvrtc.launch.log" "$WORK/launch-probe"
check probe "$OUTDIR/probe.launch.log" "$WORK/launch-probe"
check graphs "$OUTDIR/graphs.launch.log" "$WORK/launch-probe"
check torch "$OUTDIR/torch.launch.log" "$TORCH_LIB/libtorch_cuda.so"

# 6. overhead
variant() { case "$1" in
    plain-drv) "$WORK/nvrtc-frame" overhead 200000 ;;
    v1-drv) inject "$LIB1" "$WORK/o1.log" "$WORK/nvrtc-frame" overhead 200000 ;;
    v2-drv) inject "$LIB" "$WORK/o2.log" "$WORK/nvrtc-frame" overhead 200000 ;;
    plain-rt) "$WORK/launch-probe" overhead 200000 ;;
    v1-rt) inject "$LIB1" "$WORK/o3.log" "$WORK/launch-probe" overhead 200000 ;;
    v2-rt) inject "$LIB" "$WORK/o4.log" "$WORK/launch-probe" overhead 200000 ;;
esac 2>&1 | grep OVERHEAD | tail -1; }
for round in 1 2 3; do
    case $round in 1) order="plain-drv v1-drv v2-drv plain-rt v1-rt v2-rt" ;; 2) order="v2-drv plain-drv v1-drv v2-rt plain-rt v1-rt" ;;
        3) order="v1-drv v2-drv plain-drv v1-rt v2-rt plain-rt" ;; esac
    for v in $order; do echo "OVERHEAD round=$round variant=$v $(variant $v)"; done
done | tee "$OUTDIR/overhead.txt"

# 7. the table
python3 - "$OUTDIR" <<'PY'
import json, re, sys, os
out = sys.argv[1]
R = 132 * 2048
def r16(x): return (x + 15) // 16 * 16
def limit_of(name):
    text = open(f"{out}/{name}").read()
    m = re.findall(r"(?:limitEnd|limitAfter|limit)=(\d+)", text)
    return int(m[-1]) if m else None
rows = [("nvrtc", "nvrtc-injected.txt"), ("probe", "probe-injected.txt"), ("graphs", "graphs-injected.txt"), ("torch", "torch-injected.txt")]
print("(the check's launched reservation is R x roundup16(largest launched frame); the driver's limit never goes below")
print(" its 1024-B default, so the predicted total is R x roundup16(max(1024, largest launched frame)))")
print("| run | measured limit | R x roundup16(limit) | check: launched reservation | equal | kernels | matched | unmatched | driver-reported | uncounted | driver/static differences |")
for name, text in rows:
    lim = limit_of(text)
    try:
        j = json.load(open(f"{out}/check-{name}.json"))
    except Exception as e:
        print(f"| {name} | {lim} | | no report ({e}) |"); continue
    d = j["devices"][0]; l = j.get("launched", {})
    kernels = d.get("launchedKernels", [])
    drv = sum(1 for k in kernels if k.get("frameSource") == "driver")
    un = l.get("unmatched"); unc = sum(1 for k in j.get("unmatchedLaunchedKernels", []) if (k.get("driverFrame") or {}).get("localBytes") is None)
    diff = len(d.get("launchedDriverDifferences", []))
    pred = R * r16(lim) if lim is not None else None
    total = max(d.get('launchedReservationBytes') or 0, R * 1024)
    print(f"| {name} | {lim} | {pred} | {d.get('launchedReservationBytes')} (total {total}) | {pred == total} | {l.get('kernels')} | {l.get('matched')} | {un} | {drv} | {unc} | {diff} |")
PY

# what comes back: the console, the table, and one archive of everything else (the device tool returns 8 files)
python3 - "$OUTDIR" <<'PY'
import json, sys
out = sys.argv[1]
for name in ("nvrtc", "probe", "graphs", "torch"):
    try:
        j = json.load(open(f"{out}/check-{name}.json"))
    except Exception:
        continue
    d = j["devices"][0]
    slim = {"launched": {k: v for k, v in j.get("launched", {}).items() if k != "matchedKernels"},
            "unmatchedLaunchedKernels": j.get("unmatchedLaunchedKernels"),
            "device": {k: d.get(k) for k in ("name", "launchedReservationBytes", "launchedIncrementBytes",
                       "launchedWorstKernel", "launchedKernels", "launchedDriverDifferences", "launchedDriverOtherArch",
                       "reservationBytes", "staticReservationBytes")}}
    json.dump(slim, open(f"{out}/check-{name}.slim.json", "w"), indent=1)
PY
tar -C "$OUTDIR" -czf "$WORK/results.tgz" --exclude='check-torch.json' . && mv "$WORK/results.tgz" "$OUTDIR/results.tgz"
