/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * launch.h: becoming the payload, the same way in every mode: parent tracking,
 * capabilities, Landlock, seccomp, exec. Nothing here returns on success; a
 * failure is reported through the error pipe (or printed, in place) and ends
 * the process before the command runs.
 */
#pragma once

/* nsrun's status when the command was not found, or found but could not run (under
 * the name bwrap: 1). */
#define LAUNCH_NOT_FOUND_STATUS 127
#define LAUNCH_CANNOT_RUN_STATUS 126

#include <signal.h>

#include "error.h"
#include "macros.h"
#include "setup.h"

/* Reports err (error pipe, or print and exit with err->status in place) and exits. */
_noreturn_ void launch_fail(const struct setup_ctx *ctx, struct nsrun_error *err);

/* --die-with-parent: arm PR_SET_PDEATHSIG, then make sure the parent did not die
 * before it was armed (the monitor's life pipe when there is one, else getppid()).
 * Call after the last credential change, which clears the signal. */
void launch_track_parent(const struct setup_ctx *ctx);

/* Restores the caller's signal mask, then tracks the parent, confines (ambient caps,
 * Landlock, seccomp) and execs. */
_noreturn_ void launch_payload(const struct setup_ctx *ctx, char **envp, const sigset_t *mask);

/* pid 1's payload, before it exists. */
struct launch_child {
	struct setup_ctx ctx; /* the payload's own */
	char **envp;
	const sigset_t *mask;
	int ready_fd;	      /* read end: launch_release(), or EOF when pid 1 failed */
	const int *close_fds; /* pid 1's descriptors the payload must not keep */
	size_t n_close;
};

/* Starts c as pid 1's child: it waits for launch_release(), then runs launch_payload.
 * c must stay valid and unchanged until then. The child may share this process's
 * memory until it execs: from fork to release it only waits. Returns its pid or -errno. */
pid_t launch_spawn(const struct launch_child *c, struct nsrun_error *err);

/* Lets the child go, then waits until it has exec'd or died (the CLOEXEC exec_fd's
 * EOF): only then may this process write memory again. Closes both. Returns 0, or -1
 * when read(2) is refused (a caller's seccomp program): then the child, let go or
 * not, has been killed and waited for (not reaped). */
int launch_release(int ready_fd, int exec_fd, pid_t child);

/* --landlock-only: no sandbox process, no new root; the same steps in this process.
 * ctx comes from the same preparation as a sandbox's (error_fd -1). */
_noreturn_ void launch_in_place(struct setup_ctx *ctx);

/* --landlock-only with --json-status-fd: the same, in nsrun's child, which reports like a
 * sandbox's first process (no namespaces on status_fd), waits on go_fd for the first
 * document, and sends its errors and the exec marker on error_fd. */
_noreturn_ void launch_in_place_child(struct setup_ctx *ctx);
