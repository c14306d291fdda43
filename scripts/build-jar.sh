#!/usr/bin/env bash
# Builds the CLI jar (mvn package) when it is missing or older than the sources. Several processes
# may ask at once (SLURM tasks, parallel jobs): the check and the build run under an exclusive
# flock, so one builds and the others wait and then find the jar fresh, instead of several Maven
# runs rewriting the jar while another process reads it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jar="$root/java/target/robostream-0.1.0-SNAPSHOT.jar"
stale() {
  [ ! -f "$jar" ] || [ -n "$(find "$root/java/src/main" "$root/native" "$root/CMakeLists.txt" \
    "$root/java/pom.xml" -newer "$jar" -print -quit)" ]
}
stale || exit 0
mkdir -p "$root/java/target"
exec 9>"$root/java/target/.build.lock"
flock 9
if stale; then
  echo "robostream: building (mvn package)..." >&2
  (cd "$root" && mvn -q -B -pl java -am package -DskipTests >&2)
fi
