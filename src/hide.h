/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * hide.h: carries out --overlay-hide / --overlay-allow (planned by hide-plan.h). A
 * directory loses names either through a read-only overlay whose top layer, on the
 * private staging tmpfs, holds whiteouts (Linux 5.8 for unprivileged whiteouts, 5.11 for
 * overlayfs in a user namespace), or, for an allowlist that hides more than it keeps,
 * through a read-only staging directory holding only the kept entries, each bound from
 * the original. Nothing on the host is created or changed.
 */
#pragma once

#include <stdbool.h>

#include "error.h"
#include "hide-plan.h"
#include "plan.h"

struct hide_env {
	int root_fd; /* O_PATH|O_DIRECTORY fd of the sandbox root being built */
	const char
		*root_path; /* that root as an absolute path in the current view, e.g. "/newroot" */
	int staging_fd;	    /* dirfd of the private tmpfs for the hiding layers */
	const char *staging_path; /* that tmpfs as an absolute path in the current view */
	const char *path_env;	  /* PATH the payload runs with; NULL: glibc's default */
	bool in_userns;
};

/* Runs after every other filesystem op and before the final pivot. A no-op when cfg has
 * neither hides nor allows. Fails (never partially hides and continues) when the kernel
 * cannot do it, naming the cause. Refuses a directory that is writable in the sandbox (the
 * result is read-only) and one with mounts below it (an overlay's lower layer carries no
 * submounts; found with listmount, or in mountinfo before Linux 6.8). */
int hide_apply(const struct hide_config *cfg, const struct hide_env *env, struct nsrun_error *err);

/* Whether cfg asks for anything (a hide or an allow): hide_apply is a no-op otherwise. */
bool hide_wanted(const struct hide_config *cfg);
