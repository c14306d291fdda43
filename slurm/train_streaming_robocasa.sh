#!/usr/bin/env bash
# The reference's slurm/train_streaming_robocasa.sh on top of the generic launcher
# (slurm/train_streaming_multinode.sh): RoboCasa pretraining streamed from the Hub, 2 nodes x 8
# GPUs, 96 CPUs per node (12 per task), exclusive, 24 h; batch 64 per task, 12 workers, buffer
# 4000, 200000 steps, a checkpoint every 2000, a log line every 50; the Hub cache under
# $SCRATCH/hf_home (slurm/hub_cache.sh). Where the reference runs one `accelerate launch` per node
# with 8 processes, this runs 8 tasks per node (srun); every task trains the same model, its
# gradients averaged with the others' each step, as Accelerate's DDP does. The reference's bf16
# and dynamo flags have no counterpart: the policy trains in float32.
# Submit: REPO_ID=<owner>/robocasa_pretrain_human300_v4 sbatch slurm/train_streaming_robocasa.sh
# Check first: REPO_ID=... bash slurm/train_streaming_robocasa.sh --dry-run (nothing runs)
#SBATCH --job-name=train_robocasa
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-node=8
#SBATCH --cpus-per-task=12
#SBATCH --exclusive
#SBATCH --time=24:00:00
#SBATCH --output=logs/%x-%j.out
# Knobs: REPO_ID (required unless ROOT is set: the reference's is
# <owner>/robocasa_pretrain_human300_v4 under your Hub account), DATA_FILES_ROOT (e.g. the
# reference's hf://buckets/<owner>/robocasa-stream), MAIN_PORT (the reference's name for the
# rendezvous port; unset: 15000 + SLURM_JOB_ID % 20000), DECODE [cuda-or-cpu], and every knob of
# slurm/train_streaming_multinode.sh (STEPS, BATCH_SIZE, WORKERS, BUFFER, SAVE_FREQ, LOG_FREQ,
# OUTPUT_DIR [outputs/train_robocasa], MODEL_DEVICE, RESUME_FROM, FRAME_CACHE, EXTRA, ...).
set -euo pipefail
cd "${SLURM_SUBMIT_DIR:-$(dirname "$0")/..}"
if [ -z "${ROOT:-}" ] && [ -z "${REPO_ID:-}" ]; then
  echo "set REPO_ID (the reference trains <owner>/robocasa_pretrain_human300_v4) or ROOT" >&2
  exit 2
fi
export BATCH_SIZE=${BATCH_SIZE:-64} WORKERS=${WORKERS:-12} BUFFER=${BUFFER:-4000}
export STEPS=${STEPS:-200000} SAVE_FREQ=${SAVE_FREQ:-2000} LOG_FREQ=${LOG_FREQ:-50}
export OUTPUT_DIR=${OUTPUT_DIR:-outputs/train_robocasa} DECODE=${DECODE:-cuda-or-cpu}
[ -z "${MAIN_PORT:-}" ] || export MASTER_PORT=$MAIN_PORT
# The generic launcher's dry run reads the #SBATCH lines of the script it is given: these.
export ROBOSTREAM_LAUNCHER=$0
exec bash slurm/train_streaming_multinode.sh "$@"
