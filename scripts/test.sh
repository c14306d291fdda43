#!/usr/bin/env bash
# Runs every test: the native tests (ctest, inside the Maven build) and the Java tests, then the
# native core again under AddressSanitizer + UndefinedBehaviorSanitizer (scripts/sanitize.sh:
# ctest and the Java tests that drive the core; fails on any sanitizer report).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
cd "$root"
mvn -B verify "$@"
"$root/scripts/sanitize.sh"
