#!/usr/bin/env bash
# Runs a command with a time limit; past it, prints where every test process's Swift concurrency
# threads are blocked (gdb backtraces of the threads running a task), ends the command and fails.
# A hang in CI then says which test waits for what instead of running into CI's own limit.
#
#   scripts/watchdog.sh SECONDS COMMAND [ARGUMENT]...
set -uo pipefail
limit="$1"; shift
"$@" &
child=$!
start=$SECONDS
while kill -0 "$child" 2>/dev/null; do
  if (( SECONDS - start > limit )); then
    echo "watchdog: '$*' ran past ${limit} s; the tasks' threads of each test process:" >&2
    for pid in $(pgrep -f '\.xctest|swiftpm-testing-helper'); do
      dump=$(mktemp /tmp/aibuds-hang-XXXXXX)
      gdb -p "$pid" -batch -ex "thread apply all bt" >"$dump" 2>&1
      # The frames of threads that run a task (swift_job_run), without the runtime's own.
      awk '/^Thread /{if (job) print block; block=$0; job=0; next}
           /^#/{block=block "\n" $0; if ($0 ~ /swift_job_run/) job=1}
           END{if (job) print block}' "$dump" | grep -v -E 'libswift_Concurrency|libdispatch|libc\.so|__GI_|futex' | cut -c1-300 >&2
      echo "watchdog: full backtraces of $pid in $dump" >&2
    done
    pkill -TERM -P "$child" 2>/dev/null; kill -TERM "$child" 2>/dev/null
    sleep 5; pkill -KILL -f '\.xctest|swiftpm-testing-helper' 2>/dev/null; kill -KILL "$child" 2>/dev/null
    wait "$child" 2>/dev/null
    exit 124
  fi
  sleep 2
done
wait "$child"
