/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * supervise.h: the monitor's supervision of a running sandbox (nsrun extension):
 * --forward-signals, --timeout/--kill-after over every process of the sandbox,
 * the command's pid for the status fd, the terminal's foreground process group,
 * and --rlimit, which the launcher applies to the command alone.
 * Without any of these options the monitor never calls into it but for the tty.
 */
#pragma once

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#include "error.h"
#include "plan.h"

enum supervise_stage {
	SUPERVISE_RUNNING,
	SUPERVISE_TERM, /* the timeout expired, SIGTERM sent, the grace period runs */
	SUPERVISE_KILL, /* SIGKILL sent to every process left */
	SUPERVISE_STAGE_MAX
};

struct supervisor {
	const struct plan *plan;
	bool active;	 /* signals or a timeout to serve: wait with poll, never block */
	pid_t child;	 /* the monitor's child */
	int child_pidfd; /* its pidfd where the kernel reaps it (CLONE_AUTOREAP), else -1 */
	pid_t command;	 /* the command as seen from here, 0 until it runs */
	unsigned long long command_start; /* its start time (/proc), 0 if unknown */
	unsigned depth;	   /* nsrun processes from child down to the command (relay, pid 1) */
	int sig_fd;	   /* signalfd of the forwarded signals, or -1 */
	int timer_fd;	   /* timerfd of --timeout, then of --kill-after, or -1 */
	int cred_fd;	   /* the error channel when it is a socket passing credentials, or -1 */
	int cgroup_fd;	   /* the sandbox's cgroup (--memory-max ...), or -1 */
	pid_t last_writer; /* who wrote the last data read from cred_fd, as seen from here */
	bool tty;	   /* the sandbox has the terminal: a stopped command stops nsrun */
	enum supervise_stage stage;
	bool timed_out;
	bool child_reaped; /* reaped with the orphans; its wait status is child_status */
	int child_status;
	pid_t relay; /* --bridge's relay: the monitor's child, not the sandbox's (0: none) */
	/* One more fd to serve while the monitor waits, which the sandbox passes over the
	 * error channel (SCM_RIGHTS): --report-fd's listener. watch_serve set before
	 * supervise_start asks for it; it returns < 0 when the fd is done (then closed). */
	int watch_fd;
	bool watch_passed; /* the fd to watch arrived */
	int (*watch_serve)(void *arg, int fd);
	void *watch_arg;
	/* And one the monitor opened itself (the audit socket of --report-fd), or -1;
	 * served the same way. */
	int own_fd;
	int (*own_serve)(void *arg, int fd);
	void *own_arg;
};

/* Sends sig to the monitor's child, by its pidfd when there is one (a child the kernel
 * reaps leaves no zombie to hold its number). */
int supervise_kill_child(const struct supervisor *sup, int sig);

/* Whether any supervision option was given (the status fd then says more). */
bool supervise_in_use(const struct plan *plan);

/* Before clone: with --timeout the monitor becomes a child subreaper, so that every
 * process of the sandbox stays its descendant, with or without a pid namespace. */
int supervise_prepare(const struct plan *plan, struct nsrun_error *err);

/* With the supervision options the error channel is a socketpair instead of a pipe:
 * the exec marker then arrives with the command's pid (SO_PASSCRED), which no race
 * with a short-lived command can lose. fds[0] is the monitor's end. */
int supervise_channel(int fds[2], struct nsrun_error *err);

/* After clone (sup->cred_fd, sup->cgroup_fd and sup->tty set first): blocks the forwarded signals into a signalfd, arms the timer. */
int supervise_start(struct supervisor *sup, const struct plan *plan, pid_t child, unsigned depth,
		    struct nsrun_error *err);

/* read_full() that serves signals and the timer while it waits. */
ssize_t supervise_read_full(struct supervisor *sup, int fd, void *buf, size_t len);

/* waitpid(pid) that serves signals and the timer while it waits: the raw wait status,
 * or -1. */
int supervise_wait_pid(struct supervisor *sup, pid_t pid);

/* Once the exec marker was read: the command's pid (the marker's writer). */
pid_t supervise_found_command(struct supervisor *sup);

/* After the command ended, with --timeout: nothing of the sandbox may outlive nsrun.
 * When it timed out, what is left gets the rest of the grace period, then SIGKILL;
 * when it ended in time, what it left behind gets SIGKILL at once. */
void supervise_finish(struct supervisor *sup);

/* The launcher's step: --rlimit on the calling process (the command-to-be). */
int supervise_apply_rlimits(const struct supervise_config *cfg, struct nsrun_error *err);

/* Whether the sandbox takes the terminal's foreground process group: stdin is a
 * terminal, nsrun is in its foreground, and there is no --new-session. */
bool supervise_tty_wanted(const struct plan *plan);
/* In the sandbox's first process: a process group of its own, made the foreground. */
void supervise_tty_take(void);

/* --ignore-keyboard-signals (bubblewrap PR #732): nsrun ignores SIGINT and SIGQUIT while
 * it runs the sandbox, as system(3) does while it waits; OLD keeps the caller's
 * dispositions, which the command takes back just before exec (supervise_keyboard_restore)
 * so that it starts with them. nsrun's processes in the sandbox keep ignoring them: a
 * pid 1 that is no namespace's init, or --pidns's relay, would die of them. */
void supervise_keyboard_ignore(struct sigaction old[2]);
void supervise_keyboard_restore(const struct sigaction old[2]);
/* In the monitor, at the end: the terminal back to nsrun's own process group. */
void supervise_tty_restore(pid_t sandbox_pgrp);
