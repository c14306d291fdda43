#!/usr/bin/env bash
# The PyTorch bridge against the reference's PyAV path, side by side in one Python process each,
# as docs/PERFORMANCE.md records it. Two parts (PART, default all):
#   lerobot  LeRobot's training loop as its factory and training script make it
#            (python/benchmarks/lerobot_loop_benchmark.py): ACT-like and Diffusion-like configs,
#            the recommended configuration (DataLoader(num_workers=0)) against the PyAV path and
#            against LeRobot's DataLoader workers (fork, spawn), on the default dataset and G1;
#   bridge   reading (every pixel read once) and training a small conv policy per sample and
#            with batches() (python/benchmarks/bridge_benchmark.py), then the loader's threads
#            against spawned DataLoader workers.
# Usage:
#   scripts/perf/python-bridge.sh OUT_DIR DEFAULT_DATASET [G1_DATASET] [PART]
# DEFAULT_DATASET: e.g. ~/.cache/robostream/samples/camera-3x256-g2-e50-f200 (scripts/demo.sh
# writes it); G1_DATASET defaults to ../shared/datasets/g1-v21-sample.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
default=$2
g1=${3:-$root/../shared/datasets/g1-v21-sample}
part=${4:-all}
py=/usr/bin/python3
mkdir -p "$out"
if [ "$part" = all ] || [ "$part" = lerobot ]; then
  loop="$py $root/python/benchmarks/lerobot_loop_benchmark.py"
  # Default dataset: LeRobot's defaults (batch 8, buffer 1000). Forked workers need a parent
  # without a JVM: their runs are a process of their own (the others start one in-process).
  $loop --root "$default" --policy act --steps 60 --warmup 10 --rounds 2 \
    --modes pyav,robostream,spawn --out "$out/loop-default-act.json" | tee "$out/loop-default-act.log"
  $loop --root "$default" --policy act --steps 60 --warmup 10 --rounds 2 \
    --modes fork --out "$out/loop-default-act-fork.json" | tee "$out/loop-default-act-fork.log"
  $loop --root "$default" --policy diffusion --steps 60 --warmup 10 --rounds 1 \
    --modes pyav,robostream --out "$out/loop-default-diffusion.json" | tee "$out/loop-default-diffusion.log"
  # G1 episodes 1, 2, 4 (594 samples): a buffer of 50, so the window measures decoding rather
  # than an epoch's last buffered samples.
  $loop --root "$g1" --episodes 1,2,4 --policy act --buffer-size 50 --steps 40 --warmup 5 \
    --rounds 2 --modes pyav,robostream --out "$out/loop-g1-act.json" | tee "$out/loop-g1-act.log"
  $loop --root "$g1" --episodes 1,2,4 --policy act --buffer-size 50 --steps 40 --warmup 5 \
    --rounds 2 --modes fork --out "$out/loop-g1-act-fork.json" | tee "$out/loop-g1-act-fork.log"
fi
if [ "$part" = all ] || [ "$part" = bridge ]; then
  bench="$py $root/python/benchmarks/bridge_benchmark.py"
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
fi
