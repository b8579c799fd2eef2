/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * supervise.c: the monitor's supervision. The monitor never blocks while it serves
 * a signal or a timer: it polls the fd it waits on with a signalfd and a timerfd.
 * "Every process of the sandbox" is every descendant of the monitor, which --timeout
 * makes a child subreaper: orphans that leave their process group or session still
 * come back to it, so the sandbox is cleaned up with or without a pid namespace.
 */
#include "config.h"

#include "supervise.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "reaper.h"
#include "supervise-parse.h"
#include "syscall.h"
#include "util.h"

/* What --forward-signals passes on (bwrap PR #586's set plus job control and size). */
static const int forwarded[] = { SIGINT,  SIGTERM, SIGHUP,  SIGQUIT,
				 SIGUSR1, SIGUSR2, SIGCONT, SIGWINCH };

/* How long the last SIGKILL round may take before the monitor gives up waiting. */
#define SUPERVISE_KILL_WAIT_MS 5000

bool supervise_in_use(const struct plan *plan)
{
	const struct supervise_config *c = &plan->sup;

	return c->forward_signals || c->timeout_ms > 0 || c->n_rlimits > 0 || c->netns_fd >= 0 ||
	       plan_has_limits(plan);
}

/* --timeout finds the sandbox's processes in /proc by their parents: a /proc of another
 * pid namespace (unshare -p without --mount-proc, a container given the host's /proc)
 * would name other processes by the same numbers. */
static int check_own_proc(struct nsrun_error *err)
{
	char buf[32];
	ssize_t n = readlink("/proc/self", buf, sizeof(buf) - 1);

	if (n < 0)
		return error_set(err, errno, "--timeout: readlink '/proc/self'");
	buf[n] = '\0';
	if (strtol(buf, NULL, 10) != (long)getpid())
		return error_set(err, 0,
				 "--timeout: /proc belongs to another pid namespace "
				 "(/proc/self is %s, nsrun is %d); mount this namespace's /proc",
				 buf, (int)getpid());
	return 0;
}

int supervise_prepare(const struct plan *plan, struct nsrun_error *err)
{
	int r;

	if (plan->sup.timeout_ms == 0)
		return 0;
	r = check_own_proc(err);
	if (r < 0)
		return r;
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
		return error_set(err, errno, "--timeout: prctl(PR_SET_CHILD_SUBREAPER)");
	return 0;
}

static int arm(int fd, uint64_t ms)
{
	struct itimerspec its = { 0 };

	its.it_value.tv_sec = (time_t)(ms / 1000);
	its.it_value.tv_nsec = (long)(ms % 1000) * 1000000L;
	/* 0 would disarm: a zero grace period still fires at once. */
	if (ms == 0)
		its.it_value.tv_nsec = 1;
	return timerfd_settime(fd, 0, &its, NULL) < 0 ? -errno : 0;
}

int supervise_start(struct supervisor *sup, const struct plan *plan, pid_t child, unsigned depth,
		    struct nsrun_error *err)
{
	int cred_fd = sup->cred_fd, cgroup_fd = sup->cgroup_fd, child_pidfd = sup->child_pidfd;
	pid_t relay = sup->relay;
	bool tty = sup->tty;
	int (*watch_serve)(void *, int) = sup->watch_serve;
	void *watch_arg = sup->watch_arg;
	int own_fd = sup->own_fd;
	int (*own_serve)(void *, int) = sup->own_serve;
	void *own_arg = sup->own_arg;
	sigset_t set;

