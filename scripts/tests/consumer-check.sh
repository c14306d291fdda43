#!/usr/bin/env bash
# Builds scripts/tests/consumer — a separate Maven project that depends on the installed
# org.robostream:robostream artifact as the README says — and runs it on the pattern dataset the
# Java tests generated: one epoch must deliver every frame. Catches what the project's own build
# cannot see: the dependency set a *consumer* resolves (a Jackson family split by Arrow's older
# transitive versions broke the first info.json) and the JVM flags a consumer needs.
# It runs twice: on the class path, as the README's Maven users do, and on the module path, the
# same classes compiled as module `consumer` (consumer/modular/module-info.java: requires
# org.robostream), so that the library's module descriptor is tested: its exports, requires
# (the native platform modules, Arrow's allocator), JavaCPP loading the core from a named module,
# and its uses/provides (consumer.HubProviderCheck: the Hub provider must be found both ways).
# Usage: consumer-check.sh   (after `mvn install` of the project)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dataset="$root/java/target/fixtures/datasets/pattern-v30"
[ -d "$dataset" ] || { echo "consumer-check: $dataset missing (run the Java tests first)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$root/scripts/tests/consumer/." "$work/"
mvn -B -q -f "$work/pom.xml" package
deps=$(cat "$work/target/classpath.txt")
javac -d "$work/modular-classes" -p "$deps" "$work/modular/module-info.java" \
  $(find "$work/src/main/java" -name '*.java')
expected=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["total_frames"])' \
  "$dataset/meta/info.json")

status=0
for path in class module; do
  if [ "$path" = class ]; then
    # Arrow's memory module is in the unnamed module on the class path.
    run=(java --add-opens=java.base/java.nio=ALL-UNNAMED -cp "$work/target/classes:$deps")
    main() { echo "consumer.$1"; }
  else
    # On the module path it is the named module org.apache.arrow.memory.core.
    run=(java --add-opens=java.base/java.nio=org.apache.arrow.memory.core
      -p "$work/modular-classes:$deps")
    main() { echo "-m consumer/consumer.$1"; }
  fi
  # shellcheck disable=SC2046
  out=$("${run[@]}" $(main StreamOneEpoch) "$dataset" 2>&1 | grep -v '^SLF4J')
  echo "consumer-check ($path path): $out (expected $expected samples)"
  case "$out" in
    "samples $expected frames-bytes "*) ;;
    *) echo "consumer-check: FAILED on the $path path: the consumer did not stream the whole" \
         "epoch" >&2; status=1;;
  esac
  # shellcheck disable=SC2046
  out=$("${run[@]}" $(main HubProviderCheck) 2>&1 | grep -v '^SLF4J')
  case "$out" in
    *" is a path inside a bucket: "*) echo "consumer-check ($path path): the Hub provider is found";;
    *) echo "consumer-check: FAILED on the $path path: no Hub provider: $out" >&2; status=1;;
  esac
done
exit "$status"
