#!/usr/bin/env bash
# Installs what the build and the tests need and the toolchain does not bring: Debian packages
# (libcrypto headers, curl for the interop tests and benchmarks; libdbus-1 headers for the BlueZ
# plugin, dbus-daemon for the private buses of the BlueZ tests, python3-dbusmock for its bluez5
# template; FFmpeg's libraries for video stabilization and the ffmpeg program its tests and
# benchmark use) and the Python venvs.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
[ -f /usr/include/openssl/evp.h ] || missing+=(libssl-dev)
command -v curl >/dev/null || missing+=(curl)
[ -f /usr/include/dbus-1.0/dbus/dbus.h ] || missing+=(libdbus-1-dev)
[ -x /usr/bin/dbus-daemon ] || missing+=(dbus-daemon)
/usr/bin/python3 -c 'import dbusmock' 2>/dev/null || missing+=(python3-dbusmock)
command -v pkg-config >/dev/null || missing+=(pkg-config)
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
# libpulse-simple (playback); espeak-ng and sox make and measure the test speech.
audio_missing=()
for lib in opus opusfile libopusenc soxr libpulse-simple; do
  pkg-config --exists "$lib" 2>/dev/null || audio_missing+=("$lib")
done
command -v espeak-ng >/dev/null || audio_missing+=(espeak-ng)
command -v sox >/dev/null || audio_missing+=(sox)
if ((${#audio_missing[@]})); then
  [ "$(id -u)" = 0 ] || { echo "missing audio packages: ${audio_missing[*]}" >&2; exit 1; }
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -qq \
    libopus-dev libopusfile-dev libopusenc-dev libogg-dev libsoxr-dev libpulse-dev espeak-ng sox
fi
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
