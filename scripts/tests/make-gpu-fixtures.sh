#!/usr/bin/env bash
# Prepares, on a CPU machine, everything the NVDEC tests and benchmark need on a GPU machine that
# has no ffmpeg and no Java (docs/DESIGN.md, "The GPU check machine"). Usage: make-gpu-fixtures.sh OUT_DIR
#
# OUT_DIR/<name>/ for each stream:
#   stream.<codec>   the elementary stream in Annex-B, as robostream's Java demuxer feeds NVDEC
#                    (AV1: stream.ivf, whose frame headers delimit the temporal units)
#                    (AV1: stream.ivf, whose frame headers delimit the packets)
#   packets.txt      ffmpeg's framecrc of that stream: one line per packet (dts, pts, duration,
#                    size; "F=0x0" marks non-keyframes) after a "#tb 0: num/den" line
#   frames.rgb       exactness fixtures only: every frame in display order as RGB24 HWC, decoded by
#                    robostream's CPU path (`robostream frames`), the reference for NVDEC
#   info.txt         width height frames
# Idempotent: a stream directory with info.txt is kept. Needs ffmpeg and the robostream CLI.
set -euo pipefail
out=${1:?usage: make-gpu-fixtures.sh OUT_DIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
export SVT_LOG=1
ff() { ffmpeg -hide_banner -loglevel error -nostdin -y "$@"; }

# name extension annexb-bsf raw-format frames size content encoder-args...
make_stream() {
  local name=$1 codec=$2 bsf=$3 format=$4 frames=$5 size=$6 content=$7
  shift 7
  local dir="$out/$name"
  [ -s "$dir/info.txt" ] && return 0
  mkdir -p "$dir"
  local source
  case "$content" in
    # The frame-identity pattern of make-fixtures.sh (bars read by the tests), re-encoded.
    pattern) ff -f lavfi -i "color=c=gray:s=${size}:r=30,format=yuv420p,geq=lum='if(lt(Y\,H/2)\,if(eq(mod(floor(N/pow(2\,floor(X/16)))\,2)\,1)\,220\,35)\,mod(X+Y+N*3\,200)+28)':cb='128+40*sin(N/7+X/30)':cr='128+40*cos(N/11+Y/20)'" \
               -frames:v "$frames" "$@" "$dir/source.mp4" ;;
    camera)  ff -f lavfi -i "testsrc2=s=${size}:r=30,noise=alls=20:allf=t+u,format=yuv420p" \
               -frames:v "$frames" "$@" "$dir/source.mp4" ;;
  esac
  ff -i "$dir/source.mp4" -c copy -bsf:v "$bsf" -f "$format" "$dir/stream.$codec"
  ff -i "$dir/source.mp4" -c copy -bsf:v "$bsf" -f framecrc "$dir/packets.txt"
  if [ "$content" = pattern ]; then
    local pts
    # One packet per frame: their pts, sorted, are the display timestamps.
    pts=$(ffprobe -v error -select_streams v:0 -show_entries packet=pts_time -of csv=p=0 \
            "$dir/source.mp4" | tr -d , | sed '/^$/d' | sort -g | paste -sd, -)
    rm -rf "$dir/ref" && mkdir -p "$dir/ref"
    "$root/scripts/robostream" frames "$dir/source.mp4" --at "$pts" --layout hwc --out "$dir/ref" >/dev/null
    : > "$dir/frames.rgb"
    for i in $(seq 0 $((frames - 1))); do cat "$dir/ref/$i.rgb" >> "$dir/frames.rgb"; done
    rm -rf "$dir/ref"
  fi
  rm -f "$dir/source.mp4"
  echo "${size%x*} ${size#*x} $frames" > "$dir/info.txt"
}

# Exactness: B-frames and GOP 24 so display order differs from decode order and seeks matter.
make_stream h264_exact h264 h264_mp4toannexb h264 96 160x120 pattern \
  -c:v libx264 -preset veryfast -crf 18 -g 24 -bf 3 -pix_fmt yuv420p
# NVDEC's smallest HEVC and AV1 pictures are 144x144 and 128x128 (cuvidGetDecoderCaps nMinWidth/
# nMinHeight); H.264 goes down to 48x16.
make_stream hevc_exact hevc hevc_mp4toannexb hevc 96 256x144 pattern \
  -c:v libx265 -preset veryfast -crf 20 -x265-params "keyint=24:min-keyint=24:bframes=3:log-level=error" -pix_fmt yuv420p
# AV1 (LeRobot's codec): on Hopper NVDEC has no AV1 decoder, which the tests expect to see reported.
make_stream av1_exact ivf null ivf 24 256x144 pattern \
  -c:v libsvtav1 -preset 12 -crf 30 -g 2 -pix_fmt yuv420p -svtav1-params lp=2
# Throughput: camera-like content, sized so that all of it stays well under 64 MiB.
make_stream h264_640x480 h264 h264_mp4toannexb h264 300 640x480 camera \
  -c:v libx264 -preset veryfast -crf 23 -g 30 -bf 2 -pix_fmt yuv420p
make_stream hevc_640x480 hevc hevc_mp4toannexb hevc 300 640x480 camera \
  -c:v libx265 -preset ultrafast -crf 26 -x265-params "keyint=30:log-level=error" -pix_fmt yuv420p
make_stream h264_1920x1080 h264 h264_mp4toannexb h264 60 1920x1080 camera \
  -c:v libx264 -preset veryfast -crf 26 -g 30 -bf 2 -pix_fmt yuv420p
make_stream hevc_1920x1080 hevc hevc_mp4toannexb hevc 60 1920x1080 camera \
  -c:v libx265 -preset ultrafast -crf 28 -x265-params "keyint=30:log-level=error" -pix_fmt yuv420p
du -sh "$out"
