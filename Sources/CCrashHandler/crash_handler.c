#define _GNU_SOURCE
#include "crash_handler.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static const int handled_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT};
#define SIGNAL_COUNT (sizeof(handled_signals) / sizeof(handled_signals[0]))

static char report_directory[1024];
static char report_header[2048];
static char log_lines[CRASH_HANDLER_LOG_LINES][CRASH_HANDLER_LOG_LINE_BYTES];
static atomic_uint log_next;
static char devices[CRASH_HANDLER_DEVICE_SLOTS][CRASH_HANDLER_DEVICE_BYTES];
static struct sigaction previous_actions[SIGNAL_COUNT];
static atomic_int installed;
static atomic_int crashing;
static char alternate_stack[64 * 1024];
// The Swift runtime keeps the message of a fatal error (a trap's "Fatal error: ..." text) here
// just before it traps; NULL when this runtime does not export it.
static _Atomic(const char *) *swift_fatal_error_message;
// The other threads' backtraces: at a crash the handler sends each thread `dump_signal` in turn
// (installed only then, so the app keeps every signal until it crashes); that thread's handler
// writes its own backtrace into the report and says it is done.
static int dump_signal;
static atomic_int dump_target;
static atomic_int dump_done;
static int dump_fd = -1;
#define CRASH_HANDLER_MAX_THREADS 64

// MARK: - Async-signal-safe output

static void put(int fd, const char *text) {
    size_t length = strnlen(text, 4096);
    while (length > 0) {
        ssize_t written = write(fd, text, length);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return;
        text += written;
        length -= (size_t)written;
    }
}

static void put_bounded(int fd, const char *text, size_t capacity) {
    size_t length = strnlen(text, capacity);
    char line[CRASH_HANDLER_DEVICE_BYTES + CRASH_HANDLER_LOG_LINE_BYTES];
    if (length >= sizeof(line)) length = sizeof(line) - 1;
    memcpy(line, text, length);
    line[length] = 0;
    put(fd, line);
}

/// Writes `value` in `base` (10 or 16) into `buffer` (at least 24 bytes); returns it.
static char *format_unsigned(unsigned long long value, unsigned base, char *buffer) {
    char digits[24];
    int count = 0;
    do {
        unsigned digit = (unsigned)(value % base);
        digits[count++] = (char)(digit < 10 ? '0' + digit : 'a' + digit - 10);
        value /= base;
    } while (value > 0 && count < 23);
    for (int i = 0; i < count; i++) buffer[i] = digits[count - 1 - i];
    buffer[count] = 0;
    return buffer;
}

static void put_number(int fd, unsigned long long value) {
    char buffer[24];
    put(fd, format_unsigned(value, 10, buffer));
}

static void put_hex(int fd, unsigned long long value) {
    char buffer[24];
    put(fd, "0x");
    put(fd, format_unsigned(value, 16, buffer));
}

static const char *signal_name(int signal_number) {
    switch (signal_number) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGTRAP: return "SIGTRAP";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    default: return "signal";
    }
}

static const char *signal_meaning(int signal_number) {
    switch (signal_number) {
    case SIGSEGV: return "invalid memory access";
    case SIGBUS: return "bus error";
    case SIGILL: return "Swift runtime trap (fatal error, failed precondition, nil unwrap, index out of range) or illegal instruction";
    case SIGTRAP: return "Swift runtime trap or breakpoint";
    case SIGFPE: return "arithmetic error";
    case SIGABRT: return "abort()";
    default: return "fatal signal";
    }
}

// MARK: - Threads

/// Writes the calling thread's id and name, then " (main)" or " (background)".
static void put_this_thread(int fd) {
    pid_t tid = (pid_t)syscall(SYS_gettid);
    put_number(fd, (unsigned long long)tid);
    char name[17] = {0};
    if (prctl(PR_GET_NAME, name, 0, 0, 0) == 0) {
        put(fd, " ");
        put(fd, name);
    }
    put(fd, getpid() == tid ? " (main)" : " (background)");
}

static void dump_this_thread(int signal_number) {
    (void)signal_number;
    int saved_errno = errno;
    if ((int)syscall(SYS_gettid) == atomic_load(&dump_target) && dump_fd >= 0) {
        put(dump_fd, "thread ");
        put_this_thread(dump_fd);
        put(dump_fd, ":\n");
        void *frames[64];
        int count = backtrace(frames, 64);
        backtrace_symbols_fd(frames, count, dump_fd);
        atomic_store(&dump_done, 1);
    }
    errno = saved_errno;
}

