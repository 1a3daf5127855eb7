#!/usr/bin/env bash
# Runs the whole test suite on a fresh machine: installs what the tests need, builds without
# warnings, tests, runs the concurrency-heavy suites under Thread Sanitizer, and fuzzes briefly.
# README.md and .ci/run call exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
# Package.swift declares exactly the project modules each target imports.
python3 scripts/check-deps.py
# Every warning is an error, so the gate sees every file, also those an incremental build skips
# (a file that compiled once compiled without warnings). The tests build with the same flags, so
# `swift test` reuses this build.
strict=(-Xswiftc -warnings-as-errors)
swift build --build-tests "${strict[@]}"
# Every public symbol of the library modules has a `///` summary that says something.
python3 scripts/check-public-docs.py --self-test
python3 scripts/check-public-docs.py
# The suites that run real media servers and encoders (live camera, nginx, the local AI servers,
# Chromium, SeaweedFS, the fleet's emulators) take the cores for seconds at a time and block
# threads of their own; each runs after the rest in a process of its own (together in one process
# they starved Swift concurrency's two threads and stalled), so that neither they nor the timing
# checks of the other suites wait on each other.
heavy=(AIBudsLiveStreamTests AIBudsAITests AIBudsAIDashboardTests AIBudsCrashReporterTests FleetImportTests FleetCLITests
  S3ImportTests AIAudioPath)
swift test --skip-build --parallel --num-workers 2 --skip "$(IFS='|'; echo "${heavy[*]}")" "${strict[@]}"
for suite in "${heavy[@]}"; do
  swift test --skip-build --filter "$suite" "${strict[@]}"
done
scripts/tsan.sh
if [ -x scripts/fuzz.sh ]; then
  scripts/fuzz.sh --runs "${FUZZ_RUNS:-20000}"
fi
