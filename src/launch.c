/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * launch.c: the one way to become the payload. Every mode (a namespace sandbox's
 * child, pid 1's payload, --landlock-only in place) ends here: parent tracking,
 * capabilities, Landlock, nsrun's own seccomp guards, the caller's seccomp
 * programs, then exec. The order is fixed: seccomp last, so filters need not
 * allow the setup; Landlock after the last mount change.
 */
#include "config.h"

#include "launch.h"

#include <errno.h>
#include <linux/capability.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "caps.h"
#include "landlock.h"
#include "seccomp.h"
#include "supervise.h"
#include "util.h"

extern char **environ;

_noreturn_ void launch_fail(const struct launch_ctx *ctx, struct nsrun_error *err)
{
	/* In place there is no monitor to report to: this process owns the exit. */
	if (ctx->mode == LAUNCH_IN_PLACE)
		error_die(err);
	launch_send_error(ctx->error_fd, err);
	_exit(1);
}

void launch_send_error(int error_fd, const struct nsrun_error *err)
{
	(void)write_all(error_fd, err, sizeof(*err));
}

int launch_read_outcome(const char *buf, ssize_t len, struct nsrun_error *err)
{
	if (len == 1 && buf[0] == LAUNCH_EXEC_MARKER)
		return 1;
	if (len == (ssize_t)sizeof(*err) || len == (ssize_t)LAUNCH_OUTCOME_MAX) {
		memcpy(err, buf + (len == (ssize_t)LAUNCH_OUTCOME_MAX ? 1 : 0), sizeof(*err));
		err->msg[sizeof(err->msg) - 1] = '\0';
		return err->code > 0 ? -err->code : -EINVAL;
	}
	return 0;
}

/* Whether the monitor has exited: nobody writes to the life pipe, so it polls ready
 * only when its one write end, the monitor's, is closed. The kernel closes a dying
 * process's files before it reparents its children and reads their parent-death
 * signal, so a signal armed too late for the one is seen by the other. (A pidfd is
 * not enough: it polls ready only later, once the parent is a zombie.) */
static bool life_pipe_closed(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) > 0;
}

void launch_track_parent(const struct launch_ctx *ctx)
{
	/* --report-fd as nsrun's child (--landlock-only): with the monitor gone, the calls
	 * its observer is shown would fail with ENOSYS; the command goes with it, as a
	 * sandbox goes with its pid 1. */
	bool observed = ctx->plan->sync.report_fd >= 0 && ctx->mode == LAUNCH_IN_PLACE_CHILD;

	if (!ctx->plan->proc.die_with_parent && !observed)
		return;
	/* Armed first, checked second: a parent that dies in between is caught by the
	 * check, one that dies later by the signal. Credential changes clear the
	 * signal, so this runs after the last of them. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
		_exit(1);
	/* Inside a new pid namespace getppid() says 0 whoever the parent is: the life
	 * pipe is exact there; getppid() is exact everywhere else. _exit, not
	 * kill(self): pid 1 of a pid namespace ignores its own SIGKILL, and its exit
	 * ends every process of the namespace. */
	if (ctx->parent_life_fd >= 0 ? life_pipe_closed(ctx->parent_life_fd) :
				       getppid() != ctx->expected_ppid)
		_exit(128 + SIGKILL);
}

static char **payload_argv(const struct plan *plan)
{
	char **argv = strv_copy(plan->proc.argv);

	if (plan->proc.argv0) {
		free(argv[0]);
		argv[0] = xstrdup(plan->proc.argv0);
	}
	return argv;
}

/* Whether this process holds CAP_SYS_ADMIN over the initial user namespace's objects:
 * asked of the kernel, after the last change to the sets, not of the plan. Under
 * NO_NEW_PRIVS the exec can only keep or lose what is permitted now. Without an
 * answer, assume it does. */
