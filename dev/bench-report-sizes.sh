#!/usr/bin/env bash
# Sizes and cold-JVM writer times of the JSON report and the standalone page for a ~130k-record report, this tree
# against an earlier commit (default ed7b5c2, schema 1), same input, fresh processes, alternating A/B.
#
# The input is the schema-1 JSON the earlier commit writes for COPIES renamed copies of the four real recordings in
# ../shared/fixtures/cuobjdump (WriteSamplePages; 10 copies = 129,820 records). Each run is one fresh JVM
# (BenchReportWriters): read that JSON, write the JSON report and the page once each (the writers' first, cold call),
# read the written JSON back. Then the page load in headless Chromium (BenchPageLoad), both pages, alternating.
#
# usage: dev/bench-report-sizes.sh [COPIES [RUNS [REV]]]     needs: JDK 17, git, chromium (or CHROMIUM=/path)
set -euo pipefail
cd "$(dirname "$0")/.."
copies="${1:-10}"
runs="${2:-3}"
rev="${3:-ed7b5c2}"
out="$PWD/target/bench-report-sizes"
rm -rf "$out" && mkdir -p "$out/before-src"

./mvnw -B -o -q test-compile -Dcuda-stack-budget.native.skip=true
./mvnw -B -o -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$out/classpath"
deps="$(cat "$out/classpath")"
after="$PWD/target/classes:$PWD/target/test-classes:$deps"

git archive "$rev" | tar -x -C "$out/before-src"
# the earlier tree's tests read ../shared relative to their own root: the shared fixtures beside it
ln -sfn "$(cd ../shared && pwd)" "$out/shared"
mkdir -p "$out/before-src/target" && cp -r target/test-cuda "$out/before-src/target/" 2>/dev/null || true
(cd "$out/before-src" && ./mvnw -B -o -q test-compile -Dcuda-stack-budget.native.skip=true)
mkdir -p "$out/before-bench"
javac -d "$out/before-bench" -cp "$out/before-src/target/classes:$out/before-src/target/test-classes:$deps" \
    dev/java/io/github/cudastackbudget/core/report/html/BenchReportWriters.java
before="$out/before-bench:$out/before-src/target/classes:$out/before-src/target/test-classes:$deps"

# the input: schema 1, written by the earlier commit (its page too)
(cd "$out/before-src" && java -cp "$before" io.github.cudastackbudget.core.report.html.WriteSamplePages \
    "$out/input" "$copies")
input="$out/input/work-scaled/out/cuda-stack-budget.json"

for run in $(seq 1 "$runs"); do
    printf 'before %d: ' "$run"; java -cp "$before" io.github.cudastackbudget.core.report.html.BenchReportWriters \
        "$input" "$out/before-$run"
    printf 'after  %d: ' "$run"; java -cp "$after" io.github.cudastackbudget.core.report.html.BenchReportWriters \
        "$input" "$out/after-$run"
done
for run in $(seq 1 "$runs"); do
    echo "before page:"; java -cp "$after" io.github.cudastackbudget.core.report.html.BenchPageLoad \
        "$out/before-1/cuda-stack-budget.html" 1 | tail -1
    echo "after page:"; java -cp "$after" io.github.cudastackbudget.core.report.html.BenchPageLoad \
        "$out/after-1/cuda-stack-budget.html" 1 | tail -1
done
echo "machine: $(nproc) CPUs, $(chromium --version 2>/dev/null || echo "${CHROMIUM:-chromium}")"
