#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build and test robostream. Idempotent: packages
# already present are left alone, and apt is only touched when something is missing.
set -euo pipefail

packages=(cmake g++ pkg-config libdav1d-dev libyuv-dev libffmpeg-nvenc-dev ffmpeg maven)
# clang-format 14 checks the native core's format in `mvn verify` (Spotless, the root pom).
packages+=(clang-format)
# The Python bridge (python/) and its tests: JPype, torch and numpy from Debian, pytest, venv + pip
# + setuptools + wheel for the offline install test, PyAV for the benchmark's reference path,
# pandas for the metadata's tasks table (a DataFrame, as LeRobot's).
packages+=(python3-jpype python3-torch python3-numpy python3-pytest python3-venv python3-pip
  python3-setuptools python3-wheel python3-av python3-pandas)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
command -v java >/dev/null || { echo "setup: a JDK 17 is required" >&2; exit 1; }
