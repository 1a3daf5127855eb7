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
if [ -x scripts/smpmgr-venv.sh ]; then
  scripts/smpmgr-venv.sh
fi
if [ -x scripts/vqf-venv.sh ]; then
  scripts/vqf-venv.sh
fi
