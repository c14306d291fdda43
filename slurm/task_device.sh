#!/bin/sh
# The --video-decode-device of one SLURM task (POSIX sh, so that job bodies and srun tasks can
# run it). A device without an index (cuda, cuda-or-cpu) becomes the GPU of the task's node-local
# id, SLURM_LOCALID; without this every task of a node would decode on cuda:0.
#
#   slurm/task_device.sh DEVICE            this task's device on stdout, how it was chosen on stderr
#   slurm/task_device.sh --table N DEVICE  the same for node-local tasks 0..N-1 (launcher dry runs)
#
# CUDA numbers the GPUs a process sees from 0, in the order of CUDA_VISIBLE_DEVICES:
# - unset: every GPU of the node is visible in the driver's order; task i takes cuda:i;
# - one entry (SLURM bound each task to its own GPU: --gpus-per-task=1, --gpu-bind=single:1):
#   that GPU is cuda:0 inside the task, whatever its number on the node;
# - several entries (--gpus-per-node=8 without binding: every task sees all of them): task i
#   takes cuda:i, the i-th entry; a task past the last entry has no GPU of its own: exit 2;
# - empty: no GPU; cuda is an error (exit 2), cuda-or-cpu stays as it is and decodes on the CPU
#   (reported by robostream).
# cpu and devices with an index (cuda:1: the same GPU for every task) are printed unchanged.
set -eu

fail() {
  echo "task_device: $*" >&2
  exit 2
}

device_of() {
  spec=$1
  local_id=$2
  case "$local_id" in ''|*[!0-9]*) fail "SLURM_LOCALID=$local_id is not a task index" ;; esac
  case "$spec" in
    cuda|cuda-or-cpu) ;;
    cpu|cuda:*|cuda-or-cpu:*)
      echo "task_device: SLURM_LOCALID=$local_id: $spec (as given, the same for every task)" >&2
      echo "$spec"
      return 0 ;;
    *) fail "unknown decode device '$spec' (cpu, cuda, cuda-or-cpu, with :N for one GPU)" ;;
  esac
  if [ -z "${CUDA_VISIBLE_DEVICES+set}" ]; then
    echo "task_device: SLURM_LOCALID=$local_id, CUDA_VISIBLE_DEVICES unset (every GPU of the" \
      "node): $spec:$local_id" >&2
    echo "$spec:$local_id"
    return 0
  fi
  # Unquoted on purpose: the entries, split on commas.
  set -- $(echo "$CUDA_VISIBLE_DEVICES" | tr ',' ' ')
  if [ $# -eq 0 ]; then
    [ "$spec" = cuda-or-cpu ] || fail "SLURM_LOCALID=$local_id sees no GPU" \
      "(CUDA_VISIBLE_DEVICES is empty): request GPUs, or DECODE=cuda-or-cpu / cpu"
    echo "task_device: SLURM_LOCALID=$local_id sees no GPU: cuda-or-cpu decodes on the CPU" >&2
    echo "$spec"
    return 0
  fi
  if [ $# -eq 1 ]; then
    ordinal=0
  elif [ "$local_id" -lt $# ]; then
    ordinal=$local_id
  else
    fail "SLURM_LOCALID=$local_id has no GPU of its own: $# visible" \
      "(CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES); run at most $# tasks per node"
  fi
  shift "$ordinal"
  echo "task_device: SLURM_LOCALID=$local_id, CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES:" \
    "$spec:$ordinal (the node's GPU $1)" >&2
  echo "$spec:$ordinal"
}

if [ "${1:-}" = --table ]; then
  [ $# -eq 3 ] || fail "usage: task_device.sh --table TASKS_PER_NODE DEVICE"
  status=0
  i=0
  while [ "$i" -lt "$2" ]; do
    # Each in a subshell: a task without a GPU is shown and the table goes on.
    ( device_of "$3" "$i" >/dev/null ) 2>&1 || status=2
    i=$((i + 1))
  done
  exit $status
fi
[ $# -eq 1 ] || fail "usage: task_device.sh DEVICE (or --table TASKS_PER_NODE DEVICE)"
device_of "$1" "${SLURM_LOCALID:-0}"
