#!/bin/sh
# The HTTP data-plane benchmark (docs/benchmarks.md, section "HTTP data plane").
# Usage: scripts/bench-http.sh [WORK_DIR] [extra options for `aibuds-bench-http run`]
# WORK_DIR (default /tmp/aibuds-bench-http) needs about 8 GB free; the test files are kept there
# for the next run, the downloads are deleted. Needs curl and /usr/bin/time. Takes a few minutes;
# run it on a quiet machine: it measures wall time.
set -eu
cd "$(dirname "$0")/.."
work="${1:-/tmp/aibuds-bench-http}"
[ $# -gt 0 ] && shift
swift build -c release --product aibuds-bench-http
mkdir -p "$work"
exec .build/release/aibuds-bench-http run --work "$work" "$@"
