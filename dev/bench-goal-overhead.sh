#!/usr/bin/env bash
# What the check goal adds to `mvn verify` of a project with no CUDA code (issue 11, "the goal pays only for what it
# uses"). Builds a throwaway jar project (one Java class, no native code) under target/bench-goal-overhead/ and times,
# alternating in each round (the order rotates from round to round), RUNS fresh `mvn -o -q verify` processes of:
#   anchor  the project without the plugin
#   check   the project with the check goal bound to verify (default configuration: no libraries found)
#   skip    the same as check, with -DcudaStackBudget.skip=true
# and prints min/median/max of each and the two overheads (median of check minus median of anchor, and of skip minus
# anchor), plus the median of the per-round differences.
#
# The plugin comes from this build's jar (target/cuda-stack-budget-maven-plugin-*.jar, built by
# `./mvnw -B -o -q package -DskipTests -Dinvoker.skip=true` or any `package`), installed into a local repository under
# target/bench-goal-overhead/repo; everything else is copied from ~/.m2/repository through a file:// repository
# (like the invoker ITs' settings). Nothing is installed into ~/.m2.
#
# usage: dev/bench-goal-overhead.sh [RUNS]      (default 10)
#   MVN=/path/to/mvn   the Maven to time (default: mvn on the PATH)
#   JAR=/path/to.jar   the plugin jar (default: the one in target/)
#   POM=/path/to/pom   the POM installed with it (default: pom.xml; give the jar's own POM when timing another
#                      commit's jar, e.g. POM=<(git show main:pom.xml) is not enough: use a file)
#   KEEP_LOGS=1        keep each run's output in target/bench-goal-overhead/logs (default: only the last run's)
#   BEFORE_JAR=/path   a second plugin jar (e.g. main's) timed in the same rounds as the variants check0 and skip0,
#                      from its own local repository; BEFORE_POM=/path its POM (default: POM). Prints both jars'
#                      overheads, and the medians of the per-round differences check - check0 and skip - skip0
#   SPAN=1             also time the goal's own span in each variant (from its "--- cuda-stack-budget-maven-plugin"
#                      header to the line after its output, Maven's timestamps; RUNS more runs each): the plugin's
#                      resolution, class realm, configuration and run, without the build around it, which varies by
#                      more than the goal takes on a shared machine
# needs: JDK 17, Maven 3.6.3+, the plugin's and the project's plugins' dependencies in ~/.m2 (a prior build has them)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
runs="${1:-10}"
mvn="${MVN:-mvn}"
m2="${M2_REPOSITORY:-$HOME/.m2/repository}"
work="$root/target/bench-goal-overhead"

version="$(sed -n 's:^  <version>\(.*\)</version>:\1:p' pom.xml | head -1)"
jar="${JAR:-$root/target/cuda-stack-budget-maven-plugin-$version.jar}"
if [[ ! -f "$jar" ]]; then
    echo "no plugin jar at $jar: build it first (./mvnw -B -o -q package -DskipTests -Dinvoker.skip=true)" >&2
    exit 2
fi

rm -rf "$work"
mkdir -p "$work/project/src/main/java/bench" "$work/repo" "$work/logs"
write_settings() { # FILE LOCAL_REPOSITORY
cat > "$1" <<EOF
<settings>
  <localRepository>$2</localRepository>
  <profiles>
    <profile>
      <id>bench-repo</id>
      <activation><activeByDefault>true</activeByDefault></activation>
      <repositories>
        <repository><id>bench.m2</id><url>file://$m2</url>
          <releases><checksumPolicy>ignore</checksumPolicy></releases>
          <snapshots><enabled>false</enabled></snapshots></repository>
      </repositories>
      <pluginRepositories>
        <pluginRepository><id>bench.m2</id><url>file://$m2</url>
          <releases><checksumPolicy>ignore</checksumPolicy></releases>
          <snapshots><enabled>false</enabled></snapshots></pluginRepository>
      </pluginRepositories>
    </profile>
  </profiles>
</settings>
EOF
}
write_settings "$work/settings.xml" "$work/repo"

cat > "$work/project/src/main/java/bench/Hello.java" <<'EOF'
package bench;

public final class Hello {
    public static void main(String[] args) {
        System.out.println("hello");
    }
}
EOF

