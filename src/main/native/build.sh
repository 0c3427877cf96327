#!/usr/bin/env bash
# Builds the CUPTI injection library of the launched mode:
#
#   build.sh OUTDIR      -> OUTDIR/libcuda-stack-budget-cupti.so
#
# Needs gcc and the CUDA toolkit's headers: cupti.h (include/ or extras/CUPTI/include/), cuda.h,
# cuda_runtime_api.h and nvtx3/. The toolkit is looked up in $CUDA_HOME or $CUDA_PATH when set (only there), else
# in the folder above the nvcc on PATH, then /usr/local/cuda. CUPTI itself is not linked: the library dlopens libcupti at run time (see src/site/markdown/injection-library.md,
# "CUPTI"), so the .so has no dependency beyond glibc.
# The Maven build runs this at process-classes; -Dcuda-stack-budget.native.skip=true skips it.
# The build is skipped when the output is newer than the sources and this script.
set -euo pipefail

if [[ $# -ne 1 ]]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
SRC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/cupti-injection" && pwd)"
OUT_DIR="$1"
OUT="$OUT_DIR/libcuda-stack-budget-cupti.so"
SOURCES=("$SRC_DIR"/*.c "$SRC_DIR"/*.h "${BASH_SOURCE[0]}")

up_to_date() {
    [[ -f "$OUT" ]] || return 1
    local src
    for src in "${SOURCES[@]}"; do
        [[ "$OUT" -nt "$src" ]] || return 1
    done
}
if up_to_date; then
    echo "CUPTI injection library $OUT is up to date"
    exit 0
fi

candidates=()
for home in "${CUDA_HOME:-}" "${CUDA_PATH:-}"; do
    [[ -n "$home" ]] && candidates+=("$home")
done
if ((${#candidates[@]} == 0)); then # an explicit CUDA_HOME / CUDA_PATH is the only place looked at
    if command -v nvcc >/dev/null 2>&1; then
        candidates+=("$(cd "$(dirname "$(command -v nvcc)")/.." && pwd)")
    fi
    candidates+=(/usr/local/cuda)
fi

CUDA_DIR=""
CUPTI_INCLUDE=""
for home in "${candidates[@]}"; do
    for inc in "$home/include" "$home/extras/CUPTI/include"; do
        if [[ -f "$inc/cupti.h" && -f "$home/include/cuda.h" && -d "$home/include/nvtx3" ]]; then
            CUDA_DIR="$home"
            CUPTI_INCLUDE="$inc"
            break 2
        fi
    done
done
if [[ -z "$CUDA_DIR" ]]; then
    echo "[cuda-stack-budget] cannot build the CUPTI injection library: no CUDA toolkit with cupti.h, cuda.h and" \
         "nvtx3/ found (looked in: ${candidates[*]}). Install the CUDA toolkit with CUPTI (the cuda-cupti-dev" \
         "package, or the full toolkit) and set CUDA_HOME to it, or skip the native build with" \
         "-Dcuda-stack-budget.native.skip=true (the jar then has no launched-mode library)." >&2
    exit 1
fi
CC="${CC:-gcc}"
if ! command -v "$CC" >/dev/null 2>&1; then
    echo "[cuda-stack-budget] cannot build the CUPTI injection library: the C compiler '$CC' is not on PATH;" \
         "install gcc or skip the native build with -Dcuda-stack-budget.native.skip=true" >&2
    exit 1
fi

mkdir -p "$OUT_DIR"
TMP="$OUT.tmp.$$"
"$CC" -std=gnu11 -O2 -g0 -fPIC -shared -fvisibility=hidden -Wall -Wextra \
    -I"$CUPTI_INCLUDE" -I"$CUDA_DIR/include" \
    -Wl,-z,defs -Wl,--as-needed -o "$TMP" "$SRC_DIR"/*.c -ldl -lpthread
mv -f "$TMP" "$OUT"
echo "built $OUT (CUDA headers from $CUDA_DIR, cupti.h from $CUPTI_INCLUDE)"
