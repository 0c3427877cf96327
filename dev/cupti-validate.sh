#!/usr/bin/env bash
# cupti-validate.sh OUTDIR
#
# GPU validation of the launched mode's CUPTI injection library (issue 5). Runs on the GPU machine (the `device`
# tool: one H200, CUDA 13.0, PyTorch; no Java or Maven). Layout it expects (the repo, or a carried copy of these
# paths): src/main/native/ (build.sh + sources), src/test/native/launch-probe.cu, and optionally prebuilt/
# with a libcuda-stack-budget-cupti.so and a launch-probe built elsewhere (used when building here fails).
#
#  1. builds the library with src/main/native/build.sh (gcc + the toolkit's CUPTI headers)
#  2. uses prebuilt/launch-probe (built with the nvcc command in src/test/resources/recorded/launch/README.txt)
#     or builds it with that command; records `cuobjdump --dump-resource-usage` of it
#  3. runs the probe's phases (2 KiB, 4 KiB, 12 KiB frames through <<<>>>, cudaLaunchKernelEx and cuLaunchKernel,
#     then 8 threads with NVTX ranges) without and with the library; each phase reads cudaDeviceGetLimit(stack)
#     and cudaMemGetInfo before and after
#  4. runs torch.special.gammainc on float64 CUDA tensors under the library (CUDA_MODULE_LOADING=EAGER, so that
#     module loading does not move free memory during the measured launch), and without it
#  5. a CUPTI subscriber conflict (the probe subscribes first), and two processes merging into one log
#  6. launch overhead: launches/s of an empty kernel, one process, one thread, with and without the library
#  7. prints the table: predicted (resident threads x roundup16(frame), frames from cuobjdump) vs measured
set -uo pipefail
OUTDIR="${1:?usage: $0 OUTDIR}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="$(mktemp -d)"
mkdir -p "$OUTDIR"
export PATH="/usr/local/cuda/bin:$PATH"
LOGS="$OUTDIR"
NVCC_COMMAND=(nvcc -O2 -gencode arch=compute_90,code=sm_90 -o "$WORK/launch-probe" "$ROOT/src/test/native/launch-probe.cu" -ldl -lpthread)

{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    nvcc --version | tail -2
    gcc --version | head -1
    python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' 2>&1
} > "$OUTDIR/environment.txt"
cat "$OUTDIR/environment.txt"

# 1. the library
LIB="$WORK/native/libcuda-stack-budget-cupti.so"
if bash "$ROOT/src/main/native/build.sh" "$WORK/native" > "$WORK/build.log" 2>&1; then
    echo "library: built here ($(tail -1 "$WORK/build.log"))"
elif [[ -f "$ROOT/prebuilt/libcuda-stack-budget-cupti.so" ]]; then
    LIB="$ROOT/prebuilt/libcuda-stack-budget-cupti.so"
    echo "library: build failed here ($(tail -1 "$WORK/build.log")); using the carried $LIB"
else
    cat "$WORK/build.log"; exit 1
fi

# 2. the probe
PROBE="$ROOT/prebuilt/launch-probe"
if [[ -x "$PROBE" ]] && "$PROBE" overhead 10 > /dev/null 2>&1; then
    echo "probe: the carried binary ($PROBE)"
else
    "${NVCC_COMMAND[@]}" || exit 1
    PROBE="$WORK/launch-probe"
    echo "probe: built here: ${NVCC_COMMAND[*]}"
fi
cuobjdump --dump-resource-usage "$PROBE" > "$OUTDIR/launch-probe.resource-usage.txt"

inject() { # inject LOG command...: runs the command under the library, logs at LOG
    local log="$1"; shift
    CUDA_INJECTION64_PATH="$LIB" NVTX_INJECTION64_PATH="$LIB" CUDA_STACK_BUDGET_LAUNCH_LOG="$log" "$@"
}

# 3. probe phases
rm -f "$LOGS"/probe.launch.log*
"$PROBE" phases > "$OUTDIR/probe-plain.txt" 2>&1; echo "probe without library: rc $?"
inject "$LOGS/probe.launch.log" "$PROBE" phases > "$OUTDIR/probe-injected.txt" 2>&1
echo "probe with library: rc $?"
rm -f "$LOGS"/probe.launch.log.lock

# 4. PyTorch
cat > "$WORK/igamma.py" <<'PY'
import ctypes, os, sys
import torch
torch.cuda.init()
x = torch.empty(1, device="cuda")  # creates the context
cudart = None
for line in open("/proc/self/maps"):
    if "libcudart.so" in line:
        cudart = line.split()[-1]
        break