static bool holds_host_admin(const struct launch_ctx *ctx)
{
	uint64_t have = UINT64_MAX;

	if (ctx->in_userns)
		return false;
	(void)caps_get_permitted(&have, NULL);
	return have & (UINT64_C(1) << CAP_SYS_ADMIN);
}

/* nsrun's own seccomp guards, for what Landlock and mount flags cannot refuse. */
static unsigned guards(const struct launch_ctx *ctx)
{
	const struct plan *plan = ctx->plan;
	unsigned g = 0;

	/* Code in a memfd runs through ld.so and dlopen even when noexec-sealed
	 * (vm.memfd_noexec only stops execve): with an exec list, no memfd at all. */
	if (plan->landlock.exec && plan->landlock.exec[0])
		g |= SECCOMP_GUARD_EXEC_MEMFD;
	if (plan->landlock.enabled) {
		/* --landlock-deny-unix where Landlock cannot refuse connects by path. */
		if (landlock_unix_needs_seccomp(&ctx->landlock, &plan->landlock))
			g |= SECCOMP_GUARD_UNIX_SOCKET;
		/* The write boundary where Landlock cannot refuse truncation (ABI < 3). */
		if (landlock_truncate_needs_seccomp(&ctx->landlock))
			g |= SECCOMP_GUARD_TRUNCATE;
	}
	/* CAP_SYS_ADMIN in the initial user namespace lets TIOCSTI reach a terminal that
	 * is not the controlling one, so --new-session alone does not stop it there. */
	if (plan->proc.new_session && holds_host_admin(ctx))
		g |= SECCOMP_GUARD_TIOCSTI;
	return g;
}

/* The payload's own boundary, most general last. */
static int confine(const struct launch_ctx *ctx, struct nsrun_error *err)
{
	const struct plan *plan = ctx->plan;
	int r;

	/* Fails quietly for caps not in the inheritable set (root without cap options).
	 * One prctl per capability, as bwrap: its test-run.sh makes the 39th prctl fail
	 * (strace fault injection) to test a failure before exec, so fewer calls (one
	 * capget narrowing the set) fail that test. */
	log_debug("caps: the command keeps 0x%llx (bit N: capability N)",
		  (unsigned long long)ctx->caps);
	r = caps_raise_ambient(ctx->caps, err);
	if (r == 0 && plan->landlock.enabled)
		r = landlock_apply(&plan->landlock, &ctx->landlock, err);
	if (r == 0) {
		unsigned g = guards(ctx);

		log_debug("seccomp: nsrun's guards 0x%x (memfd-exec 1, unix-socket 2, tiocsti 4, "
			  "truncate 8), then %zu program(s) of the caller",
			  g, plan->seccomp.n_progs);
		r = seccomp_apply_guards(g, err);
		if (r < 0 && plan->landlock.enabled)
			r = error_fail_closed(err, r);
	}
	if (r == 0)
		r = seccomp_apply(&plan->seccomp, err);
	return r;
}

/* Whether a connect or bind can be refused: a port rule, or a network namespace of
 * the sandbox's own with only loopback. */
static bool observes_net(const struct plan *plan)
{
	for (size_t k = 0; plan->landlock.enabled && k < LL_PORT_KINDS; k++)
		if (plan->landlock.ports[k].has)
			return true;
	return !plan->landlock.only && plan->ns.net && plan->sup.netns_fd < 0;
}

/* --report-fd's observer, after every other filter so that it sees only what they let
 * through and can change nothing of theirs: the listener, or -1 when it could not be
 * installed (the report then says so; the command runs as it would without). */
static int observe(const struct launch_ctx *ctx)
{
	const struct plan *plan = ctx->plan;
	struct nsrun_error ignored;
	unsigned what = SECCOMP_OBSERVE_FILES;

	/* With --landlock-only, Landlock is every layer there is: where the kernel's audit
	 * records speak for it, no observer (and none of its side effects). */
	if (plan->sync.report_fd < 0 || (plan->landlock.only && ctx->landlock.log_exec))
		return -1;
	if ((plan->landlock.exec && plan->landlock.exec[0]) || plan->hide.hide || plan->hide.allow)
		what |= SECCOMP_OBSERVE_EXEC;
	if (observes_net(plan))
		what |= SECCOMP_OBSERVE_NET;
	return seccomp_observe_install(what, &ignored);
}

