#!/usr/bin/env bash
# The long fuzzing campaign: every parser target of FuzzTargets, each in one or more Jazzer workers (one JVM each,
# Jazzer's standalone driver, a different -seed per worker, all starting from the target's seeds and regression
# inputs); a target's executions are the sum over its workers, as libFuzzer's -jobs counts them.
# Usage (from the repository root; .fuzzcarry/ holds jre/, lib/ (jazzer, its api, the runtime jars), classes/):
#   bash src/test/fuzz/long-campaign.sh OUTDIR RUNS SECONDS
# Each worker stops after RUNS/workers executions or SECONDS seconds. FUZZ_TARGETS overrides the list
# ("Class:dir:workers ..."). Writes OUTDIR/summary.tsv (target, workers, runs, seconds, exec/s, distinct findings,
# corpus size, worst exit status), OUTDIR/findings.tar.gz (the crashing inputs) and OUTDIR/log-tails.tar.gz.
set -uo pipefail
out="${1:?usage: long-campaign.sh OUTDIR RUNS SECONDS}"; runs="${2:?RUNS}"; secs="${3:?SECONDS}"
root="$(pwd)"; carry="${FUZZ_CARRY:-$root/.fuzzcarry}"; seeds="${FUZZ_SEEDS:-$root/src/test/resources/io/github/cudastackbudget/fuzz/ParserFuzzTestInputs}"
work="$(mktemp -d)"; mkdir -p "$out"
targets="${FUZZ_TARGETS:-Elf:elf:1 Ar:ar:1 Fatbin:fatbin:2 Cubin:cubin:1 Ptx:ptxEntryNames:2 NativeRead:nativeRead:3 CuobjdumpText:cuobjdumpText:2 LaunchLog:launchLog:1 Sizes:sizes:1 ReportJson:reportJson:1}"
for t in $targets; do
    IFS=: read -r cls dir workers <<<"$t"
    per=$(( (runs + workers - 1) / workers ))
    for ((k = 1; k <= workers; k++)); do
        w="$work/$dir/w$k"; mkdir -p "$w/corpus" "$work/$dir/findings"
        ( cd "$w" && "$carry/jre/bin/java" -Xmx1g -cp "$carry/classes:$carry/lib/*" com.code_intelligence.jazzer.Jazzer \
            --target_class="io.github.cudastackbudget.fuzz.FuzzTargets\$$cls" \
            --instrumentation_includes='io.github.cudastackbudget.**' --keep_going=200 \
            -seed="$k" -runs="$per" -max_total_time="$secs" -timeout=10 -rss_limit_mb=3072 -print_final_stats=1 \
            -artifact_prefix="$work/$dir/findings/" corpus "$seeds/$dir" > "$w/log.txt" 2>&1; echo $? > "$w/rc" ) &
    done
done
wait
printf 'target\tworkers\truns\tseconds\texec_per_s\tdistinct_findings\tcorpus_files\trc\n' > "$out/summary.tsv"
for t in $targets; do
    IFS=: read -r cls dir workers <<<"$t"
    total=0; longest=0; rc=0; corpus=0
    for ((k = 1; k <= workers; k++)); do
        w="$work/$dir/w$k"; log="$w/log.txt"
        r="$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)"
        [[ -z "$r" ]] && r="$(grep -E '^Done [0-9]+ runs' "$log" | tail -1 | sed -E 's/^Done ([0-9]+) runs.*/\1/')"
        s="$(grep -E '^Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1 | sed -E 's/^Done [0-9]+ runs in ([0-9]+) second.*/\1/')"
        total=$((total + ${r:-0})); ((${s:-0} > longest)) && longest=${s:-0}
        wrc="$(cat "$w/rc")"; ((wrc != 0)) && rc=$wrc
        corpus=$((corpus + $(ls "$w/corpus" | wc -l)))
        grep -vE '^INFO: Instrumented|^INFO: Loaded' "$log" | grep -E 'Exception|Error|Violation|== Java|at io\.github|Done|stat::' | head -200 > "$w/digest.txt"
        tail -c 100000 "$log" | grep -vE '^INFO: Instrumented' > "$w/log-tail.txt"
    done
    f="$(ls "$work/$dir/findings" | wc -l)"; eps=""; ((longest > 0)) && eps=$((total / longest))
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$dir" "$workers" "$total" "$longest" "$eps" "$f" "$corpus" "$rc" >> "$out/summary.tsv"
done
tar -C "$work" -czf "$out/findings.tar.gz" $(for t in $targets; do IFS=: read -r c d n <<<"$t"; echo "$d/findings"; done)
tar -C "$work" -czf "$out/log-tails.tar.gz" $(cd "$work" && ls -d */w*/digest.txt */w*/log-tail.txt)
(column -t "$out/summary.tsv" 2>/dev/null || cat "$out/summary.tsv")
