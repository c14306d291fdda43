#!/usr/bin/env bash
# Runs every test: the native tests (ctest, inside the Maven build) and the Java tests.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
cd "$root"
mvn -B verify "$@"
