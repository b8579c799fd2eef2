/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * setup.c: the one setup. Steps run in bwrap's order: loopback, filesystem, hostname,
 * nested user namespace, capabilities, cwd, session, then pid 1 and the payload;
 * --landlock-only is a profile of the same steps (no namespaces, no root). Any failure
 * is sent whole over the error pipe (printed, in place) and the process exits before
 * exec: the command never runs in a half-built sandbox.
 */
#include "config.h"

#include "setup.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "apparmor.h"
#include "bridge.h"
#include "cgroup.h"
#include "caps.h"
#include "launch.h"
#include "loopback.h"
#include "mountinfo.h"
#include "noexec.h"
#include "reaper.h"
#include "rootfs.h"
#include "seccomp.h"
#include "status.h"
#include "supervise.h"
#include "util.h"

/* What this process reports when its setup is done (ready_handshake). */
static struct launch_ready setup_report;

static void wait_for_parent(const struct launch_ctx *ctx, bool last)
{
	int c = read_byte(ctx->go_fd);

	if (last)
		close(ctx->go_fd);
	/* EOF: the parent gave up (it reports why); stop without a word. */
	if (c < 0)
		_exit(1);
}

/* Reports this process's namespaces, for the status fds, which the monitor writes before
 * it releases this one; then waits for the release. */
static int meet_monitor(const struct launch_ctx *ctx, struct nsrun_error *err)
{
	const struct sync_config *sync = &ctx->plan->sync;

	if ((sync->info_fd >= 0 || sync->json_status_fd >= 0) &&
	    status_report_ns(ctx->proc_fd, ctx->ns_flags, ctx->status_fd, err) < 0)
		return -1;
	wait_for_parent(ctx, !ctx->ready_handshake);
	return 0;
}

/* --fallback: the setup is done; the monitor reports, then releases this one again. */
static int report_ready(const struct launch_ctx *ctx, struct nsrun_error *err)
{
	int r = write_all(ctx->status_fd, &setup_report, sizeof(setup_report));

	if (r < 0)
		return error_set(err, -r, "reporting the setup to nsrun");
	wait_for_parent(ctx, true);
	return 0;
}

/* One line of timens_offsets: the clock's number (5.6 takes no names), seconds, 0 ns. */
static char *offset_line(clockid_t clock, long long secs)
{
	char id[NUM_BUF_SIZE], v[NUM_BUF_SIZE];
	unsigned long long mag = secs < 0 ? 0ull - (unsigned long long)secs :
					    (unsigned long long)secs;

	return xconcat(num_str(id, (unsigned long long)clock, 10), " ", secs < 0 ? "-" : "",
		       num_str(v, mag, 10), " 0\n");
}

/* --unshare-time: the kernel takes the offsets only while no process is in the namespace,
 * so it is made with unshare, given them, and then entered with setns by this process
 * itself: pid 1, the command and all they start share it (after unshare alone only new
 * children are in it, and a CLONE_VM child such as launch_spawn's cannot be made at all).
 * Both need CAP_SYS_ADMIN, the offsets CAP_SYS_TIME, over the namespace's owner: the
 * sandbox's user namespace, or root's. Holding the AppArmor grant this process is not
 * dumpable, and its /proc files would not be its own to write. */
