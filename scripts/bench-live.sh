#!/usr/bin/env bash
# Live streaming: capture-to-picture latency, CPU and peak memory of pulling the emulated
# camera's stream (RTSP over TCP and UDP, multipart JPEG) with the SDK's puller, with ffmpeg and
# with GStreamer (rtspsrc, avdec_h264) reading the same URL, in one run and a release build;
# figures go to docs/benchmarks.md ("Live streaming").
#
#   scripts/bench-live.sh [--seconds N]   (default 10 s per client)
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
command -v ffmpeg >/dev/null || missing+=(ffmpeg)
gst-inspect-1.0 avdec_h264 >/dev/null 2>&1 || missing+=(gstreamer1.0-libav)
gst-inspect-1.0 rtspsrc >/dev/null 2>&1 || missing+=(gstreamer1.0-plugins-good)
if ((${#missing[@]})); then
  [ "$(id -u)" = 0 ] || { echo "missing Debian packages: ${missing[*]}" >&2; exit 1; }
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi
swift build -c release --product aibuds-bench-live >&2
exec "$(swift build -c release --show-bin-path)/aibuds-bench-live" "$@"
