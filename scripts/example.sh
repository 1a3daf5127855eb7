#!/usr/bin/env bash
# Builds the example app (Examples/ImportMedia, its own package depending on this one through its
# products) and runs it against an emulated pair of glasses: the vendor's import example must
# import every file the device lists, printing what each callback promises in order (this replaced
# a copy of the example in the Swift tests). Uses the aibuds command of the main build (.build/debug).
set -euo pipefail
cd "$(dirname "$0")/.."
aibuds=${AIBUDS:-.build/debug/aibuds}
[ -x "$aibuds" ] || { echo "build aibuds first (swift build)" >&2; exit 1; }
# A failed build fails the script (an older binary left from an earlier build must not stand in).
build_log=$(mktemp)
# SwiftPM keeps the build plan of a package whose path dependency (this one) gained a target: the
# plan is made again (cheap; nothing is recompiled that is up to date).
rm -f Examples/ImportMedia/.build/debug.yaml
if ! swift build --package-path Examples/ImportMedia -Xswiftc -warnings-as-errors > "$build_log" 2>&1; then
  grep -vE "prohibited flag" "$build_log" >&2
  rm -f "$build_log"
  echo "the example did not build" >&2
  exit 1
fi
grep -E "error|warning: [^p]|Compiling ImportMedia|Build complete" "$build_log" || true
rm -f "$build_log"
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
XDG_RUNTIME_DIR=$work TMPDIR=$work timeout 120 "$example" "$address" > "$work/example.log" 2> "$work/example.err" || { cat "$work/example.log" "$work/example.err" >&2; exit 1; }
# What the vendor's example prints, in the order its callbacks promise.
fail() { echo "example: $1" >&2; cat "$work/example.log" >&2; exit 1; }
[ "$(grep -c '^Imported 3 files$' "$work/example.log")" = 1 ] || fail "'Imported 3 files' is not printed once"
[ "$(tail -n 1 "$work/example.log")" = "Imported 3 files" ] || fail "the import's completion is not the last line"
expected=$'Connected to AIBuds Glasses G1\nConfiguring hotspot\nHotspot configured\nEntering file transfer mode\nFile transfer mode ready\nWaiting for the device hotspot'
[ "$(head -n 6 "$work/example.log")" = "$expected" ] || fail "the fetch's steps are not the first lines, in order"
grep -q '^Connecting to AIBuds-' "$work/example.log" || fail "no 'Connecting to AIBuds-…'"
grep -q '^Device hotspot connected$' "$work/example.log" || fail "no 'Device hotspot connected'"
grep -q '^Transfer file 3 of 3$' "$work/example.log" || fail "no 'Transfer file 3 of 3'"
grep -q 'VID_1.mp4 100%$' "$work/example.log" || fail "no chunk progress reaching 100% for VID_1.mp4"
for name in IMG_1.jpg IMG_2.jpg VID_1.mp4; do
  grep -q "^Starting $name$" "$work/example.log" || fail "no 'Starting $name'"
  grep -q "^Downloaded $name$" "$work/example.log" || fail "no 'Downloaded $name'"
done
echo "example: the vendor's import example imported 3 of 3 files from the emulator"

# The Swift 5 app: XLFacility through AIBudsLogSDK, AIBudsAllInOne.initialize, the AI side offline.
allinone=$(swift build --package-path Examples/ImportMedia --show-bin-path)/AllInOneOffline
env -u AIBUDS_AI_BASE_URL -u AIBUDS_AI_CHAT_URL -u AIBUDS_AI_TRANSCRIBE_URL -u AIBUDS_AI_SPEECH_URL \
  HOME=$work timeout 120 "$allinone" "$work/state" > "$work/allinone.log" 2>&1 || { cat "$work/allinone.log" >&2; exit 1; }
check() { grep -qx "$1" "$work/allinone.log" || { echo "AllInOneOffline: no line '$1'" >&2; cat "$work/allinone.log" >&2; exit 1; }; }
check "initialized: true"
check "AI providers: offline"
check "translation: buenos días"
check "sdk initialized logged: true"
grep -q "^starBurst: .*no AIConnectSDK plugin is registered for vendor starBurst: StarBurst AI (ByteDance) publishes no API" "$work/allinone.log" \
  || { echo "AllInOneOffline: no clear error for StarBurst without its plugin" >&2; cat "$work/allinone.log" >&2; exit 1; }
grep -q "^summary: .*weather" "$work/allinone.log" || { echo "AllInOneOffline: no summary" >&2; exit 1; }
[ -d "$work/state/crashes" ] && [ -f "$work/state/logs.sqlite" ] || { echo "AllInOneOffline: no crash folder or log store" >&2; exit 1; }
echo "example: AllInOneOffline (Swift 5) initialized everything, logged to XLFacility and used the AI side offline"
