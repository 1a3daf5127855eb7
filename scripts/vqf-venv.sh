#!/usr/bin/env bash
# Creates (or reuses) the Python virtual environment at .venv-vqf/ with a pinned `vqf` (the
# reference VQF orientation filter) and numpy, which the stabilization tests compare the
# orientation filter against. Prints the venv's python path on success.
#
# Usage: scripts/vqf-venv.sh [VENV_DIR]   (default: .venv-vqf/ at the repository root)
set -euo pipefail

VQF_VERSION="2.1.2"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${1:-$root/.venv-vqf}"
python_bin="$venv/bin/python"

source "$root/scripts/venv-lib.sh"

if venv_has "$venv" vqf "$VQF_VERSION"; then
    echo "$python_bin"
    exit 0
fi

venv_install vqf-venv "$venv" "vqf==$VQF_VERSION" numpy
"$python_bin" -c "import vqf" || { echo "vqf-venv: vqf does not import" >&2; exit 1; }
echo "$python_bin"
