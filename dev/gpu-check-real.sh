#!/usr/bin/env bash
# End-to-end validation of the plugin's core on a GPU machine (no Maven there): the check over PyTorch's real
# libraries with the auto (native) engine and with cuobjdump, the same libraries inside a JAR, and launched mode over
# a real PyTorch run under the CUPTI injection library, compared with the driver's stack limit and free memory.
# usage (from the repository root, with .devcarry carried: jlink JRE in .devcarry/jre, jars in .devcarry/lib, the
# injection library in .devcarry/libcuda-stack-budget-cupti.so): bash dev/gpu-check-real.sh OUTDIR
set -uo pipefail
export CSB_DEV="$(cd "$(dirname "$0")" && pwd)"  # report_v1.py
OUT="${1:?usage: $0 OUTDIR}"
mkdir -p "$OUT"
JAVA=".devcarry/jre/bin/java"
CP='.devcarry/lib/*'
SITE="$(python3 -c 'import site; print(site.getsitepackages()[0])')"
TORCH_LIB="$SITE/torch/lib"
NCCL="$(ls "$SITE"/nvidia/nccl/lib/libnccl.so.* 2>/dev/null | head -1)"
DEVICES="h200-141gb,b200,l4"
check() { # name, args...
    local name="$1"; shift
    local start=$(date +%s%N)
    "$JAVA" -cp "$CP" io.github.cudastackbudget.cli.Main -q --no-detect --devices "$DEVICES" --output "$OUT/$name" "$@" \
        >"$OUT/$name.log" 2>&1
    local rc=$?
    local end=$(date +%s%N)
    printf '%-22s rc=%s  %6d ms (whole JVM run)\n' "$name" "$rc" "$(( (end - start) / 1000000 ))"
    tail -4 "$OUT/$name.log"
}
echo "== static checks of $TORCH_LIB (libtorch_cuda.so and friends)"
check torch-auto --engine auto "$TORCH_LIB"
check torch-cuobjdump --engine cuobjdump "$TORCH_LIB"
echo "== the same libraries inside a JAR (libtorch_cuda.so stored, the others deflated)"
python3 - "$TORCH_LIB" "$NCCL" "$OUT/torch-libs.jar" <<'PY'
import sys, zipfile, os
lib, nccl, jar = sys.argv[1:]
with zipfile.ZipFile(jar, 'w') as z:
    for name in sorted(os.listdir(lib)):
        path = os.path.join(lib, name)
        if name.endswith('.so') and os.path.isfile(path):
            method = zipfile.ZIP_STORED if name == 'libtorch_cuda.so' else zipfile.ZIP_DEFLATED
            z.write(path, 'native/linux-x86_64/' + name, compress_type=method)
    if nccl:
        z.write(nccl, 'native/linux-x86_64/' + os.path.basename(nccl), compress_type=zipfile.ZIP_DEFLATED)
print('jar', os.path.getsize(jar), 'bytes')
PY
check torch-jar --engine auto "$OUT/torch-libs.jar"
echo "== launched: torch.special.gammainc (float64) under the injection library"
export CUDA_STACK_BUDGET_LAUNCH_LOG="$OUT/torch.launch.log"
rm -f "$CUDA_STACK_BUDGET_LAUNCH_LOG" "$CUDA_STACK_BUDGET_LAUNCH_LOG.libraries"
CUDA_MODULE_LOADING=EAGER CUDA_INJECTION64_PATH="$PWD/.devcarry/libcuda-stack-budget-cupti.so" \
NVTX_INJECTION64_PATH="$PWD/.devcarry/libcuda-stack-budget-cupti.so" python3 - >"$OUT/torch-run.txt" 2>&1 <<'PY'
import ctypes, torch
torch.cuda.init()
x = torch.rand(1 << 22, dtype=torch.float64, device='cuda') * 10 + 0.1
out = torch.empty_like(x)
cudart = next((line.split()[-1] for line in open('/proc/self/maps') if 'libcudart.so' in line), 'libcudart.so')
rt = ctypes.CDLL(cudart)
def limit():
    v = ctypes.c_size_t(); assert rt.cudaDeviceGetLimit(ctypes.byref(v), 0) == 0; return v.value
torch.cuda.synchronize()
free0, _ = torch.cuda.mem_get_info(); l0 = limit()
torch.special.gammainc(x, x, out=out)
torch.cuda.synchronize()
free1, _ = torch.cuda.mem_get_info(); l1 = limit()
print(f"MEASURED stack limit {l0} -> {l1} B; free-memory drop {free0 - free1} B; "
      f"driver total 270336 x {l1} = {270336 * l1} B")
PY
cat "$OUT/torch-run.txt" | tail -2
unset CUDA_STACK_BUDGET_LAUNCH_LOG
check torch-launched --engine auto --launch-log "$OUT/torch.launch.log" --devices h200-141gb "$TORCH_LIB"
echo "== figures"
python3 - "$OUT" <<'PY'
import json, sys, os
sys.path.insert(0, os.environ["CSB_DEV"])
import report_v1  # schema 2 read as schema 1's shape
out = sys.argv[1]
def load(name):
    p = os.path.join(out, name, 'cuda-stack-budget.json')
    return report_v1.load(p) if os.path.exists(p) else None
a, c, j, l = (load(n) for n in ('torch-auto', 'torch-cuobjdump', 'torch-jar', 'torch-launched'))
def strip(r):
    r = dict(r); r.pop('engine', None); r.pop('warnings', None); return json.dumps(r, sort_keys=True)
if a and c:
    print('auto vs cuobjdump: kernels', len(a['kernels']), len(c['kernels']), 'reports identical apart from engine/warnings:', strip(a) == strip(c))
for r, n in ((a, 'auto'), (c, 'cuobjdump'), (j, 'jar')):
    if r:
        for d in r['devices']:
            w = d.get('worstKernel') or {}
            print(f"{n:10} {d['name']:12} {d['status']:7} reservation {d['reservationBytes']:>14,} worst {w.get('stack')} {w.get('arch')} {w.get('library')}")
if l:
    d = l['devices'][0]
    w = d.get('worstKernel') or {}
    print(f"launched   {d['name']} reservation {d['reservationBytes']:,} (static {d['staticReservationBytes']:,}); worst {w.get('stack')} {w.get('name','')[:80]}")
    print('launched summary:', json.dumps(l.get('launched', {}), sort_keys=True)[:600])
PY
ls -la "$OUT"/*/cuda-stack-budget.html 2>/dev/null