# the same project twice: without the plugin (the anchor) and with the check goal bound to verify
write_pom() { # FILE PLUGIN_XML
    cat > "$1" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>bench</groupId>
  <artifactId>no-cuda</artifactId>
  <version>1.0</version>
  <packaging>jar</packaging>
  <properties>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <maven.compiler.release>17</maven.compiler.release>
  </properties>
  <build>
    <pluginManagement>
      <plugins>
        <plugin><artifactId>maven-resources-plugin</artifactId><version>3.5.0</version></plugin>
        <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.16.0</version></plugin>
        <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.6.1</version></plugin>
        <plugin><artifactId>maven-jar-plugin</artifactId><version>3.5.1</version></plugin>
        <plugin><artifactId>maven-install-plugin</artifactId><version>3.2.0</version></plugin>
      </plugins>
    </pluginManagement>
    <plugins>$2
    </plugins>
  </build>
</project>
EOF
}
write_pom "$work/project/anchor.xml" ""
write_pom "$work/project/check.xml" "
      <plugin>
        <groupId>io.github.cudastackbudget</groupId>
        <artifactId>cuda-stack-budget-maven-plugin</artifactId>
        <version>$version</version>
        <executions><execution><goals><goal>check</goal></goals></execution></executions>
      </plugin>"

# this build's plugin into the bench repository (install-file runs against that repository only)
"$mvn" -B -q -s "$work/settings.xml" org.apache.maven.plugins:maven-install-plugin:3.2.0:install-file \
    -Dfile="$jar" -DpomFile="${POM:-$root/pom.xml}" > "$work/logs/install.log" 2>&1 \
    || { cat "$work/logs/install.log" >&2; exit 1; }
if [[ -n "${BEFORE_JAR:-}" ]]; then
    write_settings "$work/settings-before.xml" "$work/repo-before"
    "$mvn" -B -q -s "$work/settings-before.xml" org.apache.maven.plugins:maven-install-plugin:3.2.0:install-file \
        -Dfile="$BEFORE_JAR" -DpomFile="${BEFORE_POM:-${POM:-$root/pom.xml}}" > "$work/logs/install-before.log" 2>&1 \
        || { cat "$work/logs/install-before.log" >&2; exit 1; }
fi

cd "$work/project"
declare -A cmd=(
    [anchor]="-s $work/settings.xml -f anchor.xml"
    [check]="-s $work/settings.xml -f check.xml"
    [skip]="-s $work/settings.xml -f check.xml -DcudaStackBudget.skip=true"
    [check0]="-s $work/settings-before.xml -f check.xml"
    [skip0]="-s $work/settings-before.xml -f check.xml -DcudaStackBudget.skip=true"
)
order=(anchor check skip)
[[ -n "${BEFORE_JAR:-}" ]] && order=(anchor check check0 skip skip0)
# one online run each fills the bench repository from ~/.m2 (file:// only) and checks that every variant succeeds
for name in "${order[@]}"; do
    # shellcheck disable=SC2086
    "$mvn" -B ${cmd[$name]} verify > "$work/logs/prime-$name.log" 2>&1 \
        || { echo "the $name build failed: see $work/logs/prime-$name.log" >&2; exit 1; }
done
for name in "${order[@]}"; do
    case "$name" in
        check*) grep -q 'No CUDA kernels found' "$work/logs/prime-$name.log" \
            || { echo "the check goal did not run: see $work/logs/prime-$name.log" >&2; exit 1; } ;;
        skip*) grep -q 'Skipping the CUDA stack budget check' "$work/logs/prime-$name.log" \
            || { echo "the check goal did not skip: see $work/logs/prime-$name.log" >&2; exit 1; } ;;
    esac
done

