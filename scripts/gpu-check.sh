#!/usr/bin/env bash
# The one prepared script for a GPU machine (docs/DESIGN.md, "The GPU check machine": NVIDIA driver, nvcc, CMake; no Java,
# no ffmpeg, no package registry; at most 64 MiB travel there).
#
#   scripts/gpu-check.sh prepare   on a CPU machine: puts the ffnvcodec headers and the NVDEC
#                                  fixtures (scripts/tests/make-gpu-fixtures.sh) into .gpu-carry/
#                                  (ignored by git; prepare fails above 56 MiB)
#   scripts/gpu-check.sh [run]     on the GPU machine, with .gpu-carry carried along: builds the
#                                  NVDEC part and its native tests (CMake + nvcc), runs the tests
#                                  with ROBOSTREAM_REQUIRE_CUDA=1 (a missing GPU fails them), then
#                                  the throughput benchmark for 1, 4, 8 and 14 sessions at 640x480
#                                  and 1920x1080, H.264 and HEVC
#
# Everything the run prints also goes to one results file: $OUT/gpu-check.txt when OUT is set
# (the device tool's output folder), else build/gpu-check.txt. Exit status: 0 only when the build
# and every test passed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
carry="$root/.gpu-carry"
mode=${1:-run}

if [ "$mode" = prepare ]; then
  set -e
  mkdir -p "$carry/include"
  rm -rf "$carry/include/ffnvcodec"
  cp -r /usr/include/ffnvcodec "$carry/include/"
  bash "$root/scripts/tests/make-gpu-fixtures.sh" "$carry/fixtures"
  du -sh "$carry"
  # The device tool carries at most 64 MiB with the working tree: leave room for the sources.
  kib=$(du -sk "$carry" | cut -f1)
  [ "$kib" -le $((56 * 1024)) ] || { echo "$carry is ${kib} KiB, over the 56 MiB budget" >&2; exit 1; }
  exit 0
fi
[ "$mode" = run ] || { echo "usage: gpu-check.sh [prepare|run]" >&2; exit 2; }

results_dir=${OUT:-$root/build}
mkdir -p "$results_dir"
results="$results_dir/gpu-check.txt"
: > "$results"
log() { echo "$@" | tee -a "$results"; }
step() { # name command...: runs it, output into the results file; returns its status
  local name=$1; shift
  log "== $name: $*"
  "$@" 2>&1 | tee -a "$results"
  local rc=${PIPESTATUS[0]}
  log "== $name: exit $rc"
  return "$rc"
}

[ -d "$carry/include/ffnvcodec" ] && [ -d "$carry/fixtures" ] || {
  log "missing $carry: run 'scripts/gpu-check.sh prepare' on the CPU machine and carry .gpu-carry"
  exit 2
}
log "robostream gpu-check $(date -u +%FT%TZ) commit $(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo unknown)"
step gpu nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv || true

build="$root/build/gpu"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
nvcc_hint=()
[ -x /usr/local/cuda/bin/nvcc ] && nvcc_hint=(-DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc)
step configure cmake -S "$root" -B "$build" "${generator[@]}" "${nvcc_hint[@]}" \
  -DCMAKE_BUILD_TYPE=Release -DROBOSTREAM_GPU_TESTS_ONLY=ON -DFFNVCODEC_ROOT="$carry/include" \
  || exit 1
step build cmake --build "$build" -j "$(nproc)" || exit 1
# Without a working nvcc the core still builds (CPU machines rely on that) but carries no colour
# kernel, and every GPU test would fail for a reason far from its cause: stop here instead.
[ -s "$build/colour_kernels.ptx" ] || {
  log "nvcc did not build the colour kernel ($build/colour_kernels.ptx missing): check nvcc on PATH"
  exit 1
}

export ROBOSTREAM_GPU_FIXTURES="$carry/fixtures"
status=0
ROBOSTREAM_REQUIRE_CUDA=1 step tests "$build/robostream_gpu_tests" || status=1
step benchmark "$build/robostream_nvdec_bench" "${ROBOSTREAM_BENCH_SECONDS:-4}" || status=1
log "== gpu-check: exit $status (results in $results)"
exit "$status"
