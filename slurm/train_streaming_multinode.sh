#!/usr/bin/env bash
# Distributed streaming training of one model, one task (JVM) per GPU across nodes; each task reads
# its rank and the world size from SLURM_PROCID / SLURM_NTASKS, streams its share, and averages
# its gradients with every other task's each step (c10d: the tasks meet at the first node of the
# job, port 15000 + SLURM_JOB_ID % 20000 unless MASTER_ADDR / MASTER_PORT are set). It decodes on
# its own GPU: DECODE=cuda or cuda-or-cpu becomes cuda:<i> for the task of node-local id i, mapped
# through CUDA_VISIBLE_DEVICES (slurm/task_device.sh); MODEL_DEVICE=auto trains on GPU i too.
# Submit: sbatch slurm/train_streaming_multinode.sh
# Check first: bash slurm/train_streaming_multinode.sh --dry-run (the srun command and the
# device of each task of a node, SLURM_NTASKS_PER_NODE of them [8]; nothing runs)
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
# MODEL_DEVICE [auto: the task's GPU when libtorch has CUDA natives, else the CPU], DIST_TIMEOUT
# [600 s: a task that does not arrive fails every task], MASTER_ADDR / MASTER_PORT,
# RESUME_FROM, EXTRA (e.g. --dummy), ROBOSTREAM [scripts/robostream], FRAME_CACHE [unset: none;
# passed as --frame-cache, expanded by each task's shell: '${SLURM_TMPDIR:-/tmp}/robostream-frames-$USER:64G'
# or shared:64G (your own /dev/shm folder) is one folder per node, shared by its ranks]. Hub cache: see
# slurm/hub_cache.sh ($SCRATCH when set).
set -euo pipefail
cd "${SLURM_SUBMIT_DIR:-$(dirname "$0")/..}"
. slurm/dry_run_flag.sh "$@"
resume=${RESUME_FROM:+--resume-from $RESUME_FROM}
data=${ROOT:+--root $ROOT}
[ -n "$data" ] || data=${REPO_ID:+--repo-id $REPO_ID}
[ -z "${DATA_FILES_ROOT:-}" ] || data="$data --data-files-root $DATA_FILES_ROOT"
decode=${DECODE:-cpu}
# Each task picks its GPU when it starts: SLURM_LOCALID and CUDA_VISIBLE_DEVICES are its own.
task="device=\$(slurm/task_device.sh $decode) || exit 2; exec ${ROBOSTREAM:-scripts/robostream} \
train $data --output-dir ${OUTPUT_DIR:-outputs/train_streaming} --steps ${STEPS:-200000} \
--batch-size ${BATCH_SIZE:-64} --num-workers ${WORKERS:-12} --buffer-size ${BUFFER:-4000} \
--video-decode-device \$device --model-device ${MODEL_DEVICE:-auto} \
--dist-timeout ${DIST_TIMEOUT:-600} --save-freq ${SAVE_FREQ:-2000} --log-freq ${LOG_FREQ:-50} \
$resume${FRAME_CACHE:+ --frame-cache $FRAME_CACHE} ${EXTRA:-}"
if [ $dry_run = 1 ]; then
  exec slurm/show_tasks.sh "${SLURM_NTASKS_PER_NODE:-8}" "$decode" "$task" \
    "${ROBOSTREAM_LAUNCHER:-$0}"
fi
. slurm/hub_cache.sh
# One secret per job: every task proves it at the rendezvous, so nothing else at the port (another
# job, another user) is paired with this job's ranks (srun passes the environment on).
ROBOSTREAM_JOB_SECRET=${ROBOSTREAM_JOB_SECRET:-$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')}
export ROBOSTREAM_JOB_SECRET
if [ -z "${ROBOSTREAM:-}" ]; then
  scripts/build-jar.sh # once, here: tasks building at the same time would break each other's jar
  export ROBOSTREAM_NO_BUILD=1
fi
srun sh -c "$task"
