#!/usr/bin/env bash
# The fleet import benchmark (docs/benchmarks.md, "Fleet import"): N emulated glasses on the
# `wifi` link profile (25 MB/s each) imported at once by one `aibuds media import --device ...`
# into a local folder (the aggregate rate against the sum of the links), then the same into
# SeaweedFS's S3 server on loopback against `aws s3 cp --recursive` of the same files from a local
# copy (the ratio of the times). Pass --skip-s3 as a fifth argument to measure the folder only.
# Usage: scripts/bench-fleet.sh [WORK_DIR] [DEVICES] [FILES_PER_DEVICE] [FILE_MB] [--skip-s3]
# Defaults: /tmp/aibuds-bench-fleet, 8 devices, 6 files of 25 MB each (150 MB per device).
# Needs /usr/bin/time. Run it on a quiet machine: it measures wall time. JOBS=N passes --jobs N to
# the S3 import (by default it streams one file per device at once).
set -euo pipefail
cd "$(dirname "$0")/.."
work="${1:-/tmp/aibuds-bench-fleet}"
devices="${2:-8}"
skip_s3="${5:-}"
files="${3:-6}"
mb="${4:-25}"
link_bytes_per_second=25000000

swift build -c release --product aibuds >&2
aibuds="$PWD/.build/release/aibuds"
mkdir -p "$work/media"
export XDG_RUNTIME_DIR="$work/runtime" XDG_DATA_HOME="$work/data"
mkdir -p "$XDG_RUNTIME_DIR" "$XDG_DATA_HOME"
for i in $(seq 1 "$files"); do
    f="$work/media/VID_$i.mp4"
    [[ -f "$f" && $(stat -c %s "$f") -eq $((mb * 1000000)) ]] || head -c $((mb * 1000000)) /dev/urandom > "$f"
done

pids=()
# CPU seconds (user + system) used so far by the given processes.
cpu_seconds() { local t=0 f; for pid in "$@"; do f=($(sed -E 's/^.*\) //' "/proc/$pid/stat")); t=$((t + f[11] + f[12])); done; python3 -c "print($t / $(getconf CLK_TCK))"; }
# The S3 server takes half a minute to stop on SIGTERM; its data is thrown away, so it is killed.
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; [[ -n "${s3pid:-}" ]] && kill -9 "$s3pid" 2>/dev/null || true; }
trap cleanup EXIT
addresses=()
for i in $(seq 1 "$devices"); do
    log="$work/emulator-$i.log"
    "$aibuds" emulator --name "Bench Glasses $i" --listen 127.0.0.1:0 --media "$work/media" --link wifi > "$log" 2>&1 &
    pids+=($!)
done
for i in $(seq 1 "$devices"); do
    log="$work/emulator-$i.log"
    for _ in $(seq 1 100); do grep -q '^listening on ' "$log" && break; sleep 0.1; done
    addresses+=(--device "$(awk '/^listening on /{print $3}' "$log")")
done

emulator_pids=("${pids[@]}")
rm -rf "$work/out"
# Every measured run starts with nothing left to write back from an earlier one.
sync
/usr/bin/time -f '%e %M' -o "$work/time.txt" "$aibuds" media import "${addresses[@]}" --to "$work/out" --all --no-stabilize --json > "$work/report.json"
read -r wall peak_kb < "$work/time.txt"
python3 - "$work/report.json" "$wall" "$peak_kb" "$devices" "$link_bytes_per_second" <<'PY'
import json, sys
report, wall, peak, devices, link = json.load(open(sys.argv[1])), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
assert report["success"], "the import failed"
fetched = report["bytesFetched"]
files = sum(1 for d in report["devices"] for f in d["files"] if f["status"] == "imported")
links = devices * link
rate = fetched / wall
print(f"devices {devices}, files {files}, bytes {fetched}")
print(f"wall {wall:.2f} s (connect, hotspot, list, transfer, verify), aggregate {rate/1e6:.1f} MB/s")
print(f"sum of the links {links/1e6:.0f} MB/s -> {100*rate/links:.1f} % (bar >= 90 %)")
print(f"peak RSS of aibuds {peak/1024:.0f} MiB")
PY

