#ifndef CSPAWN_H
#define CSPAWN_H

#include <sys/types.h>

/// Starts `path` (looked up in PATH when it has no slash) with `argv` and `envp`, in `directory`
/// when not NULL. Its standard input, output and error are `in_fd`, `out_fd` and `err_fd`
/// (-1: /dev/null). Every other descriptor is closed in the child, its signal mask is empty and
/// every signal has its default action, whatever the calling thread had. Returns 0 and sets
/// `*pid`, or an errno value.
int cspawn_start(const char *path, char *const argv[], char *const envp[], const char *directory,
                 int in_fd, int out_fd, int err_fd, pid_t *pid);

/// A pipe whose two descriptors close on exec: `fds[0]` reads, `fds[1]` writes. 0 or an errno value.
int cspawn_pipe(int fds[2]);

/// Blocks until the child `pid` has ended, without reaping it (its pid stays reserved until
/// `cspawn_reap`). 0 or an errno value.
int cspawn_wait_exit(pid_t pid);

/// Reaps the ended child `pid`: `*status` is its exit status, or the signal that ended it with
/// `*signalled` set. 0 or an errno value.
int cspawn_reap(pid_t pid, int *status, int *signalled);

#endif
