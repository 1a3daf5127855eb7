#!/usr/bin/env bash
# The video stabilization benchmark (docs/benchmarks.md, "Video stabilization"): a rendered 10 s
# 1080p30 clip with known head-worn-like shake and an AAC track, processed three ways in the same
# run, each timed with /usr/bin/time (wall time, peak resident memory) and measured for residual
# jitter by block matching between consecutive decoded frames:
#   plain     ffmpeg -i IN -c:v libx264 -preset veryfast -crf 20 -c:a copy OUT
#   vid.stab  ffmpeg vidstabdetect, then vidstabtransform with the same encoder settings
#   aibuds    aibuds stabilize IN --gyro IN.gcsv --lens lens.json (veryfast, CRF 20)
# Usage: scripts/bench-stabilize.sh [WORK_DIR] [SECONDS] [WIDTH] [HEIGHT]
# Needs ffmpeg (with libvidstab) and /usr/bin/time; run it on a quiet machine: it measures wall time.
set -euo pipefail
cd "$(dirname "$0")/.."
work="${1:-/tmp/aibuds-bench-stabilize}"
seconds="${2:-10}"
width="${3:-1920}"
height="${4:-1080}"
swift build -c release --product aibuds-bench-stabilize >&2
swift build -c release --product aibuds >&2
helper=.build/release/aibuds-bench-stabilize
aibuds=.build/release/aibuds
mkdir -p "$work"
in="$work/clip.mp4"
if [[ ! -f "$in" || ! -f "$work/clip.mp4.gcsv" ]]; then
  echo "rendering the ${seconds} s ${width}x${height} clip…" >&2
  "$helper" render "$work" "$seconds" "$width" "$height" 30
  ffmpeg -v error -y -i "$work/silent.mp4" -f lavfi -i "sine=frequency=440:duration=$seconds" \
    -map 0:v -map 1:a -c:v copy -c:a aac -shortest "$in"
fi
rm -f "$work"/out-*.mp4 "$work"/transforms.trf

# run NAME COMMAND...: prints "NAME seconds peak_kB" and keeps the command's stderr in NAME.log.
run() {
  local name="$1"; shift
  /usr/bin/time -f "%e %M" -o "$work/$name.time" "$@" > "$work/$name.log" 2>&1
  read -r elapsed peak < "$work/$name.time"
  echo "$name $elapsed $peak"
}

results=()
results+=("$(run plain ffmpeg -v error -y -i "$in" -c:v libx264 -preset veryfast -crf 20 -c:a copy "$work/out-plain.mp4")")
detect="$(run vidstab-detect ffmpeg -v error -y -i "$in" -vf "vidstabdetect=result=$work/transforms.trf" -f null -)"
transform="$(run vidstab-transform ffmpeg -v error -y -i "$in" -vf "vidstabtransform=input=$work/transforms.trf" \
  -c:v libx264 -preset veryfast -crf 20 -c:a copy "$work/out-vidstab.mp4")"
results+=("$detect" "$transform")
results+=("$(run aibuds "$aibuds" stabilize "$in" --gyro "$work/clip.mp4.gcsv" --lens "$work/lens.json" -o "$work/out-aibuds.mp4" --json)")

echo
printf '%-18s %9s %12s\n' run seconds "peak MB"
for line in "${results[@]}"; do
  read -r name elapsed peak <<< "$line"
  awk -v n="$name" -v e="$elapsed" -v p="$peak" 'BEGIN { printf "%-18s %9.2f %12.1f\n", n, e, p / 1024 }'
done
plain_s=$(awk '{print $2}' <<< "${results[0]}")
vidstab_s=$(awk -v a="$(awk '{print $2}' <<< "$detect")" -v b="$(awk '{print $2}' <<< "$transform")" 'BEGIN { print a + b }')
aibuds_s=$(awk '{print $2}' <<< "${results[3]}")
awk -v a="$aibuds_s" -v p="$plain_s" -v v="$vidstab_s" \
  'BEGIN { printf "\naibuds / plain transcode: %.2fx (bar 1.15x)\naibuds / vid.stab two-pass: %.2fx (bar 0.5x)\n", a / p, a / v }'

echo
printf '%-10s %s\n' video "residual jitter (block matching)"
for name in clip.mp4 out-plain.mp4 out-vidstab.mp4 out-aibuds.mp4; do
  printf '%-16s %s\n' "$name" "$("$helper" jitter "$work/$name")"
done
