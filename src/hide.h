/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * hide.h: --overlay-hide / --overlay-allow. Each affected directory of the
 * sandbox gets one read-only overlay whose top layer, on the private staging
 * tmpfs, holds whiteouts (char 0:0) for the hidden names. Needs Linux 5.8 for
 * unprivileged whiteouts and 5.11 for overlayfs in a user namespace.
 */
#pragma once

#include <stdbool.h>

#include "error.h"
#include "plan.h"

struct hide_env {
	int root_fd;		  /* O_PATH|O_DIRECTORY fd of the sandbox root being built */
	const char *root_path;	  /* that root as an absolute path in the current view, e.g. "/newroot" */
	int staging_fd;		  /* dirfd of the private tmpfs for the whiteout layers */
	const char *staging_path; /* that tmpfs as an absolute path in the current view */
	const char *path_env;	  /* PATH the payload runs with; NULL: glibc's default */
	bool in_userns;
};

/* Runs after every other filesystem op and before the final pivot. A no-op when cfg has
 * neither hides nor allows. Fails (never partially hides and continues) when the kernel
 * cannot do it, naming the cause. */
int hide_apply(const struct hide_config *cfg, const struct hide_env *env, struct nsrun_error *err);
