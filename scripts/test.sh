#!/usr/bin/env bash
# Runs every test: the native tests (ctest, inside the library module's build) and the Java tests
# of every module (library, then CLI; the CLI's packaged jar under Failsafe); then a separate
# consumer project built against the installed artifact, run on the class path and on the module
# path (scripts/tests/consumer-check.sh); then the Python package's tests (python/tests, pytest);
# then the native core again under AddressSanitizer +
# UndefinedBehaviorSanitizer (scripts/sanitize.sh: ctest and the Java tests that drive the core;
# fails on any report).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
cd "$root"
# install = verify + the artifact into the local Maven repository, where the consumer check
# resolves it exactly as a user's project would.
mvn -B install "$@"
"$root/scripts/tests/consumer-check.sh"
# The Python bridge against the jars just built, with Debian's Python (JPype, torch, pytest).
# -X faulthandler: a crash, even at interpreter exit after the summary, prints every thread.
(cd "$root/python" && /usr/bin/python3 -X faulthandler -m pytest -q -p no:cacheprovider tests)
"$root/scripts/sanitize.sh"