	*sup = (struct supervisor){ .plan = plan,
				    .child = child,
				    .child_pidfd = child_pidfd,
				    .depth = depth,
				    .sig_fd = -1,
				    .timer_fd = -1,
				    .cred_fd = cred_fd,
				    .cgroup_fd = cgroup_fd,
				    .tty = tty,
				    .relay = relay,
				    .watch_fd = -1,
				    .watch_serve = watch_serve,
				    .watch_arg = watch_arg,
				    .own_fd = own_fd,
				    .own_serve = own_serve,
				    .own_arg = own_arg };
	sigemptyset(&set);
	for (size_t i = 0; plan->sup.forward_signals && i < ARRAY_SIZE(forwarded); i++)
		sigaddset(&set, forwarded[i]);
	/* Ignored means not forwarded either: a blocked signal would reach the signalfd. */
	if (plan->sup.ignore_keyboard_signals) {
		sigdelset(&set, SIGINT);
		sigdelset(&set, SIGQUIT);
	}
	/* A subreaper inherits every orphan of the sandbox: they are reaped as they come,
	 * or a long command that daemonizes a lot would fill the pid space with zombies. */
	if (plan->sup.timeout_ms > 0 || tty)
		sigaddset(&set, SIGCHLD);
	if (!sigisemptyset(&set)) {
		sigprocmask(SIG_BLOCK, &set, NULL);
		sup->sig_fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
		if (sup->sig_fd < 0)
			return error_set(err, errno, "signalfd");
	}
	if (plan->sup.timeout_ms > 0) {
		sup->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
		if (sup->timer_fd < 0 || arm(sup->timer_fd, plan->sup.timeout_ms) < 0)
			return error_set(err, errno, "--timeout: timerfd");
	}
	sup->active = sup->sig_fd >= 0 || sup->timer_fd >= 0 || sup->watch_serve || sup->own_serve;
	return 0;
}

/* ---- the process tree, from /proc ---- */

struct proc_ent {
	pid_t pid, ppid;
	unsigned long long start;
	char state;
	int threads;
	signed char mine; /* a descendant of the monitor: 1, not: -1, not known yet: 0 */
};

/* A thread group whose leader exited shows the leader as a zombie while its other
 * threads run on: it is alive until the last thread ends. */
static bool alive(const struct proc_ent *e)
{
	return (e->state != 'Z' && e->state != 'X') || e->threads > 1;
}

static bool read_stat(int dfd, const char *name, struct proc_ent *e)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd, ppid;

	snprintf(path, sizeof(path), "%s/stat", name);
	fd = openat(dfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read_full(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* The command name may hold spaces and parentheses: fields start after the last ')'. */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1,
			 " %c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d "
			 "%*d %d %*d %llu",
			 &e->state, &ppid, &e->threads, &e->start) != 4)
		return false;
	e->pid = (pid_t)atoi(name);
	e->ppid = (pid_t)ppid;
	e->mine = 0;
	return true;
}

/* Signals e's process (dfd: /proc) only if it is still the one seen (same start time):
 * the pidfd pins it while the check runs, so a pid number recycled since is never
 * signalled. Kernels without pidfds (< 5.3) get kill(2). Returns 0 when signalled. */
static int signal_same(int dfd, const struct proc_ent *e, int sig)
{
	_cleanup_close_ int pfd = sys_pidfd_open(e->pid, 0);
	struct proc_ent now;
	char name[16];

	if (pfd < 0)
		return errno == ENOSYS ? kill(e->pid, sig) : -1;
	snprintf(name, sizeof(name), "%d", (int)e->pid);
	if (dfd < 0 || !read_stat(dfd, name, &now) || now.start != e->start)
		return -1;
	return sys_pidfd_send_signal(pfd, sig);
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = ((const struct proc_ent *)a)->pid, y = ((const struct proc_ent *)b)->pid;

	return (x > y) - (x < y);
}

static struct proc_ent *find_pid(struct proc_ent *v, size_t n, pid_t pid)
{
	struct proc_ent key = { .pid = pid };

	return bsearch(&key, v, n, sizeof(*v), cmp_pid);
}

/* Marks the monitor's descendants in v (sorted by pid): each process walks up its
 * parents until one is known, and the answer goes to the whole walk, so every entry
 * is settled once (thousands of processes on every sweep; a quadratic pass was not
 * done before the deadline). */