/* The exec marker, with the observer's listener for the monitor (SCM_RIGHTS): it is
 * sent before the exec, which the monitor may be asked about. Closed here at once. */
static void send_marker(int error_fd, int listener)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl = { 0 };
	struct iovec iov = { .iov_base = (char[]){ LAUNCH_EXEC_MARKER }, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;

	if (listener < 0) {
		(void)write_all(error_fd, iov.iov_base, 1);
		return;
	}
	msg.msg_control = ctl.buf;
	msg.msg_controllen = sizeof(ctl.buf);
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &listener, sizeof(int));
	(void)sendmsg(error_fd, &msg, MSG_NOSIGNAL);
	close(listener);
}

/* A command that could not be started: bwrap exits 1; under its own name nsrun keeps
 * env(1)'s and the shell's contract, 127 when it was not found and 126 when it was
 * found but could not run, so that a caller can tell either from the command's 1. */
static struct nsrun_error *exec_error(struct nsrun_error *err, int e, const char *cmd)
{
	error_set(err, e, "execvp %s", cmd);
	if (strcmp(log_program(), "bwrap") != 0)
		err->status = e == ENOENT ? NSRUN_EXIT_NOT_FOUND : NSRUN_EXIT_CANNOT_RUN;
	return err;
}

_noreturn_ void launch_payload(const struct launch_ctx *ctx, char **envp, const sigset_t *mask)
{
	const struct plan *plan = ctx->plan;
	static struct nsrun_error err; /* see error.h */
	sigset_t chld;

	for (size_t i = 0; !plan->proc.as_pid_1 && i < plan->sync.n_sync_fds; i++)
		close(plan->sync.sync_fds[i]);
	if (ctx->status_fd >= 0)
		close(ctx->status_fd);
	/* The caller's mask, as before pid 1 blocked its signals; SIGCHLD open as bwrap does. */
	sigprocmask(SIG_SETMASK, mask, NULL);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_UNBLOCK, &chld, NULL);
	if (ctx->keyboard)
		supervise_keyboard_restore(ctx->keyboard);
	launch_track_parent(ctx);
	/* After every step of the setup, so that only the command is limited (a low
	 * nproc or nofile would break pid 1 or the setup itself). */
	if (supervise_apply_rlimits(&plan->sup, &err) < 0)
		launch_fail(ctx, &err);
	/* cpu.max does not throttle real-time tasks: no RLIMIT_RTPRIO to become one with. */
	if (plan->limits.has_cpu_max && setrlimit(RLIMIT_RTPRIO, &(struct rlimit){ 0, 0 }) < 0) {
		error_set(&err, errno, "Can't set RLIMIT_RTPRIO for --cpu-max");
		launch_fail(ctx, &err);
	}
	if (confine(ctx, &err) < 0)
		launch_fail(ctx, &err);
	if (ctx->parent_life_fd >= 0)
		close(ctx->parent_life_fd);
	if (ctx->mode != LAUNCH_IN_PLACE)
		send_marker(ctx->error_fd, observe(ctx));
	environ = envp;
	if (log_debug_on()) {
		_cleanup_free_ char *args = strv_join(plan->proc.argv, " ");

		log_debug("exec: %s", args);
	}
	execvp(plan->proc.argv[0], payload_argv(plan));
	launch_fail(ctx, exec_error(&err, errno, plan->proc.argv[0]));
}

/* ---- pid 1's payload ---- */

