/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * launch.h: becoming the payload, the same way in every mode: parent tracking,
 * capabilities, Landlock, seccomp, exec. Nothing here returns on success; a
 * failure is reported through the error pipe (or printed, in place) and ends
 * the process before the command runs.
 */
#pragma once

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

/* Waits on ready_fd (pid 1's go-ahead, -1: none), restores the caller's signal mask,
 * then tracks the parent, confines (ambient caps, Landlock, seccomp) and execs. */
_noreturn_ void launch_payload(const struct setup_ctx *ctx, char **envp, const sigset_t *mask,
			       int ready_fd);

/* --landlock-only: no sandbox process, no new root; the same steps in this process.
 * ctx comes from the same preparation as a sandbox's (error_fd -1). */
_noreturn_ void launch_in_place(struct setup_ctx *ctx);
