/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sandbox.c: the parent (bwrap's monitor). Decides the namespaces, clones the
 * child, serves the status fds (and the ID maps, when the child cannot write its
 * own) before it releases the child, or lets it start at once; then reads
 * the error pipe (a whole struct nsrun_error: setup failed; the exec marker:
 * the payload ran) and passes the payload's exit status on. Nothing runs in the
 * sandbox before the status fds have had their report.
 */
#include "config.h"

#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <linux/nsfs.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bridge.h"
#include "caps.h"
#include "cgroup.h"
#include "doctor.h"
#include "fallback.h"
#include "launch.h"
#include "landlock.h"
#include "mountinfo.h"
#include "reaper.h"
#include "rootfs.h"
#include "audit.h"
#include "report.h"
#include "setup.h"
#include "status.h"
#include "supervise.h"
#include "syscall.h"
#include "userns.h"
#include "util.h"

struct monitor {
	const struct plan *plan;
	pid_t child;
	int error_fd;  /* read end of the error pipe */
	int go_fd;     /* write end of the release pipe */
	int status_fd; /* read end of pid 1's report, or -1 */
	int life_fd;   /* write end of the life pipe: kept open until the monitor exits */
	const struct landlock_desc *landlock; /* the launch context's, or NULL without --landlock-* */
	struct supervisor sup;		  /* signals, timeout (inactive without those options) */
	int wait_status;		  /* the command's raw wait status, once known */
	struct cgroup cg;		  /* the sandbox's cgroup (cg.fd -1: no limits) */
	struct fallback_report *fallback; /* --fallback's report, or NULL without it */
	const struct plan *ladder;	  /* the plan as given, with its --fallback items */
	struct bridge_relay bridge;	  /* --bridge's relay (pid 0: none) */
	struct report report;		  /* --report-fd (fd -1: off) */
	int audit_fd;			  /* its kernel source for Landlock, or -1 */
	const char *not_kernel;		  /* else why not */
	uint32_t audit_lost;		  /* audit's lost counter before the run */
	struct sigaction keyboard[2];	  /* --ignore-keyboard-signals: the caller's INT, QUIT */
	struct userns_writer *writer;	  /* runs newuidmap/newgidmap (pid 0: none) */
	int caller_root;		  /* --mountns: the caller's "/", to come back to */
};

static bool want_userns(const struct plan *plan)
{
	/* Without setuid, only root can do the rest without a user namespace; so the probe
	 * of -try (three files) is only read where its answer can change the outcome. */
	if (plan->ns.user == NS_YES || (getuid() != 0 && plan->ns.userns_fd < 0))
		return true;
	return plan->ns.user == NS_TRY && userns_available();
}

static int clone_flags(const struct plan *plan, bool userns, unsigned long *ret,
		       struct nsrun_error *err)
{
	unsigned long flags = SIGCHLD | CLONE_NEWNS;
	struct stat st;

	/* In place, a status fd makes the command nsrun's child: a plain fork. */
	if (plan->landlock.only) {
		*ret = SIGCHLD;
		return 0;
	}
	if (userns)
		flags |= CLONE_NEWUSER;
	/* After setns(--pidns) a new pid namespace can only be made by the child (setup.c). */
	if (plan->ns.pid && plan->ns.pidns_fd < 0)
		flags |= CLONE_NEWPID;
	if (plan->ns.net)
		flags |= CLONE_NEWNET;
	if (plan->ns.ipc)
		flags |= CLONE_NEWIPC;
	if (plan->ns.uts)
		flags |= CLONE_NEWUTS;
	if (plan->ns.cgroup != NS_NO) {
		if (stat("/proc/self/ns/cgroup", &st) == 0)
			flags |= CLONE_NEWCGROUP;
		else if (errno != ENOENT)
			return error_set(err, errno, "stat on /proc/self/ns/cgroup failed");
		else if (plan->ns.cgroup == NS_YES)
			return error_set_plain(err, ENOTSUP,
					       "Cannot create new cgroup namespace "
					       "because the kernel does not support it");
	}
	*ret = flags;
	return 0;
}

/* --unshare-time: the child makes the namespace (setup.c); a kernel without it (before
 * 5.6, or without CONFIG_TIME_NS) cannot keep the promise, which is said before clone. */
static int time_ns_supported(struct nsrun_error *err)
{
	struct stat st;

	if (stat("/proc/self/ns/time", &st) == 0)
		return 0;
	if (errno != ENOENT)
		return error_set(err, errno, "stat on /proc/self/ns/time failed");
	return error_fail_closed(err, error_set_plain(err, ENOTSUP,
						      "Cannot create new time namespace because "
						      "the kernel does not support it (Linux 5.6 "
						      "with CONFIG_TIME_NS)"));
}

static int clone_error(unsigned long flags, int e, struct nsrun_error *err)
{
	switch (e) {
	case EINVAL:
		return error_set_plain(err, e,
				       "Creating new namespace failed, likely because the "
				       "kernel does not support user namespaces.");
	case EPERM:
		/* As bwrap: the user namespace was asked for, by root too (--unshare-all). */
		if (!(flags & CLONE_NEWUSER))
			break;
		/* Under its own name nsrun says why (doctor_explain, main.c): the cause is
		 * found in one place, not guessed here. */
		if (strcmp(log_program(), "bwrap") != 0)
			return error_set_plain(err, e, "No permissions to create a new namespace");
		return error_set_plain(err, e,
				       "No permissions to create a new namespace, likely "
				       "because the kernel does not allow non-privileged "
				       "user namespaces. On e.g. debian this can be enabled "
				       "with 'sysctl kernel.unprivileged_userns_clone=1'.");
	case ENOSPC:
		return error_set_plain(err, e,
				       "Creating new namespace failed: nesting depth or "
				       "/proc/sys/user/max_*_namespaces exceeded (ENOSPC)");
	default:
		break;
	}
	return error_set(err, e, "Creating new namespace failed");
}

static bool wants_status(const struct plan *plan)
{
	return plan->sync.info_fd >= 0 || plan->sync.json_status_fd >= 0;
}

/* The first documents: the child's namespaces (from its report on the status pipe), the
 * boundary, the limits, and what --fallback gave up. */
static int emit_status(struct monitor *mon, struct status_info *info, struct nsrun_error *err)
{
	const struct plan *plan = mon->plan;
	int r;

	info->landlock = mon->landlock;
	info->cgroup = mon->cg.fd >= 0 ? mon->cg.path : NULL;
	info->limits = &plan->limits;
	info->fallback = mon->fallback;
	info->bridges = plan->bridges;
	info->n_bridges = plan->n_bridges;
	if (plan->sync.info_fd >= 0) {
		r = status_write_info(plan->sync.info_fd, info, err);
		close(plan->sync.info_fd);
		if (r < 0)
			return r;
	}
	if (plan->sync.json_status_fd >= 0)
		return status_write_json(plan->sync.json_status_fd, info, err);
	return 0;
}

/* ENOSPC is the host's refusal where a max_*_namespaces sysctl is 0; a count that ran out
 * may have been run out by another process of the same user, which must not choose what
 * --fallback gives up. */
static bool ns_sysctl_zero(unsigned long flags)
{
	static const struct {
		unsigned long flag;
		const char *path;
	} max[] = {
		{ CLONE_NEWUSER, "/proc/sys/user/max_user_namespaces" },
		{ CLONE_NEWNS, "/proc/sys/user/max_mnt_namespaces" },
		{ CLONE_NEWPID, "/proc/sys/user/max_pid_namespaces" },
		{ CLONE_NEWNET, "/proc/sys/user/max_net_namespaces" },
		{ CLONE_NEWIPC, "/proc/sys/user/max_ipc_namespaces" },
		{ CLONE_NEWUTS, "/proc/sys/user/max_uts_namespaces" },
		{ CLONE_NEWCGROUP, "/proc/sys/user/max_cgroup_namespaces" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(max); i++) {
		_cleanup_close_ int fd = -1;
		char buf[16] = "";

		if (!(flags & max[i].flag))
			continue;
		fd = open(max[i].path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0 && read(fd, buf, sizeof(buf) - 1) == 2 && strcmp(buf, "0\n") == 0)
			return true;
	}
	return false;
}

/* clone's failure, marked as the host's refusal where it is one (--fallback). */
static int clone_refused(unsigned long flags, int e, struct nsrun_error *err)
{
	int r = clone_error(flags, e, err);

	if (e != EPERM && e != EACCES && e != EINVAL && !(e == ENOSPC && ns_sysctl_zero(flags)))
		return r;
	return error_refused(err, flags & CLONE_NEWUSER ? NSRUN_STEP_USERNS : NSRUN_STEP_NAMESPACES,
			     r);
}

static int write_status(struct monitor *mon, unsigned long flags, struct nsrun_error *err)
{
	struct status_info info = { 0 };
	int r;

	if (!wants_status(mon->plan))
		return 0;
	r = status_collect(mon->child, flags, mon->status_fd, &info, err);
	return r < 0 ? r : emit_status(mon, &info, err);
}

/* --fallback is never silent: one line on stderr when something was given up. */
static void announce(const struct fallback_report *rep)
{
	_cleanup_free_ char *line = rep ? fallback_line(rep) : NULL;

	if (line)
		log_warn("%s", line);
}

/* Reads the error pipe to EOF. Returns 1 when the payload was executed, 0 when the
 * child ended before exec without a word, -errno with err filled on a setup failure. */
static int read_outcome(struct monitor *mon, struct nsrun_error *err)
{
	static char buf[LAUNCH_OUTCOME_MAX]; /* once per run; see error.h */

	return launch_read_outcome(buf,
				   supervise_read_full(&mon->sup, mon->error_fd, buf, sizeof(buf)),
				   err);
}

static int wait_child(struct monitor *mon)
{
	int st = supervise_wait_pid(&mon->sup, mon->child);

	if (st == -1)
		return 1;
	mon->wait_status = st;
	return reaper_exit_status(st);
}

/* The payload's status: from pid 1's report when there is a pid 1 (it may outlive the
 * payload, as bwrap's does), else from the child itself. */
static int payload_status(struct monitor *mon)
{
	int st;

	if (mon->status_fd >= 0 && supervise_read_full(&mon->sup, mon->status_fd, &st,
						       sizeof(st)) == (ssize_t)sizeof(st)) {
		mon->wait_status = st;
		return reaper_exit_status(st);
	}
	return wait_child(mon);
}

static void close_monitor_fds(struct monitor *mon)
{
	const struct plan *plan = mon->plan;
	int keep[] = { mon->error_fd, mon->status_fd, plan->sync.json_status_fd, mon->life_fd,
		       mon->sup.sig_fd, mon->sup.timer_fd, mon->bridge.pidfd, plan->sync.report_fd,
		       mon->audit_fd,
		       /* closing it would kill the child (CLONE_PIDFD_AUTOKILL) */
		       mon->sup.child_pidfd };
	int clean[ARRAY_SIZE(keep) + CGROUP_MAX_FDS];
	size_t n = cgroup_fds(&mon->cg, clean);

	for (size_t i = 0; i < ARRAY_SIZE(keep); i++)
		if (keep[i] >= 0)
			clean[n++] = keep[i];
	fd_close_all_except(clean, n);
}

/* The maps' writer is needed again only when --fallback may start another attempt: it
 * was forked before no_new_privs, which this process cannot undo. */
static void writer_done(struct monitor *mon)
{
	if (!mon->fallback)
		userns_writer_stop(mon->writer);
}

static int monitor_setup(struct monitor *mon, const struct launch_ctx *ctx, struct nsrun_error *err)
{
	const struct plan *plan = mon->plan;
	int r;

	if (ctx->userns.custom && !ctx->userns.self_maps) {
		r = ctx->userns.helper ?
			    userns_writer_run(mon->writer, mon->child, err) :
			    userns_write_custom_maps(ctx->proc_fd, mon->child, &ctx->userns,
						     ctx->real_uid, ctx->real_gid, err);
		writer_done(mon);
		if (r < 0)
			return r;
	} else if (ctx->userns.write_maps && !ctx->userns.self_maps) {
		r = userns_write_maps(ctx->proc_fd, mon->child, ctx->userns.ns_uid, ctx->real_uid,
				      ctx->userns.ns_gid, ctx->real_gid, true, err);
		if (r < 0)
			return error_refused(err, NSRUN_STEP_MAPS, r);
	}
	/* With the handshake the report waits for the setup (await_ready). */
	if (ctx->ready_handshake)
		return 0;
	announce(mon->fallback);
	r = write_status(mon, ctx->ns_flags, err);
	if (r < 0)
		return r;
	/* An outside helper (newuidmap) writes the maps while we wait. */
	if (plan->sync.userns_block_fd >= 0)
		(void)read_byte(plan->sync.userns_block_fd);
	return 0;
}

/* --report-fd: the final document as it would be, with the report's summary. */
static void write_report_end(struct monitor *mon, int status, const struct cgroup_usage *u)
{
	char *doc = supervise_in_use(mon->plan) ?
			    status_format_end(status, mon->wait_status, mon->sup.timed_out, u) :
			    status_format_exit(status);
	_cleanup_free_ char *summary = NULL;

	mon->report.observed = mon->sup.watch_passed;
	if (u)
		report_counters(&mon->report, u);
	summary = report_summary_json(&mon->report);
	(void)status_write_with(mon->plan->sync.json_status_fd, doc, "report", summary, NULL);
}

/* The status nsrun exits with: the command's, or 124 when --timeout ended it. With
 * --timeout nothing of the sandbox is left either way. ran: the command was executed, and the
 * status fd gets its final document. */
static int monitor_end(struct monitor *mon, int status, bool ran)
{
	const struct plan *plan = mon->plan;
	int fd = plan->sync.json_status_fd;
	struct cgroup_usage usage;

	supervise_finish(&mon->sup);
	/* The sandbox has ended: its way out goes before anyone is told. */
	bridge_stop(&mon->bridge);
	if (mon->sup.timed_out)
		status = NSRUN_EXIT_TIMEOUT;
	/* The kernel's last records of the command come after it ended. */
	if (ran && mon->report.fd >= 0)
		report_audit_drain(&mon->report);
	if (!ran || fd < 0)
		return status;
	/* What the sandbox used is final once nothing of it runs. */
	if (mon->cg.fd >= 0) {
		(void)cgroup_drain(&mon->cg);
		cgroup_read_usage(&mon->cg, &usage);
	}
	if (mon->report.fd >= 0)
		write_report_end(mon, status, mon->cg.fd >= 0 ? &usage : NULL);
	else if (supervise_in_use(plan))
		(void)status_write_end(fd, status, mon->wait_status, mon->sup.timed_out,
				       mon->cg.fd >= 0 ? &usage : NULL, NULL);
	else
		(void)status_write_exit(fd, status, NULL);
	return status;
}

/* The sandbox's process failed before it was ready: its own error says why. */
static int ready_failed(struct monitor *mon, int r, struct nsrun_error *err)
{
	int o = read_outcome(mon, err);

	wait_child(mon);
	if (o < 0)
		return o;
	return r < 0 ? r : error_set(err, EIO, "the sandbox ended before its setup was done");
}

/* The fresh procfs the sandbox's process did without, its cause named as for an error. */
static void note_proc_refusal(struct fallback_report *rep, struct fallback_refusal *f)
{
	static struct nsrun_error e; /* see error.h */

	e = (struct nsrun_error){ .code = f->code, .refused = NSRUN_STEP_PROC };
	memcpy(e.msg, f->msg, sizeof(f->msg));
	e.msg[sizeof(f->msg) - 1] = '\0';
	doctor_explain(&e);
	fallback_refusal_set(f, &e);
	fallback_add(rep, f);
	rep->gave_up |= 1u << FALLBACK_PROC;
}

/* --fallback's second meeting: the setup is done, so the report can say what the command
 * runs with (a fresh procfs the child did without too) before the second release. */
static int await_ready(struct monitor *mon, const struct launch_ctx *ctx, struct nsrun_error *err)
{
	struct status_info info = { 0 };
	struct launch_ready ready;
	int r = 0;

	if (wants_status(mon->plan))
		r = status_collect(mon->child, ctx->ns_flags, mon->status_fd, &info, err);
	if (r == 0 && supervise_read_full(&mon->sup, mon->status_fd, &ready, sizeof(ready)) !=
			      (ssize_t)sizeof(ready))
		r = -EIO;
	if (r < 0)
		return ready_failed(mon, r, err);
	if (ready.proc.step != NSRUN_STEP_NONE)
		note_proc_refusal(mon->fallback, &ready.proc);
	announce(mon->fallback);
	r = emit_status(mon, &info, err);
	if (r == 0)
		r = write_all(mon->go_fd, "1", 1);
	if (r < 0) {
		supervise_kill_child(&mon->sup, SIGKILL);
		wait_child(mon);
		return r == -EPIPE ? error_set(err, EPIPE, "releasing the sandbox") : r;
	}
	return 0;
}

static int monitor_run(struct monitor *mon, const struct launch_ctx *ctx, struct nsrun_error *err)
{
	const struct plan *plan = mon->plan;
	int r, status;

	if (mon->go_fd >= 0) {
		r = monitor_setup(mon, ctx, err);
		if (r < 0) {
			supervise_kill_child(&mon->sup, SIGKILL);
			wait_child(mon);
			return r;
		}
		r = write_all(mon->go_fd, "1", 1);
		if (r < 0)
			return error_set(err, -r, "releasing the sandbox");
		if (ctx->ready_handshake) {
			r = await_ready(mon, ctx, err);
			if (r < 0)
				return r;
		}
		close(mon->go_fd);
		mon->go_fd = -1;
		/* See monitor_release: nothing needs the monitor dumpable any more. */
		(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	}
	close_monitor_fds(mon);
	r = read_outcome(mon, err);
	if (r < 0) {
		wait_child(mon);
		return r;
	}
	if (r == 0)
		return monitor_end(mon, wait_child(mon), false);
	if (mon->sup.cred_fd >= 0) {
		pid_t command = supervise_found_command(&mon->sup);

		if (supervise_in_use(plan) && plan->sync.json_status_fd >= 0 && command > 0)
			(void)status_write_command(plan->sync.json_status_fd, command, NULL);
	}
	status = payload_status(mon);
	return monitor_end(mon, status, true);
}

/* --netns: setns needs CAP_SYS_ADMIN over the user namespace that owns the network
 * namespace. Root has it over all of them; a user has it only inside a user namespace
 * it joins (--userns, done just before) that owns, or is an ancestor of, the owner.
 * The sandbox's own new user namespace never qualifies, so this happens here, in the
 * monitor before clone, and the sandbox inherits the namespace. */
static int join_netns(const struct plan *plan, struct nsrun_error *err)
{
	int fd = plan->sup.netns_fd;

	if (setns(fd, CLONE_NEWNET) == 0) {
		close(fd);
		return 0;
	}
	if (errno == EPERM && getuid() != 0 && plan->ns.userns_fd < 0)
		return error_set(err, errno,
				 "--netns %d: joining needs CAP_SYS_ADMIN over the user namespace "
				 "that owns it; pass that one with --userns",
				 fd);
	if (errno == EINVAL)
		return error_set(err, errno, "--netns %d: not a network namespace", fd);
	return error_set(err, errno, "--netns %d: setns", fd);
}

/* --mountns: the monitor joins the namespace and the clone's CLONE_NEWNS copies it, so
 * the sandbox starts from its mounts while its staging, ops and pivots act on the copy:
 * the joined namespace is never changed. setns needs CAP_SYS_ADMIN over the namespace's
 * owner and CAP_SYS_ADMIN and CAP_SYS_CHROOT in the caller's user namespace: as a user,
 * that of --userns, joined just before. Joining moves the root and the working directory
 * to the namespace's root; the caller's directory is entered again by name, so relative
 * paths and the default working directory mean what they do without the option.
 * The namespace's owner (any user, where root joins) controls its tree and can change it
 * while nsrun runs: nothing nsrun loads or looks up as itself may come from it. libmount
 * (the legacy path, the hide) is loaded now, before the join, and the child inherits it;
 * the monitor goes back to the caller's root as soon as the child exists (leave_mountns). */
static int join_mountns(const struct plan *plan, const char *cwd, int *caller_root,
			struct nsrun_error *err)
{
	int fd = plan->ns.mountns_fd;

	(void)mountinfo_preload();
	*caller_root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (*caller_root < 0)
		return error_set(err, errno, "--mountns: can't open /");
	if (setns(fd, CLONE_NEWNS) < 0) {
		if (errno == EPERM && getuid() != 0 && plan->ns.userns_fd < 0)
			return error_set(err, errno,
					 "--mountns %d: joining needs CAP_SYS_ADMIN over the user "
					 "namespace that owns it; pass that one with --userns",
					 fd);
		if (errno == EINVAL)
			return error_set_plain(err, EINVAL, "--mountns %d: not a mount namespace",
					       fd);
		return error_set(err, errno, "--mountns %d: setns", fd);
	}
	close(fd);
	if (cwd && chdir(cwd) < 0)
		log_debug("--mountns: '%s' is not in the joined namespace, staying at its root",
			  cwd);
	return 0;
}

/* Whether a user other than the caller owns a user namespace between the caller's and the
 * one that owns the mount namespace fd: that user controls the tree nsrun would set the
 * sandbox up in (its /proc among it, which the setup reads and writes through) and can
 * change it at any time. Sets *owner to that user. */
static bool mountns_foreign(int fd, uid_t *owner)
{
	struct stat me, st;
	int ns = ioctl(fd, NS_GET_USERNS);
	bool foreign = false;

	if (stat("/proc/self/ns/user", &me) < 0)
		me.st_ino = 0;
	while (ns >= 0 && fstat(ns, &st) == 0 &&
	       !(st.st_ino == me.st_ino && st.st_dev == me.st_dev)) {
		int parent;

		if (ioctl(ns, NS_GET_OWNER_UID, owner) < 0 || *owner != geteuid()) {
			foreign = true;
			break;
		}
		parent = ioctl(ns, NS_GET_PARENT);
		close(ns);
		ns = parent;
	}
	if (ns >= 0)
		close(ns);
	return foreign;
}

/* The monitor, once the child has its copy: its /proc (--timeout's process tree, the
 * report's paths) and everything else it opens by name are the caller's again. chroot
 * needs CAP_SYS_CHROOT, which the join itself needed. */
static int leave_mountns(struct monitor *mon, const char *cwd, struct nsrun_error *err)
{
	int r = fchdir(mon->caller_root) < 0 || chroot(".") < 0 ? -errno : 0;

	close(mon->caller_root);
	mon->caller_root = -1;
	if (r < 0)
		return error_set(err, -r, "--mountns: going back to the caller's root");
	if ((!cwd || chdir(cwd) < 0) && chdir("/") < 0)
		return error_set(err, errno, "--mountns: chdir /");
	return 0;
}

static int join_namespaces(struct monitor *mon, const char *cwd, struct nsrun_error *err)
{
	const struct plan *plan = mon->plan;
	uid_t owner = 0;
	int r;

	if (plan->ns.mountns_fd >= 0 && mountns_foreign(plan->ns.mountns_fd, &owner))
		return error_fail_closed(
			err,
			error_set_plain(err, EPERM,
					"--mountns %d: the namespace belongs to uid %u, who can "
					"change the mounts nsrun would set the sandbox up with",
					plan->ns.mountns_fd, (unsigned)owner));
	if (plan->ns.userns_fd >= 0) {
		r = userns_join(plan->ns.userns_fd, err);
		if (r < 0)
			return r;
	}
	if (plan->sup.netns_fd >= 0) {
		r = join_netns(plan, err);
		if (r < 0)
			return r;
	}
	if (plan->ns.mountns_fd >= 0) {
		r = join_mountns(plan, cwd, &mon->caller_root, err);
		if (r < 0)
			return r;
	}
	if (plan->ns.pidns_fd >= 0 && setns(plan->ns.pidns_fd, CLONE_NEWPID) < 0)
		return error_set(err, errno, "Setting pidns failed");
	return 0;
}

/* A boundary holds only while the command cannot undo it: --landlock-exec (remounting
 * without noexec) and the cgroup limits (uncovering the cgroup tree, real-time
 * scheduling). What would undo them is taken from the command whatever it would
 * otherwise keep (root's own set included); asking for it was refused (rules.c). */
static uint64_t boundary_takes(const struct plan *plan)
{
	uint64_t taken = 0;

	if (plan->landlock.exec)
		taken |= CAPS_EXEC_BOUNDARY_BREAKERS;
	if (plan_has_limits(plan))
		taken |= CAPS_LIMIT_BREAKERS;
	/* --fallback userns: what the user namespace confined would be the host's. */
	if (plan->fallback.gave_up & 1u << FALLBACK_USERNS)
		taken = ~(uint64_t)0;
	return taken;
}

/* The command's capabilities, decided once and applied in every mode: what root has
 * or the user namespace grants, changed by --cap-add/--cap-drop, less what a boundary
 * takes away. Only root that asked for nothing and lost nothing is left as it is (bwrap
 * sets nothing then: an outer seccomp policy may refuse capset). */
static int decide_caps(const struct plan *plan, struct launch_ctx *ctx, struct nsrun_error *err)
{
	uint64_t base = 0, taken;
	int r;

	/* --landlock-only starts from no capabilities at all, root or not. */
	if (ctx->real_root && ctx->mode == LAUNCH_SANDBOX) {
		r = caps_get_effective(&base, err);
		if (r < 0)
			return r;
	}
	ctx->caps = caps_requested(&plan->caps, base);
	/* Root without a user namespace cannot gain what it lacks (a container's bounding
	 * set): bwrap quietly keeps what is there, so `--cap-add all` (mkosi) still runs. */
	if (ctx->real_root && !ctx->in_userns && ctx->mode == LAUNCH_SANDBOX)
		ctx->caps &= base;
	taken = boundary_takes(plan);
	ctx->caps &= ~taken;
	ctx->caps_taken = taken;
	ctx->caps_as_is = ctx->real_root && ctx->mode == LAUNCH_SANDBOX && plan->caps.n_ops == 0 &&
			  taken == 0;
	return 0;
}

/* NSRUN_DEBUG: the namespaces the sandbox gets and how its ids map. */
static void trace_ctx(const struct launch_ctx *ctx)
{
	static const struct {
		unsigned long flag;
		const char *name;
	} ns[] = { { CLONE_NEWUSER, "user" },	  { CLONE_NEWNS, "mnt" },   { CLONE_NEWPID, "pid" },
		   { CLONE_NEWNET, "net" },	  { CLONE_NEWIPC, "ipc" },  { CLONE_NEWUTS, "uts" },
		   { CLONE_NEWCGROUP, "cgroup" }, { CLONE_NEWTIME, "time" } };
	char names[64] = "";
	size_t n = 0;

	if (!log_debug_on())
		return;
	if (ctx->mode != LAUNCH_SANDBOX) {
		log_debug("in place (--landlock-only): no namespaces, no new root");
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(ns); i++)
		if (ctx->ns_flags & ns[i].flag)
			n += (size_t)snprintf(names + n, sizeof(names) - n, " %s", ns[i].name);
	log_debug("namespaces:%s%s", names,
		  ctx->plan->ns.userns_fd >= 0 ? " (joins --userns)" : "");
	if (ctx->userns.write_maps)
		log_debug("ids: uid %u -> %u, gid %u -> %u%s", (unsigned)ctx->real_uid,
			  (unsigned)ctx->userns.ns_uid, (unsigned)ctx->real_gid,
			  (unsigned)ctx->userns.ns_gid,
			  ctx->userns.second ? ", then a nested namespace for --uid/--gid" : "");
}

/* The ids the command runs as: --uid/--gid, else the caller's; under --uid-map/--gid-map
 * an inside id of the map (the caller's own, when --uid/--gid says none). */
static int sandbox_ids(const struct plan *plan, struct launch_ctx *ctx, struct nsrun_error *err)
{
	unsigned long u, g;

	if (userns_pick_id(&plan->ns.uid_map, plan->ns.has_uid, plan->ns.uid, ctx->real_uid, "uid",
			   &u, err) < 0 ||
	    userns_pick_id(&plan->ns.gid_map, plan->ns.has_gid, plan->ns.gid, ctx->real_gid, "gid",
			   &g, err) < 0)
		return -EINVAL;
	ctx->sandbox_uid = (uid_t)u;
	ctx->sandbox_gid = (gid_t)g;
	return 0;
}

static int prepare_ctx(const struct plan *plan, struct launch_ctx *ctx, struct nsrun_error *err)
{
	struct userns_request req = { 0 };
	bool userns = want_userns(plan);
	int r;

	ctx->plan = plan;
	ctx->mode = !plan->landlock.only      ? LAUNCH_SANDBOX :
		    plan_in_place_child(plan) ? LAUNCH_IN_PLACE_CHILD :
						LAUNCH_IN_PLACE;
	ctx->real_uid = getuid();
	ctx->real_gid = getgid();
	ctx->real_root = ctx->real_uid == 0;
	r = sandbox_ids(plan, ctx, err);
	if (r < 0)
		return r;
	ctx->in_userns = userns || plan->ns.userns_fd >= 0;
	r = clone_flags(plan, userns, &ctx->clone_flags, err);
	if (r == 0 && plan->ns.time && !plan->landlock.only)
		r = time_ns_supported(err);
	if (r < 0)
		return r;
	ctx->ns_flags = ctx->clone_flags & ~(unsigned long)CSIGNAL;
	if (plan->ns.time && !plan->landlock.only)
		ctx->ns_flags |= CLONE_NEWTIME;
	r = decide_caps(plan, ctx, err);
	if (r < 0)
		return r;
	req.unshare = userns;
	req.maps_external = plan->sync.userns_block_fd >= 0;
	for (size_t i = 0; i < plan->n_ops; i++)
		if (plan->ops[i].type == OP_DEV)
			req.needs_devpts = true;
	req.disable_userns = plan->ns.disable_userns;
	req.real_uid = ctx->real_uid;
	req.real_gid = ctx->real_gid;
	req.effective_uid = geteuid();
	req.effective_gid = getegid();
	req.sandbox_uid = ctx->sandbox_uid;
	req.sandbox_gid = ctx->sandbox_gid;
	req.uid_map = &plan->ns.uid_map;
	req.gid_map = &plan->ns.gid_map;
	userns_layout(&req, &ctx->userns);
	ctx->tty_foreground = supervise_tty_wanted(plan);
	trace_ctx(ctx);
	return supervise_prepare(plan, err);
}

/* Whether the child must wait for the monitor before it starts: when the monitor
 * writes its maps, reports it on a status fd (bwrap's order: the report comes before
 * anything runs in the sandbox) or waits for --userns-block-fd. Otherwise the child
 * goes on at once and a round trip through the scheduler is saved.
 * The monitor must not stay dumpable where the sandbox can see it in /proc (nsrun's
 * binary behind /proc/PID/exe, as pid 1): without a release it turns non-dumpable
 * before clone, which the child inherits and undoes first thing; with one, after
 * the release, as the child's /proc files must stay writable to the monitor until then. */
static bool monitor_release(const struct launch_ctx *ctx)
{
	const struct plan *plan = ctx->plan;

	return (ctx->userns.write_maps && !ctx->userns.self_maps) || plan->sync.info_fd >= 0 ||
	       plan->sync.json_status_fd >= 0 || plan->sync.userns_block_fd >= 0 ||
	       ctx->ready_handshake;
}

/* The command's pid is needed to forward signals, by the deadline and the terminal's job
 * control, and for the status document; --rlimit or --netns alone need none of it. */
static bool watches_command(const struct launch_ctx *ctx)
{
	const struct supervise_config *c = &ctx->plan->sup;

	return ctx->tty_foreground || c->forward_signals || c->timeout_ms > 0 ||
	       (supervise_in_use(ctx->plan) && ctx->plan->sync.json_status_fd >= 0) ||
	       ctx->plan->sync.report_fd >= 0; /* the observer's listener comes over it */
}

/* The error and status pipes, and the release pipe when the child must wait (gop: -1s
 * otherwise, and the monitor turns non-dumpable now; see monitor_release). */
static int monitor_pipes(const struct launch_ctx *ctx, int errp[2], int stp[2], int gop[2],
			 struct nsrun_error *err)
{
	gop[0] = gop[1] = -1;
	if (watches_command(ctx) ? supervise_channel(errp, err) < 0 : pipe2(errp, O_CLOEXEC) < 0)
		return watches_command(ctx) ? -EIO : error_set(err, errno, "pipe");
	if (pipe2(stp, O_CLOEXEC) < 0 || (monitor_release(ctx) && pipe2(gop, O_CLOEXEC) < 0))
		return error_set(err, errno, "pipe");
	if (gop[1] < 0 && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return error_set(err, errno, "can't set dumpable");
	return 0;
}

/* nsrun's own --die-with-parent, tracking the caller. */
static void track_caller(const struct plan *plan, pid_t caller)
{
	struct launch_ctx self = { .plan = plan, .parent_life_fd = -1, .expected_ppid = caller };

	launch_track_parent(&self);
}

/* What the sandbox's processes track for --die-with-parent: the monitor, through a
 * pipe whose write end only the monitor keeps (life[1], -1 when not asked for). */
static int monitor_identity(const struct plan *plan, struct launch_ctx *ctx, int life[2],
			    struct nsrun_error *err)
{
	ctx->parent_life_fd = life[0] = life[1] = -1;
	ctx->expected_ppid = getpid();
	if (!plan->proc.die_with_parent)
		return 0;
	if (pipe2(life, O_CLOEXEC) < 0)
		return error_set(err, errno, "pipe");
	ctx->parent_life_fd = life[0];
	return 0;
}

static int run_in_place(struct monitor *mon, struct launch_ctx *ctx, pid_t caller,
			struct nsrun_error *err)
{
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return error_set(err, errno, "prctl(PR_SET_NO_NEW_PRIVS) failed");
	announce(mon->fallback);
	ctx->error_fd = ctx->go_fd = ctx->status_fd = -1;
	ctx->parent_life_fd = -1;
	ctx->expected_ppid = caller;
	setup_child(ctx);
}

/* --report-fd: each call the observer is shown, read and let go on. */
static int serve_report(void *arg, int fd)
{
	return notify_serve(fd, report_event, arg);
}

/* And the kernel's records, where it is the source. */
static int serve_audit(void *arg, int fd)
{
	return report_audit_serve(arg, fd);
}

/* The monitor with its supervision (signals, --timeout; nothing without those options);
 * the terminal goes back to nsrun's own process group whatever happens. */
static int monitor_supervised(struct monitor *mon, const struct launch_ctx *ctx,
			      struct nsrun_error *err)
{
	const struct plan *plan = mon->plan;
	int r;

	mon->sup.cred_fd = watches_command(ctx) ? mon->error_fd : -1;
	mon->sup.cgroup_fd = mon->cg.fd;
	mon->sup.tty = ctx->tty_foreground;
	mon->sup.relay = mon->bridge.pid;
	if (plan->sync.report_fd >= 0) {
		report_init(&mon->report, plan, mon->landlock, plan->sync.report_fd);
		mon->sup.watch_serve = serve_report;
		mon->sup.watch_arg = &mon->report;
		mon->report.not_kernel = mon->not_kernel;
		mon->report.command = &mon->sup.command;
	}
	if (plan->sync.report_fd >= 0 && mon->audit_fd >= 0) {
		mon->report.audit_fd = mon->audit_fd;
		mon->report.lost_start = mon->audit_lost;
		mon->sup.own_fd = mon->audit_fd;
		mon->sup.own_serve = serve_audit;
		mon->sup.own_arg = &mon->report;
	}
	r = supervise_start(&mon->sup, plan, mon->child, setup_command_depth(ctx), err);
	if (r < 0) {
		supervise_kill_child(&mon->sup, SIGKILL);
		wait_child(mon);
	} else {
		r = monitor_run(mon, ctx, err);
	}
	if (ctx->tty_foreground)
		supervise_tty_restore(mon->child);
	report_free(&mon->report);
	if (mon->sup.watch_fd >= 0)
		close(mon->sup.watch_fd);
	if (mon->audit_fd >= 0)
		close(mon->audit_fd);
	return r;
}

/* An fd the caller names but did not open must stay unusable for the op that uses it, as
 * for bwrap, not become one of nsrun's own pipes. Its number is held by a pipe end that
 * serves no op: the write end for ops that read (EBADF) or bind (its path is no file, so
 * "Can't find source path"), the read end for the status fds, which are written (EBADF). */
static void hold_closed_fds(const struct plan *plan)
{
	int held[] = { plan->sync.info_fd, plan->sync.json_status_fd, plan->sync.report_fd };
	size_t n = plan->n_ops + ARRAY_SIZE(held);
	int p[2], end[2], above = 3;
	bool closed = false;

	for (size_t i = 0; i < n; i++) {
		int fd = i < plan->n_ops ? plan->ops[i].fd : held[i - plan->n_ops];

		if (fd >= above)
			above = fd + 1;
		if (fd >= 0 && fcntl(fd, F_GETFD) < 0 && errno == EBADF)
			closed = true;
	}
	/* Most runs name no fd, or only open ones: no pipe to make. */
	if (!closed || pipe2(p, O_CLOEXEC) < 0)
		return;
	/* above every number named, so that the pipe itself takes none of them */
	end[0] = fcntl(p[0], F_DUPFD_CLOEXEC, above);
	end[1] = fcntl(p[1], F_DUPFD_CLOEXEC, above);
	close(p[0]);
	close(p[1]);
	for (size_t i = 0; end[0] >= 0 && end[1] >= 0 && i < n; i++) {
		bool op = i < plan->n_ops;
		int fd = op ? plan->ops[i].fd : held[i - plan->n_ops];

		if (fd >= 0 && fcntl(fd, F_GETFD) < 0 && errno == EBADF)
			(void)dup3(op ? end[1] : end[0], fd, O_CLOEXEC);
	}
	for (int k = 0; k < 2; k++)
		if (end[k] >= 0)
			close(end[k]);
}

/* --die-with-parent where the kernel has CLONE_PIDFD_AUTOKILL: the child dies with the
 * monitor from its first instruction, through every credential change and exec, with
 * no signal to re-arm and no pipe to check; the monitor's exit closes the pidfd. -1
 * where the kernel lacks it (EINVAL) or refuses it: the caller clones as before, and
 * the tracking of launch_track_parent stays (it also covers older kernels). */
static pid_t spawn_autokill(struct monitor *mon, unsigned long flags)
{
	int pidfd = -1;
	pid_t pid;

	if (!mon->plan->proc.die_with_parent)
		return -1;
	pid = sys_clone3_autokill(flags, mon->cg.fd, &pidfd);
	if (pid > 0)
		mon->sup.child_pidfd = pidfd;
	else if (pid < 0 && log_debug_on())
		log_debug("--die-with-parent: clone3 with CLONE_PIDFD_AUTOKILL: %s; clone as before",
			  strerror(errno));
	return pid;
}

/* The sandbox's first process, in its cgroup when there are limits: clone3 puts it there
 * at birth, and the cgroup namespace is then made by the child (launch_ctx.late_cgroupns). */
static pid_t spawn_child(struct monitor *mon, struct launch_ctx *ctx, struct nsrun_error *err)
{
	unsigned long flags = ctx->clone_flags;
	pid_t pid;

	/* Always: rooted at its own cgroup, the sandbox cannot write its limits (nsdelegate). */
	if (mon->cg.fd >= 0) {
		ctx->late_cgroupns = true;
		flags &= ~(unsigned long)CLONE_NEWCGROUP;
	}
	pid = spawn_autokill(mon, flags);
	if (pid >= 0)
		return pid;
	if (mon->cg.fd < 0) {
		pid = sys_clone_fork(flags);
		return pid < 0 ? clone_refused(flags, errno, err) : pid;
	}
	pid = sys_clone3_into_cgroup(flags, mon->cg.fd);
	if (pid >= 0)
		return pid;
	if (errno == ENOSYS || errno == E2BIG || errno == EINVAL) {
		error_set(err, 0,
			  "This kernel cannot start a process in a cgroup (clone3 with "
			  "CLONE_INTO_CGROUP, Linux 5.7): the limits cannot be applied");
	} else if (errno == EACCES || errno == EPERM || errno == ENOENT || errno == EBUSY ||
		   errno == EOPNOTSUPP) {
		error_set(err, errno,
			  "Can't start the sandbox in the cgroup %s (nsrun's cgroup and it must "
			  "be under one delegated to you)",
			  mon->cg.path);
	} else {
		return clone_error(ctx->clone_flags, errno, err);
	}
	return error_fail_closed(err, -1);
}

/* The pipes between the monitor and the sandbox's first process: [0] read, [1] write. */
struct channels {
	int err[2];  /* errors and the exec marker, child to monitor */
	int go[2];   /* the release, monitor to child (-1s when the child need not wait) */
	int st[2];   /* the namespaces, then pid 1's report of the command's status */
	int life[2]; /* --die-with-parent: only the monitor holds the write end (or -1s) */
};

/* In the child: keep its ends, become the sandbox (or the command, in place). */
_noreturn_ static void child_main(struct monitor *mon, struct launch_ctx *ctx, struct channels *c)
{
	if (mon->plan->sup.ignore_keyboard_signals)
		ctx->keyboard = mon->keyboard;
	cgroup_close_in_child(&mon->cg);
	/* The caller's tree, which the sandbox must not reach. */
	if (mon->caller_root >= 0)
		close(mon->caller_root);
	/* The relay's pidfd would let the sandbox signal it. */
	if (mon->bridge.pidfd >= 0)
		close(mon->bridge.pidfd);
	ctx->bridge_fd = mon->bridge.sock;
	/* The maps' writer ends when the monitor's ends of its pipes close. */
	if (mon->writer->to >= 0)
		close(mon->writer->to);
	if (mon->writer->from >= 0)
		close(mon->writer->from);
	if (c->life[1] >= 0)
		close(c->life[1]);
	close(c->err[0]);
	if (c->go[1] >= 0)
		close(c->go[1]);
	close(c->st[0]);
	ctx->error_fd = c->err[1];
	ctx->go_fd = c->go[0];
	ctx->status_fd = c->st[1];
	setup_child(ctx);
}

/* In the monitor: keep the other ends. */
static void monitor_ends(struct monitor *mon, struct channels *c)
{
	close(c->err[1]);
	if (c->go[0] >= 0)
		close(c->go[0]);
	close(c->st[1]);
	if (c->life[0] >= 0)
		close(c->life[0]);
	mon->life_fd = c->life[1];
	mon->error_fd = c->err[0];
	mon->go_fd = c->go[1];
	mon->status_fd = c->st[0];
	if (mon->bridge.sock >= 0)
		close(mon->bridge.sock);
	mon->bridge.sock = -1;
}

/* Everything nsrun decides before it starts anything: the context, and a boundary that
 * cannot be built here fails closed now. */
/* --report-fd's source for the Landlock layer, chosen once: the kernel's audit records
 * where the monitor may read them (the command's denials are then logged after exec, to
 * the system's audit log too), else inferred. Audit is never switched on here. */
static void choose_source(struct monitor *mon, struct launch_ctx *ctx)
{
	bool enabled;

	mon->not_kernel = audit_open_reader(ctx->landlock.abi, &mon->audit_fd);
	if (mon->not_kernel)
		return;
	ctx->landlock.log_exec = true;
	if (audit_status(&enabled, &mon->audit_lost) < 0)
		mon->audit_lost = 0;
}

/* --idmap: the caller's ids on disk show as the command's own, whose ids outside are
 * its map's (the caller's, without --uid-map/--gid-map). Made here, before clone: only
 * the caller's user namespace holds the capability the kernel asks for. */
static int open_idmaps(const struct plan *plan, struct launch_ctx *ctx, struct nsrun_error *err)
{
	_cleanup_close_ int userns_fd = -1;
	const struct op *first = NULL;
	uid_t uid;
	gid_t gid;
	int r;

	for (size_t i = 0; i < plan->n_ops && !first; i++)
		if (plan->ops[i].flags & OP_F_IDMAP)
			first = &plan->ops[i];
	if (!first)
		return 0;
	/* Without capabilities in its own user namespace a caller can neither map another
	 * uid for the idmapping nor idmap a mount: say which, not the first EPERM. */
	if (geteuid() != 0)
		return rootfs_idmap_needs_root(first->source, err);
	uid = (uid_t)userns_map_outside(&plan->ns.uid_map, ctx->sandbox_uid, ctx->real_uid);
	gid = (gid_t)userns_map_outside(&plan->ns.gid_map, ctx->sandbox_gid, ctx->real_gid);
	userns_fd = userns_idmap_fd(ctx->proc_fd, ctx->real_uid, uid, ctx->real_gid, gid, err);
	if (userns_fd < 0)
		return error_fail_closed(err, userns_fd);
	free(ctx->idmap_fds);
	ctx->idmap_fds = xcalloc(plan->n_ops, sizeof(int));
	r = rootfs_idmap_open(plan->ops, plan->n_ops, userns_fd, ctx->idmap_fds, err);
	log_debug("--idmap: uid %u on disk is uid %u outside, gid %u is %u",
		  (unsigned)ctx->real_uid, (unsigned)uid, (unsigned)ctx->real_gid, (unsigned)gid);
	return r;
}

static int prepare(struct monitor *mon, struct launch_ctx *ctx, struct nsrun_error *err)
{
	const struct plan *plan = mon->plan;
	char why[FALLBACK_MSG_MAX];
	int r = prepare_ctx(plan, ctx, err);

	if (r < 0)
		return r;
	if (mon->fallback) {
		ctx->ready_handshake = ctx->mode == LAUNCH_SANDBOX;
		ctx->proc_fallback = fallback_answer(mon->ladder, mon->fallback->gave_up,
						     NSRUN_STEP_PROC, ctx->real_root, why,
						     sizeof(why)) == FALLBACK_PROC;
	}
	/* Once, for the status document and the launcher alike. */
	if (plan->landlock.enabled) {
		r = landlock_describe(&plan->landlock, &ctx->landlock, err);
		if (r < 0)
			return r;
		mon->landlock = &ctx->landlock;
		if (plan->sync.report_fd >= 0)
			choose_source(mon, ctx);
	}
	ctx->proc_fd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (ctx->proc_fd < 0)
		return error_set(err, errno, "Can't open /proc");
	return open_idmaps(plan, ctx, err);
}

static int run_monitored(struct monitor *mon, struct launch_ctx *ctx, pid_t caller,
			 struct nsrun_error *err)
{
	const struct plan *plan = mon->plan;
	struct channels c;
	int r;

	r = prepare(mon, ctx, err);
	if (r < 0)
		return r;
	if (ctx->mode == LAUNCH_IN_PLACE)
		return run_in_place(mon, ctx, caller, err);
	/* Before the namespaces --userns and --pidns join: the relay stays in the caller's,
	 * out of the sandbox's sight. */
	r = plan->n_bridges > 0 ? bridge_start(plan, &mon->bridge, err) : 0;
	/* Before NO_NEW_PRIVS, which the setuid newuidmap/newgidmap would not survive. */
	if (r == 0)
		r = userns_writer_start(&ctx->userns, ctx->real_uid, ctx->real_gid, mon->writer,
					err);
	if (r == 0)
		r = join_namespaces(mon, ctx->old_cwd, err);
	if (r < 0)
		return r;
	/* Nothing nsrun starts may gain privileges through exec. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return error_set(err, errno, "prctl(PR_SET_NO_NEW_PRIVS) failed");
	/* Joining a user namespace changed the credentials, which clears the signal. */
	if (plan->ns.userns_fd >= 0)
		track_caller(plan, caller);
	r = monitor_pipes(ctx, c.err, c.st, c.go, err);
	if (r == 0)
		r = monitor_identity(plan, ctx, c.life, err);
	if (r < 0) {
		writer_done(mon);
		return r;
	}
	mon->child = spawn_child(mon, ctx, err);
	if (mon->child < 0) {
		writer_done(mon);
		return -EIO;
	}
	if (mon->child == 0)
		child_main(mon, ctx, &c);
	/* Before supervise_start: its kill and wait of the child serve the failures too. */
	mon->sup.child = mon->child;
	monitor_ends(mon, &c);
	r = mon->caller_root >= 0 ? leave_mountns(mon, ctx->old_cwd, err) : 0;
	if (r < 0) {
		supervise_kill_child(&mon->sup, SIGKILL);
		wait_child(mon);
		return r;
	}
	return monitor_supervised(mon, ctx, err);
}

/* What a failed attempt leaves open in the monitor, before the next one. */
static void monitor_discard(struct monitor *mon)
{
	int fds[] = { mon->error_fd,   mon->go_fd,	  mon->status_fd,      mon->life_fd,
		      mon->sup.sig_fd, mon->sup.timer_fd, mon->sup.child_pidfd };

	for (size_t i = 0; i < ARRAY_SIZE(fds); i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* One sandbox of PLAN (a rung of LADDER with --fallback, which REP reports on). */
static int run_once(const struct plan *plan, const struct plan *ladder, struct fallback_report *rep,
		    struct userns_writer *writer, pid_t caller, struct nsrun_error *err)
{
	struct launch_ctx ctx = { 0 };
	struct monitor mon = { .plan = plan,
			       .error_fd = -1,
			       .go_fd = -1,
			       .status_fd = -1,
			       .life_fd = -1,
			       .sup = { .child_pidfd = -1,
					.sig_fd = -1,
					.timer_fd = -1,
					.watch_fd = -1,
					.own_fd = -1 },
			       .report = { .fd = -1, .audit_fd = -1 },
			       .audit_fd = -1,
			       .caller_root = -1,
			       .cg = CGROUP_INIT,
			       .fallback = rep,
			       .ladder = ladder,
			       .bridge = BRIDGE_RELAY_INIT,
			       .writer = writer };
	_cleanup_free_ char *cwd = getcwd(NULL, 0);
	int r;

	/* As soon as the options are known; a caller that died while they were read
	 * (--args FD) shows as a new parent. Dying before nsrun runs at all is the
	 * caller's to cover (PR_SET_PDEATHSIG before exec, e.g. setpriv --pdeathsig KILL). */
	hold_closed_fds(plan);
	track_caller(plan, caller);
	/* Before nsrun's own helpers (the cgroup guard, the relay) are forked: a Ctrl-C
	 * that leaves the command running leaves them running too. */
	if (plan->sup.ignore_keyboard_signals)
		supervise_keyboard_ignore(mon.keyboard);
	/* First, while nsrun is nobody's subreaper: the guard that removes the cgroup if
	 * nsrun dies must not stay nsrun's descendant. */
	if (plan_has_limits(plan)) {
		r = cgroup_create(&plan->limits, &mon.cg, err);
		if (r < 0)
			return r;
	}
	ctx.old_cwd = cwd;
	ctx.proc_fd = -1;
	ctx.bridge_fd = -1;
	r = run_monitored(&mon, &ctx, caller, err);
	/* Every way out of run_monitored: nothing of the relay outlives the attempt. */
	bridge_stop(&mon.bridge);
	free(ctx.idmap_fds);
	if (r < 0 && rep) {
		monitor_discard(&mon);
		if (ctx.proc_fd >= 0)
			close(ctx.proc_fd);
	}
	cgroup_remove(&mon.cg);
	/* --fallback's next attempt saves them again. */
	if (plan->sup.ignore_keyboard_signals)
		supervise_keyboard_restore(mon.keyboard);
	return r;
}

/* --fallback: the full sandbox first; each step the host refuses is answered by the first
 * declared item that keeps every boundary asked for, and the sandbox is started again
 * without it. Only steps before anything of the command ran are refusals (err->refused);
 * each answer gives one more item up, so this ends. */
static int run_ladder(const struct plan *plan, struct userns_writer *writer, pid_t caller,
		      struct nsrun_error *err)
{
	struct fallback_report rep = { 0 };
	int dumpable = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
	bool root = getuid() == 0;
	char why[FALLBACK_MSG_MAX];
	struct fallback_refusal f;

	for (;;) {
		struct plan rung;
		int r, item;

		fallback_rung(plan, rep.gave_up, &rung);
		*err = (struct nsrun_error){ 0 };
		r = run_once(&rung, plan, &rep, writer, caller, err);
		if (r >= 0 || err->refused == NSRUN_STEP_NONE)
			return r;
		doctor_explain(err);
		fallback_refusal_set(&f, err);
		fallback_add(&rep, &f);
		item = fallback_answer(plan, rep.gave_up, err->refused, root, why, sizeof(why));
		if (item < 0) {
			error_append(err, "; --fallback: %s", why);
			return error_fail_closed(err, r);
		}
		rep.gave_up |= 1u << item;
		/* The failed attempt's release left the monitor non-dumpable: the next child's
		 * /proc files must be the caller's again for its ID maps. */
		if (dumpable >= 0)
			(void)prctl(PR_SET_DUMPABLE, dumpable, 0, 0, 0);
	}
}

int sandbox_run(const struct plan *plan, pid_t caller, struct nsrun_error *err)
{
	struct userns_writer writer = { 0, -1, -1, plan->fallback.n > 0 };
	int r;

	if (plan->fallback.n > 0)
		r = run_ladder(plan, &writer, caller, err);
	else
		r = run_once(plan, NULL, NULL, &writer, caller, err);
	userns_writer_stop(&writer);
	return r;
}