[[ "$skip_s3" == "--skip-s3" ]] && exit 0

# The same devices into S3, and the reference: the same files copied from a local copy by aws.
s3dir="$work/s3"
rm -rf "$s3dir"
line="$(scripts/s3-server.sh "$s3dir")"
s3pid="$(sed -E 's/.*pid=([0-9]+).*/\1/' <<<"$line")"
endpoint="$(sed -E 's/.*endpoint=([^ ]+).*/\1/' <<<"$line")"
pids+=("$s3pid")
bin="$(scripts/s3-venv.sh)"
export AWS_ENDPOINT_URL="$endpoint" AWS_ACCESS_KEY_ID=station AWS_SECRET_ACCESS_KEY=stationsecret AWS_REGION=us-east-1 AWS_DEFAULT_REGION=us-east-1
"$bin/aws" --endpoint-url "$endpoint" s3 mb s3://bench >/dev/null
export XDG_CACHE_HOME="$work/cache"
rm -rf "$XDG_CACHE_HOME"
sync
emulators_before=$(cpu_seconds "${emulator_pids[@]}") server_before=$(cpu_seconds "$s3pid")
/usr/bin/time -f '%e %M %U %S' -o "$work/time-s3.txt" "$aibuds" media import "${addresses[@]}" --to s3://bench/import ${JOBS:+--jobs "$JOBS"} --all --no-stabilize --json > "$work/report-s3.json"
emulators_after=$(cpu_seconds "${emulator_pids[@]}") server_after=$(cpu_seconds "$s3pid")
read -r s3_wall s3_peak_kb s3_user s3_sys < "$work/time-s3.txt"
echo "CPU-s of the S3 import: importer $(python3 -c "print(round($s3_user + $s3_sys, 1))"), emulators $(python3 -c "print(round($emulators_after - $emulators_before, 1))"), S3 server $(python3 -c "print(round($server_after - $server_before, 1))")"
# The local copy of the same files (the folder import above), without its ledgers.
rm -rf "$work/copy" && mkdir -p "$work/copy"
for d in "$work/out"/*/; do mkdir -p "$work/copy/$(basename "$d")" && cp "$d"/VID_* "$work/copy/$(basename "$d")/"; done
sync
server_before=$(cpu_seconds "$s3pid")
/usr/bin/time -f '%e %M %U %S' -o "$work/time-aws.txt" "$bin/aws" --endpoint-url "$endpoint" s3 cp --recursive --only-show-errors "$work/copy" s3://bench/copy
server_after=$(cpu_seconds "$s3pid")
read -r aws_wall aws_peak_kb aws_user aws_sys < "$work/time-aws.txt"
echo "CPU-s of the reference copy: aws $(python3 -c "print(round($aws_user + $aws_sys, 1))"), S3 server $(python3 -c "print(round($server_after - $server_before, 1))")"
python3 - "$work/report-s3.json" "$s3_wall" "$s3_peak_kb" "$aws_wall" "$aws_peak_kb" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
s3_wall, s3_peak, aws_wall, aws_peak = float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
assert report["success"], "the S3 import failed"
files = sum(1 for d in report["devices"] for f in d["files"] if f["status"] == "imported")
print(f"S3: {files} files from the devices into S3 in {s3_wall:.2f} s (peak RSS {s3_peak/1024:.0f} MiB)")
print(f"aws s3 cp --recursive of the same files from a local copy: {aws_wall:.2f} s (peak RSS {aws_peak/1024:.0f} MiB)")
print(f"ratio {s3_wall/aws_wall:.2f}x (bar <= 1.1x)")
PY
