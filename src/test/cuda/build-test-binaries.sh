#!/usr/bin/env bash
# Builds the real nvcc test binaries the unit tests probe, into OUTDIR.
#
#   build-test-binaries.sh OUTDIR
#
# Outputs (all from frames.cu / hostonly.c in this directory):
#   libframes.so        shared library, sm_80 + sm_90 + sm_90a SASS and compute_90 PTX
#   frames.o            nvcc -c object (has a .nv_fatbin section)
#   frames_rdc.o        nvcc -rdc=true -c object (has a __nv_relfatbin section)
#   libframes.a         ar archive of frames.o and a host-only gcc object
#   frames_sm90.cubin   nvcc -cubin -arch=sm_90
#   frames.fatbin       nvcc -fatbin
#   libframes_rdc.so    nvcc -rdc=true -shared (device-linked; .nv_fatbin and __nv_relfatbin)
#   libhostonly.so      gcc only, no device code
#   libframes_lz4.so    as libframes.so, every entry LZ4-compressed (-Xfatbin -compress-all -compress-mode=speed)
#   libframes_zstd.so   as libframes.so, every entry Zstandard-compressed (-Xfatbin -compress-all)
#   libframes_nocomp.so as libframes.so, no entry compressed (-compress-mode=none)
#   libframes_debug.so  -G build for sm_100f, sm_120a and compute_120a: identifier, debug flag, compatibility
#                       descriptors, ptxas options in the entry headers (header sizes 0x90 to 0xa0)
#   ptxas-info.txt      the -Xptxas -v output of the libframes.so build
#   libjitptx.so        jitframes.cu as compute_80 PTX only (every device JIT-compiles it)
#   libjitmixed.so      jitframes.cu as sm_90 SASS + compute_80 PTX (sm_100/sm_120 devices JIT-compile the PTX)
#   jitframes-ptxas-sm_90.txt, -sm_100.txt, -sm_120.txt
#                       the -Xptxas -v output of the same compute_80 PTX compiled for sm_90, sm_100, sm_120: the
#                       frames the driver's JIT gives, as ptxas computes them
#   nvlink-info.txt     the -Xnvlink -v output of device-linking frames_rdc.o
#                       (the only place nvcc 13.0 reports the recursive kernel's
#                       "stack size cannot be statically determined" warning)
#
# The build is skipped when every output exists and is newer than the sources
# and this script, so repeated `mvn test` runs stay fast.
set -euo pipefail

