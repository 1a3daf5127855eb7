#!/usr/bin/env bash
# Firmware upload benchmark: one 512 KiB MCUboot image (made by imgtool) uploaded over the emulated
# `ble` link profile by `aibuds firmware upload` and by smpmgr's `image upload`, to the same
# emulator in the same run. Prints each tool's wall time and peak memory (GNU time), the upload's
# own time as aibuds reports it, the fraction of the link's capacity (178,933 B/s) and the ratio.
#
# Usage: scripts/bench-ota.sh [--size BYTES]   (AIBUDS=path/to/aibuds to skip the debug build)
set -euo pipefail

size=524288
[[ "${1:-}" == "--size" ]] && size="$2"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
smpmgr="$(scripts/smpmgr-venv.sh)"
imgtool="$(dirname "$smpmgr")/imgtool"
if [[ -z "${AIBUDS:-}" ]]; then
    swift build --product aibuds >&2
    AIBUDS="$root/.build/debug/aibuds"
fi
[[ -x /usr/bin/time ]] || { echo "bench-ota: GNU time (/usr/bin/time) is needed" >&2; exit 1; }

ip=127.0.79.9
device="udp://$ip:1337"
work="$(mktemp -d)"
emulator_pid=""
cleanup() { [[ -n "$emulator_pid" ]] && kill "$emulator_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# imgtool adds a 0x200-byte header and a 40-byte TLV area: the image is exactly $size bytes.
head -c $((size - 0x200 - 40)) /dev/urandom > "$work/body.bin"
"$imgtool" sign --header-size 0x200 --align 4 --slot-size 0x200000 --version 9.0.0 --pad-header \
    "$work/body.bin" "$work/image.bin" >&2
actual=$(stat -c %s "$work/image.bin")

"$AIBUDS" emulator --profile glasses --listen "$ip:1337" --link ble --state "$work/state" >"$work/emulator.log" 2>&1 &
emulator_pid=$!
for _ in $(seq 50); do "$AIBUDS" firmware state --device "$device" >/dev/null 2>&1 && break; sleep 0.2; done

/usr/bin/time -f "%e %M" -o "$work/aibuds.time" "$AIBUDS" firmware upload --device "$device" "$work/image.bin" \
    | tee "$work/aibuds.out" >&2
"$AIBUDS" firmware erase --device "$device" >/dev/null
/usr/bin/time -f "%e %M" -o "$work/smpmgr.time" "$smpmgr" --ip "$ip" --timeout 10 image upload "$work/image.bin" >/dev/null
"$AIBUDS" firmware state --device "$device" --json > "$work/state.json"

python3 - "$actual" "$work" <<'PY'
import json, re, sys
size, work = int(sys.argv[1]), sys.argv[2]
capacity = 11 * 244 / 0.015
def timed(name):
    seconds, kib = open(f"{work}/{name}.time").read().split()
    return float(seconds), int(kib)
a_wall, a_rss = timed("aibuds")
s_wall, s_rss = timed("smpmgr")
upload = float(re.search(r"in ([0-9.]+) s", open(f"{work}/aibuds.out").read()).group(1))
slots = json.load(open(f"{work}/state.json"))
assert any(s["slot"] == 1 and s["version"] == "9.0.0" for s in slots), "smpmgr's upload is not in the slot"
print(f"firmware image: {size} bytes over the ble link (capacity {capacity:,.0f} B/s)")
print(f"{'tool':<30}{'wall s':>8}{'upload s':>10}{'B/s':>10}{'of capacity':>13}{'peak RSS MiB':>14}")
print(f"{'aibuds firmware upload':<30}{a_wall:>8.2f}{upload:>10.2f}{size/upload:>10,.0f}{100*size/upload/capacity:>12.1f}%{a_rss/1024:>14.1f}")
print(f"{'smpmgr image upload':<30}{s_wall:>8.2f}{'-':>10}{size/s_wall:>10,.0f}{100*size/s_wall/capacity:>12.1f}%{s_rss/1024:>14.1f}")
print(f"aibuds is {s_wall/a_wall:.1f}x as fast as smpmgr (wall time of each command, start-up included)")
PY
