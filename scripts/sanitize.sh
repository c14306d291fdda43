#!/usr/bin/env bash
# The native core under AddressSanitizer and UndefinedBehaviorSanitizer.
#
#   scripts/sanitize.sh [TESTS]
#
# 1. Builds the core and its native tests into their own CMake tree (java/target/native-asan) with
#    -fsanitize=address,undefined -fno-sanitize-recover=undefined (a UB report aborts, so it
#    cannot scroll by), without the nvcc kernel (the GPU code compiles either way).
# 2. Runs the native unit tests there with leak detection on.
# 3. Runs the Java tests that drive the core hardest (exports and ownership, pools, dav1d, libyuv,
#    the loader's device path, the MP4 mutation fuzz, whose worker JVMs inherit the sanitizers and
#    the JavaCPP settings; TESTS, a Surefire -Dtest selection, replaces the default) in JVMs
#    that load that core instead of the packaged one: Surefire's jvm is a wrapper that preloads the
#    sanitizer runtimes, and JavaCPP takes librobostream_core.so from the sanitized tree first
#    (org.bytedeco.javacpp.pathsFirst + platform.preloadpath), the JNI glue from target/classes.
# 4. Fails on any sanitizer report (the runtimes write them under java/target/native-asan/reports,
#    one file per process, so a report of a JVM that died is kept), on a failed test or a crash,
#    and prints the counts of what ran.
# Needs the Maven build (scripts/test.sh runs this after it). The sanitized tree is kept between
# runs (its cost: docs/PERFORMANCE.md, "Build, test and tool costs").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/java/target/native-asan"
reports="$build/reports"
tests=${1:-ArrowExportTest,FrameBatchTest,CudaAvailabilityTest,Av1BackendTest,ColorConversionTest,\
BadInputTest,FrameExactnessTest,DecodePlanningTest,NvdecInputTest,DeviceBatchStreamingTest,\
FrameAccessTest,BatchTensorTest,ReadmeTensorSnippetsTest,StreamingCloseTest,StreamingDatasetTest,\
StreamingWindowsTest,StreamingResumeTest,OutstandingBatchesTest,InterruptedConsumerTest,\
DecoderCacheSizeTest,DepthFrameBatchTest,DepthStreamingTest,MixedCameraSizesTest,ImageFeatureStreamingTest,\
PixelFormatStreamingTest,DeviceResizeTest,ScaledDestinationTest,FrameCacheStreamingTest,StrictImageTest,\
ImageTransformStreamingTest,MutationFuzzTest,VideoDecoderTest}
started=$(date +%s)
log() { echo "sanitize: $*"; }

sanitize="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
log "building the core with $sanitize into $build"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROBOSTREAM_WITH_CUDA=OFF \
  "-DCMAKE_CXX_FLAGS=$sanitize" "-DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=address,undefined" \
  "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined" > "$build.configure.log"
cmake --build "$build" --parallel 2 --target robostream_core robostream_native_tests \
  > "$build.build.log" || { tail -40 "$build.build.log"; exit 1; }
rm -rf "$reports"
mkdir -p "$reports"

# Native tests: a plain C++ process, so leaks are checked too.
log "ctest (native unit tests, leak detection on)"
native_status=0
ASAN_OPTIONS="detect_leaks=1:log_path=$reports/native-asan" UBSAN_OPTIONS="print_stacktrace=1" \
  ctest --test-dir "$build" -V -R '^(native_unit_tests|no_runtime_loaded_library_is_needed)$' \
  > "$reports/ctest.log" 2>&1 || native_status=$?
native_counts=$(grep -o 'native: [0-9]* passed, [0-9]* failed, [0-9]* skipped' \
  "$reports/ctest.log" || echo "native: no result")
grep -E '^[0-9]+% tests passed' "$reports/ctest.log" || true

