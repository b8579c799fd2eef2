/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * setup.h: the child side of the sandbox, run inside the new namespaces. It
 * never returns: it execs the payload (possibly under a pid-1 reaper) or sends
 * a struct nsrun_error over the error pipe and exits 1.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "macros.h"
#include "plan.h"
#include "userns.h"

struct setup_ctx {
	const struct plan *plan;
	int error_fd;  /* write end of the error pipe (O_CLOEXEC) */
	int go_fd;     /* read end: one byte from the parent once it is done, or -1 */
	int status_fd; /* write end for the reaper's report of the payload status, or -1 */
	int proc_fd;   /* O_PATH fd on the host's /proc, for maps and sysctls after pivot */
	unsigned long clone_flags;
	struct userns_layout userns;
	bool in_userns; /* created or joined a user namespace */
	bool real_root; /* nsrun's real uid is 0 */
	uid_t real_uid;
	gid_t real_gid;
	uid_t sandbox_uid; /* --uid, else real_uid */
	gid_t sandbox_gid;
	uint64_t caps; /* the payload's capabilities (caps_requested) */
	/* --die-with-parent: whose death ends this process. The read end of a pipe whose
	 * only write end the monitor holds (exact inside a new pid namespace, where
	 * getppid() says 0), else -1 and the pid getppid() must keep returning. */
	int parent_life_fd;
	pid_t expected_ppid;
	const char *old_cwd; /* nsrun's cwd, or NULL */
	bool tty_foreground; /* take the terminal's foreground (supervise_tty_wanted) */
	/* Born in its cgroup by clone3, which roots a new cgroup namespace at the parent's
	 * cgroup: the namespace is made first thing instead, rooted at the sandbox's own. */
	bool late_cgroupns;
};

/* Frame written on the error pipe by the payload just before exec. */
#define SETUP_EXEC_MARKER 'x'

/* Closes every fd >= 3 not in keep (which is sorted in place). */
void setup_close_fds_except(int *keep, size_t n);

/* How many of nsrun's processes stand between the sandbox's first process and the
 * command: the --pidns relay and pid 1, each when there is one. */
unsigned setup_command_depth(const struct setup_ctx *ctx);

_noreturn_ void setup_child(const struct setup_ctx *ctx);