static void mark_mine(struct proc_ent *v, size_t n, pid_t self)
{
	_cleanup_free_ struct proc_ent **walk = xcalloc(n + 1, sizeof(*walk));

	for (size_t i = 0; i < n; i++) {
		struct proc_ent *e = &v[i], *up;
		size_t k = 0;
		signed char mine = -1;

		while (e->mine == 0 && k < n) {
			walk[k++] = e;
			if (e->ppid == self) {
				mine = 1;
				break;
			}
			up = find_pid(v, n, e->ppid);
			if (!up)
				break;
			if (up->mine != 0) {
				mine = up->mine;
				break;
			}
			e = up;
		}
		while (k > 0)
			walk[--k]->mine = mine;
	}
}

/* Every process, sorted by pid, with the monitor's descendants marked. */
static struct proc_ent *snapshot(size_t *n)
{
	struct proc_ent *v = NULL, e;
	DIR *d = opendir("/proc");
	struct dirent *de;

	*n = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d)))
		if (de->d_name[0] >= '1' && de->d_name[0] <= '9' &&
		    read_stat(dirfd(d), de->d_name, &e))
			*(struct proc_ent *)xappend(&v, n, sizeof(e)) = e;
	closedir(d);
	if (*n > 0) {
		qsort(v, *n, sizeof(*v), cmp_pid);
		mark_mine(v, *n, getpid());
	}
	return v;
}

/* The oldest living child of pid: the first one its parent forked. */
static pid_t oldest_child(const struct proc_ent *v, size_t n, pid_t pid)
{
	const struct proc_ent *best = NULL;

	for (size_t i = 0; i < n; i++)
		if (v[i].ppid == pid && alive(&v[i]) &&
		    (!best || v[i].start < best->start ||
		     (v[i].start == best->start && v[i].pid < best->pid)))
			best = &v[i];
	return best ? best->pid : 0;
}

pid_t supervise_found_command(struct supervisor *sup)
{
	_cleanup_close_ int dfd = -1;
	struct proc_ent e;
	char name[16];

	sup->command = sup->last_writer > 0 ? sup->last_writer : sup->child;
	/* The child itself is signalled through its pidfd: a child the kernel reaps leaves
	 * no zombie to keep its number, and no start time is needed (forward). */
	if (!sup->plan->sup.forward_signals ||
	    (sup->command == sup->child && sup->child_pidfd >= 0))
		return sup->command;
	dfd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	/* Its start time names it for forwarding: its number may be reused after it ends. */
	snprintf(name, sizeof(name), "%d", (int)sup->command);
	sup->command_start = dfd >= 0 && read_stat(dfd, name, &e) ? e.start : 0;
	return sup->command;
}

static bool in_chain(const struct supervisor *sup, const struct proc_ent *v, size_t n, pid_t pid)
{
	pid_t cur = sup->child;

	for (unsigned i = 0; i < sup->depth && cur > 0; i++) {
		if (cur == pid)
			return true;
		cur = oldest_child(v, n, cur);
	}
	return false;
}

/* Reaps the orphans that came back to the monitor (a subreaper with --timeout), as
 * they come: the monitor's own child too, whose status is kept for wait_pid. */
static void reap_orphans(struct supervisor *sup)
{
	pid_t pid;
	int st;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		if (pid == sup->child && !sup->child_reaped) {
			sup->child_reaped = true;
			sup->child_status = st;
		}
		/* Its number may now name a process of the sandbox. */
		if (pid == sup->relay)
			sup->relay = 0;
	}
}

/* Sends sig to every living process of the sandbox (SIGTERM spares nsrun's own relay
 * and pid 1, which would only pass it on a second time). Returns how many living
 * processes of the sandbox it saw, signalled or not: one that forked and exited
 * between the snapshot and the signal has a successor the next round must find. */
