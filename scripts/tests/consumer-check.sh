#!/usr/bin/env bash
# Builds scripts/tests/consumer — a separate Maven project that depends on the installed
# org.robostream:robostream artifact as the README says — and runs it on the pattern dataset the
# Java tests generated: one epoch must deliver every frame. Catches what the project's own build
# cannot see: the dependency set a *consumer* resolves (a Jackson family split by Arrow's older
# transitive versions broke the first info.json) and the JVM flags a consumer needs.
# Usage: consumer-check.sh   (after `mvn install` of the project)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dataset="$root/java/target/fixtures/datasets/pattern-v30"
[ -d "$dataset" ] || { echo "consumer-check: $dataset missing (run the Java tests first)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$root/scripts/tests/consumer/." "$work/"
mvn -B -q -f "$work/pom.xml" package
expected=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["total_frames"])' \
  "$dataset/meta/info.json")
out=$(java --add-opens=java.base/java.nio=ALL-UNNAMED \
  -cp "$work/target/classes:$(cat "$work/target/classpath.txt")" consumer.StreamOneEpoch "$dataset")
echo "consumer-check: $out (expected $expected samples)"
case "$out" in
  "samples $expected frames-bytes "*) ;;
  *) echo "consumer-check: FAILED: the consumer project did not stream the whole epoch" >&2; exit 1;;
esac
