#!/usr/bin/env bash
# One model of 4 ranks on the two-host rig (scripts/tests/hosts.sh, root only), side by side:
# "across" (2 ranks on each node, the all-reduce crosses the veth link) then "within" (all 4 on
# node 0), started as torchrun starts them (MASTER_ADDR = node 0's job address); then the steady
# state of every rank: model ms/step, all-reduce ms/step and its share of the window.
# docs/SCALE.md derives the all-reduce cost from it.
# The rig's veth runs at memory speed: the all-reduce share here is a floor, not a network's.
# Not part of the test command. Nothing else should run.
#
#   scripts/perf/two-hosts-train.sh OUT_DIR [train flags...]
#
# Environment: ROBOSTREAM (default: java -jar the CLI jar), STEPS (default 40), BATCH_SIZE (per
# rank, default 8), ROBOSTREAM_HOSTS_NAME (the rig's name, default rp).
set -euo pipefail
if [ $# -lt 1 ]; then
  sed -n 2,13p "$0" >&2
  exit 2
fi
out=$(realpath -m "$1")
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
export ROBOSTREAM_HOSTS_NAME=${ROBOSTREAM_HOSTS_NAME:-rp}
hosts=$root/scripts/tests/hosts.sh
"$root/scripts/build-jar.sh"
robostream=${ROBOSTREAM:-java --add-opens=java.base/java.nio=ALL-UNNAMED -jar $root/cli/target/robostream-cli-0.1.0-SNAPSHOT.jar}
rm -rf "$out"
mkdir -p -m 700 "$out"
"$hosts" start
trap '"$hosts" stop' EXIT
master=$("$hosts" env | sed -n 's/^RS_NODE0_JOB=//p')
secret=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
for layout in across within; do
  pids=()
  for r in 0 1 2 3; do
    node=$((r / 2))
    [ $layout = within ] && node=0
    env -u SLURM_PROCID -u SLURM_NTASKS -u SLURM_JOB_ID ROBOSTREAM_JOB_SECRET=$secret \
      MASTER_ADDR=$master MASTER_PORT=29555 RANK=$r WORLD_SIZE=4 LOCAL_RANK=$((r % 2)) \
      "$hosts" exec $node -- $robostream train --steps "${STEPS:-40}" --num-workers 1 \
      --log-freq 10 --save-freq 100000 --n-action-steps 8 --batch-size "${BATCH_SIZE:-8}" \
      --output-dir "$out/$layout" "$@" > "$out/$layout-rank$r.log" 2>&1 &
    pids+=($!)
  done
  rc=0
  for p in "${pids[@]}"; do wait "$p" || rc=1; done
  [ $rc = 0 ] || { tail -n 5 "$out"/$layout-rank*.log >&2; exit 1; }
done
python3 - "$out" <<'PY'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
print(f"{'layout':<8}{'rank':>5}{'node':>5}{'model ms':>10}{'all-reduce ms':>14}{'share':>7}"
      f"{'samples/s job':>14}")
for layout in ("across", "within"):
    for r in range(4):
        w = json.loads((out / f"{layout}/metrics/rank{r}-summary.json").read_text())["steady_state"]
        node = r // 2 if layout == "across" else 0
        print(f"{layout:<8}{r:>5}{node:>5}{w['model_step_ms']:>10.1f}"
              f"{w.get('all_reduce_ms', 0):>14.1f}{100 * w.get('all_reduce_fraction', 0):>6.1f}%"
              f"{w['samples_per_s_total']:>14.1f}")
PY
