#!/usr/bin/env bash
# JIT-frame validation on the GPU machine (issue 13): the plugin's ptxas frames against the driver's JIT frames.
#
#   bash dev/gpu/jit-validate.sh CARRY OUTDIR [BUDGET_S]
#
# CARRY holds lib/ (the plugin jar and its runtime jars), tools/ (the dev classes: JitFrameCompare), test-cuda/
# (libjitptx.so, libjitmixed.so from src/test/cuda/build-test-binaries.sh) and jit-local-size.c; JAVA (default
# .devcarry/jre/bin/java) runs them. Steps:
#   1. the check itself (cli.Main --jit-frames ptxas) on the PTX-only test library for an H200 (sm_90 JITs compute_80)
#   2. JitFrameCompare: the PTX modules of the test libraries and of the real libraries under site-packages and the
#      CUDA folder that an sm_90 device can JIT, taken out by the plugin's reader, compiled by the plugin's Ptxas
#   3. jit-local-size: the same modules loaded by the driver (cuModuleLoadData, CUDA_MODULE_LOADING=EAGER), every
#      function's CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES; and the stack limit after launching the designed kernels
#   4. the comparison: OUTDIR/jit-compare.md (table), OUTDIR/jit-diffs.tsv (every difference or missing function)
set -u
if [[ $# -lt 2 ]]; then
    echo "usage: $0 CARRY OUTDIR [BUDGET_S]" >&2
    exit 2
fi
CARRY="$1"
OUT="$2"
BUDGET="${3:-150}"
JAVA="${JAVA:-.devcarry/jre/bin/java}"
WORK="$(mktemp -d /tmp/jit-validate.XXXXXX)"
mkdir -p "$OUT"
NVCC="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
CUDA_BIN="$(dirname "$NVCC")"
export PATH="$CUDA_BIN:$PATH"
{
    echo "date: $(date -u +%FT%TZ)"
    nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
    "$CUDA_BIN/ptxas" --version | tail -n 2
} >"$OUT/environment.txt" 2>&1
cat "$OUT/environment.txt"

"$NVCC" -o "$WORK/jit-local-size" "$CARRY/jit-local-size.c" -L"$CUDA_BIN/../lib64/stubs" -lcuda \
    || { echo "cannot build jit-local-size" >&2; exit 1; }

echo "== 1. the check on the PTX-only test library (h200-141gb JIT-compiles compute_80)"
start=$SECONDS
"$JAVA" -cp "$CARRY/lib/*" io.github.cudastackbudget.cli.Main --devices h200-141gb --jit-frames ptxas --no-cache \
    --output "$WORK/check" "$CARRY/test-cuda/libjitptx.so" "$CARRY/test-cuda/libjitmixed.so" >"$OUT/check.txt" 2>&1
echo "check exit $? in $((SECONDS - start)) s"
cp "$WORK/check/cuda-stack-budget.json" "$OUT/check.json" 2>/dev/null

echo "== 2. the plugin's frames (reader + Ptxas) for sm_90"
SP="$(python3 -c 'import site; print(site.getsitepackages()[0])' 2>/dev/null)"
LIBS=()
while IFS= read -r -d '' f; do
    LIBS+=("$f")
done < <(find "$SP" "$CUDA_BIN/../lib64" -type f \( -name '*.so' -o -name '*.so.*' \) -size +100k -print0 2>/dev/null \
    | xargs -0 grep -l -a -F '.nv_fatbin' -- 2>/dev/null | tr '\n' '\0')
echo "${#LIBS[@]} candidate libraries"
start=$SECONDS
"$JAVA" -cp "$CARRY/lib/*:$CARRY/tools" io.github.cudastackbudget.dev.JitFrameCompare 9.0 16 4000000 25 "$BUDGET" \
    "$WORK/cmp" "$CARRY/test-cuda/libjitptx.so" "$CARRY/test-cuda/libjitmixed.so" "${LIBS[@]}" \
    >"$WORK/compare-log.txt" 2>&1
echo "plugin side exit $? in $((SECONDS - start)) s"
grep -v '^skipped ' "$WORK/compare-log.txt" | tail -n 5
grep -c '^skipped ' "$WORK/compare-log.txt"

echo "== 3. the driver's JIT frames"
start=$SECONDS
export CUDA_MODULE_LOADING=EAGER
mkdir -p "$WORK/drv"
# one output file per process: parallel writers to one file would interleave lines
ls "$WORK/cmp/ptx/"*.ptx 2>/dev/null | timeout "$BUDGET" xargs -P 12 -n 4 sh -c \
    '"$0" "$@" >"'"$WORK"'/drv/$$.tsv"' "$WORK/jit-local-size" 2>"$WORK/driver-errors.txt"
cat "$WORK/drv/"*.tsv >"$WORK/driver-frames.tsv"
echo "driver side exit $? in $((SECONDS - start)) s"
TESTMOD="$(awk -F'\t' '$2 ~ /libjitptx.so$/ {print $1; exit}' "$WORK/cmp/modules.tsv")"
"$WORK/jit-local-size" --launch "$WORK/cmp/ptx/$TESTMOD.ptx" >"$WORK/launch.tsv" 2>&1
cat "$WORK/launch.tsv"

echo "== 4. comparison"
python3 - "$WORK/cmp/plugin-frames.tsv" "$WORK/driver-frames.tsv" "$WORK/cmp/modules.tsv" "$WORK/launch.tsv" \
    "$OUT/jit-compare.md" "$OUT/jit-diffs.tsv" <<'PY'
import sys, os, collections
plugin_path, driver_path, modules_path, launch_path, md_path, diffs_path = sys.argv[1:]
modules = {}
for line in open(modules_path):
    f = line.rstrip('\n').split('\t')
    modules[f[0]] = {'file': f[1], 'label': f[2], 'target': f[3], 'bytes': int(f[4]), 'ms': int(f[5]), 'status': f[6]}
plugin = {}
for line in open(plugin_path):
    m, name, frame, unknown = line.rstrip('\n').split('\t')
    plugin[(m, name)] = (int(frame), unknown == '1')
driver = {}
errors = collections.Counter()
for line in open(driver_path):
    f = line.rstrip('\n').split('\t')
    if len(f) < 3:
        continue
    m = os.path.basename(f[0]).rsplit('.', 1)[0]
    if f[1] == '!error':
        errors[m] = f[2]
        continue
    if f[1] == '!limit':
        continue
    driver[(m, f[1])] = int(f[2])
per_file = collections.OrderedDict()
diffs = []
for (m, name), (frame, unknown) in sorted(plugin.items()):
    lib = os.path.basename(modules[m]['file'])
    row = per_file.setdefault(lib, collections.Counter())
    row['modules_seen'] += 0
    d = driver.get((m, name))
    if d is None:
        row['no driver figure'] += 1
        diffs.append((lib, m, name, frame, 'missing' if m not in errors else 'load error ' + str(errors[m])))
    elif d == frame:
        row['equal'] += 1
    else:
        row['different'] += 1
        diffs.append((lib, m, name, frame, d))
for (m, name), d in driver.items():
    if (m, name) not in plugin:
        lib = os.path.basename(modules.get(m, {'file': '?'})['file'])
        per_file.setdefault(lib, collections.Counter())['driver only'] += 1
        diffs.append((lib, m, name, 'none', d))
mods = collections.Counter(os.path.basename(v['file']) for k, v in modules.items())
ptx_bytes = collections.Counter()
for v in modules.values():
    ptx_bytes[os.path.basename(v['file'])] += v['bytes']
with open(md_path, 'w') as md:
    md.write('| library | PTX modules | PTX bytes | functions | equal | different | no driver figure | driver only |\n')
    md.write('|---|---:|---:|---:|---:|---:|---:|---:|\n')
    tot = collections.Counter()
    for lib, c in per_file.items():
        n = c['equal'] + c['different'] + c['no driver figure']
        md.write(f"| {lib} | {mods[lib]} | {ptx_bytes[lib]:,} | {n} | {c['equal']} | {c['different']} | {c['no driver figure']} | {c['driver only']} |\n")
        tot.update(c); tot['n'] += n; tot['mods'] += mods[lib]; tot['bytes'] += ptx_bytes[lib]
    md.write(f"| **all** | {tot['mods']} | {tot['bytes']:,} | {tot['n']} | {tot['equal']} | {tot['different']} | {tot['no driver figure']} | {tot['driver only']} |\n")
    md.write('\nStack limit after launching the designed kernels (PTX-only test library, smallest frame first):\n\n')
    md.write('| kernel | plugin frame | driver local size | CU_LIMIT_STACK_SIZE after launch |\n|---|---:|---:|---:|\n')
    for line in open(launch_path):
        f = line.rstrip('\n').split('\t')
        if len(f) >= 4 and f[1] == '!limit':
            m = os.path.basename(f[0]).rsplit('.', 1)[0]
            md.write(f"| {f[2]} | {plugin.get((m, f[2]), ('?',))[0]} | {driver.get((m, f[2]), '?')} | {f[3]} |\n")
with open(diffs_path, 'w') as out:
    out.write('library\tmodule\tname\tplugin\tdriver\n')
    for d in diffs:
        out.write('\t'.join(map(str, d)) + '\n')
print(open(md_path).read())
PY
cp "$WORK/cmp/modules.tsv" "$OUT/modules.tsv"
tar -czf "$OUT/frames.tar.gz" -C "$WORK" cmp/plugin-frames.tsv driver-frames.tsv launch.tsv
tail -n 20 "$WORK/compare-log.txt" >"$OUT/compare-log-tail.txt"
head -c 2000000 "$WORK/driver-errors.txt" >>"$OUT/compare-log-tail.txt"
rm -rf "$WORK"
