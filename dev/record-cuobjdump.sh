#!/usr/bin/env bash
# record-cuobjdump.sh OUTDIR
#
# Records REAL cuobjdump output for the libraries the invoker ITs scan, so that
# src/it/shared/replay-cuobjdump.sh can replay it on machines without
# cuobjdump. Run it on a machine with the CUDA 13.0 toolkit (nvcc AND
# cuobjdump; a GPU is not needed but the recording notes which one is there).
# No Maven and no Java are needed.
#
# It builds the libraries with examples/stack-demo/src/main/cuda/build.sh, the
# same script (hence the same nvcc command line) the example project and the
# ITs use, then writes into OUTDIR:
#
#   cuobjdump-version.txt                       cuobjdump --version
#   libstackdemo.so.resource-usage.txt          cuobjdump --dump-resource-usage libstackdemo.so
#   libstackdemo_sm90.so.resource-usage.txt     cuobjdump --dump-resource-usage libstackdemo_sm90.so
#   libstackdemo.ptxas.txt, libstackdemo_sm90.ptxas.txt
#                                               nvcc -Xptxas -v output of those builds
#   recording-info.txt                          date, host, GPU, nvcc and cuobjdump versions, commands
#
# Then copy OUTDIR/* into src/it/shared/recordings/ and update the date in its
# README.md.
set -euo pipefail

if [[ $# -ne 1 ]]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_SH="$ROOT/examples/stack-demo/src/main/cuda/build.sh"
SRC="$ROOT/examples/stack-demo/src/main/cuda/stack_demo.cu"
OUTDIR="$1"

# Find cuobjdump the way the plugin does: PATH, then the usual CUDA folders.
CUOBJDUMP="$(command -v cuobjdump || true)"
for dir in "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda; do
    if [[ -z "$CUOBJDUMP" && -n "$dir" && -x "$dir/bin/cuobjdump" ]]; then
        CUOBJDUMP="$dir/bin/cuobjdump"
    fi
done
if [[ -z "$CUOBJDUMP" ]]; then
    echo "$0: cuobjdump not found (PATH, \$CUDA_HOME/bin, \$CUDA_PATH/bin, /usr/local/cuda/bin)" >&2
    exit 1
fi
if ! command -v nvcc >/dev/null 2>&1; then
    CUDA_BIN="$(dirname "$CUOBJDUMP")"
    [[ -x "$CUDA_BIN/nvcc" ]] && export PATH="$CUDA_BIN:$PATH"
fi

mkdir -p "$OUTDIR"
OUTDIR="$(cd "$OUTDIR" && pwd)"
BUILD="$(mktemp -d)"
trap 'rm -rf "$BUILD"' EXIT

# name:targets of every library the ITs need (see src/it/*/pom.xml)
LIBRARIES=(libstackdemo.so:all libstackdemo_sm90.so:sm90-sass-only)

"$CUOBJDUMP" --version > "$OUTDIR/cuobjdump-version.txt"

{
    echo "Recorded by dev/record-cuobjdump.sh"
    echo "date (UTC): $(date -u '+%Y-%m-%d %H:%M:%S')"
    echo "host: $(uname -srm)"
    if command -v nvidia-smi >/dev/null 2>&1; then
        echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
    else
        echo "GPU: (nvidia-smi not found)"
    fi
    echo "nvcc: $(nvcc --version | tail -n 1)"
    echo "cuobjdump: $CUOBJDUMP, $(tail -n 1 "$OUTDIR/cuobjdump-version.txt")"
    echo "source: examples/stack-demo/src/main/cuda/stack_demo.cu sha256 $(sha256sum "$SRC" | cut -d' ' -f1)"
    echo "build script: examples/stack-demo/src/main/cuda/build.sh sha256 $(sha256sum "$BUILD_SH" | cut -d' ' -f1)"
    echo "commands:"
    echo "  cuobjdump --version > cuobjdump-version.txt"
} > "$OUTDIR/recording-info.txt"

for entry in "${LIBRARIES[@]}"; do
    lib="${entry%%:*}"
    targets="${entry#*:}"
    bash "$BUILD_SH" "$SRC" "$BUILD/$lib" "$targets"
    "$CUOBJDUMP" --dump-resource-usage "$BUILD/$lib" > "$OUTDIR/$lib.resource-usage.txt"
    cp "$BUILD/${lib%.so}.ptxas.txt" "$OUTDIR/"
    {
        echo "  build.sh stack_demo.cu $lib $targets   ($(head -n 1 "$BUILD/${lib%.so}.ptxas.txt"))"
        echo "  cuobjdump --dump-resource-usage $lib > $lib.resource-usage.txt   (library sha256 $(sha256sum "$BUILD/$lib" | cut -d' ' -f1))"
    } >> "$OUTDIR/recording-info.txt"
done

echo
cat "$OUTDIR/recording-info.txt"
echo
echo "Recordings in $OUTDIR:"
ls -l "$OUTDIR"
