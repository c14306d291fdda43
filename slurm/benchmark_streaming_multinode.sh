#!/usr/bin/env bash
# One benchmark per node, both modes, results in per-node folders. As in the reference's per-node
# benchmark, every node reads the whole dataset (bench's default: world size 1 whatever SLURM
# says), so frames/s/node should not depend on the node count; SPLIT=1 instead splits the dataset
# over the nodes by SLURM_PROCID / SLURM_NTASKS, as training does. Each result records its rank,
# world size and node. Submit: sbatch slurm/benchmark_streaming_multinode.sh
# Check first: bash slurm/benchmark_streaming_multinode.sh --dry-run (nothing runs)
#SBATCH --job-name=bench_multinode
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --gpus-per-node=8
#SBATCH --cpus-per-task=96
#SBATCH --exclusive
#SBATCH --time=02:00:00
#SBATCH --output=logs/%x-%j.out
# Knobs: ROOT or REPO_ID (+ DATA_FILES_ROOT), SOURCE [what the flags say: local with ROOT, hub or
# bucket with REPO_ID; warmed_bucket (a bucket DATA_FILES_ROOT): each node's bench reads every file
# once before its run (its warm pass, recorded apart), then reads the bucket over the network;
# local_mirror with REPO_ID: `robostream prewarm` once, here, before the nodes read that copy: the
# Hub cache must be on a file system every node sees, as $SCRATCH usually is],
# OUT_DIR [bench-results/multinode], BATCH_SIZE [64], WORKERS [12], BUFFER [4000],
# NUM_BATCHES [300], DECODE [cpu; cuda: the node's GPU 0, see slurm/task_device.sh], SPLIT [0],
# FRAME_CACHE [unset: none; passed as --frame-cache, expanded by each task's shell, e.g.
# '${SLURM_TMPDIR:-/tmp}/robostream-frames-$USER:64G' or shared:64G (your own /dev/shm folder)],
# ROBOSTREAM [scripts/robostream]. Hub cache: see slurm/hub_cache.sh ($SCRATCH when set).
set -euo pipefail
cd "${SLURM_SUBMIT_DIR:-$(dirname "$0")/..}"
. slurm/dry_run_flag.sh "$@"
OUT_DIR=${OUT_DIR:-bench-results/multinode}
data=${ROOT:+--root $ROOT}
data=${data:---repo-id ${REPO_ID:?set ROOT or REPO_ID}}
[ -z "${DATA_FILES_ROOT:-}" ] || data="$data --data-files-root $DATA_FILES_ROOT"
# Only an explicit SOURCE is passed: bench labels the run from the dataset flags otherwise.
source=${SOURCE:+--source $SOURCE}
case "${SPLIT:-0}" in
  0) split="" ;;
  1) split=" --split-by-rank" ;;
  *) echo "SPLIT=$SPLIT must be 0 (every node reads the whole dataset) or 1" >&2; exit 2 ;;
esac
robostream=${ROBOSTREAM:-scripts/robostream}
decode=${DECODE:-cpu}
task="device=\$(slurm/task_device.sh $decode) || exit 2; for mode in single sarm; do \
$robostream bench $data $source$split --mode \$mode --video-decode-device \$device \
--batch-size ${BATCH_SIZE:-64} --num-workers ${WORKERS:-12} --buffer-size ${BUFFER:-4000} \
--num-batches ${NUM_BATCHES:-300} --out-dir $OUT_DIR/node\$SLURM_NODEID\
${FRAME_CACHE:+ --frame-cache $FRAME_CACHE} || exit 1; done"
prewarm=""
if [ "${SOURCE:-}" = local_mirror ] && [ -z "${ROOT:-}" ]; then
  prewarm="$robostream prewarm $data"
fi
if [ $dry_run = 1 ]; then
  [ -z "$prewarm" ] || echo "before srun, once: $prewarm"
  exec slurm/show_tasks.sh 1 "$decode" "$task" "$0"
fi
. slurm/hub_cache.sh
if [ -z "${ROBOSTREAM:-}" ]; then
  scripts/build-jar.sh # once, here: tasks building at the same time would break each other's jar
  export ROBOSTREAM_NO_BUILD=1
fi
# Copying to the cache is a step before the measurement (resumable: cached files are kept).
[ -z "$prewarm" ] || $prewarm
srun --ntasks-per-node=1 sh -c "$task"
echo "then: scripts/robostream summarize $OUT_DIR"
