#!/usr/bin/env bash
# The PyTorch bridge against the reference's PyAV path, side by side in one Python process each
# (python/benchmarks/bridge_benchmark.py), as docs/PERFORMANCE.md "PyTorch bridge" records it:
# reading (every pixel read once) and training a small conv policy, on the default dataset and on
# the real G1 dataset (640x480 AV1, episodes 1, 2, 4); then the loader's threads against spawned
# DataLoader workers. Usage:
#   scripts/perf/python-bridge.sh OUT_DIR DEFAULT_DATASET [G1_DATASET]
# DEFAULT_DATASET: e.g. ~/.cache/robostream/samples/camera-3x256-e50-f200 (scripts/demo.sh
# writes it); G1_DATASET defaults to ../shared/datasets/g1-v21-sample.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
default=$2
g1=${3:-$root/../shared/datasets/g1-v21-sample}
bench="/usr/bin/python3 $root/python/benchmarks/bridge_benchmark.py"
mkdir -p "$out"
$bench --root "$default" --batch-size 32 --warmup 3 --batches 150 --rounds 2 \
  --out "$out/default-read.json" | tee "$out/default-read.log"
$bench --root "$default" --batch-size 32 --warmup 3 --batches 40 --rounds 2 --train \
  --out "$out/default-train.json" | tee "$out/default-train.log"
$bench --root "$g1" --episodes 1,2,4 --batch-size 16 --buffer-size 50 --warmup 3 --batches 40 \
  --rounds 2 --out "$out/g1-read.json" | tee "$out/g1-read.log"
$bench --root "$g1" --episodes 1,2,4 --batch-size 16 --buffer-size 50 --warmup 3 --batches 40 \
  --rounds 2 --train --out "$out/g1-train.json" | tee "$out/g1-train.log"
$bench --root "$default" --batch-size 32 --warmup 3 --batches 150 --rounds 2 \
  --modes robostream,spawn --out "$out/default-spawn.json" | tee "$out/default-spawn.log"
