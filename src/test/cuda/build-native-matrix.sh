#!/usr/bin/env bash
# Builds the validation matrix of the native reader: the kernels of native-matrix/*.cu compiled by
# nvcc 13.0 into every binary form the reader must understand, each with the -Xptxas -v and
# -Xnvlink -v logs of its own build (NativeMatrixCrossCheckTest compares the two).
#
#   build-native-matrix.sh OUTDIR
#
# Outputs (OUTDIR/manifest.tsv lists every binary with its form, its SASS and PTX targets and its logs):
#   cubin/matrix_<sm>.cubin        nvcc -cubin, one per SASS target nvcc 13.0 accepts from sm_75 to sm_121,
#                                  a and f variants included (23 targets)
#   so/libmatrix_<mode>.so         the same kernels as shared libraries, one per compression mode:
#                                  default, size, speed, none, compress-all (zstd ELF entries),
#                                  compress-all-speed (LZ4 ELF entries); SASS + PTX targets in MODE_GENCODES
#   so/libmatrix_mixed.so          one library mixing 13 SASS gencodes (a/f variants) and a PTX target
#   so/libmatrix_debug.so          nvcc -G (compressed cubins, debug flag, recursion reported by ptxas), built as
#   so/libmatrix_debug-longid.so   "matrix.cu" and as a 50-byte relative path (fatbin entry headers 0x50 and 0x78)
#   so/libmatrix_ptx.so            PTX only (code=compute_90): no SASS at all
#   fatbin/matrix[_size].fatbin    nvcc -fatbin, uncompressed ELF entries and -compress-mode=size
#   rdc/rdc_a.o rdc/rdc_b.o        nvcc -rdc=true -c (relocatable cubins in __nv_relfatbin)
#   rdc/librdc.a                   ar archive of the two objects
#   rdc/librdc.so                  device-linked shared library (nvlink: cross-file stacks, UNKNOWN for recursion)
#   logs/<binary>.ptxas.log        what -Xptxas -v printed for that binary (nvlink.log: -Xnvlink -v)
#
# Each build is independent; at most MATRIX_JOBS (default 2) run at once. The whole build is skipped
# when OUTDIR/manifest.tsv is newer than the sources and this script, so repeated `mvn test` runs stay fast.
set -euo pipefail

