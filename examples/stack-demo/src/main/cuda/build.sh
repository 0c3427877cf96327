#!/usr/bin/env bash
# Builds a CUDA shared library from one .cu file with nvcc: the ONE place that
# holds the nvcc command line of the stack-demo example.
#
#   build.sh SRC OUT [TARGETS]
#
#   SRC      the .cu source (examples/stack-demo/src/main/cuda/stack_demo.cu)
#   OUT      the shared library to write, e.g. target/native/libstackdemo.so
#   TARGETS  which code to embed:
#              all             (default) SASS for sm_80, sm_90, sm_90a, sm_120
#                              and compute_120 PTX
#              sm90-sass-only  SASS for sm_90 and sm_90a only, no PTX (a library
#                              that no pre-Hopper and no Blackwell GPU can run)
#
# Also writes the `-Xptxas -v` output of the build next to OUT, as
# <OUT without .so>.ptxas.txt (per kernel and arch: "N bytes stack frame"),
# after a first line "# nvcc <arguments>" naming the command line used.
#
# Used by examples/stack-demo/pom.xml (exec-maven-plugin, compile phase), by
# the plugin's invoker ITs (src/it/*/pom.xml) and by tools/record-cuobjdump.sh,
# which records real cuobjdump output of exactly this build on a GPU machine.
# Keep it that way, so the three cannot drift apart.
#
# The build is skipped when OUT and its ptxas log are newer than SRC and this
# script and the log names the same nvcc arguments (repeated `mvn verify` runs
# stay fast). Needs nvcc (CUDA 13.0) and a
# host C++ compiler on PATH; no GPU.
set -euo pipefail

if [[ $# -lt 2 || $# -gt 3 ]]; then
    echo "usage: $0 SRC OUT [all|sm90-sass-only]" >&2
    exit 2
fi

SRC="$1"
OUT="$2"
TARGETS="${3:-all}"

case "$TARGETS" in
    all)
        GENCODES=(-gencode arch=compute_80,code=sm_80
                  -gencode arch=compute_90,code=sm_90
                  -gencode arch=compute_90a,code=sm_90a
                  -gencode 'arch=compute_120,code=[sm_120,compute_120]')
        ;;
    sm90-sass-only)
        GENCODES=(-gencode arch=compute_90,code=sm_90
                  -gencode arch=compute_90a,code=sm_90a)
        ;;
    *)
        echo "$0: unknown TARGETS '$TARGETS' (expected all or sm90-sass-only)" >&2
        exit 2
        ;;
esac

if [[ ! -f "$SRC" ]]; then
    echo "$0: source not found: $SRC" >&2
    exit 1
fi

OUT_DIR="$(dirname "$OUT")"
OUT_NAME="$(basename "$OUT")"
PTXAS_LOG="$OUT_DIR/${OUT_NAME%.so}.ptxas.txt"
SELF="${BASH_SOURCE[0]}"

NVCC_ARGS=(-O2 -shared -Xcompiler -fPIC "${GENCODES[@]}" -Xptxas -v)
HEADER="# nvcc ${NVCC_ARGS[*]}"

if [[ -f "$OUT" && -f "$PTXAS_LOG" && "$OUT" -nt "$SRC" && "$OUT" -nt "$SELF" \
      && "$(head -n 1 "$PTXAS_LOG")" == "$HEADER" ]]; then
    echo "$OUT is up to date"
    exit 0
fi

if ! command -v nvcc >/dev/null 2>&1; then
    echo "$0: nvcc not found on PATH: building $OUT_NAME needs the CUDA toolkit (nvcc 13.0)" >&2
    exit 1
fi

mkdir -p "$OUT_DIR"
# Build into a scratch directory and move the results in at the end, so an
# interrupted build never leaves outputs that look up to date.
WORK="$(mktemp -d "$OUT_DIR/.build.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

echo "$(nvcc --version | tail -n 1)"
echo "nvcc ${NVCC_ARGS[*]} -o $OUT $SRC"
start=$SECONDS
echo "$HEADER" > "$WORK/ptxas.txt"
if ! nvcc "${NVCC_ARGS[@]}" -o "$WORK/$OUT_NAME" "$SRC" >>"$WORK/ptxas.txt" 2>&1; then
    cat "$WORK/ptxas.txt" >&2
    exit 1
fi
mv -f "$WORK/ptxas.txt" "$PTXAS_LOG"
mv -f "$WORK/$OUT_NAME" "$OUT"
echo "Built $OUT ($TARGETS) in $((SECONDS - start)) s; ptxas report: $PTXAS_LOG"
