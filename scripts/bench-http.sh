#!/bin/sh
# The media import and HTTP data-plane benchmark (docs/benchmarks.md, sections "Media import
# (aibuds media import vs curl)" and "HTTP data plane").
# Usage: scripts/bench-http.sh [WORK_DIR] [extra options for `aibuds-bench-http run`]
# WORK_DIR (default /tmp/aibuds-bench-http) needs about 12 GB free; the test files are kept there
# for the next run, the downloads are deleted. Needs curl and /usr/bin/time. Takes several
# minutes; run it on a quiet machine: it measures wall time. `--skip-engine` leaves out the
# engine-only figures, `--skip-faults` the 100 imports with dropped connections.
set -eu
cd "$(dirname "$0")/.."
work="${1:-/tmp/aibuds-bench-http}"
[ $# -gt 0 ] && shift
swift build -c release --product aibuds-bench-http
swift build -c release --product aibuds
mkdir -p "$work"
exec .build/release/aibuds-bench-http run --work "$work" --aibuds .build/release/aibuds "$@"
