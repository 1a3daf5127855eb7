#!/usr/bin/env bash
# Starts SeaweedFS's S3 gateway (`weed server -s3`) on loopback for the S3 tests and benchmarks,
# with two identities: station/stationsecret (read and write) and reader/readersecret (read
# only, for "a bucket that refuses writes"). Waits until it answers, then prints one line:
#   endpoint=http://127.0.0.1:PORT pid=PID dir=DIR
# Stop it with `kill PID`. Usage: scripts/s3-server.sh DIR   (its data and log go in DIR)
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:?usage: scripts/s3-server.sh DIR}"
bin="$(scripts/s3-venv.sh)"
mkdir -p "$dir/data"
cat > "$dir/s3.json" <<'JSON'
{"identities": [
  {"name": "station", "credentials": [{"accessKey": "station", "secretKey": "stationsecret"}],
   "actions": ["Admin", "Read", "Write", "List", "Tagging"]},
  {"name": "reader", "credentials": [{"accessKey": "reader", "secretKey": "readersecret"}],
   "actions": ["Read", "List"]}
]}
JSON
# Free loopback ports: master, volume, filer and S3 (each also uses PORT+10000 for gRPC).
read -r master volume filer s3 < <(python3 - <<'PY'
import socket
ports = []
while len(ports) < 4:
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close()
    if p + 10000 < 65536 and p not in ports:
        t = socket.socket()
        try:
            t.bind(("127.0.0.1", p + 10000)); ports.append(p)
        except OSError:
            pass
        t.close()
print(*ports)
PY
)
"$bin/weed" server -dir="$dir/data" -ip=127.0.0.1 -ip.bind=127.0.0.1 -master.port="$master" \
    -volume.port="$volume" -filer.port="$filer" -s3 -s3.port="$s3" -s3.config="$dir/s3.json" \
    -master.volumeSizeLimitMB=256 -volume.max=32 -metricsPort=0 -s3.port.iceberg=0 -s3.port.lance=0 > "$dir/weed.log" 2>&1 &
pid=$!
endpoint="http://127.0.0.1:$s3"
for _ in $(seq 1 600); do
    if ! kill -0 "$pid" 2>/dev/null; then echo "s3-server: weed exited; see $dir/weed.log" >&2; tail -5 "$dir/weed.log" >&2; exit 1; fi
    if AWS_ACCESS_KEY_ID=station AWS_SECRET_ACCESS_KEY=stationsecret AWS_DEFAULT_REGION=us-east-1 \
        "$bin/aws" --endpoint-url "$endpoint" s3api list-buckets >/dev/null 2>&1; then
        echo "endpoint=$endpoint pid=$pid dir=$dir"
        exit 0
    fi
    sleep 0.1
done
kill "$pid" 2>/dev/null || true
echo "s3-server: no answer from $endpoint within 60 s; see $dir/weed.log" >&2
exit 1
