#!/usr/bin/env bash
# Creates (or reuses) the Python venv of the voice activity measurement: onnxruntime and numpy,
# the Silero VAD model from the `silero-vad` package (without its torch dependency: only the
# ONNX model file is used), cached under ~/.cache/aibuds keyed by the versions. Prints the venv's
# python path on success.
set -euo pipefail

ORT_VERSION="1.32.0"
SILERO_VERSION="6.2.3"
venv="${AIBUDS_VAD_VENV:-$HOME/.cache/aibuds/vad-venv-ort$ORT_VERSION-silero$SILERO_VERSION}"
python_bin="$venv/bin/python"

if [[ -x "$python_bin" ]] && "$python_bin" -c "import onnxruntime, numpy, importlib.util as u; assert u.find_spec('silero_vad')" 2>/dev/null; then
    echo "$python_bin"
    exit 0
fi
source "$(dirname "${BASH_SOURCE[0]}")/venv-lib.sh"
venv_install vad-venv "$venv" "onnxruntime==$ORT_VERSION" numpy
venv_install vad-venv "$venv" --no-deps "silero-vad==$SILERO_VERSION"
"$python_bin" -c "import onnxruntime, numpy, importlib.util as u; assert u.find_spec('silero_vad')" || { echo "vad-venv: the packages do not import" >&2; exit 1; }
echo "$python_bin"