if [[ $# -ne 1 ]]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi

SRC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT_DIR="$1"

SOURCES=("$SRC_DIR/frames.cu" "$SRC_DIR/sassonly.cu" "$SRC_DIR/jitframes.cu" "$SRC_DIR/hostonly.c" "$SRC_DIR/build-test-binaries.sh")
OUTPUTS=(libframes.so frames.o frames_rdc.o libframes.a frames_sm90.cubin frames.fatbin
         libframes_rdc.so libhostonly.so ptxas-info.txt nvlink-info.txt
         libframes_lz4.so libframes_zstd.so libframes_nocomp.so libframes_debug.so libmixedptx.so
         libjitptx.so libjitmixed.so jitframes-ptxas-sm_90.txt jitframes-ptxas-sm_100.txt jitframes-ptxas-sm_120.txt)

up_to_date() {
    local out src
    for out in "${OUTPUTS[@]}"; do
        [[ -f "$OUT_DIR/$out" ]] || return 1
        for src in "${SOURCES[@]}"; do
            [[ "$OUT_DIR/$out" -nt "$src" ]] || return 1
        done
    done
    return 0
}

if up_to_date; then
    echo "CUDA test binaries in $OUT_DIR are up to date"
    exit 0
fi

if ! command -v nvcc >/dev/null 2>&1; then
    echo "nvcc not found on PATH: the unit tests need the CUDA toolkit (nvcc 13.0) to build their real test binaries" >&2
    exit 1
fi
CC="${CC:-gcc}"

mkdir -p "$OUT_DIR"
# Build into a scratch directory and move the results in at the end, so an
# interrupted build never leaves outputs that look up to date.
WORK="$(mktemp -d "$OUT_DIR/.build.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

GENCODES=(-gencode arch=compute_80,code=sm_80
          -gencode arch=compute_90,code=sm_90
          -gencode arch=compute_90a,code=sm_90a
          -gencode arch=compute_90,code=compute_90)
FRAMES="$SRC_DIR/frames.cu"
start=$SECONDS

echo "Building CUDA test binaries into $OUT_DIR ($(nvcc --version | tail -n 1))"

nvcc "${GENCODES[@]}" -Xptxas -v -Xcompiler -fPIC -shared \
    -o "$WORK/libframes.so" "$FRAMES" >"$WORK/ptxas-info.txt" 2>&1 \
    || { cat "$WORK/ptxas-info.txt" >&2; exit 1; }
nvcc -arch=sm_90 -c -o "$WORK/frames.o" "$FRAMES"
nvcc -arch=sm_90 -rdc=true -c -o "$WORK/frames_rdc.o" "$FRAMES"
nvcc -arch=sm_90 -cubin -o "$WORK/frames_sm90.cubin" "$FRAMES"
nvcc -arch=sm_90 -fatbin -o "$WORK/frames.fatbin" "$FRAMES"
# a device-linked shared library from relocatable code: both .nv_fatbin and __nv_relfatbin, and
# cuobjdump reports the recursive kernel's stack as UNKNOWN
nvcc -O2 -shared -Xcompiler -fPIC -rdc=true -arch=sm_90 -o "$WORK/libframes_rdc.so" "$FRAMES"
# In whole-program mode ptxas 13.0 stays silent about recursion (it warns only
# with -G); nvlink reports "Stack size for entry function ... cannot be
# statically determined" when device-linking the relocatable object.
nvcc -arch=sm_90 -dlink -Xnvlink -v -o "$WORK/frames_dlink.o" "$WORK/frames_rdc.o" \
    >"$WORK/nvlink-info.txt" 2>&1 \
    || { cat "$WORK/nvlink-info.txt" >&2; exit 1; }
# the same library in each payload compression (the native reader's zstd and LZ4 decoders)
nvcc "${GENCODES[@]}" -Xcompiler -fPIC -shared -Xfatbin -compress-all -compress-mode=speed \
    -o "$WORK/libframes_lz4.so" "$FRAMES"
nvcc "${GENCODES[@]}" -Xcompiler -fPIC -shared -Xfatbin -compress-all -o "$WORK/libframes_zstd.so" "$FRAMES"
nvcc "${GENCODES[@]}" -Xcompiler -fPIC -shared -compress-mode=none -o "$WORK/libframes_nocomp.so" "$FRAMES"
nvcc -G -gencode arch=compute_100f,code=sm_100f -gencode 'arch=compute_120a,code=[sm_120a,compute_120a]' \
    -Xcompiler -fPIC -shared -o "$WORK/libframes_debug.so" "$FRAMES"
# one library, two objects: frames.cu with sm_80 SASS + compute_80 PTX, sassonly.cu with sm_80 SASS only; on an
# sm_90 GPU the first kernels would be JIT-compiled from PTX, the second cannot run
nvcc -gencode arch=compute_80,code=sm_80 -gencode arch=compute_80,code=compute_80 -Xcompiler -fPIC -c \
    -o "$WORK/withptx.o" "$FRAMES"
nvcc -gencode arch=compute_80,code=sm_80 -Xcompiler -fPIC -c -o "$WORK/sassonly.o" "$SRC_DIR/sassonly.cu"
nvcc -shared -o "$WORK/libmixedptx.so" "$WORK/withptx.o" "$WORK/sassonly.o"
# JIT frames (issue 13): a PTX-only and a mixed library, and what ptxas gives for their PTX on three targets
JIT="$SRC_DIR/jitframes.cu"
nvcc -gencode arch=compute_80,code=compute_80 -Xcompiler -fPIC -shared -o "$WORK/libjitptx.so" "$JIT"
nvcc -gencode arch=compute_90,code=sm_90 -gencode arch=compute_80,code=compute_80 -Xcompiler -fPIC -shared \
    -o "$WORK/libjitmixed.so" "$JIT"
for sm in 90 100 120; do
    nvcc -gencode "arch=compute_80,code=sm_$sm" -Xptxas -v -Xcompiler -fPIC -c -o "$WORK/jit_sm$sm.o" "$JIT" \
        >"$WORK/jitframes-ptxas-sm_$sm.txt" 2>&1 || { cat "$WORK/jitframes-ptxas-sm_$sm.txt" >&2; exit 1; }
done
"$CC" -c -fPIC -o "$WORK/hostonly.o" "$SRC_DIR/hostonly.c"
"$CC" -shared -fPIC -o "$WORK/libhostonly.so" "$WORK/hostonly.o"
ar rcs "$WORK/libframes.a" "$WORK/frames.o" "$WORK/hostonly.o"

for out in "${OUTPUTS[@]}"; do
    mv -f "$WORK/$out" "$OUT_DIR/$out"
done
echo "Built CUDA test binaries in $((SECONDS - start)) s"
