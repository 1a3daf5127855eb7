#!/usr/bin/env bash
# Builds the example app (Examples/ImportMedia, its own package depending on this one through its
# products) and runs it against an emulated pair of glasses: the vendor's import example must
# import every file the device lists. Uses the aibuds command of the main build (.build/debug).
set -euo pipefail
cd "$(dirname "$0")/.."
aibuds=${AIBUDS:-.build/debug/aibuds}
[ -x "$aibuds" ] || { echo "build aibuds first (swift build)" >&2; exit 1; }
swift build --package-path Examples/ImportMedia -Xswiftc -warnings-as-errors 2>&1 | grep -E "error|warning: [^p]|Compiling ImportMedia|Build complete" || true
example=$(swift build --package-path Examples/ImportMedia --show-bin-path)/ImportMedia
[ -x "$example" ] || { echo "the example did not build" >&2; exit 1; }

work=$(mktemp -d)
trap 'kill "$emulator" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir "$work/media"
printf 'photo one' > "$work/media/IMG_1.jpg"
printf 'photo two' > "$work/media/IMG_2.jpg"
head -c 300000 /dev/urandom > "$work/media/VID_1.mp4"
XDG_RUNTIME_DIR=$work "$aibuds" emulator --profile glasses --listen 127.0.0.1:0 --media "$work/media" > "$work/emulator.log" 2>&1 &
emulator=$!
for _ in $(seq 100); do grep -q "listening on" "$work/emulator.log" && break; sleep 0.1; done
address=$(sed -n 's/^listening on //p' "$work/emulator.log")
[ -n "$address" ] || { cat "$work/emulator.log" >&2; exit 1; }
XDG_RUNTIME_DIR=$work timeout 120 "$example" "$address" > "$work/example.log" 2>&1 || { cat "$work/example.log" >&2; exit 1; }
grep -q "^Imported 3 files$" "$work/example.log" || { echo "the example did not import the 3 files:" >&2; cat "$work/example.log" >&2; exit 1; }
for name in IMG_1.jpg IMG_2.jpg VID_1.mp4; do
  grep -q "^Downloaded $name$" "$work/example.log" || { echo "no 'Downloaded $name'" >&2; exit 1; }
done
echo "example: the vendor's import example imported 3 of 3 files from the emulator"
