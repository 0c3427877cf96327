#!/usr/bin/env bash
# Builds the baseline ITs' library: build-grow.sh FRAME OUT (grow.cu with -DFRAME=FRAME, sm_90 SASS only).
# Skipped when OUT is newer than the source and this script and was built with the same FRAME.
set -euo pipefail
FRAME="$1"
OUT="$2"
SRC="$(dirname "${BASH_SOURCE[0]}")/grow.cu"
STAMP="$OUT.frame"
if [[ -f "$OUT" && -f "$STAMP" && "$OUT" -nt "$SRC" && "$(cat "$STAMP")" == "$FRAME" ]]; then
    echo "$OUT is up to date"
    exit 0
fi
mkdir -p "$(dirname "$OUT")"
nvcc -O2 -shared -Xcompiler -fPIC -gencode arch=compute_90,code=sm_90 -DFRAME="$FRAME" -o "$OUT.tmp" "$SRC"
mv -f "$OUT.tmp" "$OUT"
echo "$FRAME" > "$STAMP"
echo "Built $OUT (FRAME=$FRAME)"
