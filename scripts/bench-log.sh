#!/usr/bin/env bash
# The cost of one log line in each destination (below the level, redaction, rotating file as the
# reference, SQLite store, journald), in a release build; figures go to docs/benchmarks.md.
# journald is measured when one listens on /run/systemd/journal/socket (start
# /lib/systemd/systemd-journald first on a machine without systemd).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product aibuds-bench-log >&2
exec "$(swift build -c release --show-bin-path)/aibuds-bench-log" "${1:-200000}"
