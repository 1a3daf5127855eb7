#define _GNU_SOURCE
#include "cspawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int set_stream(posix_spawn_file_actions_t *actions, int fd, int target) {
    if (fd < 0) return posix_spawn_file_actions_addopen(actions, target, "/dev/null", O_RDWR, 0);
    return posix_spawn_file_actions_adddup2(actions, fd, target);
}

int cspawn_start(const char *path, char *const argv[], char *const envp[], const char *directory,
                 int in_fd, int out_fd, int err_fd, pid_t *pid) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int status = posix_spawn_file_actions_init(&actions);
    if (status != 0) return status;
    status = posix_spawnattr_init(&attributes);
    if (status != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return status;
    }
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    if (status == 0) status = set_stream(&actions, in_fd, 0);
    if (status == 0) status = set_stream(&actions, out_fd, 1);
    if (status == 0) status = set_stream(&actions, err_fd, 2);
    // Descriptors of other threads' pipes and sockets, opened without O_CLOEXEC, must not live on
    // in this child: a reader waiting for their end would wait as long as the child runs.
    if (status == 0) status = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    if (status == 0 && directory != NULL) status = posix_spawn_file_actions_addchdir_np(&actions, directory);
    if (status == 0) status = posix_spawnattr_setsigmask(&attributes, &none);
    if (status == 0) status = posix_spawnattr_setsigdefault(&attributes, &all);
    if (status == 0) status = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    if (status == 0) {
        if (strchr(path, '/') != NULL) status = posix_spawn(pid, path, &actions, &attributes, argv, envp);
        else status = posix_spawnp(pid, path, &actions, &attributes, argv, envp);
    }
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return status;
}

int cspawn_pipe(int fds[2]) {
    return pipe2(fds, O_CLOEXEC) == 0 ? 0 : errno;
}

int cspawn_wait_exit(pid_t pid) {
    siginfo_t info;
    while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) != 0) {
        if (errno != EINTR) return errno;
    }
    return 0;
}

int cspawn_reap(pid_t pid, int *status, int *signalled) {
    int raw = 0;
    while (waitpid(pid, &raw, 0) < 0) {
        if (errno != EINTR) return errno;
    }
    if (WIFSIGNALED(raw)) {
        *status = WTERMSIG(raw);
        *signalled = 1;
    } else {
        *status = WEXITSTATUS(raw);
        *signalled = 0;
    }
    return 0;
}
