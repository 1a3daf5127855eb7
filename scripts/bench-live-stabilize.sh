#!/usr/bin/env bash
# Live stabilization (docs/benchmarks.md, "Live stabilization"): the emulated glasses play a
# rendered shaky clip with its .gcsv (aibuds emulator --live-video/--live-gyro), and in the same
# run, release build:
#   raw       aibuds live record --device D --to raw.mp4            (the stream as sent)
#   live      aibuds live record --device D --stabilize --to live.mp4
#             (prints frames dropped, the latency stabilization added and capture to stabilized
#             frame at p50/p95; /usr/bin/time gives its CPU)
#   offline   aibuds stabilize CLIP --gyro CLIP.gcsv --lens lens.json (the file stabilizer)
#   vid.stab  ffmpeg vidstabdetect + vidstabtransform on the clip (when ffmpeg has it)
# each measured for residual jitter by block matching (aibuds-bench-stabilize jitter).
#   scripts/bench-live-stabilize.sh [WORK_DIR] [WIDTH] [HEIGHT] [SECONDS]   (default 1280 720 10)
set -euo pipefail
cd "$(dirname "$0")/.."
work="${1:-/tmp/aibuds-bench-live-stabilize}"
width="${2:-1280}"
height="${3:-720}"
seconds="${4:-10}"
swift build -c release --product aibuds >&2
swift build -c release --product aibuds-bench-stabilize >&2
bin="$(swift build -c release --show-bin-path)"
mkdir -p "$work"
clip="$work/silent.mp4"
if [[ ! -f "$clip" || ! -f "$work/clip.mp4.gcsv" ]]; then
  echo "rendering a $((seconds + 2)) s ${width}x${height} clip…" >&2
  "$bin/aibuds-bench-stabilize" render "$work" "$((seconds + 2))" "$width" "$height" 30
fi
rm -f "$work"/raw.mp4 "$work"/live.mp4 "$work"/offline.mp4 "$work"/vidstab.mp4 "$work"/transforms.trf

"$bin/aibuds" emulator --listen 127.0.0.1:0 --live-video "$clip" --live-gyro "$work/clip.mp4.gcsv" \
  --lens-profile "$work/lens.json" > "$work/emulator.out" 2> "$work/emulator.err" &
emulator=$!
trap 'kill $emulator 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q listening "$work/emulator.out" && break; sleep 0.1; done
device="$(awk '/listening on/ { print $3 }' "$work/emulator.out")"
echo "emulator at $device" >&2

# run NAME COMMAND...: prints "NAME wall_s cpu_s peak_kB" and keeps the output in NAME.log.
run() {
  local name="$1"; shift
  /usr/bin/time -f "%e %U %S %M" -o "$work/$name.time" "$@" > "$work/$name.log" 2>&1
  read -r elapsed user system peak < "$work/$name.time"
  echo "$name wall ${elapsed}s cpu $(awk -v u="$user" -v s="$system" 'BEGIN { print u + s }')s peak ${peak}kB"
}
run raw "$bin/aibuds" live record --device "$device" --to "$work/raw.mp4" --bitrate 8000 --duration "$seconds"
run live "$bin/aibuds" live record --device "$device" --stabilize --to "$work/live.mp4" --bitrate 8000 --duration "$seconds"
grep -h "stabilized" "$work/live.log" || true
run offline "$bin/aibuds" stabilize "$clip" --gyro "$work/clip.mp4.gcsv" --lens "$work/lens.json" --output "$work/offline.mp4"
if [[ "$(ffmpeg -hide_banner -filters 2>/dev/null)" == *vidstabdetect* ]]; then
  run vidstab-detect ffmpeg -v error -y -i "$clip" -vf "vidstabdetect=result=$work/transforms.trf" -f null -
  run vidstab-transform ffmpeg -v error -y -i "$clip" -vf "vidstabtransform=input=$work/transforms.trf" \
    -c:v libx264 -preset veryfast -crf 20 "$work/vidstab.mp4"
fi
printf '%-12s %s\n' video "residual jitter (block matching)"
for name in silent raw live offline vidstab; do
  if [[ -f "$work/$name.mp4" ]]; then
    printf '%-12s %s\n' "$name.mp4" "$("$bin/aibuds-bench-stabilize" jitter "$work/$name.mp4")"
  fi
done
echo "load average during the run: $(cut -d' ' -f1-3 /proc/loadavg)"
