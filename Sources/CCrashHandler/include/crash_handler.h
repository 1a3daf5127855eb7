#ifndef AIBUDS_CRASH_HANDLER_H
#define AIBUDS_CRASH_HANDLER_H

/// The fatal-signal handler of AIBudsCrashReporter, in C because a signal handler may only call
/// async-signal-safe functions: no allocation, no locks, no reference counting, nothing the Swift
/// runtime may do behind a call.

/// How many log lines the report keeps (the most recent ones).
#define CRASH_HANDLER_LOG_LINES 64
/// The longest log line kept, in bytes; longer lines are cut.
#define CRASH_HANDLER_LOG_LINE_BYTES 320
/// How many devices the report can describe.
#define CRASH_HANDLER_DEVICE_SLOTS 16
/// The longest device description kept, in bytes.
#define CRASH_HANDLER_DEVICE_BYTES 480

/// Installs the handler for SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE and SIGABRT (Swift runtime
/// traps arrive as SIGILL or SIGTRAP); reports go to `directory` as crash-<seconds>-<pid>.txt and
/// start with `header` (copied). Returns 0, or -1 with errno set.
int crash_handler_install(const char *directory, const char *header);
/// Restores the actions that were in place before `crash_handler_install`.
void crash_handler_uninstall(void);
/// Keeps `line` (copied, cut to CRASH_HANDLER_LOG_LINE_BYTES) among the last log lines.
void crash_handler_append_log(const char *line);
/// Sets the description of device slot `slot` (copied); an empty text frees the slot.
void crash_handler_set_device(int slot, const char *text);

#endif