static size_t signal_sandbox(struct supervisor *sup, int sig)
{
	size_t n, count = 0;
	_cleanup_free_ struct proc_ent *v = NULL;
	_cleanup_close_ int dfd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);

	reap_orphans(sup);
	v = snapshot(&n);
	for (size_t i = 0; i < n; i++) {
		/* The relay is nsrun's: the monitor ends it once the sandbox has ended. */
		if (v[i].mine != 1 || !alive(&v[i]) || (sup->relay > 0 && v[i].pid == sup->relay))
			continue;
		if (sig == SIGTERM && in_chain(sup, v, n, v[i].pid))
			continue;
		count++;
		if (sig != 0)
			(void)signal_same(dfd, &v[i], sig);
	}
	return count;
}

/* SIGKILL until nothing is left: a process forked between two rounds gets the next. */
static void kill_sandbox(struct supervisor *sup)
{
	struct timespec ms = { 0, 1000000L };
	uint64_t end = now_ms() + SUPERVISE_KILL_WAIT_MS;

	sup->stage = SUPERVISE_KILL;
	/* The cgroup holds every process of the sandbox, whatever they did to the tree. */
	cgroup_kill(sup->cgroup_fd);
	/* Bounded in time: a process stuck in the kernel (state D) may take a while. */
	while (signal_sandbox(sup, SIGKILL) > 0 && now_ms() < end)
		nanosleep(&ms, NULL);
}

static void on_timer(struct supervisor *sup)
{
	uint64_t ticks;

	/* Only drains the expiry count: the stage says what comes next. */
	if (read(sup->timer_fd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN)
		return;
	if (sup->stage == SUPERVISE_RUNNING) {
		sup->timed_out = true;
		sup->stage = SUPERVISE_TERM;
		(void)signal_sandbox(sup, SIGTERM);
		if (arm(sup->timer_fd, sup->plan->sup.kill_after_ms) == 0)
			return;
	}
	if (sup->stage == SUPERVISE_TERM)
		kill_sandbox(sup);
}

/* Before the command is known, its first process gets the signal (the monitor's child,
 * which cannot be recycled before the monitor reaps it). */
static int forward(struct supervisor *sup, int sig)
{
	struct proc_ent e = { .pid = sup->command, .start = sup->command_start };
	_cleanup_close_ int dfd = -1;

	if (sup->command <= 0 || sup->command_start == 0) {
		pid_t target = sup->command > 0 ? sup->command : sup->child;

		/* the monitor's child, until the monitor reaps it: then nobody's */
		return target == sup->child ? supervise_kill_child(sup, sig) : kill(target, sig);
	}
	dfd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	return signal_same(dfd, &e, sig);
}

static void on_signal(struct supervisor *sup)
{
	struct signalfd_siginfo si;
	bool chld = false;

	while (read(sup->sig_fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGCHLD)
			chld = true;
		else
			(void)forward(sup, (int)si.ssi_signo);
	}
	if (chld && sup->plan->sup.timeout_ms > 0)
		reap_orphans(sup);
}

/* ---- job control: Ctrl-Z stops the command, and the shell must see nsrun stop ---- */

static void set_foreground(pid_t pgrp);

static bool is_stopped(pid_t pid)
{
	char name[16];
	struct proc_ent e;
	_cleanup_close_ int dfd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);

	snprintf(name, sizeof(name), "%d", (int)pid);
	return dfd >= 0 && read_stat(dfd, name, &e) && e.state == 'T';
}

/* The sandbox's process group (its first process's pid) stopped in the terminal's
 * foreground: the terminal goes back to nsrun's group and nsrun stops too, so that
 * the shell regains it; `fg` continues nsrun, which hands the terminal back and
 * continues the sandbox (`bg` leaves the terminal with the shell). */
static void follow_stop(struct supervisor *sup)
{
	pid_t command = sup->command > 0 ? sup->command : sup->child;

	/* A stopped monitor serves no deadline, and the command can stop itself: with
	 * --timeout, nsrun never stops (the shell keeps waiting, the clock runs). A child
	 * the kernel reaped leaves its number to whoever comes next. */
	if (sup->timer_fd >= 0 || (command == sup->child && supervise_kill_child(sup, 0) < 0) ||
	    !is_stopped(command))
		return;
	set_foreground(getpgrp());
	(void)kill(getpid(), SIGSTOP);
	if (tcgetpgrp(STDIN_FILENO) == getpgrp())
		set_foreground(sup->child);
	(void)kill(-sup->child, SIGCONT);
}

