#!/usr/bin/env bash
# The main job on a built-in default: generates (once) a camera-like LeRobot v3.0 dataset
# (50 episodes, 3 cameras 256x256 at 20 fps, AV1 keyframe every 2 frames, as LeRobot encodes)
# and runs the data-loading benchmark on it: frames/s/node, latency percentiles, decoder cache,
# and the ffmpeg CLI's decode rate of the same videos with the ratio. Extra arguments go to
# `robostream bench`; results land in bench-results/ (`robostream summarize` compares them).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
exec "$root/scripts/robostream" bench --baseline ffmpeg "$@"
