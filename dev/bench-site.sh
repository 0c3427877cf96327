#!/usr/bin/env bash
# Size and rendering time of the Maven site report (the report goal's Doxia rendering, SiteReportRenderer) for a
# ~130k-record report: COPIES renamed copies of the four real recordings in ../shared/fixtures/cuobjdump (default 10
# -> 129,820 records, the size of libtorch_cuda.so), read back from the JSON as the goal does, rendered RUNS times
# through Doxia's XHTML5 sink (the page body; the site skin adds a fixed frame around it).
#
# usage: dev/bench-site.sh [COPIES [RUNS]]        needs: JDK 17, nvcc for test-compile
set -euo pipefail
cd "$(dirname "$0")/.."
copies="${1:-10}"
runs="${2:-5}"

./mvnw -B -o -q test-compile
./mvnw -B -o -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-site.classpath
classpath="target/classes:target/test-classes:$(cat target/bench-site.classpath)"
java -cp "$classpath" io.github.cudastackbudget.maven.BenchSitePage target/bench-site "$copies" "$runs"
echo "machine: $(nproc) CPUs, $(java -version 2>&1 | head -1)"
