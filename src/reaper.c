/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * reaper.c: pid 1 (bwrap's do_init). Signals stay blocked and are taken with
 * sigwaitinfo, so no SIGCHLD is lost between reaping and waiting. SIGTERM,
 * SIGINT and SIGHUP sent by a process (not by the tty driver, which already
 * signals the whole foreground group) are forwarded to the payload; a plain
 * pid 1 would ignore them.
 */
#include "config.h"

#include "reaper.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

#include "syscall.h"
#include "util.h"

void reaper_signal_set(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGCHLD);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGHUP);
}

int reaper_exit_status(int wait_status)
{
	if (WIFEXITED(wait_status))
		return WEXITSTATUS(wait_status);
	if (WIFSIGNALED(wait_status))
		return 128 + WTERMSIG(wait_status);
	return 255;
}

int reaper_wait(pid_t pid, int flags)
{
	int st;

	while (waitpid(pid, &st, flags) < 0)
		if (errno != EINTR)
			return -errno;
	return st;
}

int reaper_wait_pidfd(int pidfd)
{
	struct pollfd p = { .fd = pidfd, .events = POLLIN };
	struct nsrun_pidfd_info info;

	for (;;) {
		while (poll(&p, 1, -1) < 0)
			if (errno != EINTR)
				return -errno;
		info = (struct nsrun_pidfd_info){ .mask = NSRUN_PIDFD_INFO_EXIT };
		if (ioctl(pidfd, NSRUN_PIDFD_GET_INFO, &info) < 0)
			return -errno;
		if (info.mask & NSRUN_PIDFD_INFO_EXIT)
			return info.exit_code;
		/* Readable at exit, but the status is stored when the task is released (a
		 * tracer may hold it): POLLHUP says it was, and the status is there then. */
		if (p.revents & POLLHUP)
			return -ECHILD;
		p.events = 0;
	}
}

void reaper_relay(pid_t pid)
{
	int st = reaper_wait(pid, 0);

	_exit(st < 0 ? 1 : reaper_exit_status(st));
}

/* Reaps what has exited. Returns false once no child is left. */
static bool reap(pid_t payload, bool *payload_done, int *payload_status, int status_fd)
{
	int st;
	pid_t pid;

	for (;;) {
		pid = waitpid(-1, &st, WNOHANG);
		if (pid == 0)
			return true;
		if (pid < 0)
			return errno == EINTR ? true : false;
		if (pid != payload || *payload_done)
			continue;
		*payload_done = true;
		*payload_status = reaper_exit_status(st);
		if (status_fd >= 0) {
			/* The monitor may be gone; that is no reason to stop reaping. The raw
			 * wait status tells it an exit code from a signal. */
			(void)write_all(status_fd, &st, sizeof(st));
			close(status_fd);
		}
	}
}

void reaper_run(pid_t payload, int status_fd)
{
	sigset_t set;
	siginfo_t info;
	bool payload_done = false;
	int payload_status = 255;

	/* The monitor may be gone when the report is written; that must not end pid 1,
	 * which still owns the lock files and the remaining children. */
	signal(SIGPIPE, SIG_IGN);
	reaper_signal_set(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
	while (reap(payload, &payload_done, &payload_status, status_fd)) {
		if (sigwaitinfo(&set, &info) < 0)
			continue;
		if (info.si_signo == SIGCHLD || payload_done)
			continue;
		if (info.si_code == SI_USER || info.si_code == SI_QUEUE || info.si_code == SI_TKILL)
			kill(payload, info.si_signo);
	}
	_exit(payload_status);
}
