#!/usr/bin/env bash
# Builds the CLI jar (mvn package) when it is missing or older than the sources. Several processes
# may ask at once (SLURM tasks, parallel jobs): the check and the build run under an exclusive
# flock, so one builds and the others wait and then find the jar fresh, instead of several Maven
# runs rewriting the jar while another process reads it.
# The CLI jar is the robostream-cli module's (cli/target), its dependencies (the library with the
# native core, robostream-synth, ...) in cli/target/lib.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jar="$root/cli/target/robostream-cli-0.1.0-SNAPSHOT.jar"
stale() {
  [ ! -f "$jar" ] || [ -n "$(find "$root/java/src/main" "$root/cli/src/main" \
    "$root/synth/src/main" "$root/trainer/src/main" "$root/native" "$root/CMakeLists.txt" "$root/pom.xml" \
    "$root/java/pom.xml" "$root/cli/pom.xml" "$root/synth/pom.xml" "$root/trainer/pom.xml" -newer "$jar" -print -quit)" ]
}
stale || exit 0
mkdir -p "$root/cli/target"
exec 9>"$root/cli/target/.build.lock"
flock 9
if stale; then
  echo "robostream: building (mvn package)..." >&2
  (cd "$root" && mvn -q -B -pl cli -am package -DskipTests >&2)
fi