runtime = ctypes.CDLL(cudart or "libcudart.so")
def limit():
    value = ctypes.c_size_t()
    assert runtime.cudaDeviceGetLimit(ctypes.byref(value), 0) == 0  # cudaLimitStackSize
    return value.value
n = 1 << 22
a = torch.rand(n, dtype=torch.float64, device="cuda") * 10 + 0.1
b = torch.rand(n, dtype=torch.float64, device="cuda") * 10 + 0.1
out = torch.empty_like(a)
torch.cuda.synchronize()
limit_before, free_before = limit(), torch.cuda.mem_get_info()[0]
torch.cuda.nvtx.range_push("igamma")
torch.special.gammainc(a, b, out=out)
torch.cuda.nvtx.range_pop()
torch.cuda.synchronize()
limit_after, free_after = limit(), torch.cuda.mem_get_info()[0]
reference = torch.special.gammainc(a.cpu(), b.cpu())
error = ((out.cpu() - reference).norm() / reference.norm()).item()
props = torch.cuda.get_device_properties(0)
print(f"TORCH version={torch.__version__} cudart={cudart} sms={props.multi_processor_count} "
      f"limitBefore={limit_before} limitAfter={limit_after} freeBefore={free_before} freeAfter={free_after} "
      f"drop={free_before - free_after} relativeErrorVsCpu={error:.2e}")
PY
rm -f "$LOGS"/torch.launch.log*
CUDA_MODULE_LOADING=EAGER python3 "$WORK/igamma.py" > "$OUTDIR/torch-plain.txt" 2>&1; echo "torch without library: rc $?"
CUDA_MODULE_LOADING=EAGER inject "$LOGS/torch.launch.log" python3 "$WORK/igamma.py" > "$OUTDIR/torch-injected.txt" 2>&1
echo "torch with library: rc $?"
rm -f "$LOGS"/torch.launch.log.lock
TORCH_CUDA="$(python3 -c 'import torch, os; print(os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_cuda.so"))')"
cuobjdump --dump-resource-usage "$TORCH_CUDA" > "$WORK/torch.resource-usage.txt" 2>&1

# 5. conflict and merge
timeout 120 env CUDA_INJECTION64_PATH="$LIB" CUDA_STACK_BUDGET_LAUNCH_LOG="$WORK/conflict.log" "$PROBE" subscribe-first \
    > "$WORK/conflict.out" 2>&1; echo "conflict run: rc $?"
(inject "$WORK/merge.log" "$PROBE" overhead 20000 > /dev/null 2>&1 &
 inject "$WORK/merge.log" "$PROBE" overhead 20000 > /dev/null 2>&1 & wait)

# exit() while 8 threads launch: 5 runs without and 5 with the library
for i in 1 2 3 4 5; do
    "$PROBE" exit-during-launches > /dev/null 2>&1; echo "plain run $i: rc $?"
    rm -f "$WORK/exit.log"
    inject "$WORK/exit.log" "$PROBE" exit-during-launches > "$WORK/exit-$i.out" 2>&1
    echo "injected run $i: rc $?; log: $(head -3 "$WORK/exit.log" 2>/dev/null | tr '\n' '|') rows $(grep -vc '^#' "$WORK/exit.log" 2>/dev/null)"
done > "$WORK/exit-runs.txt"
cat "$WORK/exit-runs.txt"
if grep -q "injected run .*rc 1[0-9][0-9]" "$WORK/exit-runs.txt" && command -v gdb > /dev/null; then
    CUDA_INJECTION64_PATH="$LIB" NVTX_INJECTION64_PATH="$LIB" CUDA_STACK_BUDGET_LAUNCH_LOG="$WORK/gdb.log" \
        timeout 120 gdb -batch -ex run -ex "thread apply all bt 12" --args "$PROBE" exit-during-launches \
        > "$WORK/exit-gdb.txt" 2>&1
fi

# the library carried from the build machine (the jar's copy) records the same rows as the one built here
if [[ -f "$ROOT/prebuilt/libcuda-stack-budget-cupti.so" ]]; then
    CUDA_INJECTION64_PATH="$ROOT/prebuilt/libcuda-stack-budget-cupti.so" \
        NVTX_INJECTION64_PATH="$ROOT/prebuilt/libcuda-stack-budget-cupti.so" \
        CUDA_STACK_BUDGET_LAUNCH_LOG="$WORK/carried.log" "$PROBE" phases > /dev/null 2>&1
    if cmp -s "$WORK/carried.log" "$LOGS/probe.launch.log"; then
        echo "carried library: same launch log as the library built here"
    else
        echo "carried library: DIFFERENT launch log"; diff "$WORK/carried.log" "$LOGS/probe.launch.log"
    fi
fi

