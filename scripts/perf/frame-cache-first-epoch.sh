#!/usr/bin/env bash
# The frame cache's first-epoch cost, side by side: ROUNDS rounds, each running the loader without
# a cache (with the first jar named) and then, with a cache in memory, every jar named, one after
# the other on the default dataset (epoch 1 only: --num-batches 150). Prints each cached run's
# epoch-1 samples/s divided by the plain run of its round, and the median per jar
# (docs/PERFORMANCE.md, "The first epoch's cost, re-measured").
#
#   scripts/perf/frame-cache-first-epoch.sh OUT_DIR ROUNDS NAME=JAR [NAME=JAR ...]
#
# To compare two versions, build each and copy its cli/target (the jar and lib/) to a folder of its
# own first: both then run in one script on the same machine state. Nothing else should run.
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n 2,12p "$0" >&2
  exit 2
fi
out=$1
rounds=$2
shift 2
for named in "$@"; do
  jar=${named#*=}
  [ -f "$jar" ] || { echo "no jar at $jar" >&2; exit 2; }
done
mkdir -p "$out"
first=${1#*=}
run() { # OUT_SUBDIR JAR [BENCH FLAGS...]
  local dir=$1 jar=$2
  shift 2
  java --add-opens=java.base/java.nio=ALL-UNNAMED -jar "$jar" bench --num-batches 150 \
    --out-dir "$out/$dir" "$@" > "$out/$dir.log" 2>&1
}
for round in $(seq 1 "$rounds"); do
  run "r$round-plain" "$first"
  for named in "$@"; do
    run "r$round-${named%%=*}" "${named#*=}" --frame-cache memory:4G
  done
done
python3 - "$out" "$rounds" "$@" <<'PY'
import json, statistics, sys
out, rounds, names = sys.argv[1], int(sys.argv[2]), [n.split("=", 1)[0] for n in sys.argv[3:]]
def epoch1(run):
    with open(f"{out}/{run}/local_single_bs64_w2_cpu.json") as f:
        return json.load(f)["epochs"][0]["samples_per_s"]
plain = [epoch1(f"r{r}-plain") for r in range(1, rounds + 1)]
print("plain epoch 1 samples/s:", " ".join(f"{p:.1f}" for p in plain))
for name in names:
    ratios = [epoch1(f"r{r}-{name}") / plain[r - 1] for r in range(1, rounds + 1)]
    print(f"{name} / plain:", " ".join(f"{x:.3f}" for x in ratios),
          f" median {statistics.median(ratios):.3f}")
PY
