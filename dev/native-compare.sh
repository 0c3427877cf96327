#!/usr/bin/env bash
# Compares the native engine with the real cuobjdump on every library with a fatbin on the GPU machine.
#
#   JRE=/path/to/jre dev/native-compare.sh prepare DIR
#                                            (here) builds the jar and the dev classes, copies the jar with its
#                                            runtime dependencies to DIR/lib, the Java runtime $JRE (required, e.g.
#                                            a jlink image, see dev/README.md) to DIR/jre, the compiled
#                                            io.github.cudastackbudget.dev.NativeCompare to DIR/tools and this
#                                            script to DIR
#   dev/native-compare.sh bench DIR OUT      (there) timings on the largest libraries: decompression throughput,
#                                            the native engine on one thread, both tools as processes
#   dev/native-compare.sh run DIR OUT [BUDGET_S]
#                                            (there) finds the files, runs both engines on each, compares, writes
#                                            the table to OUT/native-compare.txt and stdout, text diffs to OUT/
#
# Files compared: every regular file (over 1 KiB, not Python or header text) under the Python site-packages (torch, nvidia, jax, cupy, ...) and the CUDA
# toolkit folder (/usr/local/cuda, resolved) that the plugin's DeviceCodeDetector finds device code in: ELF files with
# .nv_fatbin/__nv_relfatbin, cubins, fatbins, and archives (after every ELF file, smallest first, while the time
# budget BUDGET_S, default 330 s, lasts). Duplicates (symbolic links, same real path) count once.
# For each: the file is read once (page cache warm), the native reader runs twice (best time; parallel over entries
# on every core), then the cuobjdump engine (cuobjdump --dump-resource-usage through a wrapper that tees its text).
# Records, library labels and SASS/PTX targets are compared one by one; cuobjdump's text and the native printer's
# text (ResourceUsageText, the printer of DumpResourceUsage) byte for byte.
set -euo pipefail

