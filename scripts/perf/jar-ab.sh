#!/usr/bin/env bash
# Before/after of two builds on one machine, jars alternating ABBA so that both see the same drift:
# ROUNDS rounds of `bench ARGS...` with each jar (A B, then B A, ...), then each run's samples/s and
# decoded frames/s, and the medians, means and after/before ratios. Nothing else should run.
#
#   scripts/perf/jar-ab.sh OUT_DIR ROUNDS BEFORE_JAR AFTER_JAR [bench args...]
#
# Copy each build's cli/target (the jar and lib/) to a folder of its own first.
set -euo pipefail
if [ $# -lt 4 ]; then
  sed -n 2,7p "$0" >&2
  exit 2
fi
out=$1 rounds=$2 before=$3 after=$4
shift 4
mkdir -p "$out"
run() { # SIDE JAR INDEX [bench args...]
  local side=$1 jar=$2 index=$3
  shift 3
  java --add-opens=java.base/java.nio=ALL-UNNAMED -Dorg.bytedeco.javacpp.cachedir="$out/javacpp-$side" \
    -jar "$jar" bench "$@" --out-dir "$out/$index-$side" > "$out/$index-$side.log" 2>&1
}
i=0
for ((r = 0; r < rounds; r++)); do
  if ((r % 2 == 0)); then order="before after"; else order="after before"; fi
  for side in $order; do
    i=$((i + 1))
    jar=$before; [ "$side" = after ] && jar=$after
    run "$side" "$jar" "$i" "$@" || { echo "run $i ($side) failed: $out/$i-$side.log" >&2; exit 1; }
  done
done
python3 - "$out" <<'PY'
import glob, json, os, statistics, sys
out = sys.argv[1]
runs = {"before": [], "after": []}
names = [n for n in os.listdir(out) if n.split("-")[0].isdigit() and os.path.isdir(os.path.join(out, n))]
for d in [os.path.join(out, n) for n in sorted(names, key=lambda n: int(n.split("-")[0]))]:
    j = json.load(open(glob.glob(os.path.join(d, "*.json"))[0]))
    side = os.path.basename(d).split("-")[1]
    runs[side].append((j["samples_per_s"], j["decoded_frames_per_s"]))
    print(f"{os.path.basename(d):12} samples/s {j['samples_per_s']:9.1f}  decoded f/s {j['decoded_frames_per_s']:9.1f}")
for k, name in ((0, "samples/s"), (1, "decoded f/s")):
    b = [r[k] for r in runs["before"]]
    a = [r[k] for r in runs["after"]]
    print(f"{name:12} before median {statistics.median(b):.1f} mean {statistics.mean(b):.1f}; "
          f"after median {statistics.median(a):.1f} mean {statistics.mean(a):.1f}; "
          f"after/before {statistics.median(a) / statistics.median(b):.3f} (medians), "
          f"{statistics.mean(a) / statistics.mean(b):.3f} (means)")
PY