_noreturn_ static int spawned_main(void *arg)
{
	const struct launch_child *c = arg;

	/* Closing first drops this copy of the ready pipe's write end, so that pid 1's
	 * death reads as EOF. Until the read returns nothing here writes memory pid 1
	 * could see (see launch_spawn): close and read only set errno when they fail.
	 * EOF: pid 1's own setup failed or pid 1 died, and the command must not run. */
	for (size_t i = 0; i < c->n_close; i++)
		close(c->close_fds[i]);
	if (read_byte(c->ready_fd) < 0)
		_exit(1);
	close(c->ready_fd);
	launch_payload(&c->ctx, c->envp, c->mask);
}

static pid_t spawn_fork(const struct launch_child *c, struct nsrun_error *err)
{
	pid_t pid = fork();

	if (pid == 0)
		spawned_main((void *)c);
	return pid < 0 ? error_set(err, errno, "Can't fork for pid 1") : pid;
}

#ifdef NSRUN_SANITIZE
/* Sanitizers keep one record of the stack per thread, and a second task on another
 * stack in the same memory breaks it: sanitizer builds copy, as fork does. */
pid_t launch_spawn(const struct launch_child *c, struct nsrun_error *err)
{
	return spawn_fork(c, err);
}
#else
/* The child's stack, with an inaccessible page below it. 256 KiB: the child runs
 * nsrun's launcher and execvp, whose largest frame (the argument vector of its
 * script fallback) is bounded by PLAN_MAX_ARGS. It stays mapped in pid 1. */
#define SPAWN_STACK_SIZE (256u << 10)

static void *spawn_stack(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, SPAWN_STACK_SIZE + page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (mprotect(p, page, PROT_NONE) < 0) {
		munmap(p, SPAWN_STACK_SIZE + page);
		return NULL;
	}
	return p + page + SPAWN_STACK_SIZE;
}

/* The payload shares pid 1's memory until it execs: copying pid 1's page tables and
 * pages for a process that execs at once was a tenth of nsrun's start-up. It is safe
 * because the two never run at the same time. Until launch_release() the child only
 * waits in read(); after it, pid 1 only waits in read() until the exec (or the
 * child's death) closes the exec pipe. Without CLONE_FILES and CLONE_SIGHAND the
 * descriptors and signal handlers are the child's own, as after fork. Where there
 * is no memory for the stack, or clone refuses CLONE_VM alone (qemu-user), fork. */
pid_t launch_spawn(const struct launch_child *c, struct nsrun_error *err)
{
	void *top = spawn_stack();
	pid_t pid;

	if (!top)
		return spawn_fork(c, err);
	pid = clone(spawned_main, top, CLONE_VM | SIGCHLD, (void *)c);
	if (pid < 0 && (errno == EINVAL || errno == ENOSYS))
		return spawn_fork(c, err);
	return pid < 0 ? error_set(err, errno, "Can't fork for pid 1") : pid;
}
#endif

int launch_release(int ready_fd, int exec_fd, pid_t child)
{
	ssize_t probe, n = -1;
	siginfo_t si;
	char c;

	/* pid 1 may be under the caller's seccomp program by now, which may refuse the read
	 * the wait below needs: find out while the child still waits (reading zero bytes
	 * returns at once). Without the write, closing the ready pipe lets it read EOF. */
	probe = read(exec_fd, &c, 0);
	if (probe == 0)
		(void)!write(ready_fd, "1", 1);
	close(ready_fd);
	/* From the write on the child runs: until the read returns nothing here writes
	 * memory, not even errno (close and read set it only when they fail). pid 1 has
	 * no signal handler, so the read is restarted, never interrupted. */
	if (probe == 0)
		while ((n = read(exec_fd, &c, 1)) > 0)
			;
	close(exec_fd);
	if (n == 0)
		return 0;
	/* No wait: end the child, which may share this memory, before anything here writes
	 * memory again. Not reaped, so that its pid stays the caller's to name. */
	kill(child, SIGKILL);
	(void)waitid(P_PID, (id_t)child, &si, WEXITED | WNOWAIT);
	return -1;
}
