#!/usr/bin/env bash
# cupti-graphs-validate.sh OUTDIR
#
# GPU validation of the CUPTI injection library's recording of CUDA graph kernels (src/site/markdown/injection-library.md,
# "Kernels of CUDA graphs"). Runs on the GPU machine (the `device` tool), from the repo or a carried copy of
# src/main/native/, src/test/native/launch-probe.cu and this script (prebuilt/ as in cupti-validate.sh is used when
# building there fails).
#
#  1. builds the library (src/main/native/build.sh) and the probe (the nvcc command of cupti-validate.sh plus
#     -DLAUNCH_PROBE_GRAPHS, which adds the graph mode and its two kernels)
#  2. `launch-probe graphs` without and with the library (and once with CUDA_STACK_BUDGET_DEBUG=1): a 6 KiB frame
#     only in a cudaGraphAddKernelNode node, an 8 KiB frame only in a stream-captured graph; the stack limit and
#     free memory are read before building each graph and after launching it
#  3. `launch-probe phases` with the library: the launch rows must stay exactly those of cupti-validate.sh
#  4. prints the graph run's launch log and the table: predicted (resident threads x roundup16(frame), frames from
#     cuobjdump) vs measured limit and free-memory drop
set -uo pipefail
OUTDIR="${1:?usage: $0 OUTDIR}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="$(mktemp -d)"
mkdir -p "$OUTDIR"
export PATH="/usr/local/cuda/bin:$PATH"
NVCC_COMMAND=(nvcc -O2 -gencode arch=compute_90,code=sm_90 -DLAUNCH_PROBE_GRAPHS -o "$WORK/launch-probe" "$ROOT/src/test/native/launch-probe.cu" -ldl -lpthread)

{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    nvcc --version | tail -2
} > "$OUTDIR/environment.txt"
cat "$OUTDIR/environment.txt"

LIB="$WORK/native/libcuda-stack-budget-cupti.so"
if bash "$ROOT/src/main/native/build.sh" "$WORK/native" > "$WORK/build.log" 2>&1; then
    echo "library: built here ($(tail -1 "$WORK/build.log"))"
elif [[ -f "$ROOT/prebuilt/libcuda-stack-budget-cupti.so" ]]; then
    LIB="$ROOT/prebuilt/libcuda-stack-budget-cupti.so"
    echo "library: build failed here ($(tail -1 "$WORK/build.log")); using the carried $LIB"
else
    cat "$WORK/build.log"; exit 1
fi
if "${NVCC_COMMAND[@]}"; then
    PROBE="$WORK/launch-probe"; echo "probe: built here: ${NVCC_COMMAND[*]}"
else
    PROBE="$ROOT/prebuilt/launch-probe"; echo "probe: the carried binary ($PROBE)"
fi
cuobjdump --dump-resource-usage "$PROBE" > "$OUTDIR/launch-probe-graphs.resource-usage.txt"

inject() { # inject LOG command...: the command under the library (at most 120 s), logs at LOG
    local log="$1"; shift
    timeout 120 env CUDA_INJECTION64_PATH="$LIB" NVTX_INJECTION64_PATH="$LIB" CUDA_STACK_BUDGET_LAUNCH_LOG="$log" "$@"
}
rm -f "$OUTDIR"/graphs.launch.log* "$WORK"/phases.launch.log*
timeout 120 "$PROBE" graphs > "$OUTDIR/graphs-plain.txt" 2>&1; echo "graphs without library: rc $?"
CUDA_STACK_BUDGET_DEBUG=1 inject "$OUTDIR/graphs.launch.log" "$PROBE" graphs > "$OUTDIR/graphs-injected.txt" 2>&1
echo "graphs with library: rc $?"
rm -f "$OUTDIR"/graphs.launch.log.lock
inject "$WORK/phases.launch.log" "$PROBE" phases > "$WORK/phases.txt" 2>&1
echo "phases with library: rc $?"
echo "== graphs-injected.txt"; cat "$OUTDIR/graphs-injected.txt"
echo "== graphs-plain.txt"; cat "$OUTDIR/graphs-plain.txt"
echo "== graphs.launch.log"; cat "$OUTDIR/graphs.launch.log"