static int enter_time_ns(const struct launch_ctx *ctx, bool grant, struct nsrun_error *err)
{
	const struct ns_config *ns = &ctx->plan->ns;
	_cleanup_free_ char *mono =
		ns->has_monotonic ? offset_line(CLOCK_MONOTONIC, ns->monotonic) : xstrdup("");
	_cleanup_free_ char *boot = ns->has_boottime ? offset_line(CLOCK_BOOTTIME, ns->boottime) :
						       xstrdup("");
	_cleanup_free_ char *lines = xconcat(mono, boot);
	_cleanup_close_ int fd = -1;
	int r = 0;

	if (unshare(CLONE_NEWTIME) < 0)
		return error_fail_closed(err,
					 error_set(err, errno, "Can't create the time namespace"));
	if (lines[0]) {
		if (grant && prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
			return error_set(err, errno, "can't set dumpable");
		fd = openat(ctx->proc_fd, "self/timens_offsets", O_WRONLY | O_CLOEXEC);
		r = fd < 0 ? -errno : write_all(fd, lines, strlen(lines));
		if (grant && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
			return error_set(err, errno, "can't set dumpable");
		if (r < 0)
			return error_fail_closed(err,
						 error_set(err, -r,
							   "Can't set the time namespace's "
							   "offsets (--monotonic, --boottime)"));
		close(TAKE_FD(fd));
	}
	fd = openat(ctx->proc_fd, "self/ns/time_for_children", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWTIME) < 0)
		return error_fail_closed(err,
					 error_set(err, errno, "Can't enter the time namespace"));
	return 0;
}

/* Meets the monitor when it has work to do first; then the child's own ID maps, one line
 * onto its own ids, setgroups denied first (userns_layout: self_maps). The time namespace
 * comes before the meeting, whose report names it. */
static int start_handshake(const struct launch_ctx *ctx, struct nsrun_error *err)
{
	const struct userns_layout *l = &ctx->userns;
	bool grant = apparmor_holds_grant(ctx->proc_fd);

	if (ctx->late_cgroupns && unshare(CLONE_NEWCGROUP) < 0)
		return error_fail_closed(err, error_set(err, errno,
							"Can't create the cgroup "
							"namespace the limits need"));
	/* The monitor turned non-dumpable before clone, and so did this copy of it: its
	 * /proc files (the maps among them) would belong to the host's root. */
	if (ctx->go_fd < 0 && prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
		return error_set(err, errno, "can't set dumpable");
	if ((ctx->ns_flags & CLONE_NEWTIME) && enter_time_ns(ctx, grant, err) < 0)
		return -1;
	if (ctx->go_fd >= 0 && meet_monitor(ctx, err) < 0)
		return -1;
	if (!l->self_maps)
		return 0;
	/* Holding the AppArmor grant, the monitor is never dumpable, nor this copy of it;
	 * and it stays traceable no longer than the maps need: the caller's processes
	 * may attach to a dumpable process (apparmor_drop_grant). */
	if (grant && prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
		return error_set(err, errno, "can't set dumpable");
	if (userns_write_maps(ctx->proc_fd, 0, l->ns_uid, ctx->real_uid, l->ns_gid, ctx->real_gid,
			      true, err) < 0)
		return error_refused(err, NSRUN_STEP_MAPS, -1);
	if (grant && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return error_set(err, errno, "can't set dumpable");
	return 0;
}

static int build_rootfs(const struct launch_ctx *ctx, struct nsrun_error *err)
{
	const struct plan *plan = ctx->plan;
	struct rootfs_config cfg = {
		.ops = plan->ops,
		.n_ops = plan->n_ops,
		.hide = &plan->hide,
		.path_env = env_get(plan->proc.envp, "PATH"),
		.in_userns = ctx->in_userns,
		.new_pidns = (ctx->clone_flags & CLONE_NEWPID) || plan->ns.pidns_fd >= 0,
		.sys_fresh = (ctx->clone_flags & CLONE_NEWNET) || plan->sup.netns_fd >= 0,
		.host_privileged = ctx->real_root || !ctx->in_userns,
		.file_label = plan->proc.file_label,
		.fail_open = plan->debug.not_a_security_boundary,
		.command_admin = ((ctx->caps >> CAP_SYS_ADMIN) & 1) &&
				 (ctx->sandbox_uid == 0 || plan->caps.n_ops > 0),
		.landlock = &plan->landlock,
		.proc_refused = ctx->proc_fallback ? &setup_report.proc : NULL,
		.idmap_fds = ctx->idmap_fds,
	};

	return rootfs_build(&cfg, err);
}

/* In place, --landlock-exec's noexec mounts need a mount namespace of nsrun's own. */
static bool private_view_wanted(const struct plan *plan)
{
	return plan->landlock.exec && plan->landlock.exec[0];
}

/* In place, --landlock-exec's noexec mounts need a mount namespace of our own;
 * unprivileged, that takes a user namespace, mapped to the same ids so nothing else
 * changes. */
static int private_mount_view(const struct launch_ctx *ctx, struct nsrun_error *err)
{
	unsigned long flags = CLONE_NEWNS | (ctx->real_root ? 0 : CLONE_NEWUSER);
	int r;

	if (unshare(flags) < 0)
		return error_set(err, errno,
				 "--landlock-only --landlock-exec needs a private mount namespace");
	if (!ctx->real_root) {
		r = userns_write_maps(ctx->proc_fd, 0, ctx->real_uid, ctx->real_uid, ctx->real_gid,
				      ctx->real_gid, true, err);
		if (r < 0)
			return r;
	}
	/* Private, not slave: a host mount appearing later would come without noexec. */
	if (mount(NULL, "/", NULL, MS_PRIVATE | MS_REC, NULL) < 0)
		return error_set(err, errno, "making the mount namespace private");
	return noexec_apply("/", "/proc", &ctx->plan->landlock,
			    &(struct noexec_fds){ .host_root = "" }, err);
}

/* bwrap's nested namespace: after the mounts that needed uid 0 (devpts), show the chosen
 * ids; with --disable-userns it is also the namespace that can no longer nest. */
static int second_userns(const struct launch_ctx *ctx, struct nsrun_error *err)
{
	const struct plan *plan = ctx->plan;
	bool grant;
	int r;

	if (ctx->userns.second) {
		if (plan->ns.disable_userns) {
			r = userns_limit_nesting(ctx->proc_fd, err);
			if (r < 0)
				return r;
		}
		if (unshare(CLONE_NEWUSER) < 0)
			return error_set(err, errno, "unshare user ns");
		/* A new user namespace comes with a full bounding set. */
		r = caps_bound(ctx->caps, err);
		if (r < 0)
			return r;
		/* start_handshake made this process non-dumpable again under the grant, and
		 * then its maps belong to the host's root: traceable for the write only. */
		grant = apparmor_holds_grant(ctx->proc_fd);
		if (grant && prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
			return error_set(err, errno, "can't set dumpable");
		r = userns_write_maps(ctx->proc_fd, 0, ctx->sandbox_uid, ctx->userns.ns_uid,
				      ctx->sandbox_gid, ctx->userns.ns_gid, false, err);
		if (r < 0)
			return r;
		if (grant && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
			return error_set(err, errno, "can't set dumpable");
	}
	if (plan->ns.userns2_fd >= 0) {
		r = userns_join2(plan->ns.userns2_fd, err);
		if (r < 0)
			return r;
	}
	if (plan->ns.disable_userns || plan->ns.assert_userns_disabled)
		return userns_assert_disabled(err);
	return 0;
}

/* --uid-map / --gid-map: the command's ids, taken before the setup: the caller's own may
 * not be mapped at all (root under 0:100000:65536), and nothing can be created as an
 * unmapped id; what the setup creates is the command's, as bwrap's is under --uid. The
 * capabilities are kept through the change (an effective uid leaving 0 would clear them)
 * and raised again; supplementary groups stay as the maps' writer left setgroups. */
static int become_mapped_ids(const struct launch_ctx *ctx, struct nsrun_error *err)
{
	uid_t u = ctx->sandbox_uid;
	gid_t g = ctx->sandbox_gid;

	if (!ctx->userns.switch_ids)
		return 0;
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0)
		return error_set(err, errno, "prctl(PR_SET_KEEPCAPS)");
	if (setresgid(g, g, g) < 0)
		return error_set(err, errno, "unable to switch to gid %u", (unsigned)g);
	if (setresuid(u, u, u) < 0)
		return error_set(err, errno, "unable to switch to uid %u", (unsigned)u);
	if (prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) < 0)
		return error_set(err, errno, "prctl(PR_SET_KEEPCAPS)");
	return caps_raise_effective(err);
}

static int switch_ids(const struct launch_ctx *ctx, struct nsrun_error *err)
{
	/* A joined namespace (--userns) may map other ids than ours: become the chosen ones. */
	if (ctx->plan->ns.userns_fd < 0)
		return 0;
	if (ctx->sandbox_uid != ctx->real_uid && setuid(ctx->sandbox_uid) < 0)
		return error_set(err, errno, "unable to switch to uid %u",
				 (unsigned)ctx->sandbox_uid);
	if (ctx->sandbox_gid != ctx->real_gid && setgid(ctx->sandbox_gid) < 0)
		return error_set(err, errno, "unable to switch to gid %u",
				 (unsigned)ctx->sandbox_gid);
	return 0;
}

/* The bounding set, what no exec can regain. In a user namespace, and in place root or
 * not (--landlock-only starts from no capabilities at all), nothing beyond the command's
 * own; root in a sandbox keeps its set as bwrap leaves it, less what a boundary took
 * away. After the last namespace that refills it: a new user namespace comes with a
 * full set. */
static int bound_caps(const struct launch_ctx *ctx, struct nsrun_error *err)
{
	int r;

	/* A second user namespace is bounded there; nothing is executed in between, so one
	 * pass of 41 prctls is enough. */
	if (ctx->userns.second)
		return 0;
	/* In place the promise is no capabilities at all: a refusal breaks it. */
	if (ctx->in_userns || ctx->mode != LAUNCH_SANDBOX) {
		r = caps_bound(ctx->caps, err);
		return ctx->mode != LAUNCH_SANDBOX ? error_fail_closed(err, r) : r;
	}
	return ctx->caps_taken ? error_fail_closed(err, caps_bound(~ctx->caps_taken, err)) : 0;
}

/* bwrap's drop_privs: keep the decided caps. Root left as it is changes nothing (capset
 * may be denied by an outer seccomp policy); in a sandbox where a boundary took some
 * away, and in place (no capabilities at all), a refusal means a promise cannot hold. The AppArmor grant and dumpability are
 * the sandbox's processes' to settle: in place nsrun's process stays as it started, and
 * the command's exec stacks nsrun_payload itself (packaging/apparmor/nsrun). */
static int drop_privs(const struct launch_ctx *ctx, struct nsrun_error *err)
{
	bool sandbox = ctx->mode == LAUNCH_SANDBOX;
	int r;

	if (!ctx->caps_as_is) {
		r = caps_set(ctx->caps, err);
		if (r < 0)
			return !sandbox || ctx->caps_taken ? error_fail_closed(err, r) : r;
	}
	if (!sandbox)
		return 0;
	r = apparmor_drop_grant(ctx->proc_fd, err);
	if (r < 0)
		return r;
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
		return error_set(err, errno, "can't set dumpable");
	return 0;
}

/* --chdir, else the old cwd if the sandbox has it, else $HOME, else "/"; *pwd: the
 * directory for PWD. In place it is --chdir, or nothing, and PWD stays the caller's (*pwd
 * NULL). Only after the private mount view (--landlock-exec) is the old cwd entered again
 * by name: the noexec mounts may now cover it, and it must not stay reachable through its
 * previous mount. Otherwise it stays as it is: a user who may not search its path (sudo -u
 * from a private directory) still has it, as the command would without nsrun. */
static int enter_cwd(const struct launch_ctx *ctx, const char **pwd, struct nsrun_error *err)
{
	const struct plan *plan = ctx->plan;
	const char *dir = plan->proc.chdir ? plan->proc.chdir : ctx->old_cwd;
	const char *home = env_get(plan->proc.envp, "HOME");
	bool in_place = ctx->mode != LAUNCH_SANDBOX;
	int e;

	*pwd = NULL;
	if (in_place && !plan->proc.chdir && !private_view_wanted(plan))
		return 0;
	if (dir && chdir(dir) == 0) {
		*pwd = in_place ? NULL : dir;
		return 0;
	}
	e = errno;
	/* The private view took the inherited directory along: by name only past a mount. */
	if (dir && in_place && !plan->proc.chdir && e == EACCES && mountinfo_cwd_is(dir))
		return 0;
	if (dir && (plan->proc.chdir || in_place))
		return error_set(err, e, "Can't chdir to %s", dir);
	if (in_place)
		return 0;
	if (home && chdir(home) == 0)
		*pwd = home;
	else if (chdir("/") == 0)
		*pwd = "/";
	else
		return error_set(err, errno, "chdir /");
	return 0;
}

/* setsid() refuses a process group leader (nsrun in place, started from an interactive
 * shell; never a sandbox's process): then fork, and let the leader wait and pass the
 * status on, as setsid(1) -w does. */
static int new_session(struct launch_ctx *ctx, struct nsrun_error *err)
{
	pid_t pid, leader;

	if (setsid() >= 0)
		return 0;
	if (errno != EPERM)
		return error_set(err, errno, "setsid");
	leader = getpid(); /* before the fork: the child's getppid() could be late */
	pid = fork();
	if (pid < 0)
		return error_set(err, errno, "fork for --new-session");
	if (pid == 0) {
		ctx->expected_ppid = leader;
		ctx->parent_life_fd = -1;
		return setsid() < 0 ? error_set(err, errno, "setsid") : 0;
	}
	launch_track_parent(ctx);
	reaper_relay(pid);
}

/* --block-fd. With --die-with-parent the wait also ends, and the sandbox with it, when
 * the monitor exits (the life pipe): nothing else would wake a process blocked here. */
static int wait_block_fd(const struct launch_ctx *ctx, int fd)
{
	struct pollfd p[2] = { { .fd = fd, .events = POLLIN },
			       { .fd = ctx->parent_life_fd, .events = POLLIN } };

	if (fd < 0)
		return 0;
	while (poll(p, 2, -1) < 0 && errno == EINTR)
		;
	if (p[1].revents)
		_exit(128 + SIGKILL);
	(void)read_byte(fd);
	close(fd);
	return 0;
}

static bool needs_reaper(const struct launch_ctx *ctx)
{
	const struct plan *plan = ctx->plan;

	if (plan->proc.as_pid_1)
		return false;
	return plan->ns.pid || (plan->sync.lock_files && plan->sync.lock_files[0]) ||
	       plan->sync.n_sync_fds;
}

unsigned setup_command_depth(const struct launch_ctx *ctx)
{
	const struct plan *plan = ctx->plan;

	return (plan->ns.pidns_fd >= 0 && plan->ns.pid ? 1u : 0u) + (needs_reaper(ctx) ? 1u : 0u);
}

/* pid 1 owns the locks (fcntl locks belong to the process that takes them). */
static int take_locks(const struct plan *plan, int *fds, size_t *n, struct nsrun_error *err)
{
	struct flock fl = { .l_type = F_RDLCK, .l_whence = SEEK_SET };

	*n = 0;
	for (size_t i = 0; plan->sync.lock_files && plan->sync.lock_files[i]; i++) {
		const char *path = plan->sync.lock_files[i];
		int fd;

		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return error_set(err, errno, "Unable to open lock file %s", path);
		fds[(*n)++] = fd;
		if (fcntl(fd, F_SETLK, &fl) < 0)
			return error_set(err, errno, "Unable to lock file %s", path);
	}
	return 0;
}

static bool pid1_is_ns_init(const struct launch_ctx *ctx)
{
	return (ctx->clone_flags & CLONE_NEWPID) ||
	       (ctx->plan->ns.pidns_fd >= 0 && ctx->plan->ns.pid);
}

/* pid 1: everything that can fail happens before the payload is released through
 * ready_fd, so a failure here still means the command never ran. */
_noreturn_ static void run_pid1(const struct launch_ctx *ctx, pid_t payload, int ready_fd,
				int exec_fd, int *locks, size_t n_locks)
{
	const struct plan *plan = ctx->plan;
	static struct nsrun_error err; /* see error.h */
	_cleanup_free_ int *keep = xcalloc(n_locks + plan->sync.n_sync_fds + 1, sizeof(int));
	size_t n_keep = 0;
	int r;

	/* pid 1 needs no capabilities. An outer seccomp policy may deny capset to root;
	 * bwrap ignores that too. */
	r = caps_set(0, &err);
	/* CVE-2019-5736's pattern: keep a handle on /proc/1/exe, reopen nsrun's binary
	 * for writing once no process runs it. As the init of a new pid namespace pid 1
	 * stays dumpable, as bwrap's, so that the caller's other processes can join the
	 * sandbox through /proc/PID/ns: its exit ends every process that could hold
	 * such a handle. Anywhere else a payload's daemon can outlive it. */
	if (r == 0 && !pid1_is_ns_init(ctx) && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		r = error_set(&err, errno, "can't set dumpable");
	if (r == -EPERM && ctx->real_root)
		r = 0;
	if (r == 0)
		launch_track_parent(ctx);
	if (r == 0)
		r = seccomp_apply(&plan->seccomp, &err);
	if (r == 0 && launch_release(ready_fd, exec_fd, payload) < 0)
		r = error_set(&err, EPERM,
			      "pid 1 cannot wait for the command to start: a --seccomp "
			      "program must allow read(2)");
	if (r < 0) {
		launch_send_error(ctx->error_fd, &err);
		kill(payload, SIGKILL);
		_exit(1);
	}
	keep[n_keep++] = ctx->status_fd;
	for (size_t i = 0; i < plan->sync.n_sync_fds; i++)
		keep[n_keep++] = plan->sync.sync_fds[i];
	for (size_t i = 0; i < n_locks; i++)
		keep[n_keep++] = locks[i];
	fd_close_all_except(keep, n_keep);
	reaper_run(payload, ctx->status_fd);
}

/* --pidns with --unshare-pid: a process cannot clone a new pid namespace under one it
 * joined with setns, so the child nests it here. This process stays outside as a
 * transparent relay of the new pid 1's exit; every pipe passes straight through. */
static int nest_pidns(const struct launch_ctx *ctx, struct nsrun_error *err)
{
	const struct plan *plan = ctx->plan;
	pid_t pid;

	if (plan->ns.pidns_fd < 0 || !plan->ns.pid)
		return 0;
	if (unshare(CLONE_NEWPID) < 0)
		return error_set(err, errno, "unshare pid ns");
	pid = fork();
	if (pid < 0)
		return error_set(err, errno, "Can't fork for --pidns");
	if (pid == 0)
		return 0;
	close(ctx->error_fd);
	if (ctx->status_fd >= 0)
		close(ctx->status_fd);
	launch_track_parent(ctx);
	reaper_relay(pid);
}

/* SELinux setexeccon without libselinux; the CLI refuses the option without SELinux. */
static int set_exec_label(const struct launch_ctx *ctx, struct nsrun_error *err)
{
	const char *label = ctx->plan->proc.exec_label;
	_cleanup_close_ int fd =
		openat(ctx->proc_fd, "thread-self/attr/exec", O_WRONLY | O_CLOEXEC);
	int r;

	if (fd < 0)
		return error_set(err, errno, "label_exec %s", ctx->plan->proc.argv[0]);
	r = write_all(fd, label, strlen(label));
	if (r < 0)
		return error_set(err, -r, "label_exec %s", ctx->plan->proc.argv[0]);
	return 0;
}

/* The status fds (--info-fd, --json-status-fd, --userns-block-fd, --report-fd) belong to the monitor:
 * a process that will become the command closes them first, so that the command can
 * neither forge nor hold open what nsrun reports. */
static void close_monitor_fds(const struct plan *plan)
{
	int fds[] = { plan->sync.info_fd, plan->sync.json_status_fd, plan->sync.userns_block_fd,
		      plan->sync.report_fd };

	for (size_t i = 0; i < ARRAY_SIZE(fds); i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* The sandbox's profile: its namespaces and their contents, in bwrap's order. */
static int profile_sandbox(const struct launch_ctx *ctx, struct nsrun_error *err)
{
	const struct plan *plan = ctx->plan;
	int r = start_handshake(ctx, err);

	if (r == 0)
		r = nest_pidns(ctx, err);
	if (r == 0)
		r = switch_ids(ctx, err);
	if (r == 0)
		r = become_mapped_ids(ctx, err);
	if (r == 0)
		r = bound_caps(ctx, err);
	if (r == 0 && (ctx->clone_flags & CLONE_NEWNET))
		r = error_refused(err, NSRUN_STEP_NET, loopback_setup(err));
	if (r == 0 && plan->n_bridges > 0) /* lo up, capabilities held: ports below 1024 too */
		r = bridge_listen(plan, ctx->bridge_fd, err);
	if (r == 0)
		r = build_rootfs(ctx, err);
	if (r == 0 && plan_has_limits(plan))
		r = cgroup_check_view(ctx->proc_fd, err);
	/* The uts namespace belongs to the first user namespace: name it before nesting. */
	if (r == 0 && plan->ns.hostname &&
	    sethostname(plan->ns.hostname, strlen(plan->ns.hostname)) < 0)
		r = error_set(err, errno, "Can't set hostname to %s", plan->ns.hostname);
	if (r == 0)
		r = second_userns(ctx, err);
	return r;
}

/* --landlock-only's profile: no namespaces and no root but the private view
 * --landlock-exec needs, bounded after it. As nsrun's child (--json-status-fd) it meets
 * the monitor first, as a sandbox's process does. */
static int profile_in_place(const struct launch_ctx *ctx, struct nsrun_error *err)
{
	const struct plan *plan = ctx->plan;
	int r = 0;

	if (ctx->go_fd >= 0)
		r = meet_monitor(ctx, err);
	if (r == 0 && private_view_wanted(plan))
		r = private_mount_view(ctx, err);
	if (r == 0)
		r = bound_caps(ctx, err);
	return r;
}

/* Everything up to the session and pid 1: the mode's profile, then the capabilities. */
static int prepare(const struct launch_ctx *ctx, struct nsrun_error *err)
{
	const struct plan *plan = ctx->plan;
	int r;

	close_monitor_fds(plan);
	if (ctx->mode == LAUNCH_SANDBOX)
		r = profile_sandbox(ctx, err);
	else
		r = profile_in_place(ctx, err);
	if (r == 0)
		r = drop_privs(ctx, err);
	if (r == 0 && ctx->ready_handshake)
		r = report_ready(ctx, err);
	if (r == 0)
		r = wait_block_fd(ctx, plan->sync.block_fd);
	return r;
}

/* pid 1 with the payload as its child: locks, the release and exec pipes, the child. The
 * child may share this frame's memory until it execs (launch_spawn): it never returns. */
_noreturn_ static void start_under_pid1(const struct launch_ctx *ctx, char **envp, sigset_t *mask)
{
	const struct plan *plan = ctx->plan;
	static struct nsrun_error err; /* see error.h */
	int *fds; /* the payload closes them: pid 1's pipe ends, then the locks */
	struct launch_child child;
	size_t n_locks = 0;
	int ready[2] = { -1, -1 }, execd[2] = { -1, -1 };
	sigset_t set;
	pid_t pid;

	fds = xcalloc(strv_length(plan->sync.lock_files) + 2, sizeof(int));
	if (take_locks(plan, fds + 2, &n_locks, &err) < 0)
		launch_fail(ctx, &err);
	if (pipe2(ready, O_CLOEXEC) < 0 || pipe2(execd, O_CLOEXEC) < 0) {
		error_set(&err, errno, "pipe");
		launch_fail(ctx, &err);
	}
	/* No signal may be lost between the fork and pid 1's first wait. */
	reaper_signal_set(&set);
	sigprocmask(SIG_BLOCK, &set, mask);
	/* The payload's parent is pid 1, visible from here: getppid() is exact. Taken
	 * before the fork: a getppid() in the child could already see a new parent. */
	child.ctx = *ctx;
	child.ctx.parent_life_fd = -1;
	child.ctx.expected_ppid = getpid();
	child.envp = envp;
	child.mask = mask;
	child.ready_fd = ready[0];
	fds[0] = ready[1];
	fds[1] = execd[0];
	child.close_fds = fds;
	child.n_close = n_locks + 2;
	pid = launch_spawn(&child, &err);
	if (pid < 0)
		launch_fail(ctx, &err);
	close(ready[0]);
	close(execd[1]);
	run_pid1(ctx, pid, ready[1], execd[0], fds + 2, n_locks);
}

void setup_child(struct launch_ctx *ctx)
{
	const struct plan *plan = ctx->plan;
	static struct nsrun_error err; /* see error.h */
	_cleanup_strv_free_ char **envp = NULL;
	const char *cwd;
	sigset_t mask;

	sigprocmask(SIG_SETMASK, NULL, &mask);
	if (prepare(ctx, &err) < 0 || enter_cwd(ctx, &cwd, &err) < 0)
		launch_fail(ctx, &err);
	/* execvp searches the plan's PATH, in place too. */
	envp = strv_copy(plan->proc.envp);
	if (cwd)
		env_set(&envp, "PWD", cwd);
	if (plan->proc.new_session && new_session(ctx, &err) < 0)
		launch_fail(ctx, &err);
	/* Ctrl-C and job control go to the sandbox, not to nsrun (bwrap PR #735). */
	if (ctx->tty_foreground)
		supervise_tty_take();
	if (plan->proc.exec_label && set_exec_label(ctx, &err) < 0)
		launch_fail(ctx, &err);
	if (!needs_reaper(ctx))
		launch_payload(ctx, envp, &mask);
	start_under_pid1(ctx, envp, &mask);
}
