#!/usr/bin/env bash
# Runs the whole test suite on a fresh machine: installs what the tests need, builds without
# warnings, builds the DocC documentation without warnings, tests, runs the concurrency-heavy
# suites under Thread Sanitizer, and fuzzes briefly.
# README.md and .ci/run call exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== dependencies ($(date -u +%T))"
scripts/install-deps.sh
# The local OpenAI-compatible servers the AI suite talks to (llama.cpp, Whisper, Piper), each in a
# venv under ~/.cache/aibuds-ai keyed by version: the first llama.cpp build takes 10-30 minutes on
# two cores, later runs find it built.
scripts/ai-servers.sh install
export AIBUDS_AI_SERVERS=1
# Package.swift declares exactly the project modules each target imports.
python3 scripts/check-deps.py
# Each library product needs the system libraries docs/architecture.md lists for it, and the device
# core no audio, video or media-server library ("Products and the system libraries they need").
python3 scripts/check-products.py --self-test
python3 scripts/check-products.py
# Every warning is an error, so the gate sees every file, also those an incremental build skips
# (a file that compiled once compiled without warnings). The tests build with the same flags, so
# `swift test` reuses this build.
strict=(-Xswiftc -warnings-as-errors)
echo "== build ($(date -u +%T))"
swift build --build-tests "${strict[@]}"
# Every public symbol of the library modules has a `///` summary that says something.
python3 scripts/check-public-docs.py --self-test
python3 scripts/check-public-docs.py
# The DocC site (.build/docs/) from this build: any DocC warning (a broken symbol link in a `///`
# comment or an article, an undocumented parameter) fails the run.
echo "== documentation ($(date -u +%T))"
scripts/docs.sh --no-build
# The example app (its own package, on this one's products) builds and imports from the emulator.
echo "== example app ($(date -u +%T))"
scripts/example.sh
# Three groups, so that no test's timing check waits behind another's work. The ordinary suites
# run in parallel. The compute-heavy ones (video stabilization, the audio codecs and voice
# activity models, firmware images) keep both cores busy for a minute and run after them, in
# parallel among themselves. The suites that run real media servers and encoders (live camera,
# nginx, the local AI servers, Chromium, SeaweedFS, the fleet's emulators) take the cores for
# seconds at a time and block threads of their own; each runs last in a process of its own
# (together in one process they starved Swift concurrency's two threads and stalled).
# AIBudsAllInOneTests runs alone too: it installs the crash handler and reconfigures the log and
# the AI side of its process.
compute=(AIBudsStabilizationTests AIBudsSyntheticVideoTests AIBudsAudioTests Firmware Ota)
# Live stabilization (a 30 fps stream decoded, warped and encoded in the test process, and vid.stab)
# runs apart from the other live tests, whose timing it starved (an RTSP probe timed out).
# The AI side's targets share one process: they start the local AI servers once between them.
heavy=('AIBudsLiveStreamTests\.(?!LiveStabilizationTests)' LiveStabilizationTests AIBudsLiveCameraTests AIBudsAllInOneTests "AIBudsAITests|AIBudsAISDKTests|AIBudsOpenAITests|AIBudsOfflineAITests" VoiceAssistantDeviceTests AIBudsAIDashboardTests AIBudsCrashReporterTests FleetImportTests FleetCLITests
  S3ImportTests AIAudioPath)
# Each test run has a watchdog: past its limit it prints where the tests' tasks are blocked and
# fails, rather than running into CI's own limit without a word.
joined() { local IFS='|'; echo "$*"; }
echo "== ordinary suites ($(date -u +%T))"
scripts/watchdog.sh 1200 swift test --skip-build --parallel --num-workers 2 --skip "$(joined "${compute[@]}" "${heavy[@]}")" "${strict[@]}"
echo "== compute-heavy suites ($(date -u +%T))"
scripts/watchdog.sh 900 swift test --skip-build --parallel --num-workers 2 --filter "$(joined "${compute[@]}")" "${strict[@]}"
for suite in "${heavy[@]}"; do
  echo "== $suite ($(date -u +%T))"
  scripts/watchdog.sh 900 swift test --skip-build --filter "$suite" "${strict[@]}"
done
echo "== Thread Sanitizer ($(date -u +%T))"
scripts/tsan.sh
echo "== fuzzing ($(date -u +%T))"
if [ -x scripts/fuzz.sh ]; then
  scripts/fuzz.sh --runs "${FUZZ_RUNS:-20000}"
fi
