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

source "$root/scripts/venv-lib.sh"

if [[ -x "$smpmgr" && -x "$imgtool" ]] && venv_has "$venv" smpmgr "$SMPMGR_VERSION" && venv_has "$venv" imgtool "$IMGTOOL_VERSION"; then
    echo "$smpmgr"
    exit 0
fi

venv_install smpmgr-venv "$venv" "smpmgr==$SMPMGR_VERSION" "imgtool==$IMGTOOL_VERSION"
[[ -x "$smpmgr" ]] || { echo "smpmgr-venv: $smpmgr missing after install" >&2; exit 1; }
[[ -x "$imgtool" ]] || { echo "smpmgr-venv: $imgtool missing after install" >&2; exit 1; }
echo "$smpmgr"