declare -A times=([anchor]="" [check]="" [skip]="" [check0]="" [skip0]="")
for ((round = 0; round < runs; round++)); do
    for ((k = 0; k < ${#order[@]}; k++)); do
        name="${order[(round + k) % ${#order[@]}]}"
        log="$work/logs/$name.log"
        [[ -n "${KEEP_LOGS:-}" ]] && log="$work/logs/$name-$round.log"
        start=$(date +%s%N)
        # shellcheck disable=SC2086
        "$mvn" -o -q -B ${cmd[$name]} verify > "$log" 2>&1 \
            || { echo "run $round of $name failed: see $log" >&2; exit 1; }
        end=$(date +%s%N)
        times[$name]+="$(( (end - start) / 1000000 )) "
    done
done

# min/median/max in seconds of a list of milliseconds
stats() { tr ' ' '\n' <<< "$1" | grep . | sort -n | awk '{ v[NR] = $1 } END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%.3f %.3f %.3f", v[1] / 1000, m / 1000, v[NR] / 1000 }'; }
# the median of the per-round differences A - B, in seconds
paired() { paste -d' ' <(tr ' ' '\n' <<< "$1" | grep .) <(tr ' ' '\n' <<< "$2" | grep .) | awk '{ print $1 - $2 }' \
    | sort -n | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%.3f", m / 1000 }'; }

echo "mvn -o -q verify of a project with no CUDA code, $runs runs each, alternating ($("$mvn" -v 2>/dev/null \
    | head -1 | sed 's/\x1b\[[0-9;]*m//g'), $(nproc) CPUs)"
printf '%-8s %8s %8s %8s   (seconds)\n' variant min median max
for name in "${order[@]}"; do
    read -r lo med hi <<< "$(stats "${times[$name]}")"
    printf '%-8s %8s %8s %8s\n' "$name" "$lo" "$med" "$hi"
done
read -r _ anchor_med _ <<< "$(stats "${times[anchor]}")"
read -r _ check_med _ <<< "$(stats "${times[check]}")"
read -r _ skip_med _ <<< "$(stats "${times[skip]}")"
awk -v a="$anchor_med" -v c="$check_med" -v s="$skip_med" -v pc="$(paired "${times[check]}" "${times[anchor]}")" \
    -v ps="$(paired "${times[skip]}" "${times[anchor]}")" 'BEGIN {
    printf "overhead of check:             %.3f s (median - median; median of the per-round differences %.3f s)\n", c - a, pc
    printf "overhead of check, skip=true:  %.3f s (median - median; median of the per-round differences %.3f s)\n", s - a, ps }'
if [[ -n "${BEFORE_JAR:-}" ]]; then
    read -r _ check0_med _ <<< "$(stats "${times[check0]}")"
    read -r _ skip0_med _ <<< "$(stats "${times[skip0]}")"
    awk -v a="$anchor_med" -v c="$check0_med" -v s="$skip0_med" \
        -v pc="$(paired "${times[check0]}" "${times[anchor]}")" -v ps="$(paired "${times[skip0]}" "${times[anchor]}")" \
        -v dc="$(paired "${times[check]}" "${times[check0]}")" -v ds="$(paired "${times[skip]}" "${times[skip0]}")" 'BEGIN {
    printf "BEFORE_JAR, check:             %.3f s (median - median; median of the per-round differences %.3f s)\n", c - a, pc
    printf "BEFORE_JAR, check, skip=true:  %.3f s (median - median; median of the per-round differences %.3f s)\n", s - a, ps
    printf "this jar - BEFORE_JAR:         check %.3f s, skip %.3f s (medians of the per-round differences)\n", dc, ds }'
fi
if [[ -n "${SPAN:-}" ]]; then
    span_order=(check skip)
    [[ -n "${BEFORE_JAR:-}" ]] && span_order=(check check0 skip skip0)
    declare -A spans=()
    for ((round = 0; round < runs; round++)); do
        for ((k = 0; k < ${#span_order[@]}; k++)); do
            name="${span_order[(round + k) % ${#span_order[@]}]}"
            # shellcheck disable=SC2086
            ms="$("$mvn" -o -B ${cmd[$name]} verify -Dorg.slf4j.simpleLogger.showDateTime=true \
                -Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS 2>&1 | awk '
                function ms(l) { split(substr(l, 1, 12), t, ":"); return (t[1] * 3600 + t[2] * 60 + t[3]) * 1000 }
                /--- cuda-stack-budget-maven-plugin/ { a = ms($0); next }
                a && (/BUILD SUCCESS/ || /-----------/) { printf "%d", ms($0) - a; exit }')"
            [[ -n "$ms" ]] || { echo "no span found in a $name run" >&2; exit 1; }
            spans[$name]+="$ms "
        done
    done
    echo "the goal's span in Maven's log (header to the next line after its output), $runs runs each:"
    printf '%-8s %8s %8s %8s   (seconds)\n' variant min median max
    for name in "${span_order[@]}"; do
        read -r lo med hi <<< "$(stats "${spans[$name]}")"
        printf '%-8s %8s %8s %8s\n' "$name" "$lo" "$med" "$hi"
    done
fi
