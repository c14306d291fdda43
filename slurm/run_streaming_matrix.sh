#!/usr/bin/env bash
# Submits the streaming benchmark matrix SOURCES x MODES x DECODES, each an isolated
# single-node job (an OOM or a crash stays in its job). All logic stays in `robostream bench`;
# this only builds sbatch commands. Run from a login node inside the repository.
#
#   slurm/run_streaming_matrix.sh [--dry-run]
#
# Knobs (environment, defaults in brackets):
#   SOURCES ["hub bucket warmed_bucket"]  local | hub | bucket | warmed_bucket | local_mirror
#     hub: the repository over the network; bucket: data/ and videos/ from BUCKET over the network
#     (metadata from the repository); warmed_bucket: WARM_BUCKET (default BUCKET) the same way,
#     after `bench` read every file of the run once (its warm pass, timed and counted apart in the
#     result); local_mirror: `robostream prewarm` first copies the repository's files (or
#     MIRROR_FILES_ROOT's) to the node's cache, then bench reads that local disk.
#     With the default SOURCES, bucket and warmed_bucket are skipped (with a message) while
#     their bucket is unset: it is yours to name. Listing a source in SOURCES whose knob is unset
#     is an error.
#   MODES ["single sarm"]   DECODES ["cpu cuda"]  cpu | cuda | cuda-or-cpu
#   ROOT (dataset root, needed by SOURCES=local)  REPO_ID [lerobot/robocasa]
#   BUCKET, WARM_BUCKET [BUCKET] (hf://buckets/OWNER/NAME holding data/ and videos/)
#   MIRROR_FILES_ROOT (unset: the repository) what a local_mirror job copies data/ and videos/ from
#   OUT_DIR [bench-results]  NUM_BATCHES [200]  BATCH_SIZE [64]  TIME [01:00:00]  MEM [64G]
#   GPUS [1] (0: no --gpus; then DECODES may not hold cuda)  CPU_WORKERS [8]  GPU_WORKERS [2]
#   CPU_BUFFER [4000]  GPU_BUFFER [1000]  CPUS_PER_TASK [workers + 4]  SERIAL [1]: chain jobs
#   with afterany, so one job touches the network at a time; 0 submits them in parallel
#   JAVA_OPTS  ROBOSTREAM [scripts/robostream]  LOG_DIR [logs]  ACCOUNT PARTITION QOS (passed
#   only when set)  FRAME_CACHE (unset: no cache) passed as `bench --frame-cache`: memory:SIZE,
#   or a node-local folder DIR:SIZE, expanded in the job ('${SLURM_TMPDIR:-/tmp}/robostream-frames-$USER:64G';
#   a folder outlives the job, so later jobs on the node start warm: use memory:SIZE to compare
#   decoders)
# Hub cache (the local_mirror jobs' prewarmed mirror, metadata and Parquet of every Hub job):
# HF_LEROBOT_HOME, else $HF_HOME/lerobot, else $SCRATCH/hf_home/lerobot when SCRATCH is set
# (slurm/hub_cache.sh, sourced here and in every job); at most ROBOSTREAM_HUB_CACHE_GB [50] GB.
# Jobs inherit this environment (sbatch's default --export=ALL).
# Every knob is checked before anything is submitted; all problems are listed, exit 2.
# With the default ROBOSTREAM the jar is built here once, before submitting: jobs never build.
set -euo pipefail
. "$(dirname "$0")/dry_run_flag.sh" "$@"

repo=$(cd "$(dirname "$0")/.." && pwd)
default_sources="hub bucket warmed_bucket"
SOURCES=${SOURCES:-}
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

problems=()
problem() { problems+=("$1"); }

# Sources: an explicit list must be runnable as a whole; the default list runs what is configured.
sources=()
explicit=1
[ -n "$SOURCES" ] || { SOURCES=$default_sources; explicit=0; }
for source in $SOURCES; do
  knob=""
  case "$source" in
    local) [ -n "${ROOT:-}" ] || knob=ROOT ;;
    hub) ;;
    bucket) [ -n "${BUCKET:-}" ] || knob=BUCKET ;;
    warmed_bucket) [ -n "${WARM_BUCKET:-${BUCKET:-}}" ] || knob=WARM_BUCKET ;;
    local_mirror) ;;
    *) problem "SOURCES: unknown source '$source' (local, hub, bucket, warmed_bucket, local_mirror)"; continue ;;
  esac
  if [ -z "$knob" ]; then
    sources+=("$source")
  elif [ $explicit = 1 ]; then
    problem "SOURCES has $source but $knob is not set"
  else
    echo "skipping $source: $knob is not set (SOURCES defaults to \"$default_sources\")"
  fi
done
[ "${#sources[@]}" -gt 0 ] || [ ${#problems[@]} -gt 0 ] || problem "no source to run: set BUCKET or WARM_BUCKET, or SOURCES (e.g. SOURCES=local ROOT=<dataset>)"
[ -z "${ROOT:-}" ] || [ -d "$ROOT" ] || problem "ROOT=$ROOT is not a directory"

for mode in $MODES; do
  case "$mode" in single|sarm) ;; *) problem "MODES: unknown mode '$mode' (single, sarm)" ;; esac