# The JVM under the sanitizers. Why each setting:
# - libasan first in LD_PRELOAD: its interceptors must be in place before any other library, or
#   it refuses to start ("ASan runtime does not come first").
# - libstdc++ preloaded: ASan resolves the real __cxa_throw when it starts; the java launcher is
#   C and loads libstdc++ only with libjvm, later, and the core's first C++ exception would
#   then abort in ASan's interceptor ("CHECK failed: real___cxa_throw"). libubsan, also needed
#   by the sanitized core, happens to pull libstdc++ in; naming it keeps that explicit.
# - handle_segv=0, handle_sigbus=0, allow_user_segv_handler=1: HotSpot takes SIGSEGV on purpose
#   (implicit null checks, safepoint polls, stack banging) and handles it itself; ASan must
#   leave those signals to the JVM instead of reporting them as crashes.
# - detect_leaks=0: the JVM never frees much of what it maps (metaspace, code cache, thread
#   stacks), so LeakSanitizer would report the JVM; the Java tests check the core's own leaks
#   with rs_live_objects / rs_live_bytes (NativeLeakCheck), and ctest above runs with leaks on.
# - log_path: one ASan report file per process, checked below. UBSan (a separate runtime next
#   to ASan) ignores log_path and writes to stderr, so the wrapper sends each JVM's stderr (native
#   writes only: Surefire captures what Java code prints) to a file of its own as well.
# The java Maven itself would fork.
if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
  java_bin="$JAVA_HOME/bin/java"
else
  java_bin=$(readlink -f "$(command -v java)")
fi
libdir=$(dirname "$(gcc -print-file-name=libasan.so)")
preload="$(readlink -f "$libdir/libasan.so") $(readlink -f "$libdir/libubsan.so")"
preload="$preload $(readlink -f "$(gcc -print-file-name=libstdc++.so)")"
jvm_asan="detect_leaks=0:handle_segv=0:handle_sigbus=0:allow_user_segv_handler=1"
mkdir -p "$build/jvm/bin"
cat > "$build/jvm/bin/java" <<EOF
#!/bin/sh
# Written by scripts/sanitize.sh: the JDK's java with the sanitizer runtimes preloaded.
export LD_PRELOAD="$preload"
export ASAN_OPTIONS="$jvm_asan:log_path=$reports/java-asan"
export UBSAN_OPTIONS="print_stacktrace=1"
exec "$java_bin" "\$@" 2>> "$reports/java-stderr.\$\$"
EOF
chmod +x "$build/jvm/bin/java"

log "Java tests against the sanitized core: $tests"
java_status=0
(cd "$root" && mvn -B -pl java -am test -Dnative.tests.skip=true -Dtest="$tests" \
  -Dsurefire.failIfNoSpecifiedTests=false -Djvm="$build/jvm/bin/java" \
  -Dorg.bytedeco.javacpp.pathsFirst=true -Dorg.bytedeco.javacpp.platform.preloadpath="$build" \
  -Dorg.bytedeco.javacpp.logger=slf4j \
  -Dorg.slf4j.simpleLogger.log.org.bytedeco.javacpp.Loader=debug) \
  > "$reports/maven.log" 2>&1 || java_status=$?
# JavaCPP's loader logs each library it loads: a JVM that loaded the packaged core instead
# would have tested nothing here.
loads=$(grep -c "Loading $build/librobostream_core.so" "$reports/maven.log" || true)
if [ "$loads" -eq 0 ] && [ "$java_status" -eq 0 ]; then
  log "no test JVM loaded $build/librobostream_core.so"
  java_status=1
fi
# Surefire's summary of this run: its last "Tests run:" line without " -- in ".
java_counts=$(grep -E '^\[[A-Z]+\] Tests run: [0-9]+, .*Skipped: [0-9]+$' "$reports/maven.log" \
  | tail -1 | sed -E 's/^\[[A-Z]+\] /java: /')
java_counts=${java_counts:-java: no result}

# One ASan/LSan report per file; UBSan reports are lines in ctest's output or a JVM's stderr.
found=$(grep -lE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|CHECK failed' \
  "$reports"/native-* "$reports"/java-* "$reports/ctest.log" 2>/dev/null || true)
count=$(cat "$reports"/native-* "$reports"/java-* "$reports/ctest.log" 2>/dev/null \
  | grep -cE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|CHECK failed' || true)
log "$native_counts"
log "$java_counts (JVMs that loaded the sanitized core: $loads)"
log "sanitizer reports: $count; $(( $(date +%s) - started )) s"
if [ "$count" -gt 0 ]; then
  for f in $found; do
    log "report in $f:"
    grep -m1 -A40 -E 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|CHECK failed' "$f"
  done
fi
if [ "$native_status" -ne 0 ]; then
  log "ctest failed (status $native_status):"
  tail -40 "$reports/ctest.log"
fi
if [ "$java_status" -ne 0 ]; then
  log "the Java tests failed (status $java_status):"
  grep -E 'Tests run:|FAIL|ERROR\]|crash' "$reports/maven.log" | tail -40
fi
[ "$count" -eq 0 ] && [ "$native_status" -eq 0 ] && [ "$java_status" -eq 0 ]
