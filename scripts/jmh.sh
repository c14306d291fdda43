#!/usr/bin/env bash
# Builds the JMH benchmarks (jmh/target/benchmarks.jar) and runs all of them, writing JMH's JSON.
# Usage: scripts/jmh.sh [--short|--full] [OUT_DIR] [-- EXTRA_JMH_ARGS...]
#   --short  1 fork, 1 warmup x 1 s, 2 measurements x 1 s (SingleShot: 1 + 2 calls): a smoke run
#            of the whole suite, under 5 minutes on 2 cores; numbers are indicative only
#   --full   (default) 2 forks, 3 warmups x 2 s, 5 measurements x 3 s
#   OUT_DIR  where jmh-<profile>.json and jmh-<profile>.txt go (default jmh-results)
# EXTRA_JMH_ARGS go to JMH as they are (a benchmark regex, -p param=values, ...).
# Needs what `mvn -pl jmh -am package` needs (JDK, Maven, the native core's toolchain: see README);
# the benchmarks generate their videos and datasets under java/target on first use.
set -euo pipefail
cd "$(dirname "$0")/.."

profile=full
out=jmh-results
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --short) profile=short ;;
    --full) profile=full ;;
    --) shift; extra=("$@"); break ;;
    -*) echo "unknown option $1 (usage: scripts/jmh.sh [--short|--full] [OUT_DIR] [-- JMH_ARGS])" >&2; exit 2 ;;
    *) out=$1 ;;
  esac
  shift
done

case "$profile" in
  short) opts=(-f 1 -wi 1 -w 1s -i 2 -r 1s) ;;
  full) opts=(-f 2 -wi 3 -w 2s -i 5 -r 3s) ;;
esac

start=$(date +%s)
mvn -B -q -pl jmh -am package -DskipTests
mkdir -p "$out"
json="$out/jmh-$profile.json"
# The benchmarks find scripts/ and java/target from the working folder: the repository root.
java --add-opens=java.base/java.nio=ALL-UNNAMED -Drobostream.root="$PWD" \
  -jar jmh/target/benchmarks.jar "${opts[@]}" -rf json -rff "$json" "${extra[@]}" \
  | tee "$out/jmh-$profile.txt"
echo "jmh.sh: $profile profile in $(( $(date +%s) - start )) s; results in $json"