done
[ -n "$MODES" ] || problem "MODES is empty"
gpu_decodes=0
for decode in $DECODES; do
  case "$decode" in
    cpu) ;;
    cuda|cuda-or-cpu) gpu_decodes=1 ;;
    *) problem "DECODES: unknown decode device '$decode' (cpu, cuda, cuda-or-cpu)" ;;
  esac
done
[ -n "$DECODES" ] || problem "DECODES is empty"
for knob in NUM_BATCHES BATCH_SIZE GPUS CPU_WORKERS GPU_WORKERS CPU_BUFFER GPU_BUFFER \
    ${CPUS_PER_TASK:+CPUS_PER_TASK}; do
  case "${!knob}" in
    ''|*[!0-9]*) problem "$knob=${!knob} is not a whole number" ;;
  esac
done
[ "$GPUS" != 0 ] || [ $gpu_decodes = 0 ] || problem "DECODES has a GPU decode but GPUS=0: set GPUS=1 or DECODES=cpu"
case "$SERIAL" in 0|1) ;; *) problem "SERIAL=$SERIAL must be 0 or 1" ;; esac
case "${FRAME_CACHE:-unset}" in
  unset|?*:?*) ;; # robostream checks the folder and the size
  *) problem "FRAME_CACHE=$FRAME_CACHE must be shared:SIZE, memory:SIZE or DIR:SIZE (e.g. memory:16G)" ;;
esac

if [ ${#problems[@]} -gt 0 ]; then
  echo "run_streaming_matrix: nothing submitted:" >&2
  printf '  %s\n' "${problems[@]}" >&2
  exit 2
fi

. "$repo/slurm/hub_cache.sh"
if [ $dry_run = 0 ]; then
  mkdir -p "$LOG_DIR"
  # Built once here: a job building while another runs the jar would break it.
  [ "$ROBOSTREAM" != scripts/robostream ] || "$repo/scripts/build-jar.sh"
fi

submitted=0
previous=""
for source in "${sources[@]}"; do
  prepare=""
  case "$source" in
    local) data="--root '$ROOT'" ;;
    hub) data="--repo-id $REPO_ID" ;;
    bucket) data="--repo-id $REPO_ID --data-files-root $BUCKET" ;;
    # bench does the warm pass itself, through the client the run then uses.
    warmed_bucket) data="--repo-id $REPO_ID --data-files-root ${WARM_BUCKET:-$BUCKET}" ;;
    local_mirror) data="--repo-id $REPO_ID${MIRROR_FILES_ROOT:+ --data-files-root $MIRROR_FILES_ROOT}"
       # Copying to the node is a step before the measurement (resumable: cached files are kept).
       prepare="$ROBOSTREAM prewarm $data && " ;;
  esac
  for mode in $MODES; do
    for decode in $DECODES; do
      if [ "$decode" = cpu ]; then workers=$CPU_WORKERS; buffer=$CPU_BUFFER
      else workers=$GPU_WORKERS; buffer=$GPU_BUFFER; fi
      cpus=${CPUS_PER_TASK:-$((workers + 4))}
      name="bench_${source}_${mode}_${decode}"
      # The job body is POSIX sh (sbatch --wrap runs /bin/sh); ROBOSTREAM_NO_BUILD: see above.
      body="cd '$repo' && . slurm/hub_cache.sh"
      body="$body && export ROBOSTREAM_NO_BUILD=1 JAVA_OPTS='${JAVA_OPTS:-}'"
      body="$body && $prepare$ROBOSTREAM bench $data"
      body="$body --source $source --mode $mode --video-decode-device $decode"
      body="$body --batch-size $BATCH_SIZE --num-workers $workers --buffer-size $buffer"
      body="$body --num-batches $NUM_BATCHES --out-dir '$OUT_DIR'"
      body="$body${FRAME_CACHE:+ --frame-cache $FRAME_CACHE}"
      args=(--parsable --job-name="$name" --nodes=1 --ntasks=1 --cpus-per-task="$cpus"
        --mem="$MEM" --time="$TIME" --output="$LOG_DIR/%x-%j.out")
      [ "$GPUS" = 0 ] || args+=(--gpus="$GPUS")
      [ -z "${ACCOUNT:-}" ] || args+=(--account="$ACCOUNT")
      [ -z "${PARTITION:-}" ] || args+=(--partition="$PARTITION")
      [ -z "${QOS:-}" ] || args+=(--qos="$QOS")
      [ "$SERIAL" = 0 ] || [ -z "$previous" ] || args+=(--dependency="afterany:$previous")
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
echo "$submitted job(s)$([ $dry_run = 1 ] && echo ' (dry run, nothing submitted)' || true)"
echo "watch: squeue -u \$USER    then: scripts/robostream summarize $OUT_DIR"
