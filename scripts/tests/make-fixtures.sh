#!/usr/bin/env bash
# Generates the video fixtures of the tests and benchmarks with the ffmpeg CLI (nothing large is
# committed). Idempotent: a fixture that exists is kept.
# Usage: make-fixtures.sh OUT_DIR [all|camera|long]   (long: also the 1200-frame AV1 of
# docs/PERFORMANCE.md's sparse shuffled-access measurement; the tests do not need it)
#
# Content kinds:
#   pattern  frame identity: the frame number is written as 10 bars (bit i = bar i bright/dark)
#            over a moving gradient, so a test can read which frame it got
#   camera   noisy, camera-like content (slow to decode, like real footage): for speed work
set -euo pipefail
out=${1:?usage: make-fixtures.sh OUT_DIR [all|camera|long]}
only=${2:-all}
case $only in all|camera|long) ;; *) echo "make-fixtures.sh: unknown set $only" >&2; exit 2;; esac
mkdir -p "$out"

export SVT_LOG=1  # SVT-AV1: errors only
ff() { ffmpeg -hide_banner -loglevel error -nostdin -y "$@"; }

# 160x120 keeps exactness tests fast; the identity bars are 16 px wide.
pattern() { # frames size rate
  local n=$1 size=$2 rate=$3
  echo "-f lavfi -i color=c=gray:s=${size}:r=${rate}:d=$(awk "BEGIN{print $n/$rate}"),format=yuv420p,geq=lum='if(lt(Y\,H/2)\,if(eq(mod(floor(N/pow(2\,floor(X/16)))\,2)\,1)\,220\,35)\,mod(X+Y+N*3\,200)+28)':cb='128+40*sin(N/7+X/30)':cr='128+40*cos(N/11+Y/20)'"
}
camera() { # frames size rate
  local n=$1 size=$2 rate=$3
  echo "-f lavfi -i testsrc2=s=${size}:r=${rate}:d=$(awk "BEGIN{print $n/$rate}"),noise=alls=24:allf=t+u,format=yuv420p"
}

make() { # name then ffmpeg output args, with input spec in $input
  local name=$1; shift
  [ -s "$out/$name" ] && return 0
  # shellcheck disable=SC2086
  ff $input "$@" "$out/$name.tmp.${name##*.}"
  mv "$out/$name.tmp.${name##*.}" "$out/$name"
}

if [ "$only" = all ]; then
input=$(pattern 300 160x120 30)
make h264_g1.mp4   -c:v libx264 -preset veryfast -crf 18 -g 1 -pix_fmt yuv420p
make h264_g2.mp4   -c:v libx264 -preset veryfast -crf 18 -g 2 -pix_fmt yuv420p
make h264_g30.mp4  -c:v libx264 -preset veryfast -crf 18 -g 30 -bf 3 -pix_fmt yuv420p
make h264_g250.mp4 -c:v libx264 -preset veryfast -crf 18 -g 250 -keyint_min 250 -bf 3 -pix_fmt yuv420p
make hevc_g30.mp4  -c:v libx265 -preset veryfast -crf 20 -x265-params log-level=error:keyint=30:min-keyint=30 -pix_fmt yuv420p -tag:v hvc1
make av1_g2.mp4    -c:v libsvtav1 -preset 12 -crf 30 -g 2 -pix_fmt yuv420p -svtav1-params lp=2
make mpeg4_g12.mp4 -c:v mpeg4 -q:v 3 -g 12 -pix_fmt yuv420p
make vp9_g30.webm  -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -crf 30 -b:v 0 -g 30 -pix_fmt yuv420p
# The same streams with the moov box in front (LeRobot's +faststart layout), for the mutation fuzz.
remux_faststart() { # name source
  [ -s "$out/$1" ] && return 0
  ff -i "$out/$2" -c copy -movflags +faststart "$out/$1.tmp.mp4"
  mv "$out/$1.tmp.mp4" "$out/$1"
}
remux_faststart h264_g30_faststart.mp4 h264_g30.mp4
remux_faststart av1_g2_faststart.mp4 av1_g2.mp4
# BT.709, full range: the converter must follow the stream's colour tags.
make h264_bt709_full.mp4 -c:v libx264 -preset veryfast -crf 18 -g 30 -pix_fmt yuvj420p -color_range pc -colorspace bt709 -color_primaries bt709 -color_trc bt709
# The other tagged combinations, 2 s each (only colours are checked): BT.709 limited, BT.601 full
# (x264 writes the tags into the VUI), and AV1 whose sequence header carries BT.709 full range,
# so the dav1d path has to follow the stream's tags too.
input=$(pattern 60 160x120 30)
make h264_bt709_limited.mp4 -c:v libx264 -preset veryfast -crf 18 -g 30 -pix_fmt yuv420p -color_range tv -colorspace bt709 -color_primaries bt709 -color_trc bt709
make h264_bt601_full.mp4 -c:v libx264 -preset veryfast -crf 18 -g 30 -pix_fmt yuvj420p -color_range pc -colorspace smpte170m -color_primaries smpte170m -color_trc smpte170m
make av1_bt709_full.mp4 -c:v libsvtav1 -preset 12 -crf 30 -g 2 -pix_fmt yuv420p -svtav1-params lp=2 -color_range pc -colorspace bt709 -color_primaries bt709 -color_trc bt709

# Variable frame rate: irregular gaps (every 7th frame waits 3 periods) in a 1/90000 time base.
input=$(pattern 120 160x120 30)
make vfr_h264.mp4 -vf "setpts='(N+2*floor(N/7))/30/TB'" -fps_mode vfr -video_track_timescale 90000 -c:v libx264 -preset veryfast -crf 18 -g 15 -pix_fmt yuv420p

fi

# Camera-like 640x480 for speed work (decode-bench, JMH).
input=$(camera 300 640x480 30)
make camera_h264_640x480.mp4 -c:v libx264 -preset veryfast -crf 23 -g 30 -pix_fmt yuv420p
make camera_av1_640x480.mp4  -c:v libsvtav1 -preset 12 -crf 30 -g 2 -pix_fmt yuv420p -svtav1-params lp=2
if [ "$only" = long ]; then
  # 40 s like a LeRobot episode file: 200 shuffled frames of it are sparse (1 in 6).
  input=$(camera 1200 640x480 30)
  make camera_av1_640x480_1200.mp4 -c:v libsvtav1 -preset 12 -crf 30 -g 2 -pix_fmt yuv420p -svtav1-params lp=2
fi
echo "fixtures ready in $out"
