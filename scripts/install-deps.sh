#!/usr/bin/env bash
# Installs what the build and the tests need and the toolchain does not bring: Debian packages
# (libcrypto and libdeflate headers, curl for the interop tests and benchmarks; libdbus-1 headers for the BlueZ
# plugin, dbus-daemon for the private buses of the BlueZ tests, python3-dbusmock for its bluez5
# template, python3-dbus and python3-gi for scripts/bluez/standin.py; FFmpeg's libraries for video stabilization and the ffmpeg program its tests and
# benchmark use) and the Python venvs.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
[ -f /usr/include/openssl/evp.h ] || missing+=(libssl-dev)
[ -f /usr/include/libdeflate.h ] || missing+=(libdeflate-dev)
command -v curl >/dev/null || missing+=(curl)
# gdb: scripts/watchdog.sh prints where a hung test run is blocked.
command -v gdb >/dev/null || missing+=(gdb)
[ -f /usr/include/dbus-1.0/dbus/dbus.h ] || missing+=(libdbus-1-dev)
[ -x /usr/bin/dbus-daemon ] || missing+=(dbus-daemon)
/usr/bin/python3 -c 'import dbusmock' 2>/dev/null || missing+=(python3-dbusmock)
# scripts/bluez/standin.py, the independent BlueZ stand-in: dbus-python on GLib's main loop.
/usr/bin/python3 -c 'import dbus.mainloop.glib, gi.repository.GLib' 2>/dev/null || missing+=(python3-dbus python3-gi)
command -v pkg-config >/dev/null || missing+=(pkg-config)
# The PyPI tools and models live in venvs (scripts/*-venv.sh, scripts/asr-model.sh).
command -v python3 >/dev/null && python3 -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3 python3-venv)
for lib in libavformat libavcodec libswscale libavutil; do
  pkg-config --exists "$lib" 2>/dev/null || missing+=("$lib-dev")
done
command -v ffmpeg >/dev/null || missing+=(ffmpeg)
# Observability: SQLite (log store, dashboard records; sqlite3 reads them in the tests), libsystemd
# and journald/journalctl (the journal destination), chromium and its driver (the dashboard's
# browser test).
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
command -v sqlite3 >/dev/null || missing+=(sqlite3)
pkg-config --exists libsystemd 2>/dev/null || missing+=(libsystemd-dev)
[ -x /lib/systemd/systemd-journald ] && command -v journalctl >/dev/null || missing+=(systemd)
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
if ((${#missing[@]})); then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  else
    echo "missing Debian packages: ${missing[*]} (install them with apt-get)" >&2
    exit 1
  fi
fi
# Audio (AIBudsAudio): libopus, libopusfile/libopusenc (Ogg/Opus), libsoxr (resampling),
# libpulse-simple (playback; a private pulseaudio server in its test), libwebrtc-audio-processing
# (WebRTC's VAD); espeak-ng and sox make and measure the test speech.
audio_missing=()
for lib in opus opusfile libopusenc soxr libpulse-simple webrtc-audio-processing; do
  pkg-config --exists "$lib" 2>/dev/null || audio_missing+=("$lib")
done
command -v espeak-ng >/dev/null || audio_missing+=(espeak-ng)
command -v sox >/dev/null || audio_missing+=(sox)
command -v pulseaudio >/dev/null || audio_missing+=(pulseaudio)
if ((${#audio_missing[@]})); then
  [ "$(id -u)" = 0 ] || { echo "missing audio packages: ${audio_missing[*]}" >&2; exit 1; }
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -qq \
    libopus-dev libopusfile-dev libopusenc-dev libogg-dev libsoxr-dev libpulse-dev libwebrtc-audio-processing-dev \
    espeak-ng sox pulseaudio
fi
# Silero VAD's model and ONNX Runtime (PyPI), cached under ~/.cache/aibuds.
scripts/vad-venv.sh >/dev/null
# The offline speech recognizer's model (Moonshine base, from its PyPI wheel), run by that ONNX Runtime.
scripts/asr-model.sh >/dev/null
# AI (AIBudsOpenAI, AIBudsOfflineAI): libcurl; espeak-ng, PocketSphinx with its US English
# model, Apertium with the English-Spanish pair for the offline provider. The OpenAI-compatible
# servers are PyPI packages in venvs of their own (scripts/ai-servers.sh install).
ai_missing=()
for lib in libcurl espeak-ng pocketsphinx; do pkg-config --exists "$lib" 2>/dev/null || ai_missing+=("$lib"); done
[ -d /usr/share/pocketsphinx/model/en-us/en-us ] || ai_missing+=(pocketsphinx-en-us)
command -v apertium >/dev/null && [ -d /usr/share/apertium/apertium-eng-spa ] || ai_missing+=(apertium)
if ((${#ai_missing[@]})); then
  [ "$(id -u)" = 0 ] || { echo "missing AI packages: ${ai_missing[*]}" >&2; exit 1; }
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -qq \
    libcurl4-openssl-dev libespeak-ng-dev espeak-ng libpocketsphinx-dev libsphinxbase-dev pocketsphinx-en-us \
    apertium apertium-en-es
fi
if [ -x scripts/smpmgr-venv.sh ]; then
  scripts/smpmgr-venv.sh
fi
if [ -x scripts/vqf-venv.sh ]; then
  scripts/vqf-venv.sh
fi

# Fleet import to S3 (libcurl, installed with the AI packages above): the venv with SeaweedFS's S3
# server and awscli for the S3 tests and the fleet benchmark.
if [ -x scripts/s3-venv.sh ]; then
  scripts/s3-venv.sh >/dev/null
fi
# Live streaming: GStreamer's RTSP server and the plugins its pipeline uses (the emulated camera),
# nginx with the RTMP module and Chromium for the live stream tests.
live=()
pkg-config --exists gstreamer-rtsp-server-1.0 2>/dev/null || live+=(libgstrtspserver-1.0-dev)
gst-inspect-1.0 rtph264pay >/dev/null 2>&1 || live+=(gstreamer1.0-plugins-good gstreamer1.0-tools)
gst-inspect-1.0 h264parse >/dev/null 2>&1 || live+=(gstreamer1.0-plugins-bad)
[ -x /usr/sbin/nginx ] || live+=(nginx-light)
[ -f /usr/lib/nginx/modules/ngx_rtmp_module.so ] || live+=(libnginx-mod-rtmp)
command -v chromium >/dev/null || live+=(chromium)
if ((${#live[@]})); then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -qq "${live[@]}"
  else
    echo "missing Debian packages: ${live[*]} (install them with apt-get)" >&2
    exit 1
  fi
fi
