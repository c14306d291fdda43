#!/usr/bin/env bash
# What the rendezvous' checks cost a training step: two ranks of one model (train-ranks.sh's
# 2-rank run) with the jar from before the checks (OLD_JAR) and the jar from after (NEW_JAR),
# alternated ROUNDS times so both see the same machine. Prints each run's steady state per rank
# (model ms/step, all-reduce ms/step and its share of the window, samples/s of the job, the whole
# run's wall seconds with start-up and join) and each jar's medians. The checks run once, at the
# join; this shows whether the per-step path changed.
# Not part of the test command. Nothing else should run.
#
#   scripts/perf/rendezvous-ab.sh OLD_JAR NEW_JAR OUT_DIR [ROUNDS] [train flags...]
#
# Environment: as train-ranks.sh (STEPS, BATCH_SIZE, WORKERS).
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n 2,12p "$0" >&2
  exit 2
fi
old=$1 new=$2 out=$3
shift 3
rounds=${1:-3}
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$out"
mkdir -p "$out"
for i in $(seq 1 "$rounds"); do
  for v in old new; do
    jar=$old
    [ $v = new ] && jar=$new
    echo "round $i: $v ($jar)" >&2
    t0=$(date +%s%N)
    ROBOSTREAM="java --add-opens=java.base/java.nio=ALL-UNNAMED -jar $jar" TWO_RANKS_ONLY=1 \
      "$here/train-ranks.sh" "$out/$v-$i" "$@" > "$out/$v-$i.table"
    echo $((($(date +%s%N) - t0) / 1000000)) > "$out/$v-$i.wall"
  done
done
python3 - "$out" "$rounds" <<'PY'
import json, pathlib, statistics, sys
out, rounds = pathlib.Path(sys.argv[1]), int(sys.argv[2])
print(f"{'run':<10}{'rank':>5}{'model ms':>10}{'all-reduce ms':>14}{'share':>7}{'samples/s job':>14}"
      f"{'run s':>8}")
per = {"old": [], "new": []}
for i in range(1, rounds + 1):
    for v in ("old", "new"):
        for r in (0, 1):
            w = json.loads((out / f"{v}-{i}/two/metrics/rank{r}-summary.json").read_text())["steady_state"]
            row = (w["model_step_ms"], w.get("all_reduce_ms", 0.0),
                   w.get("all_reduce_fraction", 0.0), w["samples_per_s_total"],
                   int((out / f"{v}-{i}.wall").read_text()) / 1000)
            per[v].append(row)
            print(f"{v}-{i:<6}{r:>5}{row[0]:>10.1f}{row[1]:>14.1f}{100 * row[2]:>6.1f}%{row[3]:>14.1f}{row[4]:>8.1f}")
for v, rows in per.items():
    med = [statistics.median(c) for c in zip(*rows)]
    print(f"{v + ' median':<15}{med[0]:>10.1f}{med[1]:>14.1f}{100 * med[2]:>6.1f}%{med[3]:>14.1f}{med[4]:>8.1f}")
PY