/* The watched fd is ready: served, or closed once done (hung up: nothing is left to
 * serve). */
static int on_watch(struct supervisor *sup, short revents)
{
	if (revents & POLLIN) {
		if (sup->watch_serve(sup->watch_arg, sup->watch_fd) >= 0)
			return 0;
	} else if (!(revents & (POLLHUP | POLLERR | POLLNVAL))) {
		return 0;
	}
	close(sup->watch_fd);
	sup->watch_fd = -1;
	return -1;
}

/* Serves signals, the timer and the watched fds until fd is readable (or hung up). */
static void wait_fd(struct supervisor *sup, int fd)
{
	struct pollfd p[5] = { { .fd = fd, .events = POLLIN },
			       { .fd = sup->sig_fd, .events = POLLIN },
			       { .fd = sup->timer_fd, .events = POLLIN },
			       { .fd = sup->watch_fd, .events = POLLIN },
			       { .fd = sup->own_serve ? sup->own_fd : -1, .events = POLLIN } };

	for (;;) {
		/* A stop of pid 1's child raises no SIGCHLD here: with the terminal, look. */
		int n = poll(p, ARRAY_SIZE(p), sup->tty ? 250 : -1);

		if (sup->tty)
			follow_stop(sup);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		if (p[1].revents & POLLIN)
			on_signal(sup);
		if (p[2].revents & POLLIN)
			on_timer(sup);
		if (p[3].revents && on_watch(sup, p[3].revents) < 0)
			p[3].fd = -1;
		/* The monitor's own fd stays open (it is drained at the end). */
		if (p[4].revents && sup->own_serve(sup->own_arg, sup->own_fd) < 0)
			p[4].fd = -1;
		if (p[0].revents)
			return;
	}
}

int supervise_channel(int fds[2], struct nsrun_error *err)
{
	int on = 1;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0)
		return error_set(err, errno, "socketpair");
	if (setsockopt(fds[0], SOL_SOCKET, SO_PASSCRED, &on, sizeof(on)) < 0)
		return error_set(err, errno, "setsockopt(SO_PASSCRED)");
	return 0;
}

/* An fd the sandbox passed: the one to watch, when one is asked for; else not kept. */
static void took_fd(struct supervisor *sup, const struct cmsghdr *c)
{
	size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);

	for (size_t i = 0; i < n; i++) {
		int fd;

		memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(fd));
		if (sup->watch_serve && sup->watch_fd < 0 && !sup->watch_passed) {
			sup->watch_fd = fd;
			sup->watch_passed = true;
		} else
			close(fd);
	}
}

/* One read from the error channel; a socket's data comes with its writer's pid, which
 * the kernel translates into the monitor's pid namespace. */
static ssize_t read_chunk(struct supervisor *sup, int fd, void *buf, size_t len)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(struct ucred)) + CMSG_SPACE(sizeof(int))];
	} ctl;
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;
	struct ucred cred;
	ssize_t r;

	if (fd != sup->cred_fd)
		return read(fd, buf, len);
	msg.msg_control = ctl.buf;
	msg.msg_controllen = sizeof(ctl.buf);
	r = recvmsg(fd, &msg, MSG_CMSG_CLOEXEC);
	for (c = r > 0 ? CMSG_FIRSTHDR(&msg) : NULL; c; c = CMSG_NXTHDR(&msg, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS) {
			memcpy(&cred, CMSG_DATA(c), sizeof(cred));
			sup->last_writer = cred.pid;
		} else if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
			took_fd(sup, c);
		}
	return r;
}

/* One step of supervise_read_full: serve signals and the timer, then read. */
static ssize_t supervised_read(void *ctx, int fd, void *buf, size_t len)
{
	struct supervisor *sup = ctx;

	if (sup->active)
		wait_fd(sup, fd);
	return read_chunk(sup, fd, buf, len);
}

