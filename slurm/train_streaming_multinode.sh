#!/usr/bin/env bash
# Distributed streaming training, one task (JVM) per GPU across nodes; each task reads its rank
# and the world size from SLURM_PROCID / SLURM_NTASKS (no rendezvous needed for data loading).
# Submit: sbatch slurm/train_streaming_multinode.sh
#SBATCH --job-name=train_streaming
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-node=8
#SBATCH --exclusive
#SBATCH --time=24:00:00
#SBATCH --output=logs/%x-%j.out
# Knobs: ROOT (dataset; unset: REPO_ID, else the built-in dataset, generated once under a lock),
# REPO_ID (+ DATA_FILES_ROOT), DECODE [cpu], OUTPUT_DIR [outputs/train_streaming],
# STEPS [200000], BATCH_SIZE [64], WORKERS [12], BUFFER [4000], SAVE_FREQ [2000], LOG_FREQ [50],
# RESUME_FROM, EXTRA (e.g. --dummy), ROBOSTREAM [scripts/robostream]
set -euo pipefail
cd "${SLURM_SUBMIT_DIR:-$(dirname "$0")/..}"
resume=${RESUME_FROM:+--resume-from $RESUME_FROM}
data=${ROOT:+--root $ROOT}
[ -n "$data" ] || data=${REPO_ID:+--repo-id $REPO_ID}
[ -z "${DATA_FILES_ROOT:-}" ] || data="$data --data-files-root $DATA_FILES_ROOT"
if [ -z "${ROBOSTREAM:-}" ]; then
  scripts/build-jar.sh # once, here: tasks building at the same time would break each other's jar
  export ROBOSTREAM_NO_BUILD=1
fi
srun sh -c "${ROBOSTREAM:-scripts/robostream} train $data \
  --output-dir ${OUTPUT_DIR:-outputs/train_streaming} --steps ${STEPS:-200000} \
  --batch-size ${BATCH_SIZE:-64} --num-workers ${WORKERS:-12} --buffer-size ${BUFFER:-4000} \
  --video-decode-device ${DECODE:-cpu} --save-freq ${SAVE_FREQ:-2000} \
  --log-freq ${LOG_FREQ:-50} $resume ${EXTRA:-}"