mode="${1:-}"
case "$mode" in
prepare)
    DIR="${2:?usage: JRE=/path/to/jre $0 prepare DIR}"
    JRE="${JRE:?usage: JRE=/path/to/jre $0 prepare DIR (JRE: a Java 17+ runtime to carry, e.g. made with jlink; see dev/README.md)}"
    [[ -x "$JRE/bin/java" ]] || { echo "$0: JRE=$JRE has no bin/java" >&2; exit 2; }
    ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
    cd "$ROOT"
    ./mvnw -B -o -q package -DskipTests -Dinvoker.skip=true
    rm -rf "$DIR/lib" "$DIR/tools"
    mkdir -p "$DIR/lib" "$DIR/tools"
    # the plugin jar holds the core's runtime libraries (shaded, issue 11)
    cp target/cuda-stack-budget-maven-plugin-*.jar "$DIR/lib/"
    [[ -d "$DIR/jre" ]] || cp -r "$JRE" "$DIR/jre"
    # NativeCompare is compiled by the build (dev/java is a test source root)
    mkdir -p "$DIR/tools/io/github/cudastackbudget/dev"
    cp target/test-classes/io/github/cudastackbudget/dev/NativeCompare*.class "$DIR/tools/io/github/cudastackbudget/dev/"
    cp dev/native-compare.sh "$DIR/"
    # this repo's test binaries (src/test/cuda/build-test-binaries.sh), compared there too
    ./mvnw -B -o -q generate-test-resources
    rm -rf "$DIR/test-cuda"
    mkdir -p "$DIR/test-cuda"
    cp target/test-cuda/*.so target/test-cuda/*.o target/test-cuda/*.a target/test-cuda/*.cubin \
        target/test-cuda/*.fatbin "$DIR/test-cuda/"
    du -sh "$DIR"
    ;;
run)
    DIR="$(cd "${2:?usage: $0 run DIR OUT}" && pwd)"
    OUT="${3:?usage: $0 run DIR OUT}"
    BUDGET="${4:-330}"
    mkdir -p "$OUT"
    WORK="$(mktemp -d)"
    CUOBJDUMP="$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)"
    SITE="$(python3 -c 'import site; print(site.getsitepackages()[0])')"
    CUDA="$(readlink -f /usr/local/cuda)"
    {
        echo "date: $(date -u '+%F %T') UTC; host: $(uname -sr); nproc: $(nproc)"
        nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
        "$CUOBJDUMP" --version | tail -n 2
        echo "site-packages: $SITE; CUDA: $CUDA"
    } | tee "$OUT/environment.txt"
    # candidates: every regular file over 1 KiB but source text (the detector decides by magic and sections)
    # (and DIR/test-cuda: this repo's test binaries, carried along, whose cuobjdump texts come back as recordings)
    find "$SITE" "$CUDA" "$DIR/test-cuda" -type f -size +1k ! -name '*.py' ! -name '*.pyc' ! -name '*.pyi' ! -name '*.h' \
        ! -name '*.hpp' ! -name '*.cuh' ! -name '*.txt' ! -name '*.json' 2>/dev/null | sort > "$WORK/candidates.txt"
    echo "candidates: $(wc -l < "$WORK/candidates.txt")"
    cat > "$WORK/cuobjdump" <<WRAP
#!/usr/bin/env bash
# runs the real cuobjdump and keeps a copy of its standard output for the byte comparison
set -o pipefail
if [[ "\${1:-}" == --dump-resource-usage ]]; then
    "$CUOBJDUMP" "\$@" | tee "$WORK/\$(cat "$WORK/current").cuobjdump.txt"
else
    exec "$CUOBJDUMP" "\$@"
fi
WRAP
    chmod +x "$WORK/cuobjdump"
    "$DIR/jre/bin/java" -Xmx16g -cp "$DIR/tools:$DIR/lib/*" io.github.cudastackbudget.dev.NativeCompare --cuobjdump "$WORK/cuobjdump" \
        --capture "$WORK" --repeat 2 --budget-seconds "$BUDGET" --list "$WORK/candidates.txt" \
        | tee "$OUT/native-compare.txt"
    # the real cuobjdump texts of the carried test binaries, to keep as recordings
    mkdir -p "$WORK/recorded"
    for path in "$WORK"/*.path; do
        [[ -e "$path" ]] || continue
        n="$(basename "$path" .path)"
        case "$(cat "$path")" in
            "$DIR/test-cuda/"*)
                [[ -f "$WORK/$n.cuobjdump.txt" ]] \
                    && cp "$WORK/$n.cuobjdump.txt" "$WORK/recorded/$(basename "$(cat "$path")").resource-usage.txt" ;;
        esac
    done
    tar -C "$WORK/recorded" -cf "$OUT/test-cuda-recordings.tar" .
    # the first differing lines of every text that differs
    for native in "$WORK"/*.native.txt; do
        [[ -e "$native" ]] || continue
        n="$(basename "$native" .native.txt)"
        if [[ -f "$WORK/$n.cuobjdump.txt" ]] && ! cmp -s "$WORK/$n.cuobjdump.txt" "$native"; then
            diff "$WORK/$n.cuobjdump.txt" "$native" | head -n 40 > "$OUT/text-diff-$n.txt" || true
        fi
    done
    ;;
bench)
    # the largest libraries: decompression throughput (one thread), the native engine on one thread, and both tools
    # as a user runs them (a process each, JVM start included, output to /dev/null)
    DIR="$(cd "${2:?usage: $0 bench DIR OUT}" && pwd)"
    OUT="${3:?usage: $0 bench DIR OUT}"
    mkdir -p "$OUT"
    CUOBJDUMP="$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)"
    SITE="$(python3 -c 'import site; print(site.getsitepackages()[0])')"
    JAVA=("$DIR/jre/bin/java" -Xmx16g -cp "$DIR/tools:$DIR/lib/*")
    LIBS=()
    for name in libtorch_cuda.so libcublasLt.so.13 libcudnn_engines_precompiled.so.9 libnccl.so.2; do
        found="$(find "$SITE" -name "$name" -type f | head -n 1)"
        [[ -n "$found" ]] && LIBS+=("$found")
    done
    {
        echo "== decompression, one thread, best of 3 (aircompressor $(ls "$DIR/lib" | grep -o 'aircompressor-[0-9.]*[0-9]'))"
        "${JAVA[@]}" io.github.cudastackbudget.dev.NativeCompare --decompress-bench "${LIBS[@]}"
        echo "== native engine on one thread (best of 2)"
        "${JAVA[@]}" io.github.cudastackbudget.dev.NativeCompare --parallelism 1 --repeat 2 "${LIBS[@]}"
        echo "== as processes: cuobjdump --dump-resource-usage vs java DumpResourceUsage (JVM start included), s"
        TIMEFORMAT=%R
        for lib in "${LIBS[@]}"; do
            c="$( { time "$CUOBJDUMP" --dump-resource-usage "$lib" > /dev/null; } 2>&1 )"
            n="$( { time "${JAVA[@]}" io.github.cudastackbudget.cli.DumpResourceUsage "$lib" > /dev/null; } 2>&1 )"
            echo "$(basename "$lib") cuobjdump $c native $n"
        done
    } 2>&1 | tee "$OUT/native-bench.txt"
    ;;
*)
    echo "usage: JRE=/path/to/jre $0 prepare DIR | $0 run DIR OUT [BUDGET_S] | $0 bench DIR OUT" >&2
    exit 2
    ;;
esac
