#!/usr/bin/env bash
# The loader's regression guard across dataset shapes (docs/PERFORMANCE.md, "Dataset shapes at the
# defaults"): for each shape, a synthetic dataset (camera-like content, made once and kept under
# DATA_DIR), then `bench --baseline ffmpeg` with the reference's defaults (batch 64, buffer 2000,
# workers = cores up to 8, no memory flag) with every jar named, one after the other, and a table of
# the ffmpeg ratio, the decode amplification, the in-window decoded share and the shuffle buffer
# each run had. Not part of the test command: a full run takes an hour on 2 cores.
#
#   scripts/perf/dataset-shape-matrix.sh OUT_DIR NAME=JAR [NAME=JAR ...]
#
# Environment: DATA_DIR (default /tmp/robostream-shapes), SHAPES (space-separated names of the
# table below; default all), NUM_BATCHES (overrides each shape's), WORKERS (overrides the default
# worker count: WORKERS=1 on 2 cores leaves the bench's consumer and the JIT a core of their own,
# which shows the loader's per-worker path against one ffmpeg process; docs/PERFORMANCE.md). To
# compare versions, build each and copy its cli/target (the jar and lib/) to a folder of its own
# first. Nothing else should run.
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n 2,16p "$0" >&2
  exit 2
fi
out=$1
shift
for named in "$@"; do
  jar=${named#*=}
  [ -f "$jar" ] || { echo "no jar at $jar" >&2; exit 2; }
done
data=${DATA_DIR:-/tmp/robostream-shapes}
mkdir -p "$out" "$data"
first=${1#*=}

# name        size       cameras codec gop episodes frames batches
shapes_table="
av1-256-k2-c3    256x256   3 av1  2   50 200 200
av1-640-k2-c1    640x480   1 av1  2   40 300 200
av1-640-k2-c3    640x480   3 av1  2   20 300 100
h264-256-g250-c3 256x256   3 h264 250 50 300 200
h264-640-g250-c1 640x480   1 h264 250 40 300 200
h264-640-g250-c3 640x480   3 h264 250 20 300 100
hevc-640-g250-c1 640x480   1 hevc 250 40 300 200
h264-720-g250-c1 1280x720  1 h264 250 20 300 100
h264-720-g250-c3 1280x720  3 h264 250 10 300 60
"
wanted=${SHAPES:-$(echo "$shapes_table" | awk 'NF {printf "%s ", $1}')}

while read -r name size cameras codec gop episodes frames batches; do
  [ -n "$name" ] || continue
  case " $wanted " in *" $name "*) ;; *) continue ;; esac
  ds=$data/$name
  if [ ! -f "$ds/.complete" ]; then
    rm -rf "$ds"
    java --add-opens=java.base/java.nio=ALL-UNNAMED -jar "$first" make-dataset --out "$ds" \
      --episodes "$episodes" --frames-per-episode "$frames" --cameras "$cameras" --size "$size" \
      --codec "$codec" --gop "$gop" --content camera > "$out/$name.make.log" 2>&1
    touch "$ds/.complete"
  fi
  for named in "$@"; do
    java --add-opens=java.base/java.nio=ALL-UNNAMED -jar "${named#*=}" bench --root "$ds" \
      --baseline ffmpeg --num-batches "${NUM_BATCHES:-$batches}" ${WORKERS:+--num-workers "$WORKERS"} \
      --out-dir "$out/$name/${named%%=*}" > "$out/$name.${named%%=*}.log" 2>&1 \
      || echo "$name ${named%%=*}: bench failed (see $out/$name.${named%%=*}.log)" >&2
  done
done <<< "$shapes_table"

python3 - "$out" "$@" <<'PY'
import glob, json, os, sys
out, names = sys.argv[1], [n.split("=", 1)[0] for n in sys.argv[2:]]
print(f"{'shape':18} {'jar':8} {'workers':>7} {'buffer':>6} {'ffmpeg f/s':>10} {'decoded f/s':>11}"
      f" {'ratio':>6} {'ampl.':>6} {'share':>5} {'at delivery':>11}")
for shape in sorted(os.listdir(out)):
    if not os.path.isdir(os.path.join(out, shape)):
        continue
    for name in names:
        files = glob.glob(os.path.join(out, shape, name, "*.json"))
        if not files:
            print(f"{shape:18} {name:8} (no result)")
            continue
        d = json.load(open(files[0]))
        print(f"{shape:18} {name:8} {d['num_workers']:>7} {d.get('shuffle_buffer_size', d['buffer_size']):>6}"
              f" {d['baseline_frames_per_s']:>10.1f} {d['decoded_frames_per_s']:>11.1f}"
              f" {d['baseline_ratio']:>6.3f} {d['decode_amplification']:>6.3f}"
              f" {d['window_samples_decoded_share']:>5.2f}"
              f" {d.get('samples_decoded_at_delivery', -1):>11}")
PY
