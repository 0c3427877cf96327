#!/usr/bin/env bash
# The long fuzzing campaign: every parser target of FuzzTargets in parallel, one JVM each, Jazzer's standalone driver.
# Usage (from the repository root; .fuzzcarry/ holds jre/, lib/ (jazzer, its api, the runtime jars), classes/):
#   bash src/test/fuzz/long-campaign.sh OUTDIR RUNS SECONDS
# Each target stops after RUNS executions or SECONDS seconds. Writes OUTDIR/summary.tsv (target, runs, seconds,
# distinct findings, corpus size), OUTDIR/logs.tar.gz and OUTDIR/findings.tar.gz (the crashing inputs).
set -uo pipefail
out="${1:?usage: long-campaign.sh OUTDIR RUNS SECONDS}"; runs="${2:?RUNS}"; secs="${3:?SECONDS}"
root="$(pwd)"; carry="${FUZZ_CARRY:-$root/.fuzzcarry}"; seeds="${FUZZ_SEEDS:-$root/src/test/resources/io/github/cudastackbudget/fuzz/ParserFuzzTestInputs}"
work="$(mktemp -d)"; mkdir -p "$out"
targets="${FUZZ_TARGETS:-Elf:elf Ar:ar Fatbin:fatbin Cubin:cubin Ptx:ptxEntryNames NativeRead:nativeRead CuobjdumpText:cuobjdumpText LaunchLog:launchLog Sizes:sizes ReportJson:reportJson}"
for t in $targets; do
    cls="${t%%:*}"; dir="${t##*:}"
    mkdir -p "$work/$dir/corpus" "$work/$dir/findings"
    ( cd "$work/$dir" && "$carry/jre/bin/java" -Xmx1g -cp "$carry/classes:$carry/lib/*" com.code_intelligence.jazzer.Jazzer \
        --target_class="io.github.cudastackbudget.fuzz.FuzzTargets\$$cls" \
        --instrumentation_includes='io.github.cudastackbudget.**' --keep_going=200 \
        -runs="$runs" -max_total_time="$secs" -timeout=10 -rss_limit_mb=3072 -print_final_stats=1 \
        -artifact_prefix="$work/$dir/findings/" corpus "$seeds/$dir" > "$work/$dir/log.txt" 2>&1; echo $? > "$work/$dir/rc" ) &
done
wait
printf 'target\truns\tseconds\texec_per_s\tdistinct_findings\tcorpus_files\trc\n' > "$out/summary.tsv"
for t in $targets; do
    dir="${t##*:}"; log="$work/$dir/log.txt"
    done_line="$(grep -E '^Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1)"
    r="$(sed -E 's/^Done ([0-9]+) runs in ([0-9]+) second.*/\1/' <<<"$done_line")"
    s="$(sed -E 's/^Done ([0-9]+) runs in ([0-9]+) second.*/\2/' <<<"$done_line")"
    [[ -z "$r" ]] && r="$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)"
    f="$(ls "$work/$dir/findings" | wc -l)"; c="$(ls "$work/$dir/corpus" | wc -l)"
    eps=""; [[ -n "$r" && -n "$s" && "$s" -gt 0 ]] && eps=$((r / s))
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$dir" "${r:-?}" "${s:-?}" "$eps" "$f" "$c" "$(cat "$work/$dir/rc")" >> "$out/summary.tsv"
    grep -vE '^INFO: Instrumented|^INFO: Loaded' "$log" | grep -E 'Exception|Error|Violation|== Java|at io\.github|Done|#[0-9]+.*DONE|stat::' | head -400 > "$work/$dir/digest.txt"
done
tar -C "$work" -czf "$out/findings.tar.gz" $(for t in $targets; do echo "${t##*:}/findings"; done)
tar -C "$work" -czf "$out/logs.tar.gz" $(for t in $targets; do echo "${t##*:}/digest.txt"; done)
for t in $targets; do d="${t##*:}"; tail -c 200000 "$work/$d/log.txt" | grep -vE '^INFO: Instrumented' > "$work/$d/log-tail.txt"; done
tar -C "$work" -czf "$out/log-tails.tar.gz" $(for t in $targets; do echo "${t##*:}/log-tail.txt"; done)
column -t "$out/summary.tsv"
