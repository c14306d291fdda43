#!/usr/bin/env bash
# One model on 1 rank with batch B, on 1 rank with batch 2B (the same global batch), then on 2 ranks
# of this machine with B each (torchrun's variables, a TCPStore and Gloo on the loopback), side by
# side on the same dataset, and a table of each run's steady state
# (every metrics window after the first): samples/s per process and in total, data wait, model
# ms/step, all-reduce ms/step and its share of the window (docs/PERFORMANCE.md, "One model across
# ranks"). Not part of the test command. Nothing else should run.
#
#   scripts/perf/train-ranks.sh OUT_DIR [train flags...]
#
# Environment: ROBOSTREAM (default scripts/robostream), STEPS (default 60), BATCH_SIZE (per rank,
# default 16), WORKERS (per rank, default 1), TWO_RANKS_ONLY=1 (skip the 1-rank runs, as
# rendezvous-ab.sh does). Extra flags (e.g. --root DIR) go to every run.
set -euo pipefail
if [ $# -lt 1 ]; then
  sed -n 2,12p "$0" >&2
  exit 2
fi
out=$1
shift
robostream=${ROBOSTREAM:-scripts/robostream}
batch=${BATCH_SIZE:-16}
common=(train --steps "${STEPS:-60}" --num-workers "${WORKERS:-1}" --log-freq 10 --save-freq 100000
  --n-action-steps 8 "$@")
rm -rf "$out"
mkdir -p "$out"
rows=()
if [ "${TWO_RANKS_ONLY:-0}" != 1 ]; then
  env -u RANK -u WORLD_SIZE -u SLURM_PROCID -u SLURM_NTASKS \
    $robostream "${common[@]}" --batch-size "$batch" --output-dir "$out/one" > "$out/one.log" 2>&1
  env -u RANK -u WORLD_SIZE -u SLURM_PROCID -u SLURM_NTASKS \
    $robostream "${common[@]}" --batch-size $((2 * batch)) --output-dir "$out/one-2b" \
    > "$out/one-2b.log" 2>&1
  rows=(one one-2b)
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
pids=()
for r in 0 1; do
  env -u SLURM_PROCID -u SLURM_NTASKS MASTER_ADDR=127.0.0.1 MASTER_PORT=$port RANK=$r WORLD_SIZE=2 \
    LOCAL_RANK=$r $robostream "${common[@]}" --batch-size "$batch" --output-dir "$out/two" \
    > "$out/two-rank$r.log" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
python3 - "$out" "${rows[@]}" <<'PY'
import json, sys, pathlib
out = pathlib.Path(sys.argv[1])
names = {"one": "1 rank, B", "one-2b": "1 rank, 2B"}
rows = [(names[d], out / d / "metrics/rank0-summary.json") for d in sys.argv[2:]]
rows += [(f"2 ranks, rank {r}", out / f"two/metrics/rank{r}-summary.json") for r in (0, 1)]
print(f"{'run':<16}{'samples/s/proc':>15}{'samples/s total':>16}{'data wait':>10}{'model ms':>10}{'all-reduce ms':>14}{'share':>7}{'loss':>9}")
for name, f in rows:
    s = json.loads(f.read_text())
    w = s["steady_state"]
    print(f"{name:<16}{w['samples_per_s']:>15.1f}{w['samples_per_s_total']:>16.1f}"
          f"{100*w['data_wait_fraction']:>9.1f}%{w['model_step_ms']:>10.1f}"
          f"{w.get('all_reduce_ms', 0):>14.1f}{100*w.get('all_reduce_fraction', 0):>6.1f}%"
          f"{w.get('loss', float('nan')):>9.4f}")
PY
