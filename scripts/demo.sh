#!/usr/bin/env bash
# The main job on a built-in default: generates (once) a camera-like LeRobot v3.0 dataset
# (3 cameras 256x256 at 20 fps, AV1 keyframe every 2 frames, as LeRobot encodes), streams one
# shuffled epoch and prints the streaming rate next to the sequential decode rate of the same
# videos, with the ratio. Extra arguments go to `robostream stream-bench`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
exec "$root/scripts/robostream" stream-bench "$@"