if [[ $# -ne 1 ]]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi

SCRIPT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"
SRC_DIR="$(dirname "$SCRIPT")/native-matrix"
OUT_DIR="$1"
JOBS="${MATRIX_JOBS:-2}"

SOURCES=("$SRC_DIR/matrix.cu" "$SRC_DIR/rdc_a.cu" "$SRC_DIR/rdc_b.cu" "$SCRIPT")

up_to_date() {
    local src binary form sass ptx logs log
    [[ -f "$OUT_DIR/manifest.tsv" ]] || return 1
    for src in "${SOURCES[@]}"; do
        [[ "$OUT_DIR/manifest.tsv" -nt "$src" ]] || return 1
    done
    # every listed binary and log must still be there
    while IFS=$'\t' read -r binary form sass ptx logs; do
        [[ "$binary" == \#* ]] && continue
        [[ -f "$OUT_DIR/$binary" ]] || return 1
        for log in ${logs//,/ }; do
            [[ -f "$OUT_DIR/$log" ]] || return 1
        done
    done <"$OUT_DIR/manifest.tsv"
    return 0
}

if up_to_date; then
    echo "Native-reader matrix in $OUT_DIR is up to date"
    exit 0
fi

if ! command -v nvcc >/dev/null 2>&1; then
    echo "nvcc not found on PATH: the native-reader matrix needs the CUDA toolkit (nvcc 13.0)" >&2
    exit 1
fi

# Every SASS target nvcc 13.0 accepts from sm_75 to sm_121 (nvcc --list-gpu-code lists the base ones;
# a exists from sm_90, f from sm_100).
CUBIN_TARGETS=(sm_75 sm_80 sm_86 sm_87 sm_88 sm_89 sm_90 sm_90a
               sm_100 sm_100a sm_100f sm_103 sm_103a sm_103f sm_110 sm_110a sm_110f
               sm_120 sm_120a sm_120f sm_121 sm_121a sm_121f)
# The compression-mode libraries: one target per register/shared rule (below sm_90, sm_90a, f, sm_120) + PTX.
MODE_SASS=(sm_75 sm_90a sm_100f sm_120)
MODE_PTX=(compute_120)
# The mixed library: many gencodes at once, a and f variants, base and PTX (nvcc 13.0 refuses sm_100
# together with sm_100f: "the same GPU code generated for non family-specific and family-specific").
MIXED_SASS=(sm_75 sm_80 sm_86 sm_89 sm_90 sm_90a sm_100a sm_100f sm_103a sm_110f sm_120 sm_120a sm_121f)
MIXED_PTX=(compute_121)
DEBUG_SASS=(sm_80 sm_90)
PTX_ONLY=(compute_90)
FATBIN_SASS=(sm_80 sm_90a sm_120f)
FATBIN_PTX=(compute_120)
RDC_SASS=(sm_75 sm_90a sm_100f sm_120)

# -gencode options for SASS targets (sm_X -> arch=compute_X,code=sm_X) and PTX targets.
gencodes() {
    local kind="$1"
    shift
    local target
    for target in "$@"; do
        if [[ "$kind" == sass ]]; then
            printf -- '-gencode\narch=compute_%s,code=%s\n' "${target#sm_}" "$target"
        else
            printf -- '-gencode\narch=%s,code=%s\n' "$target" "$target"
        fi
    done
}

mkdir -p "$OUT_DIR"
OUT_DIR="$(cd "$OUT_DIR" && pwd)" # absolute: some builds run in the source directory
# Build into a scratch directory and move the results in at the end, so an interrupted build never
# leaves outputs that look up to date.
WORK="$(mktemp -d "$OUT_DIR/.build.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/cubin" "$WORK/so" "$WORK/fatbin" "$WORK/rdc" "$WORK/logs" "$WORK/status"
MANIFEST="$WORK/manifest.tsv"
printf '# binary\tform\tsass\tptx\tlogs\n' >"$MANIFEST"

start=$SECONDS
echo "Building the native-reader matrix into $OUT_DIR ($(nvcc --version | tail -n 1), $JOBS jobs)"

# --- a small job pool: each job's output goes to its log; a failing job fails the build
NAMES=()
run_job() {
    local name="$1"
    shift
    while (($(jobs -rp | wc -l) >= JOBS)); do
        wait -n || true
    done
    (
        rc=0
        "$@" || rc=$?
        echo "$rc" >"$WORK/status/$name"
    ) &
    NAMES+=("$name")
}

wait_all() {
    local name failed=0
    wait
    for name in "${NAMES[@]}"; do
        if [[ "$(cat "$WORK/status/$name" 2>/dev/null)" != 0 ]]; then
            echo "native matrix: building $name failed; its log:" >&2
            cat "$WORK/logs/$name".*.log >&2 2>/dev/null || true
            failed=1
        fi
    done
    NAMES=()
    return "$failed"
}

# manifest line: binary, form, SASS targets, PTX targets, logs (comma-separated, relative to OUTDIR)
manifest() {
    local IFS=$'\t'
    echo "$*" >>"$MANIFEST"
}
join() {
    local IFS=,
    echo "$*"
}

MATRIX="$SRC_DIR/matrix.cu"
SO_FLAGS=(-Xcompiler -fPIC -shared)

# --- bare cubins, one per target
for target in "${CUBIN_TARGETS[@]}"; do
    out="cubin/matrix_$target.cubin"
    run_job "matrix_$target.cubin" bash -c 'nvcc -cubin -arch="$1" -Xptxas -v -o "$2" "$3" >"$4" 2>&1' _ \
        "$target" "$WORK/$out" "$MATRIX" "$WORK/logs/matrix_$target.cubin.ptxas.log"
    manifest "$out" cubin "$target" "" "logs/matrix_$target.cubin.ptxas.log"
done

# --- shared libraries, one per compression mode (same gencodes, so the records must be identical)
mapfile -t MODE_GENCODES < <(gencodes sass "${MODE_SASS[@]}"; gencodes ptx "${MODE_PTX[@]}")
declare -A MODE_OPTIONS=(
    [default]=""
    [size]="-compress-mode=size"
    [speed]="-compress-mode=speed"
    [none]="-compress-mode=none"
    [compress-all]="-Xfatbin -compress-all"
    [compress-all-speed]="-Xfatbin -compress-all -compress-mode=speed"
)
for mode in default size speed none compress-all compress-all-speed; do
    name="libmatrix_$mode.so"
    # shellcheck disable=SC2206 # the options are split on purpose
    options=(${MODE_OPTIONS[$mode]})
    run_job "$name" bash -c 'log="$1"; shift; nvcc "$@" >"$log" 2>&1' _ "$WORK/logs/$name.ptxas.log" \
        "${MODE_GENCODES[@]}" "${options[@]}" -Xptxas -v "${SO_FLAGS[@]}" -o "$WORK/so/$name" "$MATRIX"
    manifest "so/$name" "so-$mode" "$(join "${MODE_SASS[@]}")" "$(join "${MODE_PTX[@]}")" "logs/$name.ptxas.log"
done

# --- one library mixing many gencodes
mapfile -t MIXED_GENCODES < <(gencodes sass "${MIXED_SASS[@]}"; gencodes ptx "${MIXED_PTX[@]}")
run_job libmatrix_mixed.so bash -c 'log="$1"; shift; nvcc "$@" >"$log" 2>&1' _ "$WORK/logs/libmatrix_mixed.so.ptxas.log" \
    "${MIXED_GENCODES[@]}" -Xptxas -v "${SO_FLAGS[@]}" -o "$WORK/so/libmatrix_mixed.so" "$MATRIX"
manifest so/libmatrix_mixed.so so-mixed "$(join "${MIXED_SASS[@]}")" "$(join "${MIXED_PTX[@]}")" \
    logs/libmatrix_mixed.so.ptxas.log

# --- -G (debug) libraries. Their fatbin entries carry the source path as given to nvcc (the "identifier"), and
# the entry header grows with it (0x40 + the path rounded up to 8 bytes), so the path is fixed here, not the
# checkout's: "matrix.cu" (header 0x50), and a 50-byte "./././...matrix.cu" (header 0x78).
mapfile -t DEBUG_GENCODES < <(gencodes sass "${DEBUG_SASS[@]}")
LONG_ID="$(printf './%.0s' {1..20})matrix.cu"
for variant in debug debug-longid; do
    name="libmatrix_$variant.so"
    source=matrix.cu
    [[ "$variant" == debug-longid ]] && source="$LONG_ID"
    run_job "$name" bash -c 'log="$1"; dir="$2"; shift 2; cd "$dir" && nvcc "$@" >"$log" 2>&1' _ \
        "$WORK/logs/$name.ptxas.log" "$SRC_DIR" \
        -G "${DEBUG_GENCODES[@]}" -Xptxas -v "${SO_FLAGS[@]}" -o "$WORK/so/$name" "$source"
    manifest "so/$name" so-debug "$(join "${DEBUG_SASS[@]}")" "" "logs/$name.ptxas.log"
done

# --- PTX-only library (ptxas does not run: no log)
mapfile -t PTX_GENCODES < <(gencodes ptx "${PTX_ONLY[@]}")
run_job libmatrix_ptx.so nvcc "${PTX_GENCODES[@]}" "${SO_FLAGS[@]}" -o "$WORK/so/libmatrix_ptx.so" "$MATRIX"
manifest so/libmatrix_ptx.so so-ptx-only "" "$(join "${PTX_ONLY[@]}")" ""

# --- fatbins, uncompressed ELF entries and zstd ones
mapfile -t FATBIN_GENCODES < <(gencodes sass "${FATBIN_SASS[@]}"; gencodes ptx "${FATBIN_PTX[@]}")
for variant in "" _size; do
    name="matrix$variant.fatbin"
    options=()
    [[ -n "$variant" ]] && options=(-compress-mode=size)
    run_job "$name" bash -c 'log="$1"; shift; nvcc "$@" >"$log" 2>&1' _ "$WORK/logs/$name.ptxas.log" \
        -fatbin "${FATBIN_GENCODES[@]}" "${options[@]}" -Xptxas -v -o "$WORK/fatbin/$name" "$MATRIX"
    manifest "fatbin/$name" fatbin "$(join "${FATBIN_SASS[@]}")" "$(join "${FATBIN_PTX[@]}")" "logs/$name.ptxas.log"
done

# --- separate compilation: two objects, then (after they exist) an archive and a device-linked library
mapfile -t RDC_GENCODES < <(gencodes sass "${RDC_SASS[@]}")
for unit in rdc_a rdc_b; do
    run_job "$unit.o" bash -c 'log="$1"; shift; nvcc "$@" >"$log" 2>&1' _ "$WORK/logs/$unit.o.ptxas.log" \
        -rdc=true -c "${RDC_GENCODES[@]}" -Xptxas -v -Xcompiler -fPIC -o "$WORK/rdc/$unit.o" "$SRC_DIR/$unit.cu"
    manifest "rdc/$unit.o" rdc-object "$(join "${RDC_SASS[@]}")" "" "logs/$unit.o.ptxas.log"
done

wait_all

ar rcs "$WORK/rdc/librdc.a" "$WORK/rdc/rdc_a.o" "$WORK/rdc/rdc_b.o"
manifest rdc/librdc.a rdc-archive "$(join "${RDC_SASS[@]}")" "" "logs/rdc_a.o.ptxas.log,logs/rdc_b.o.ptxas.log"
nvcc -shared "${RDC_GENCODES[@]}" -Xnvlink -v -o "$WORK/rdc/librdc.so" "$WORK/rdc/rdc_a.o" "$WORK/rdc/rdc_b.o" \
    >"$WORK/logs/librdc.so.nvlink.log" 2>&1 \
    || { cat "$WORK/logs/librdc.so.nvlink.log" >&2; exit 1; }
manifest rdc/librdc.so rdc-linked "$(join "${RDC_SASS[@]}")" "" \
    "logs/librdc.so.nvlink.log,logs/rdc_a.o.ptxas.log,logs/rdc_b.o.ptxas.log"

# move everything in; the manifest last, since its time stamp marks the matrix as complete
rm -f "$OUT_DIR/manifest.tsv"
for dir in cubin so fatbin rdc logs; do
    rm -rf "${OUT_DIR:?}/$dir"
    mv "$WORK/$dir" "$OUT_DIR/$dir"
done
mv "$MANIFEST" "$OUT_DIR/manifest.tsv"
echo "Built the native-reader matrix ($(($(wc -l <"$OUT_DIR/manifest.tsv") - 1)) binaries) in $((SECONDS - start)) s"