python3 - "$OUTDIR" "$WORK" <<'PY'
import re, sys
out, work = sys.argv[1], sys.argv[2]
def fields(line):
    return dict(kv.split("=", 1) for kv in line.split()[1:] if "=" in kv)
def stacks(path):
    found, arch, fn = {}, None, None
    for line in open(path, errors="replace"):
        m = re.match(r"arch = (\S+)", line)
        if m: arch = m.group(1); continue
        m = re.match(r"\s*Function (\S+):", line)
        if m: fn = m.group(1); continue
        m = re.search(r"STACK:(\d+)", line)
        if m and fn and arch == "sm_90": found[fn] = int(m.group(1))
    return found
def rows(path):
    result = set()
    for line in open(path):
        line = line.rstrip("\n")
        if line and not line.startswith("#"):
            k, a, s = line.split("\t"); result.add((k, a, int(s)))
    return result
r16 = lambda v: (v + 15) // 16 * 16
frames = stacks(f"{out}/launch-probe-graphs.resource-usage.txt")
# node creation: the added nodes ("<graph>" + the range open then) and the captured launch (recorded as a launch);
# instantiation: cudaGraphInstantiate creates the executable graph's kernel nodes on the probe thread outside any
# range ("<graph>"), for both graphs
expected = {("_Z11frameKernelILi6144EEvPii", "<graph> graph-add", 3072), ("_Z11emptyKernelv", "<graph>", 0),
            ("_Z11frameKernelILi8192EEvPii", "graph-capture", 1536),
            ("_Z11frameKernelILi6144EEvPii", "<graph>", 3072), ("_Z11frameKernelILi8192EEvPii", "<graph>", 1536)}
got = rows(f"{out}/graphs.launch.log")
print(f"graphs launch log: {len(got)} rows, " + ("EXACTLY the expected rows" if got == expected else
      f"DIFFERS: missing {expected - got} extra {got - expected}"))
phases_expected = {("_Z11frameKernelILi2048EEvPii", "phase-2k", 1024), ("_Z11frameKernelILi4096EEvPii", "phase-4k", 8192),
                   ("_Z11frameKernelILi12288EEvPii", "probe-t12k", 2048)}
phases_expected |= {("_Z12sharedKernelPi", f"worker-{w}", 512 + w * 256) for w in range(8)}
phases_expected |= {("_Z11emptyKernelv", f"worker-{w}", 0) for w in range(8)}
got = rows(f"{work}/phases.launch.log")
print(f"phases launch log: {len(got)} rows, " + ("EXACTLY the expected rows (unchanged)" if got == phases_expected else
      f"DIFFERS: missing {phases_expected - got} extra {got - phases_expected}"))
print("%-22s %-30s %6s %12s %12s %10s %10s %12s %12s %9s" % ("run", "kernel", "frame", "pred.total", "pred.incr",
      "lim.before", "lim.after", "R x limit", "meas.drop", "rel.err"))
for variant in ("plain", "injected"):
    lines = open(f"{out}/graphs-{variant}.txt").read().splitlines()
    dev = next((l for l in lines if l.startswith("DEVICE")), None)
    if not dev: print(f"{variant}: no DEVICE line"); continue
    R = int(fields(dev)["residentThreads"])
    for l in lines:
        if not l.startswith("PHASE"): continue
        p = fields(l); frame = frames.get(p["kernel"], -1)
        before, after, drop = int(p["limitBefore"]), int(p["limitAfter"]), int(p["drop"])
        total, inc = R * r16(frame), R * (r16(frame) - before)
        err = (drop - inc) / inc if inc else float("nan")
        print("%-22s %-30s %6d %12d %12d %10d %10d %12d %12d %9.2e" % (f"{l.split()[1]}-{variant}", p["kernel"][:30],
              frame, total, inc, before, after, R * after, drop, err))
PY
cp "$WORK/phases.txt" "$OUTDIR/phases-injected.txt"
rm -rf "$WORK"
