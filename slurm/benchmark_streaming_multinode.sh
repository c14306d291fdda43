#!/usr/bin/env bash
# One benchmark per node, both modes, results in per-node folders (throughput per node should not
# depend on the node count). Submit: sbatch slurm/benchmark_streaming_multinode.sh
#SBATCH --job-name=bench_multinode
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --exclusive
#SBATCH --time=02:00:00
#SBATCH --output=logs/%x-%j.out
# Knobs: ROOT or REPO_ID (+ DATA_FILES_ROOT), SOURCE [what the flags say: local with ROOT, hub or
# bucket with REPO_ID], OUT_DIR [bench-results/multinode], BATCH_SIZE [64], WORKERS [12],
# BUFFER [4000], NUM_BATCHES [300], DECODE [cpu], ROBOSTREAM [scripts/robostream]
set -euo pipefail
cd "${SLURM_SUBMIT_DIR:-$(dirname "$0")/..}"
OUT_DIR=${OUT_DIR:-bench-results/multinode}
data=${ROOT:+--root $ROOT}
data=${data:---repo-id ${REPO_ID:?set ROOT or REPO_ID}}
[ -z "${DATA_FILES_ROOT:-}" ] || data="$data --data-files-root $DATA_FILES_ROOT"
# Only an explicit SOURCE is passed: bench labels the run from the dataset flags otherwise.
source=${SOURCE:+--source $SOURCE}
if [ -z "${ROBOSTREAM:-}" ]; then
  scripts/build-jar.sh # once, here: tasks building at the same time would break each other's jar
  export ROBOSTREAM_NO_BUILD=1
fi
srun --ntasks-per-node=1 sh -c "for mode in single sarm; do
  ${ROBOSTREAM:-scripts/robostream} bench $data $source --mode \$mode \
    --video-decode-device ${DECODE:-cpu} --batch-size ${BATCH_SIZE:-64} \
    --num-workers ${WORKERS:-12} --buffer-size ${BUFFER:-4000} \
    --num-batches ${NUM_BATCHES:-300} --out-dir $OUT_DIR/node\$SLURM_NODEID || exit 1
done"
echo "then: scripts/robostream summarize $OUT_DIR"
