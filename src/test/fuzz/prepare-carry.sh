#!/usr/bin/env bash
# Fills .fuzzcarry/ for long-campaign.sh on a machine without Java or Maven (the GPU machine): jre/ (a jlink runtime,
# given as JRE=/path, or kept from an earlier run), lib/ (the runtime jars the fuzz targets need, with the natives of
# other platforms stripped from jazzer and zstd-jni to fit the 64 MiB carry), classes/ (main and test classes).
# Usage (repository root, after ./mvnw -B test-compile): bash src/test/fuzz/prepare-carry.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"; cd "$root"
carry="$root/.fuzzcarry"; mkdir -p "$carry"
if [[ -n "${JRE:-}" ]]; then rm -rf "$carry/jre"; cp -r "$JRE" "$carry/jre"; fi
[[ -x "$carry/jre/bin/java" ]] || { echo "prepare-carry: give JRE=/path/to/a/jlink/runtime" >&2; exit 2; }
rm -rf "$carry/lib" "$carry/classes"; mkdir -p "$carry/lib" "$carry/classes"
./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$carry/classpath.txt" >/dev/null
tr ':' '\n' < "$carry/classpath.txt" \
    | grep -E '/(jazzer|jazzer-api|zstd-jni|lz4-java|commons-compress|commons-io|commons-lang3|commons-codec|jackson-[a-z-]+|commons-exec|plexus-utils)-[0-9][^/]*\.jar$' \
    | xargs -I{} cp {} "$carry/lib/"
for jar in "$carry"/lib/jazzer-[0-9]*.jar "$carry"/lib/zstd-jni-*.jar; do
    zip -q -d "$jar" '*windows*' '*darwin*' '*aarch64*' '*/mac*' '*freebsd*' '*ppc64*' '*s390x*' '*arm*' '*riscv*' \
        '*mips*' '*loongarch*' '*sparc*' '*/aix*' '*linux/i386*' >/dev/null 2>&1 || true
done
cp -r target/classes/. "$carry/classes/"
cp -r target/test-classes/io "$carry/classes/"
du -sh "$carry"/*
