#!/usr/bin/env bash
# The first command: installs the Debian packages the build needs (scripts/build-deps.sh, nothing
# for the tests), builds the `aibuds` command in release mode and runs its demo against emulated
# glasses on this machine. Arguments go to `aibuds demo` (`scripts/demo.sh --help`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build-deps.sh
echo "building aibuds (release; the first build takes a few minutes)"
swift build -c release --product aibuds 2>&1 | grep -E 'error|warning: unable|Compiling aibuds|Build complete' || true
test -x .build/release/aibuds || { echo "the build failed: run 'swift build -c release --product aibuds' to see why" >&2; exit 1; }
exec .build/release/aibuds demo "$@"
