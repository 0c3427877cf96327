#!/usr/bin/env bash
# Times the native engine (and the cuobjdump engine, where cuobjdump is installed) on the given files.
#
#   dev/bench-native.sh [--repeat N] [--parallelism N] FILE...
#
# Builds the classes and the dev classes (mvn package without tests; dev/java is compiled with the tests), then runs
# io.github.cudastackbudget.dev.NativeCompare, which prints one row per file: records,
# record differences between the engines, size, cuobjdump engine seconds (cuobjdump --dump-resource-usage plus
# parsing), native engine seconds (best of N reads, default 3; parallel over fatbin entries), their ratio and the time
# the native printer (DumpResourceUsage's text) takes. Without cuobjdump only the native columns are filled.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPEAT=3
EXTRA=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --repeat) REPEAT="$2"; shift 2 ;;
        --parallelism) EXTRA+=(--parallelism "$2"); shift 2 ;;
        *) break ;;
    esac
done
if [[ $# -eq 0 ]]; then
    echo "usage: $0 [--repeat N] [--parallelism N] FILE..." >&2
    exit 2
fi
cd "$ROOT"
./mvnw -B -o -q package -DskipTests -Dinvoker.skip=true
./mvnw -B -o -q dependency:build-classpath -Dmdep.includeScope=runtime -Dmdep.outputFile=target/bench-classpath.txt
CUOBJDUMP="$(command -v cuobjdump || true)"
if [[ -z "$CUOBJDUMP" && -x /usr/local/cuda/bin/cuobjdump ]]; then
    CUOBJDUMP=/usr/local/cuda/bin/cuobjdump
fi
ARGS=(--repeat "$REPEAT" "${EXTRA[@]}")
if [[ -n "$CUOBJDUMP" ]]; then
    ARGS+=(--cuobjdump "$CUOBJDUMP")
else
    echo "(no cuobjdump here: native engine only)"
fi
cd - >/dev/null
exec java -cp "$ROOT/target/test-classes:$ROOT/target/classes:$(cat "$ROOT/target/bench-classpath.txt")" \
    io.github.cudastackbudget.dev.NativeCompare "${ARGS[@]}" "$@"