ssize_t supervise_read_full(struct supervisor *sup, int fd, void *buf, size_t len)
{
	if (!sup)
		return read_full(fd, buf, len);
	return read_full_with(fd, buf, len, supervised_read, sup);
}

int supervise_kill_child(const struct supervisor *sup, int sig)
{
	if (sup->child_pidfd >= 0)
		return sys_pidfd_send_signal(sup->child_pidfd, sig);
	/* kill(0) would signal nsrun's own process group, the caller's; a reaped child's
	 * number may name another process by now */
	return sup->child > 0 && !sup->child_reaped ? kill(sup->child, sig) : -1;
}

int supervise_wait_pid(struct supervisor *sup, pid_t pid)
{
	int st, pfd = -1;

	if (sup && sup->child_pidfd >= 0 && pid == sup->child) {
		if (sup->active)
			wait_fd(sup, sup->child_pidfd);
		st = reaper_wait_pidfd(sup->child_pidfd);
		return st < 0 ? -1 : st;
	}

	/* Reaped with the orphans: its number may already name another process. */
	if (sup && sup->child_reaped && pid == sup->child)
		return sup->child_status;
	if (sup && sup->active)
		pfd = sys_pidfd_open(pid, 0);
	if (pfd >= 0) {
		wait_fd(sup, pfd);
		close(pfd);
	}
	if (sup && sup->child_reaped && pid == sup->child)
		return sup->child_status;
	st = reaper_wait(pid, 0);
	return st < 0 ? -1 : st;
}

/* One line for the caller's log: why the command stopped, and how hard it was ended. */
static void report_timeout(const struct supervisor *sup)
{
	const struct supervise_config *c = &sup->plan->sup;

	if (sup->stage == SUPERVISE_KILL)
		log_warn("--timeout: the command ran past %g s; ended the sandbox with SIGTERM, "
			 "then SIGKILL after %g s (--kill-after)",
			 (double)c->timeout_ms / 1000, (double)c->kill_after_ms / 1000);
	else
		log_warn("--timeout: the command ran past %g s; ended the sandbox with SIGTERM",
			 (double)c->timeout_ms / 1000);
}

void supervise_finish(struct supervisor *sup)
{
	/* The command ended in time: what it left behind goes with it, as it would have
	 * at the deadline. */
	if (!sup->timed_out) {
		if (sup->timer_fd >= 0)
			kill_sandbox(sup);
		return;
	}
	/* SIGTERM was enough for the command; whatever else is left has the rest of
	 * the grace period to follow it. */
	while (sup->stage == SUPERVISE_TERM && signal_sandbox(sup, 0) > 0) {
		struct pollfd p = { .fd = sup->timer_fd, .events = POLLIN };

		if (poll(&p, 1, 10) > 0)
			on_timer(sup);
	}
	report_timeout(sup);
	kill_sandbox(sup);
}

/* ---- --rlimit, in the launcher ---- */

static const char *limit_text(rlim_t v, char *buf, size_t size)
{
	if (v == RLIM_INFINITY)
		return "unlimited";
	snprintf(buf, size, "%llu", (unsigned long long)v);
	return buf;
}

static int apply_rlimit(const struct plan_rlimit *rl, struct nsrun_error *err)
{
	const char *name = supervise_parse_rlimit_name(rl->resource);
	char a[32], b[32];
	struct rlimit cur;

	if (getrlimit(rl->resource, &cur) < 0)
		return error_set(err, errno, "--rlimit %s: getrlimit", name);
	if (rl->has_soft)
		cur.rlim_cur = (rlim_t)rl->soft;
	if (rl->has_hard)
		cur.rlim_max = (rlim_t)rl->hard;
	if (cur.rlim_cur > cur.rlim_max)
		return error_set(err, EINVAL,
				 "--rlimit %s: soft limit %s is above the hard limit %s", name,
				 limit_text(cur.rlim_cur, a, sizeof(a)),
				 limit_text(cur.rlim_max, b, sizeof(b)));
	if (setrlimit(rl->resource, &cur) == 0)
		return 0;
	if (errno == EPERM)
		return error_set(err, EPERM,
				 "--rlimit %s: raising the hard limit to %s needs CAP_SYS_RESOURCE",
				 name, limit_text(cur.rlim_max, a, sizeof(a)));
	return error_set(err, errno, "--rlimit %s: setrlimit", name);
}

