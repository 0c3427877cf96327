#!/usr/bin/env bash
# Builds the launched-mode probe with the nvcc command recorded in
# src/test/resources/recorded/launch/README.txt (the build whose cuobjdump output and launch log were recorded on
# the GPU machine), plus -Xptxas -v, whose output (<OUT>.ptxas.txt) verify.groovy compares with the recording.
#
#   build-probe.sh SRC OUT
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: $0 SRC OUT" >&2; exit 2; }
src="$1"
out="$2"
mkdir -p "$(dirname "$out")"
args=(-O2 -gencode arch=compute_90,code=sm_90 -o "$out" "$src" -ldl -lpthread -Xptxas -v)
{
    echo "# nvcc ${args[*]}"
    nvcc "${args[@]}" 2>&1
} > "$out.ptxas.txt"
echo "built $out"
