#!/usr/bin/env bash
# replay-cuobjdump.sh: a stand-in for NVIDIA's cuobjdump in the invoker ITs. It
# runs nothing of its own: it REPLAYS recordings of the REAL cuobjdump 13.0,
# taken on a GPU machine (H200) from the real nvcc builds of
# examples/stack-demo/src/main/cuda/stack_demo.cu (libstackdemo.so and
# libstackdemo_sm90.so), made by dev/record-cuobjdump.sh; see
# recordings/README.md. The ITs build the same libraries from the same source
# with the same nvcc command line (examples/stack-demo/src/main/cuda/build.sh),
# so the recorded figures describe the files the plugin scans. This lets the ITs
# run on machines without cuobjdump and without a GPU.
#
#   replay-cuobjdump.sh --version
#       prints recordings/cuobjdump-version.txt
#   replay-cuobjdump.sh --dump-resource-usage FILE
#       prints recordings/<basename of FILE>.resource-usage.txt, else
#       ../../test/resources/recorded/launch/<basename of FILE>.resource-usage.txt
#       (the launched-mode probe, recorded on the same GPU machine)
#
# Anything else, or a FILE without a recording: a message on stderr, exit 1.
set -euo pipefail

RECORDINGS="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/recordings"
# the launched-mode recordings (the CUPTI probe, recorded by dev/cupti-validate.sh on the GPU machine)
LAUNCH_RECORDINGS="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../test/resources/recorded" && pwd)/launch"

fail() {
    echo "replay-cuobjdump: $*" >&2
    exit 1
}

case "${1:-}" in
    --version)
        [[ $# -eq 1 ]] || fail "unexpected arguments: $*"
        f="$RECORDINGS/cuobjdump-version.txt"
        [[ -f "$f" ]] || fail "no recording $f (record it with dev/record-cuobjdump.sh on a machine that has cuobjdump)"
        cat "$f"
        ;;
    --dump-resource-usage)
        [[ $# -eq 2 ]] || fail "expected: --dump-resource-usage FILE, got: $*"
        [[ -f "$2" ]] || fail "$2: no such file"
        f="$RECORDINGS/$(basename "$2").resource-usage.txt"
        [[ -f "$f" ]] || f="$LAUNCH_RECORDINGS/$(basename "$2").resource-usage.txt"
        [[ -f "$f" ]] || fail "no recording of real cuobjdump output for $(basename "$2"): $f is missing (record it with dev/record-cuobjdump.sh on a machine that has cuobjdump)"
        cat "$f"
        ;;
    *)
        fail "only --version and --dump-resource-usage FILE are replayed, got: $*"
        ;;
esac