# 6. overhead: 3 rounds, the variants in a different order each round (plain; library with thread-name
# attribution; library inside an NVTX range; library inside an NVTX range that no tool receives)
variant() {
    case "$1" in
        plain) "$PROBE" overhead 200000 ;;
        injected) inject "$WORK/overhead.log" "$PROBE" overhead 200000 ;;
        injectednvtx) inject "$WORK/overhead.log" "$PROBE" overhead 200000 nvtx ;;
        injectednonvtxtool) CUDA_INJECTION64_PATH="$LIB" NVTX_INJECTION64_PATH=/nonexistent \
            CUDA_STACK_BUDGET_LAUNCH_LOG="$WORK/overhead.log" "$PROBE" overhead 200000 nvtx ;;
    esac
}
for round in 1 2 3; do
    case $round in
        1) order="plain injected injectednvtx injectednonvtxtool" ;;
        2) order="injectednvtx injectednonvtxtool plain injected" ;;
        3) order="injectednonvtxtool injected injectednvtx plain" ;;
    esac
    for v in $order; do variant "$v" > "$WORK/overhead-$v-$round.txt" 2>&1; done
done
CUDA_STACK_BUDGET_DEBUG=1 inject "$WORK/overhead.log" "$PROBE" overhead 20000 > "$WORK/overhead-debug.txt" 2>&1
{
    for f in "$WORK"/overhead-*.txt; do echo "== $(basename "$f")"; cat "$f"; done
    echo "== exit runs"; cat "$WORK/exit-runs.txt"
    for f in "$WORK"/exit-*.out "$WORK/exit-gdb.txt"; do [[ -f "$f" ]] && { echo "== $f"; tail -80 "$f"; }; done
    echo "== conflict run output"; cat "$WORK/conflict.out"
    echo "== conflict launch log"; cat "$WORK/conflict.log"
    echo "== merge launch log (two processes)"; cat "$WORK/merge.log"
} > "$OUTDIR/checks.txt"

# 7. the table
python3 - "$OUTDIR" "$WORK" <<'PY'
import re, sys, glob
out, work = sys.argv[1], sys.argv[2]
def fields(line):
    return dict(kv.split("=", 1) for kv in line.split()[1:] if "=" in kv)
def stacks(path, arches=("sm_90a", "sm_90")):
    found, arch, fn = {}, None, None
    for line in open(path, errors="replace"):
        m = re.match(r"arch = (\S+)", line)
        if m: arch = m.group(1); continue
        m = re.match(r"\s*Function (\S+):", line)
        if m: fn = m.group(1); continue
        m = re.search(r"STACK:(\d+)", line)
        if m and fn and arch in arches:
            rank = arches.index(arch)
            if fn not in found or rank < found[fn][1]:
                found[fn] = (int(m.group(1)), rank)
    return {k: v[0] for k, v in found.items()}
def rows(path):
    result, status = [], None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("# status: "): status = line[10:]
        elif line and not line.startswith("#"):
            k, a, s = line.split("\t"); result.append((k, a, int(s)))
    return status, result
r16 = lambda v: (v + 15) // 16 * 16
table = []
def add(workload, kernel, frame, R, limit, drop):
    total = R * r16(max(frame, 1024)); inc = R * (r16(max(frame, 1024)) - 1024)
    err = (drop - inc) / inc if inc else float("nan")
    table.append((workload, kernel, frame, total, inc, limit, R * r16(limit), drop, err, drop - inc))

probe_stacks = stacks(f"{out}/launch-probe.resource-usage.txt")
for variant in ("plain", "injected"):
    lines = open(f"{out}/probe-{variant}.txt").read().splitlines()
    dev = fields(next(l for l in lines if l.startswith("DEVICE")))
    R = int(dev["residentThreads"]); cumulative = 0
    for l in lines:
        if not l.startswith("PHASE"): continue
        p = fields(l); cumulative += int(p["drop"])
        frame = probe_stacks.get(p["kernel"], -1)
        if l.split()[1] != "concurrent":
            add(f"probe-{l.split()[1]}-{variant}", p["kernel"], frame, R, int(p["limitAfter"]), cumulative)
        else:
            print(f"probe concurrent phase ({variant}): limit {p['limitBefore']} -> {p['limitAfter']}, drop {p['drop']}")

status, probe_rows = rows(f"{out}/probe.launch.log")
expected = {("_Z11frameKernelILi2048EEvPii", "phase-2k", 1024), ("_Z11frameKernelILi4096EEvPii", "phase-4k", 8192),
            ("_Z11frameKernelILi12288EEvPii", "probe-t12k", 2048)}
