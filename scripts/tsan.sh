#!/usr/bin/env bash
# Runs the concurrency-heavy suites (the SMP client, the download engine and the import engine's
# threaded parts, TopStepComKit, BlueZ, the lock) under Thread Sanitizer, in a build of their own (.build/tsan), so the
# ordinary build stays as it is. Any race report fails the run (TSan exits 66). Skipped: the suites
# that run the `aibuds` command as a process, and the tests whose outcome a clock decides (lossy
# links, stop-and-wait, a connect within 10 s, a failure within 8 s, a scan window): instrumented code runs 5-15
# times slower, so there their time limits, not races, would decide.
#
#   scripts/tsan.sh [--filter REGEX]
set -euo pipefail
cd "$(dirname "$0")/.."

filter='AIBudsSyncTests|AIBudsSMPClientTests|DeviceMediaListingTests|SMPGlassesDeviceTests|SMPMediaChannelTests|AIBudsTransferTests|TopStepComKitTests|AIBudsBlueZTests|ImportBatching|ImportHashPrefetcher|ImportStateMachine|ImportParts|ImportLedger'
skip='CLITests|Lossy|EmulatorUDPTests|sequenceNumbersWrap|downloadsAFileAndVerifiesIt|TopStepDeviceTests|TopStepSeedExampleTests|aDisconnectMidDownload|oneScanFindsBothLinks|TransportParityTests'
if [[ "${1:-}" == --filter ]]; then filter="$2"; fi
tsan=(--sanitize=thread --scratch-path .build/tsan -Xswiftc -warnings-as-errors)
swift build --build-tests "${tsan[@]}"
TSAN_OPTIONS="${TSAN_OPTIONS:-second_deadlock_stack=1}" \
  scripts/watchdog.sh 1200 swift test --skip-build --parallel --num-workers 2 "${tsan[@]}" --filter "$filter" --skip "$skip"