/// Writes the backtrace of every other thread of the process (at most CRASH_HANDLER_MAX_THREADS,
/// waiting at most 100 ms for each; a thread that cannot run its handler in time is named only).
static void write_other_threads(int fd) {
    put(fd, "other threads:\n");
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = dump_this_thread;
    sigemptyset(&action.sa_mask);
    if (dump_signal <= 0 || sigaction(dump_signal, &action, NULL) != 0) return;
    int directory = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (directory < 0) return;
    pid_t self = (pid_t)syscall(SYS_gettid);
    dump_fd = fd;
    char entries[4096];
    int dumped = 0;
    long read_bytes;
    while (dumped < CRASH_HANDLER_MAX_THREADS && (read_bytes = syscall(SYS_getdents64, directory, entries, sizeof(entries))) > 0) {
        for (long offset = 0; offset < read_bytes && dumped < CRASH_HANDLER_MAX_THREADS;) {
            struct dirent64 *entry = (struct dirent64 *)(entries + offset);
            offset += entry->d_reclen;
            long tid = 0;
            const char *c = entry->d_name;
            if (*c < '0' || *c > '9') continue;
            for (; *c >= '0' && *c <= '9'; c++) tid = tid * 10 + (*c - '0');
            if (*c != 0 || tid == self) continue;
            dumped++;
            atomic_store(&dump_done, 0);
            atomic_store(&dump_target, (int)tid);
            if (syscall(SYS_tgkill, getpid(), (pid_t)tid, dump_signal) != 0) continue;
            for (int wait = 0; wait < 100 && !atomic_load(&dump_done); wait++) {
                struct timespec millisecond = {.tv_sec = 0, .tv_nsec = 1000000};
                nanosleep(&millisecond, NULL);
            }
            if (!atomic_load(&dump_done)) {
                put(fd, "thread ");
                put_number(fd, (unsigned long long)tid);
                put(fd, ": (no backtrace: it did not answer within 100 ms)\n");
            }
        }
    }
    atomic_store(&dump_target, 0);
    dump_fd = -1;
    close(directory);
}

// MARK: - The report

static void write_report(int signal_number, siginfo_t *info) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    char seconds[24], pid[24], path[1200], temporary[1210];
    format_unsigned((unsigned long long)now.tv_sec, 10, seconds);
    format_unsigned((unsigned long long)getpid(), 10, pid);
    path[0] = 0;
    strncat(path, report_directory, sizeof(path) - 1);
    strncat(path, "/crash-", sizeof(path) - strlen(path) - 1);
    strncat(path, seconds, sizeof(path) - strlen(path) - 1);
    strncat(path, "-", sizeof(path) - strlen(path) - 1);
    strncat(path, pid, sizeof(path) - strlen(path) - 1);
    temporary[0] = 0;
    strncat(temporary, path, sizeof(temporary) - 1);
    strncat(temporary, ".partial", sizeof(temporary) - strlen(temporary) - 1);
    strncat(path, ".txt", sizeof(path) - strlen(path) - 1);

    int fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return;
    put(fd, "AIBuds crash report\n");
    put(fd, "time: ");
    put_number(fd, (unsigned long long)now.tv_sec);
    put(fd, ".");
    char millis[24];
    unsigned long long ms = (unsigned long long)now.tv_nsec / 1000000ULL;
    format_unsigned(ms, 10, millis);
    if (ms < 100) put(fd, "0");
    if (ms < 10) put(fd, "0");
    put(fd, millis);
    put(fd, "\nsignal: ");
    put_number(fd, (unsigned long long)signal_number);
    put(fd, " ");
    put(fd, signal_name(signal_number));
    put(fd, " (");
    put(fd, signal_meaning(signal_number));
    put(fd, ")\ncode: ");
    put_number(fd, (unsigned long long)(unsigned)(info ? info->si_code : 0));
    if (info && (signal_number == SIGSEGV || signal_number == SIGBUS)) {
        put(fd, "\naddress: ");
        put_hex(fd, (unsigned long long)(uintptr_t)info->si_addr);
    }
    put(fd, "\npid: ");
    put(fd, pid);
    put(fd, "\nthread: ");
    put_this_thread(fd);
    put(fd, "\n");
    put(fd, report_header);
    const char *fatal_message = swift_fatal_error_message ? atomic_load(swift_fatal_error_message) : NULL;
    if (fatal_message) {
        put(fd, "message: ");
        // One line: the runtime's text ends in a newline; inner ones would break the format.
        char line[2048];
        size_t length = strnlen(fatal_message, sizeof(line) - 1);
        while (length > 0 && fatal_message[length - 1] == '\n') length--;
        for (size_t index = 0; index < length; index++) {
            line[index] = fatal_message[index] == '\n' ? ' ' : fatal_message[index];
        }
        line[length] = 0;
        put(fd, line);
        put(fd, "\n");
    }

    put(fd, "backtrace (crashed thread):\n");
    void *frames[128];
    int count = backtrace(frames, 128);
    backtrace_symbols_fd(frames, count, fd);
    write_other_threads(fd);

    put(fd, "devices:\n");
    for (int slot = 0; slot < CRASH_HANDLER_DEVICE_SLOTS; slot++) {
        if (devices[slot][0] == 0) continue;
        put(fd, "  ");
        put_bounded(fd, devices[slot], CRASH_HANDLER_DEVICE_BYTES);
        put(fd, "\n");
    }
    put(fd, "log (most recent last):\n");
    unsigned next = atomic_load(&log_next);
    unsigned first = next > CRASH_HANDLER_LOG_LINES ? next - CRASH_HANDLER_LOG_LINES : 0;
    for (unsigned index = first; index < next; index++) {
        put(fd, "  ");
        put_bounded(fd, log_lines[index % CRASH_HANDLER_LOG_LINES], CRASH_HANDLER_LOG_LINE_BYTES);
        put(fd, "\n");
    }
    put(fd, "end\n");
    fsync(fd);
    close(fd);
    rename(temporary, path);
}