expected |= {("_Z12sharedKernelPi", f"worker-{w}", 512 + w * 256) for w in range(8)}
expected |= {("_Z11emptyKernelv", f"worker-{w}", 0) for w in range(8)}
print(f"probe launch log: status={status!r}, {len(probe_rows)} rows, "
      f"{'EXACTLY the expected rows' if set(probe_rows) == expected else 'DIFFERS: missing ' + str(expected - set(probe_rows)) + ' extra ' + str(set(probe_rows) - expected)}")

torch_stacks = stacks(f"{work}/torch.resource-usage.txt")
for variant in ("plain", "injected"):
    line = next((l for l in open(f"{out}/torch-{variant}.txt") if l.startswith("TORCH")), None)
    if not line:
        print(f"torch {variant}: no result"); continue
    t = fields(line); R = int(t["sms"]) * 2048
    status, torch_rows = rows(f"{out}/torch.launch.log")
    phase = [k for k, a, s in torch_rows if a == "igamma"]
    frame = max((torch_stacks.get(k, -1) for k in phase), default=-1)
    kernel = max(phase, key=lambda k: torch_stacks.get(k, -1)) if phase else "?"
    add(f"torch-gammainc-{variant}", kernel, frame, R, int(t["limitAfter"]), int(t["drop"]))
    print(f"torch {variant}: limit {t['limitBefore']} -> {t['limitAfter']}, error vs CPU {t['relativeErrorVsCpu']}")
if True:
    status, torch_rows = rows(f"{out}/torch.launch.log")
    allframes = [(torch_stacks.get(k), k, a) for k, a, s in torch_rows]
    print(f"torch launch log: status={status!r}, {len(torch_rows)} rows:")
    for f, k, a in allframes:
        print(f"   frame={f} attribution={a} kernel={k[:150]}")
    with open(f"{out}/torch-launched.resource-usage.txt", "w") as fo:
        for f, k, a in allframes:
            fo.write(f"{k}\tSTACK:{f}\n")

def rate(path):
    m = re.search(r"OVERHEAD best launchesPerSecond=(\d+)", open(path).read()); return int(m.group(1)) if m else 0
plain = [rate(p) for p in sorted(glob.glob(f"{work}/overhead-plain-*.txt"))]
injected = [rate(p) for p in sorted(glob.glob(f"{work}/overhead-injected-*.txt"))]
nvtx = [rate(p) for p in sorted(glob.glob(f"{work}/overhead-injectednvtx-*.txt"))]
notool = [rate(p) for p in sorted(glob.glob(f"{work}/overhead-injectednonvtxtool-*.txt"))]
print("overhead (launch-probe overhead 200000 [nvtx]; best of 5 repeats per process; 3 rounds, rotating order):")
for name, rates in (("without library", plain), ("library, thread-name attribution", injected),
                    ("library, inside an NVTX range", nvtx), ("library, NVTX range, no NVTX tool", notool)):
    if rates and min(rates):
        median = sorted(rates)[len(rates) // 2]
        extra = (1 / median - 1 / sorted(plain)[len(plain) // 2]) * 1e9 if plain and min(plain) else float("nan")
        print(f"   {name:36s} {rates} launches/s, median {median}, +{extra:.0f} ns per launch vs median without")
    else:
        print(f"   {name}: no result {rates}")
print("debug counts:", [l for l in open(f"{work}/overhead-debug.txt") if "callbacks" in l])
conflict = open(f"{work}/conflict.log").read().splitlines() if glob.glob(f"{work}/conflict.log") else ["(no log)"]
print("conflict log:", " | ".join(conflict[:4]))
merge = open(f"{work}/merge.log").read().splitlines() if glob.glob(f"{work}/merge.log") else ["(no log)"]
print("merge log (2 processes):", " | ".join(merge))

print()
hdr = ("workload", "kernel", "frame", "pred.total", "pred.incr/1024", "meas.limit", "R x limit", "meas.drop", "rel.err", "drop-pred")
print("%-24s %-34s %6s %13s %14s %10s %13s %13s %9s %10s" % hdr)
for w, k, f, tot, inc, lim, mt, drop, err, diff in table:
    print("%-24s %-34s %6d %13d %14d %10d %13d %13d %9.2e %10d" % (w, k[:34], f, tot, inc, lim, mt, drop, err, diff))
PY
# at most 8 files come back from the device tool: the logs, the recording, the output, and one archive of the rest
mkdir -p "$WORK/details"
cp "$OUTDIR"/environment.txt "$OUTDIR"/probe-*.txt "$OUTDIR"/torch-*.txt "$OUTDIR"/checks.txt "$WORK/details/"
tar -czf "$OUTDIR/details.tgz" -C "$WORK" details
rm -f "$OUTDIR"/environment.txt "$OUTDIR"/probe-*.txt "$OUTDIR"/torch-*.txt "$OUTDIR"/checks.txt
rm -rf "$WORK"
