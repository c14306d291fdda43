#!/usr/bin/env bash
# The main job on a built-in default: generates a camera-like sample video (AV1, as LeRobot
# encodes, and H.264) and prints robostream's decode rate next to the ffmpeg CLI's, with the ratio.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
samples="${ROBOSTREAM_SAMPLES:-${XDG_CACHE_HOME:-$HOME/.cache}/robostream/samples}"
"$root/scripts/tests/make-fixtures.sh" "$samples" camera >/dev/null
exec "$root/scripts/robostream" decode-bench --threads 1 --random 100 "$@" \
  "$samples/camera_av1_640x480.mp4" "$samples/camera_h264_640x480.mp4"
