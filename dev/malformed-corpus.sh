#!/usr/bin/env bash
# The whole check over every case of the malformed-input corpus (src/test/resources/malformed/) in ONE fresh JVM
# under a small heap (default -Xmx256m), with its peak memory (GNU time's maximum resident set size); then each case
# alone in its own JVM under the same heap. Needs a built tree (./mvnw -B verify, or test-compile).
# Usage: bash dev/malformed-corpus.sh [HEAP]      e.g. bash dev/malformed-corpus.sh 256m
set -euo pipefail
heap="${1:-256m}"
root="$(cd "$(dirname "$0")/.." && pwd)"; cd "$root"
out="$root/target/malformed-corpus"; mkdir -p "$out"
./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$out/classpath.txt" >/dev/null
cp="$root/target/test-classes:$root/target/classes:$(cat "$out/classpath.txt")"
main=io.github.cudastackbudget.cli.MalformedCorpus
/usr/bin/time -f '%M KiB peak RSS, %e s' -o "$out/all.time" java -Xmx"$heap" -cp "$cp" "$main" > "$out/all.txt" 2>&1 \
    && all=0 || all=$?
cases="$(grep -c . "$out/all.txt" || true)"; passed="$(grep -c '^PASS' "$out/all.txt" || true)"
echo "one JVM, -Xmx$heap: $passed of $cases cases pass (exit $all); $(cat "$out/all.time")"
grep -v '^PASS' "$out/all.txt" | head -20 || true
# each case alone: the largest peak RSS of a single case
max=0; worst=""
while read -r verdict name; do
    /usr/bin/time -f '%M' -o "$out/one.time" java -Xmx"$heap" -cp "$cp" "$main" "$name" > "$out/one.txt" 2>&1 || true
    rss="$(tail -1 "$out/one.time")"
    if ((rss > max)); then max=$rss; worst=$name; fi
    grep -q '^PASS' "$out/one.txt" || echo "alone: $(cat "$out/one.txt")"
done < <(sed -n 's/^\(PASS\|FAIL\)[^\t]*\t/\1 /p' "$out/all.txt")
echo "each case in its own JVM, -Xmx$heap: largest peak RSS $max KiB ($worst)"
exit "$all"
