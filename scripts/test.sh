#!/usr/bin/env bash
# Runs the whole test suite on a fresh machine: installs what the tests need, builds, tests, and
# runs a short fuzzing pass. README.md and .ci/run call exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
swift build --build-tests 2>&1 | tee .build-log.txt
if grep -q "warning:" .build-log.txt; then
  echo "the build has warnings (see above); the project builds without any" >&2
  exit 1
fi
rm -f .build-log.txt
# Every public symbol of the library modules has a `///` summary that says more than its name; the
# self-test first makes sure the checker still catches an undocumented symbol and a filler summary.
python3 scripts/check-public-docs.py --self-test
python3 scripts/check-public-docs.py
swift test --parallel --num-workers 2
if [ -x scripts/fuzz.sh ]; then
  scripts/fuzz.sh --runs "${FUZZ_RUNS:-20000}"
fi
