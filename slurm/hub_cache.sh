# Sourced (POSIX sh) by the SLURM launchers and their jobs: where robostream caches Hub files,
# the prewarmed mirror of warmed_bucket jobs included. Home directories on clusters are small and
# often slow, so when neither HF_LEROBOT_HOME nor HF_HOME says where, and $SCRATCH is set, the
# cache goes to $SCRATCH/hf_home/lerobot (HF_HOME's layout: HF_LEROBOT_HOME = $HF_HOME/lerobot).
# HF_HOME itself is left alone (it also locates the token file). robostream keeps the cache under
# ROBOSTREAM_HUB_CACHE_GB (default 50 GB).
if [ -z "${HF_LEROBOT_HOME:-}${HF_HOME:-}" ] && [ -n "${SCRATCH:-}" ]; then
  HF_LEROBOT_HOME="$SCRATCH/hf_home/lerobot"
  export HF_LEROBOT_HOME
  echo "robostream Hub cache: HF_LEROBOT_HOME=$HF_LEROBOT_HOME (under \$SCRATCH)" >&2
fi
