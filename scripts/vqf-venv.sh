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

if [[ -x "$python_bin" ]] && "$python_bin" -m pip show vqf 2>/dev/null | grep -qx "Version: $VQF_VERSION"; then
    echo "$python_bin"
    exit 0
fi

python="${PYTHON:-python3}"
command -v "$python" >/dev/null || { echo "vqf-venv: $python not found" >&2; exit 1; }
[[ -x "$python_bin" ]] || "$python" -m venv "$venv" >&2
"$python_bin" -m pip install --quiet --disable-pip-version-check "vqf==$VQF_VERSION" numpy >&2
"$python_bin" -c "import vqf" || { echo "vqf-venv: vqf does not import" >&2; exit 1; }
echo "$python_bin"
