#!/usr/bin/env bash
# Creates (or reuses) the Python virtual environment at .venv/ with a pinned smpmgr, the stock SMP
# client that the emulator's interoperability tests drive. Prints the venv's smpmgr path on success.
#
# Usage: scripts/smpmgr-venv.sh [VENV_DIR]   (default: .venv/ at the repository root)
set -euo pipefail

SMPMGR_VERSION="0.19.1"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${1:-$root/.venv}"
smpmgr="$venv/bin/smpmgr"

if [[ -x "$smpmgr" ]] && "$venv/bin/python" -m pip show smpmgr 2>/dev/null | grep -qx "Version: $SMPMGR_VERSION"; then
    echo "$smpmgr"
    exit 0
fi

python="${PYTHON:-python3}"
command -v "$python" >/dev/null || { echo "smpmgr-venv: $python not found" >&2; exit 1; }
[[ -x "$venv/bin/python" ]] || "$python" -m venv "$venv" >&2
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "smpmgr==$SMPMGR_VERSION" >&2
[[ -x "$smpmgr" ]] || { echo "smpmgr-venv: $smpmgr missing after install" >&2; exit 1; }
echo "$smpmgr"
