#!/usr/bin/env bash
# Creates (or reuses) the Python virtual environment at .venv/ with the stock MCUmgr tools that the
# interoperability tests and benchmarks drive: a pinned smpmgr (the SMP client) and MCUboot's
# imgtool (which makes firmware images). Prints the venv's smpmgr path on success; imgtool is
# beside it (.venv/bin/imgtool).
#
# Usage: scripts/smpmgr-venv.sh [VENV_DIR]   (default: .venv/ at the repository root)
set -euo pipefail

SMPMGR_VERSION="0.19.1"
IMGTOOL_VERSION="2.5.0"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${1:-$root/.venv}"
smpmgr="$venv/bin/smpmgr"
imgtool="$venv/bin/imgtool"

installed() {  # NAME VERSION
    "$venv/bin/python" -m pip show "$1" 2>/dev/null | grep -qx "Version: $2"
}

if [[ -x "$smpmgr" && -x "$imgtool" ]] && installed smpmgr "$SMPMGR_VERSION" && installed imgtool "$IMGTOOL_VERSION"; then
    echo "$smpmgr"
    exit 0
fi

python="${PYTHON:-python3}"
command -v "$python" >/dev/null || { echo "smpmgr-venv: $python not found" >&2; exit 1; }
[[ -x "$venv/bin/python" ]] || "$python" -m venv "$venv" >&2
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "smpmgr==$SMPMGR_VERSION" "imgtool==$IMGTOOL_VERSION" >&2
[[ -x "$smpmgr" ]] || { echo "smpmgr-venv: $smpmgr missing after install" >&2; exit 1; }
[[ -x "$imgtool" ]] || { echo "smpmgr-venv: $imgtool missing after install" >&2; exit 1; }
echo "$smpmgr"
