#!/usr/bin/env bash
# Size and load time of the standalone HTML report for a ~130k-record report in headless Chromium.
#
# Builds the sample pages from the REAL recorded cuobjdump output in ../shared/fixtures/cuobjdump (libnccl, libnvjpeg,
# torchaudio, xla_cuda_plugin: 12,982 records), the large one from COPIES renamed copies of those four recordings
# (default 10 -> 129,820 records, the size of libtorch_cuda.so), then loads the large page RUNS times in headless
# Chromium and prints the navigation timing (DOMContentLoaded, load event) and how long the page's script takes to
# filter and sort the 130k-row table.
#
# usage: dev/bench-html.sh [COPIES [RUNS]]        needs: JDK 17, chromium (or CHROMIUM=/path), nvcc for test-compile
set -euo pipefail
cd "$(dirname "$0")/.."
copies="${1:-10}"
runs="${2:-5}"
out=target/bench-html

./mvnw -B -o -q test-compile
./mvnw -B -o -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-html.classpath
classpath="target/classes:target/test-classes:$(cat target/bench-html.classpath)"

java -cp "$classpath" io.github.cudastackbudget.core.report.html.WriteSamplePages "$out" "$copies"
java -cp "$classpath" io.github.cudastackbudget.core.report.html.BenchPageLoad "$out/scaled.html" "$runs"
echo "machine: $(nproc) CPUs, $(chromium --version 2>/dev/null || echo "${CHROMIUM:-chromium}")"
