#!/usr/bin/env bash
# Submits the streaming benchmark matrix SOURCES x MODES x DECODES, each an isolated
# single-node job (an OOM or a crash stays in its job). All logic stays in `robostream bench`;
# this only builds sbatch commands. Run from a login node inside the repository.
#
#   slurm/run_streaming_matrix.sh [--dry-run]
#
# Knobs (environment, defaults in brackets):
#   SOURCES ["hub bucket warmed_bucket"]  local | hub | bucket | warmed_bucket
#   MODES ["single sarm"]   DECODES ["cpu cuda"]
#   ROOT (dataset root for SOURCES=local)  REPO_ID [lerobot/robocasa]  BUCKET  WARM_BUCKET
#   OUT_DIR [bench-results]  NUM_BATCHES [200]  BATCH_SIZE [64]  TIME [01:00:00]  MEM [64G]
#   GPUS [1] (0: no --gpus)  CPU_WORKERS [8]  GPU_WORKERS [2]  CPU_BUFFER [4000]
#   GPU_BUFFER [1000]  CPUS_PER_TASK [workers + 4]  SERIAL [1]: chain jobs with afterany, so one
#   job touches the network at a time; 0 submits them in parallel
#   JAVA_OPTS  ROBOSTREAM [scripts/robostream]  LOG_DIR [logs]  ACCOUNT PARTITION QOS (passed
#   only when set)
set -euo pipefail
dry_run=0
[ "${1:-}" = "--dry-run" ] && dry_run=1

repo=$(cd "$(dirname "$0")/.." && pwd)
SOURCES=${SOURCES:-"hub bucket warmed_bucket"}
MODES=${MODES:-"single sarm"}
DECODES=${DECODES:-"cpu cuda"}
REPO_ID=${REPO_ID:-lerobot/robocasa}
OUT_DIR=${OUT_DIR:-bench-results}
NUM_BATCHES=${NUM_BATCHES:-200}
BATCH_SIZE=${BATCH_SIZE:-64}
TIME=${TIME:-01:00:00}
MEM=${MEM:-64G}
GPUS=${GPUS:-1}
CPU_WORKERS=${CPU_WORKERS:-8}
GPU_WORKERS=${GPU_WORKERS:-2}
CPU_BUFFER=${CPU_BUFFER:-4000}
GPU_BUFFER=${GPU_BUFFER:-1000}
SERIAL=${SERIAL:-1}
ROBOSTREAM=${ROBOSTREAM:-scripts/robostream}
LOG_DIR=${LOG_DIR:-$repo/logs}
mkdir -p "$LOG_DIR"

submitted=0
previous=""
for source in $SOURCES; do
  case "$source" in
    local) [ -n "${ROOT:-}" ] || { echo "SOURCES=local needs ROOT=<dataset root>" >&2; exit 2; }
           data="--root $ROOT" ;;
    hub) data="--repo-id $REPO_ID" ;;
    bucket) data="--repo-id $REPO_ID --data-files-root ${BUCKET:?BUCKET is not set}" ;;
    warmed_bucket) data="--repo-id $REPO_ID --data-files-root ${WARM_BUCKET:?WARM_BUCKET is not set}" ;;
    *) echo "unknown source $source (local, hub, bucket, warmed_bucket)" >&2; exit 2 ;;
  esac
  for mode in $MODES; do
    for decode in $DECODES; do
      if [ "$decode" = cuda ]; then workers=$GPU_WORKERS; buffer=$GPU_BUFFER
      else workers=$CPU_WORKERS; buffer=$CPU_BUFFER; fi
      cpus=${CPUS_PER_TASK:-$((workers + 4))}
      name="bench_${source}_${mode}_${decode}"
      # The job body is POSIX sh (sbatch --wrap runs /bin/sh).
      body="cd '$repo' && JAVA_OPTS='${JAVA_OPTS:-}' $ROBOSTREAM bench $data --source $source"
      body="$body --mode $mode --video-decode-device $decode --batch-size $BATCH_SIZE"
      body="$body --num-workers $workers --buffer-size $buffer --num-batches $NUM_BATCHES"
      body="$body --out-dir '$OUT_DIR'"
      args=(--parsable --job-name="$name" --nodes=1 --ntasks=1 --cpus-per-task="$cpus"
        --mem="$MEM" --time="$TIME" --output="$LOG_DIR/%x-%j.out")
      [ "$GPUS" != 0 ] && args+=(--gpus="$GPUS")
      [ -n "${ACCOUNT:-}" ] && args+=(--account="$ACCOUNT")
      [ -n "${PARTITION:-}" ] && args+=(--partition="$PARTITION")
      [ -n "${QOS:-}" ] && args+=(--qos="$QOS")
      [ "$SERIAL" = 1 ] && [ -n "$previous" ] && args+=(--dependency="afterany:$previous")
      if [ $dry_run = 1 ]; then
        printf 'sbatch'; printf ' %q' "${args[@]}" --wrap "$body"; printf '\n'
        previous="<$name>"
      else
        id=$(sbatch "${args[@]}" --wrap "$body")
        id=${id%%;*}
        previous=$id
        echo "submitted $name as job $id"
      fi
      submitted=$((submitted + 1))
    done
  done
done
echo "$submitted job(s)$([ $dry_run = 1 ] && echo ' (dry run, nothing submitted)')"
echo "watch: squeue -u \$USER    then: scripts/robostream summarize $OUT_DIR"