int supervise_apply_rlimits(const struct supervise_config *cfg, struct nsrun_error *err)
{
	for (size_t i = 0; i < cfg->n_rlimits; i++) {
		int r = apply_rlimit(&cfg->rlimits[i], err);

		if (r < 0)
			return r;
	}
	return 0;
}

/* ---- the terminal's foreground process group (bwrap PR #735) ---- */

bool supervise_tty_wanted(const struct plan *plan)
{
	pid_t fg;

	/* In place the command is nsrun and keeps its process group; as nsrun's child (with
	 * a status fd) it takes the terminal as a sandbox does, so that Ctrl-C reaches it and
	 * not nsrun, which is left to write how it ended. */
	if (plan->landlock.only && !plan_in_place_child(plan))
		return false;
	if (plan->proc.new_session || !isatty(STDIN_FILENO))
		return false;
	/* Started in the background (cmd &): the terminal is not nsrun's to hand over. */
	fg = tcgetpgrp(STDIN_FILENO);
	return fg > 0 && fg == getpgrp();
}

static const int keyboard[2] = { SIGINT, SIGQUIT };

void supervise_keyboard_ignore(struct sigaction old[2])
{
	struct sigaction ign = { .sa_handler = SIG_IGN };

	for (size_t i = 0; i < ARRAY_SIZE(keyboard); i++)
		(void)sigaction(keyboard[i], &ign, &old[i]);
}

void supervise_keyboard_restore(const struct sigaction old[2])
{
	for (size_t i = 0; i < ARRAY_SIZE(keyboard); i++)
		(void)sigaction(keyboard[i], &old[i], NULL);
}

/* tcsetpgrp from a background group raises SIGTTOU unless it is blocked. */
static void set_foreground(pid_t pgrp)
{
	sigset_t ttou, old;

	sigemptyset(&ttou);
	sigaddset(&ttou, SIGTTOU);
	sigprocmask(SIG_BLOCK, &ttou, &old);
	(void)tcsetpgrp(STDIN_FILENO, pgrp);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

void supervise_tty_take(void)
{
	if (setpgid(0, 0) == 0)
		set_foreground(getpgrp());
}

/* Whether pid descends from the monitor, through its parents in /proc. */
static bool descends_from_self(pid_t pid)
{
	_cleanup_close_ int dfd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct proc_ent e = { .ppid = pid };
	char name[16];

	for (int i = 0; i < 4096 && e.ppid > 1; i++) {
		snprintf(name, sizeof(name), "%d", (int)e.ppid);
		if (dfd < 0 || !read_stat(dfd, name, &e))
			return false;
		if (e.ppid == getpid())
			return true;
	}
	return false;
}

/* A group the sandbox made or left: its own, an empty one, one whose leader is gone or
 * is a process of the sandbox. Not the shell's, nor a job the shell moved to the
 * foreground after Ctrl-Z and `bg`. */
static bool sandbox_group(pid_t pgrp, pid_t sandbox_pgrp)
{
	if (pgrp == sandbox_pgrp)
		return true;
	if (kill(-pgrp, 0) < 0 && errno == ESRCH)
		return true;
	if (kill(pgrp, 0) < 0 && errno == ESRCH)
		return true;
	return descends_from_self(pgrp);
}

void supervise_tty_restore(pid_t sandbox_pgrp)
{
	pid_t fg = tcgetpgrp(STDIN_FILENO);

	/* The command may have moved the terminal to a group of its own: leaving it there
	 * would leave the shell unable to read it (EIO) after the run. */
	if (fg > 0 && fg != getpgrp() && sandbox_group(fg, sandbox_pgrp))
		set_foreground(getpgrp());
}
