#!/usr/bin/env bash
# The short fuzzing run of CI (.ci/run): every parser target of FuzzTargets for SECONDS seconds, two at a time, with
# Jazzer's standalone driver over the compiled classes of this checkout (run after `./mvnw -B verify`, which compiled
# them). Each target starts from its seeds and regression inputs
# (src/test/resources/io/github/cudastackbudget/fuzz/ParserFuzzTestInputs/<target>/); a finding stops that target,
# is kept under target/fuzz-short/<target>/findings/ and makes the script exit 1.
# Usage: bash src/test/fuzz/short-campaign.sh [SECONDS]   (default 12)
set -uo pipefail
secs="${1:-12}"
root="$(cd "$(dirname "$0")/../../.." && pwd)"; cd "$root"
seeds="$root/src/test/resources/io/github/cudastackbudget/fuzz/ParserFuzzTestInputs"
out="$root/target/fuzz-short"; rm -rf "$out"; mkdir -p "$out"
[[ -d target/classes && -d target/test-classes ]] || { echo "short-campaign: compile first (./mvnw -B verify)" >&2; exit 2; }
./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$out/classpath.txt" >/dev/null \
    || { echo "short-campaign: could not resolve the test classpath" >&2; exit 2; }
cp="$root/target/test-classes:$root/target/classes:$(cat "$out/classpath.txt")"
targets="Elf:elf Ar:ar Fatbin:fatbin Cubin:cubin Ptx:ptxEntryNames NativeRead:nativeRead CuobjdumpText:cuobjdumpText LaunchLog:launchLog Sizes:sizes ReportJson:reportJson"
run_one() {
    local cls="${1%%:*}" dir="${1##*:}"
    mkdir -p "$out/$dir/corpus" "$out/$dir/findings"
    ( cd "$out/$dir" && java -Xmx1g -cp "$cp" com.code_intelligence.jazzer.Jazzer \
        --target_class="io.github.cudastackbudget.fuzz.FuzzTargets\$$cls" \
        --instrumentation_includes='io.github.cudastackbudget.**' \
        -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$out/$dir/findings/" corpus "$seeds/$dir" > "$out/$dir/log.txt" 2>&1; echo $? > "$out/$dir/rc" )
}
set -- $targets
while (($#)); do
    run_one "$1" & if (($# > 1)); then run_one "$2" & fi
    wait
    shift; (($#)) && shift
done
status=0
printf '%-14s %10s %8s %9s %s\n' target runs exec/s findings rc
for t in $targets; do
    dir="${t##*:}"; log="$out/$dir/log.txt"
    runs="$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)"
    eps="$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)"
    findings="$(find "$out/$dir/findings" -type f | wc -l)"; rc="$(cat "$out/$dir/rc")"
    printf '%-14s %10s %8s %9s %s\n' "$dir" "${runs:-?}" "${eps:-?}" "$findings" "$rc"
    if [[ "$rc" != 0 || "$findings" != 0 || -z "$runs" ]]; then
        status=1
        echo "--- $dir: $(grep -m1 -E '== Java Exception|ERROR|Exception' "$log")" >&2
        grep -A12 -m1 '== Java Exception' "$log" | grep -vE '^INFO' >&2
    fi
done
exit $status
