/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * launch.h: becoming the payload, the same way in every mode: parent tracking,
 * capabilities, Landlock, seccomp, exec. Nothing here returns on success; a
 * failure is reported through the error pipe (or printed, in place) and ends
 * the process before the command runs.
 */
#pragma once

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "error.h"
#include "fallback.h"
#include "landlock.h"
#include "macros.h"
#include "plan.h"
#include "userns.h"

/* Which process becomes the command, decided once by the parent (sandbox.c). */
enum launch_mode {
	LAUNCH_SANDBOX,	       /* a sandbox's process (or pid 1's child): reports to nsrun */
	LAUNCH_IN_PLACE,       /* --landlock-only: nsrun itself, which prints its errors */
	LAUNCH_IN_PLACE_CHILD, /* --landlock-only --json-status-fd: nsrun's child */
};

/* What the sandbox's processes know of the run: filled by the parent (sandbox.c),
 * carried through the child (setup.c) to the payload. */
struct launch_ctx {
	const struct plan *plan;
	enum launch_mode mode;
	/* What the --landlock-* boundary is on this kernel, described once by the parent
	 * (zero without --landlock-*): the ruleset and the guards that stand in for it. */
	struct landlock_desc landlock;
	int error_fd;  /* write end of the error pipe (O_CLOEXEC), or -1 in place */
	int go_fd;     /* read end: one byte from the parent once it is done, or -1 */
	int status_fd; /* write end for the reaper's report of the payload status, or -1 */
	int proc_fd;   /* O_PATH fd on the host's /proc, for maps and sysctls after pivot */
	unsigned long clone_flags;
	/* The sandbox's new namespaces for the status: clone_flags', and CLONE_NEWTIME, which
	 * the child makes itself (clone cannot take the offsets). */
	unsigned long ns_flags;
	struct userns_layout userns;
	bool in_userns; /* created or joined a user namespace */
	bool real_root; /* nsrun's real uid is 0 */
	uid_t real_uid;
	gid_t real_gid;
	uid_t sandbox_uid; /* --uid, else real_uid */
	gid_t sandbox_gid;
	uint64_t caps;	     /* the payload's capabilities, in every mode (decide_caps) */
	uint64_t caps_taken; /* what a boundary took away: out of the bounding set too */
	bool caps_as_is;     /* root that asked for nothing and lost nothing: nothing applied */
	/* --die-with-parent: whose death ends this process. The read end of a pipe whose
	 * only write end the monitor holds (exact inside a new pid namespace, where
	 * getppid() says 0), else -1 and the pid getppid() must keep returning. */
	int parent_life_fd;
	pid_t expected_ppid;
	const char *old_cwd; /* nsrun's cwd, or NULL */
	/* --ignore-keyboard-signals: the caller's SIGINT and SIGQUIT, which the command takes
	 * back just before exec; nsrun's processes (pid 1, --pidns's relay) keep them
	 * ignored. NULL otherwise. */
	const struct sigaction *keyboard;
	bool tty_foreground; /* take the terminal's foreground (supervise_tty_wanted) */
	/* Born in its cgroup by clone3, which roots a new cgroup namespace at the parent's
	 * cgroup: the namespace is made first thing instead, rooted at the sandbox's own. */
	bool late_cgroupns;
	/* --fallback: the sandbox's process reports that its setup is done (and a fresh
	 * procfs it did without) and waits for a second release, so that the status fds and
	 * the stderr line say what the command runs with before it runs. */
	bool ready_handshake;
	bool proc_fallback; /* a refused fresh procfs is answered by binding the host's */
	int bridge_fd;	    /* --bridge: the relay's socket, until the ports are handed over */
	int *idmap_fds;	    /* --idmap: per op, the monitor's idmapped tree, or NULL */
};

/* The sandbox's process to the monitor, on the status pipe, once its setup is done
 * (ready_handshake): the refusal it answered itself (step 0: none). */
struct launch_ready {
	struct fallback_refusal proc;
};

/* The error pipe, from the sandbox's processes to the monitor: nothing at all (the
 * child ended before exec without a word), the exec marker alone (the command runs), an
 * error, or the marker then an error (exec itself failed). One writer of each frame
 * (launch_send_error, and launch_payload for the marker), one reader
 * (launch_read_outcome). */
#define LAUNCH_EXEC_MARKER 'x'
#define LAUNCH_OUTCOME_MAX (1 + sizeof(struct nsrun_error))

void launch_send_error(int error_fd, const struct nsrun_error *err);
/* BUF: LEN bytes read to EOF. Returns 1 when the command was executed, 0 when the
 * child ended before exec without a word, -errno with err filled on a failure. */
int launch_read_outcome(const char *buf, ssize_t len, struct nsrun_error *err);

/* Reports err (error pipe, or print and exit with err->status in place) and exits. */
_noreturn_ void launch_fail(const struct launch_ctx *ctx, struct nsrun_error *err);

/* --die-with-parent: arm PR_SET_PDEATHSIG, then make sure the parent did not die
 * before it was armed (the monitor's life pipe when there is one, else getppid()).
 * Call after the last credential change, which clears the signal. */
void launch_track_parent(const struct launch_ctx *ctx);

/* Restores the caller's signal mask, then tracks the parent, confines (ambient caps,
 * Landlock, seccomp) and execs. */
_noreturn_ void launch_payload(const struct launch_ctx *ctx, char **envp, const sigset_t *mask);

/* pid 1's payload, before it exists. */
struct launch_child {
	struct launch_ctx ctx; /* the payload's own */
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
