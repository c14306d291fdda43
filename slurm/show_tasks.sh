#!/usr/bin/env bash
# The dry run of the multinode launchers: the command srun runs in every task and the decode
# device of each of a node's TASKS tasks, as slurm/task_device.sh will choose it. Outside a job,
# SLURM_GPUS_PER_NODE defaults to the launchers' #SBATCH value (8), and CUDA_VISIBLE_DEVICES,
# when unset here, to what SLURM sets for --gpus-per-node without binding: every GPU of the
# node, 0..G-1, in every task. Exit 2 when a task would have no GPU.
#
#   slurm/show_tasks.sh TASKS DECODE TASK_COMMAND [LAUNCHER]
# With LAUNCHER, first what its #SBATCH lines ask SLURM for (sbatch's own flags override them).
set -euo pipefail
tasks=$1
decode=$2
task=$3
gpus=${SLURM_GPUS_PER_NODE:-8}
if [ -n "${4:-}" ]; then
  echo "sbatch will ask for (the script's #SBATCH lines; flags given to sbatch win):"
  sed -n 's/^#SBATCH /  /p' "$4"
  requested=$(sed -n 's/^#SBATCH --gpus-per-node=\([0-9]*\)$/\1/p' "$4")
  [ -z "${SLURM_GPUS_PER_NODE:-}" ] && [ -n "$requested" ] && gpus=$requested
fi
echo "srun sh -c ${task@Q}"
if [ -z "${CUDA_VISIBLE_DEVICES+set}" ]; then
  CUDA_VISIBLE_DEVICES=$(seq -s, 0 $((gpus - 1)))
  echo "CUDA_VISIBLE_DEVICES is unset here; in a job with --gpus-per-node SLURM sets it to the" \
    "node's GPUs: shown as $CUDA_VISIBLE_DEVICES (SLURM_GPUS_PER_NODE=$gpus)"
fi
export CUDA_VISIBLE_DEVICES
echo "decode device of each of a node's $tasks task(s), DECODE=$decode:"
slurm/task_device.sh --table "$tasks" "$decode" 2>&1 | sed 's/^/  /'
