#!/usr/bin/env bash
# Installs what the build and the tests need and the toolchain does not bring: Debian packages
# (libcrypto headers, curl for the interop tests and benchmarks, FFmpeg's libraries for video
# stabilization and the ffmpeg program its tests and benchmark use) and the Python venvs.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
[ -f /usr/include/openssl/evp.h ] || missing+=(libssl-dev)
command -v curl >/dev/null || missing+=(curl)
command -v pkg-config >/dev/null || missing+=(pkg-config)
for lib in libavformat libavcodec libswscale libavutil; do
  pkg-config --exists "$lib" 2>/dev/null || missing+=("$lib-dev")
done
command -v ffmpeg >/dev/null || missing+=(ffmpeg)
if ((${#missing[@]})); then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  else
    echo "missing Debian packages: ${missing[*]} (install them with apt-get)" >&2
    exit 1
  fi
fi
if [ -x scripts/smpmgr-venv.sh ]; then
  scripts/smpmgr-venv.sh
fi
if [ -x scripts/vqf-venv.sh ]; then
  scripts/vqf-venv.sh
fi