static void handle_signal(int signal_number, siginfo_t *info, void *context) {
    (void)context;
    int saved_errno = errno;
    if (atomic_exchange(&crashing, 1) == 0) {
        write_report(signal_number, info);
    }
    // Die of the same signal with the default action, so the parent sees how the app ended.
    struct sigaction default_action;
    memset(&default_action, 0, sizeof(default_action));
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    sigaction(signal_number, &default_action, NULL);
    errno = saved_errno;
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, signal_number);
    sigprocmask(SIG_UNBLOCK, &unblock, NULL);
    raise(signal_number);
    // A fault re-executes the faulting instruction on return and now dies by the default action.
}

int crash_handler_install(const char *directory, const char *header) {
    if (strlen(directory) >= sizeof(report_directory) || strlen(header) >= sizeof(report_header)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(report_directory, directory);
    strcpy(report_header, header);
    typedef _Atomic(const char *) *(*message_buffer_function)(void);
    message_buffer_function message_buffer = (message_buffer_function)dlsym(RTLD_DEFAULT, "swift_getFatalErrorMessageBuffer");
    swift_fatal_error_message = message_buffer ? message_buffer() : NULL;
    // A real-time signal no one is likely to use, chosen now (SIGRTMAX is a libc call).
    dump_signal = SIGRTMAX - 2;
    // backtrace() loads libgcc_s on its first call (which allocates): do it now, not in the handler.
    void *warm[4];
    backtrace(warm, 4);
    // Stack overflows crash on a full stack: the handler runs on a stack of its own (this thread's).
    stack_t stack = {.ss_sp = alternate_stack, .ss_size = sizeof(alternate_stack), .ss_flags = 0};
    sigaltstack(&stack, NULL);
    for (size_t index = 0; index < SIGNAL_COUNT; index++) {
        struct sigaction action;
        memset(&action, 0, sizeof(action));
        action.sa_sigaction = handle_signal;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        struct sigaction *previous = atomic_load(&installed) ? NULL : &previous_actions[index];
        if (sigaction(handled_signals[index], &action, previous) != 0) return -1;
    }
    atomic_store(&installed, 1);
    return 0;
}

void crash_handler_uninstall(void) {
    if (!atomic_exchange(&installed, 0)) return;
    for (size_t index = 0; index < SIGNAL_COUNT; index++) {
        sigaction(handled_signals[index], &previous_actions[index], NULL);
    }
}

void crash_handler_append_log(const char *line) {
    unsigned index = atomic_fetch_add(&log_next, 1) % CRASH_HANDLER_LOG_LINES;
    char *slot = log_lines[index];
    size_t length = strnlen(line, CRASH_HANDLER_LOG_LINE_BYTES - 1);
    slot[0] = 0;
    memcpy(slot, line, length);
    slot[length] = 0;
}

void crash_handler_set_device(int slot, const char *text) {
    if (slot < 0 || slot >= CRASH_HANDLER_DEVICE_SLOTS) return;
    size_t length = strnlen(text, CRASH_HANDLER_DEVICE_BYTES - 1);
    devices[slot][0] = 0;
    memcpy(devices[slot], text, length);
    devices[slot][length] = 0;
}
