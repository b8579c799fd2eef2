/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * doctor.c: `nsrun --doctor`. Each check reads /proc or /sys, or probes a syscall in a
 * forked child that exits at once, so the caller's process is never changed. A check
 * says OK, WARN (nsrun works, something is degraded) or FAIL (a sandbox or an option
 * will not work as this user), with what to do. doctor_explain() reuses the user
 * namespace checks to name the cause of a failed sandbox.
 */
#include "config.h"

#include "doctor.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "apparmor.h"
#include "cgroup.h"
#include "landlock.h"
#include "loopback.h"
#include "macros.h"
#include "mount.h"
#include "mountinfo.h"
#include "reaper.h"
#include "syscall.h"
#include "util.h"

#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008U
#endif

const char *doctor_level_name(enum doctor_level level)
{
	static const char *const names[DOCTOR_LEVEL_MAX] = {
		[DOCTOR_OK] = "ok",
		[DOCTOR_WARN] = "warn",
		[DOCTOR_FAIL] = "fail",
	};

	return (unsigned)level < DOCTOR_LEVEL_MAX ? names[level] : "?";
}

_printf_(4, 5) static struct doctor_check *add(struct doctor_report *r, enum doctor_level level,
					       const char *name, const char *fmt, ...)
{
	struct doctor_check *c;
	va_list ap;

	if (r->n == DOCTOR_MAX_CHECKS)
		abort(); /* programmer error: raise DOCTOR_MAX_CHECKS */
	c = &r->checks[r->n++];
	*c = (struct doctor_check){ .level = level };
	snprintf(c->name, sizeof(c->name), "%s", name);
	va_start(ap, fmt);
	vsnprintf(c->text, sizeof(c->text), fmt, ap);
	va_end(ap);
	return c;
}

_printf_(2, 3) static void fix(struct doctor_check *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->fix, sizeof(c->fix), fmt, ap);
	va_end(ap);
}

/* First line of a /proc or /sys file without its newline; false when unreadable. */
static bool read_line(const char *path, char *buf, size_t len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0 || len == 0)
		return false;
	n = read_full(fd, buf, len - 1);
	if (n < 0)
		return false;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

/* A numeric sysctl, or -1 when absent or unreadable. */
static long read_sysctl(const char *path)
{
	char buf[32];
	char *end;
	long v;

	if (!read_line(path, buf, sizeof(buf)))
		return -1;
	v = strtol(buf, &end, 10);
	return end != buf ? v : -1;
}

/* The "Seccomp:" mode of this process (0 none, 1 strict, 2 filter), -1 unknown. */
static int seccomp_mode(void)
{
	_cleanup_free_ char *status = NULL;
	_cleanup_close_ int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	size_t len;
	const char *p;

	if (fd < 0 || read_all(fd, 1 << 16, &status, &len) < 0)
		return -1;
	p = strstr(status, "\nSeccomp:");
	return p ? atoi(p + strlen("\nSeccomp:")) : -1;
}

/* Whether this process is in the first user namespace (its uid_map maps every id). */
static bool in_initial_userns(void)
{
	char line[128];
	unsigned long inner, outer, count;

	return read_line("/proc/self/uid_map", line, sizeof(line)) &&
	       sscanf(line, "%lu %lu %lu", &inner, &outer, &count) == 3 && inner == 0 &&
	       outer == 0 && count == 4294967295UL;
}

/* Why the kernel refuses a new procfs here, or NULL: mounts over /proc's entries, as
 * container runtimes mask it (read-only or /dev/null binds, tmpfs), which a new user
 * namespace inherits locked; the kernel then mounts a new procfs only where the old
 * one is fully visible (mount_too_revealing). binfmt_misc's mount point is an empty
 * directory, which does not count. Names three of them. */
struct proc_masks {
	char *list; /* the first three, comma-separated */
	size_t size, n, used;
};

static bool note_proc_mask(const struct mountinfo_entry *e, void *data)
{
	struct proc_masks *m = data;

	if (strncmp(e->mountpoint, "/proc/", 6) != 0 ||
	    strcmp(e->mountpoint, "/proc/sys/fs/binfmt_misc") == 0)
		return false;
	if (m->n++ < 3 && m->used < m->size)
		m->used += (size_t)snprintf(m->list + m->used, m->size - m->used, "%s%s",
					    m->n > 1 ? ", " : "", e->mountpoint);
	return false;
}

static const char *proc_mask_cause(char *buf, size_t len)
{
	_cleanup_close_ int fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	char list[128] = "";
	struct proc_masks m = { .list = list, .size = sizeof(list) };

	(void)mountinfo_any(fd, NULL, note_proc_mask, &m);
	if (m.n == 0)
		return NULL;
	snprintf(buf, len,
		 "the host's /proc has mounts over its entries (%s%s), as container runtimes "
		 "mask it: the kernel refuses a new procfs unless the old one is fully visible",
		 list, m.n > 3 ? ", ..." : "");
	return buf;
}

/* Runs fn in a forked child; returns what it returned (0 or an errno value, < 256). */
static int in_child(int (*fn)(void))
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return errno;
	if (pid == 0)
		_exit(fn() & 0xff);
	st = reaper_wait(pid, 0);
	if (st < 0)
		return -st;
	return WIFEXITED(st) ? WEXITSTATUS(st) : EIO;
}

static int try_unshare_user(void)
{
	return unshare(CLONE_NEWUSER) < 0 ? errno : 0;
}

/* nsrun creates its sandbox with clone(2), which a filter may treat apart from unshare. */
static int try_clone_user(void)
{
	pid_t pid = sys_clone_fork(CLONE_NEWUSER | SIGCHLD);
	int st;

	if (pid < 0)
		return errno;
	if (pid == 0)
		_exit(0);
	st = reaper_wait(pid, 0);
	return st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : EIO;
}

/* clone3(NULL, 0) is EINVAL on any kernel that has it; a filter typically says ENOSYS. */
static int try_clone3(void)
{
	return sys_clone3_probe() < 0 && errno != EINVAL ? errno : 0;
}

static bool confined_by_nsrun(void)
{
	char profile[256];

	return apparmor_profile(profile, sizeof(profile)) &&
	       strcmp(profile, APPARMOR_PROFILE_USERNS) == 0;
}

/* Why this process cannot create a working user namespace, in a few words (e.g.
 * "user.max_user_namespaces is 0"), or NULL when nothing known blocks it. */
static const char *doctor_userns_cause(char *buf, size_t len)
{
	bool unpriv = geteuid() != 0;
	int e;

	if (read_sysctl("/proc/sys/user/max_user_namespaces") == 0)
		return snprintf(buf, len, "user.max_user_namespaces is 0"), buf;
	if (unpriv && read_sysctl("/proc/sys/kernel/unprivileged_userns_clone") == 0)
		return snprintf(buf, len, "kernel.unprivileged_userns_clone is 0"), buf;
	if (unpriv && read_sysctl("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == 1 &&
	    !confined_by_nsrun())
		return snprintf(buf, len,
				"AppArmor restricts unprivileged user namespaces "
				"(kernel.apparmor_restrict_unprivileged_userns=1) and nsrun runs "
				"without its AppArmor profile"),
		       buf;
	e = in_child(try_unshare_user);
	if (e == 0)
		e = in_child(try_clone_user);
	if (e == 0)
		return NULL;
	if ((e == EPERM || e == ENOSYS) && seccomp_mode() == 2)
		return snprintf(buf, len,
				"a seccomp filter (a container's?) blocks creating user "
				"namespaces (%s)",
				strerror(e)),
		       buf;
	if (e == ENOSPC)
		return snprintf(buf, len,
				"the user namespace limit is reached (user.max_user_namespaces "
				"or the nesting depth of 32)"),
		       buf;
	return snprintf(buf, len, "creating a user namespace fails (%s)", strerror(e)), buf;
}

void doctor_explain(struct nsrun_error *err)
{
	char cause[DOCTOR_TEXT_MAX];

	/* Under bubblewrap's name the message stays bubblewrap's: clients (glycin) match it. */
	if (strcmp(log_program(), "bwrap") == 0)
		return;
	/* A Landlock boundary this kernel cannot build: the message names the cause. */
	if (err->status == NSRUN_EXIT_FAIL_CLOSED &&
	    (err->code == ENOSYS || err->code == EOPNOTSUPP)) {
		if (!strstr(err->msg, "nsrun --doctor"))
			error_append(err, " (run 'nsrun --doctor')");
		return;
	}
	if (err->code == EPERM && strncmp(err->msg, "Can't mount proc on ", 20) == 0) {
		if (proc_mask_cause(cause, sizeof(cause)))
			error_append(err, " (cause: %s; run 'nsrun --doctor')", cause);
		return;
	}
	if (err->code != EPERM && err->code != EACCES && err->code != ENOSPC)
		return;
	if (strstr(err->msg, "nsrun --doctor") || !doctor_userns_cause(cause, sizeof(cause)))
		return;
	error_append(err, " (cause: %s; run 'nsrun --doctor')", cause);
}

/* ---- the checks ---- */

static void check_kernel(struct doctor_report *r)
{
	struct utsname u;
	unsigned major = 0, minor = 0;
	struct doctor_check *c;

	if (uname(&u) < 0 || sscanf(u.release, "%u.%u", &major, &minor) != 2) {
		add(r, DOCTOR_WARN, "kernel", "cannot read the kernel version");
		return;
	}
	if (major > 5 || (major == 5 && minor >= 12)) {
		add(r, DOCTOR_OK, "kernel", "Linux %s", u.release);
		return;
	}
	c = add(r, major > 3 || (major == 3 && minor >= 8) ? DOCTOR_WARN : DOCTOR_FAIL, "kernel",
		"Linux %s is older than 5.12: nsrun falls back to mount(2) and lacks features",
		u.release);
	fix(c, "use Linux 5.12 or later (6.12 or later for every --landlock-* option)");
}

static void check_mount_api(struct doctor_report *r)
{
	struct doctor_check *c;
	int missing = mount_api_missing();

	if (missing == 0) {
		add(r, DOCTOR_OK, "mount-api",
		    "fd-based mount API (open_tree, move_mount, mount_setattr, fsopen)");
		return;
	}
	c = add(r, DOCTOR_WARN, "mount-api",
		"%d of open_tree, move_mount, mount_setattr, fsopen are refused (ENOSYS, or "
		"EPERM from a seccomp filter): nsrun uses the legacy mount(2) path",
		missing);
	fix(c, "Linux 5.12 or later, or a seccomp policy that allows these calls");
}

enum {
	OVL_NO_USERNS = 1 << 0,
	OVL_NO_TMPFS = 1 << 1,
	OVL_NO_WHITEOUT = 1 << 2,
	OVL_NO_OVERLAY = 1 << 3,
};

static int write_file(const char *path, const char *text)
{
	_cleanup_close_ int fd = open(path, O_WRONLY | O_CLOEXEC);

	return fd >= 0 && write_all(fd, text, strlen(text)) == 0 ? 0 : -1;
}

/* In a new user and mount namespace: a tmpfs on /tmp, a whiteout (a 0/0 character device,
 * what --overlay-hide writes) and an overlay with it. Returns OVL_* bits of what failed. */
static int try_overlay(void)
{
	char map[64];
	uid_t uid = geteuid();
	gid_t gid = getegid();
	int bad = 0;

	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
		return OVL_NO_USERNS;
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)uid);
	if (write_file("/proc/self/uid_map", map) < 0)
		return OVL_NO_USERNS;
	(void)write_file("/proc/self/setgroups", "deny\n");
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)gid);
	if (write_file("/proc/self/gid_map", map) < 0)
		return OVL_NO_USERNS;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("tmpfs", "/tmp", "tmpfs", 0, "mode=0700") < 0)
		return OVL_NO_TMPFS;
	if (mkdir("/tmp/l", 0700) < 0 || mkdir("/tmp/u", 0700) < 0 || mkdir("/tmp/w", 0700) < 0 ||
	    mkdir("/tmp/m", 0700) < 0)
		return OVL_NO_TMPFS;
	if (mknod("/tmp/u/wh", S_IFCHR | 0600, makedev(0, 0)) < 0)
		bad |= OVL_NO_WHITEOUT;
	if (mount("overlay", "/tmp/m", "overlay", MS_RDONLY,
		  "lowerdir=/tmp/l,upperdir=/tmp/u,workdir=/tmp/w") < 0)
		bad |= OVL_NO_OVERLAY;
	return bad;
}

static void check_overlay(struct doctor_report *r)
{
	struct doctor_check *c;
	int bad = in_child(try_overlay);

	if (bad & (OVL_NO_USERNS | OVL_NO_TMPFS)) {
		c = add(r, DOCTOR_WARN, "overlay",
			"not checked: no user and mount namespace with a tmpfs could be set up");
		fix(c, "see the userns lines");
		return;
	}
	if (bad & OVL_NO_WHITEOUT) {
		c = add(r, DOCTOR_WARN, "whiteouts",
			"creating a whiteout in a user namespace fails: explicit --overlay-hide "
			"cannot work without root");
		fix(c, "Linux 5.8 or later");
	} else {
		add(r, DOCTOR_OK, "whiteouts", "whiteouts in a user namespace (--overlay-hide)");
	}
	if (bad & OVL_NO_OVERLAY) {
		c = add(r, DOCTOR_WARN, "overlay",
			"overlayfs cannot be mounted in a user namespace: --overlay, "
			"--tmp-overlay, --ro-overlay and explicit --overlay-hide need root");
		fix(c, "Linux 5.11 or later with overlayfs");
	} else {
		add(r, DOCTOR_OK, "overlay", "overlayfs in a user namespace");
	}
}

static void check_userns_sysctls(struct doctor_report *r, bool unpriv)
{
	long max = read_sysctl("/proc/sys/user/max_user_namespaces");
	long clone = read_sysctl("/proc/sys/kernel/unprivileged_userns_clone");
	struct doctor_check *c;

	if (max == 0) {
		c = add(r, DOCTOR_FAIL, "max-user-namespaces",
			"user.max_user_namespaces is 0: no user namespace can be created");
		fix(c, "sysctl -w user.max_user_namespaces=15000 (and in /etc/sysctl.d)");
	} else {
		add(r, DOCTOR_OK, "max-user-namespaces", "user.max_user_namespaces is %ld", max);
	}
	if (clone < 0) {
		add(r, DOCTOR_OK, "unprivileged-userns-clone",
		    "kernel.unprivileged_userns_clone is absent (no such switch)");
	} else if (clone == 0) {
		c = add(r, unpriv ? DOCTOR_FAIL : DOCTOR_WARN, "unprivileged-userns-clone",
			"kernel.unprivileged_userns_clone is 0: only root can use nsrun");
		fix(c, "sysctl -w kernel.unprivileged_userns_clone=1 (and in /etc/sysctl.d)");
	} else {
		add(r, DOCTOR_OK, "unprivileged-userns-clone",
		    "kernel.unprivileged_userns_clone is %ld", clone);
	}
}

/* Ubuntu 23.10+: unconfined processes lose their capabilities in a new user namespace
 * unless an AppArmor profile with "userns," covers the binary. */
static void check_apparmor(struct doctor_report *r, bool unpriv)
{
	long restrict_userns =
		read_sysctl("/proc/sys/kernel/apparmor_restrict_unprivileged_userns");
	_cleanup_free_ char *profiles = NULL;
	_cleanup_close_ int fd =
		open("/sys/kernel/security/apparmor/profiles", O_RDONLY | O_CLOEXEC);
	struct doctor_check *c;
	size_t len;
	bool loaded;

	if (restrict_userns <= 0) {
		add(r, DOCTOR_OK, "apparmor-userns",
		    "no AppArmor restriction of unprivileged user namespaces");
		return;
	}
	loaded = fd >= 0 && read_all(fd, 1 << 22, &profiles, &len) == 0 &&
		 (str_has_prefix(profiles, "nsrun ") || strstr(profiles, "\nnsrun "));
	if (confined_by_nsrun() && read_sysctl("/proc/sys/kernel/yama/ptrace_scope") >= 2) {
		add(r, DOCTOR_OK, "apparmor-userns",
		    "AppArmor restricts user namespaces; nsrun runs under its profile");
		return;
	}
	if (confined_by_nsrun()) {
		/* AppArmor lets an unconfined tracer follow a traced process into any profile. */
		c = add(r, DOCTOR_WARN, "apparmor-userns",
			"nsrun runs under its profile, but a process that traces nsrun from its "
			"start keeps control of it there (kernel.yama.ptrace_scope < 2), so any "
			"local user can reach the profile's user namespace grant");
		fix(c, "sysctl kernel.yama.ptrace_scope=2, where the restriction must hold "
		       "against local users");
		return;
	}
	c = add(r, unpriv ? DOCTOR_FAIL : DOCTOR_WARN, "apparmor-userns",
		"kernel.apparmor_restrict_unprivileged_userns=1 and this nsrun runs unconfined "
		"(profile %s): its sandboxes get no capabilities",
		loaded ? "loaded, but it attaches to /usr/bin/nsrun only" : "not loaded");
	fix(c, loaded ? "run /usr/bin/nsrun (or /usr/bin/bwrap from nsrun-bwrap)" :
			"install the nsrun package, or apparmor_parser -r /etc/apparmor.d/nsrun");
}

static void check_userns_probe(struct doctor_report *r)
{
	struct doctor_check *c;
	int e_unshare = in_child(try_unshare_user);
	int e_clone = in_child(try_clone_user);
	int e_clone3 = in_child(try_clone3);
	char cause[200];

	if (e_unshare == 0 && e_clone == 0) {
		add(r, DOCTOR_OK, "userns", "this user can create user namespaces");
	} else {
		/* nsrun itself only needs clone(2); nested sandboxes need unshare(2) too. */
		c = add(r, e_clone ? DOCTOR_FAIL : DOCTOR_WARN, "userns",
			"creating a user namespace fails (unshare: %s, clone: %s): %s",
			e_unshare ? strerror(e_unshare) : "ok", e_clone ? strerror(e_clone) : "ok",
			doctor_userns_cause(cause, sizeof(cause)) ?: "cause unknown");
		fix(c, "see the lines above; in a container, allow unshare, clone and clone3 "
		       "with CLONE_NEWUSER in its seccomp profile (or run it privileged)");
	}
	if (seccomp_mode() == 2 && (e_unshare == EPERM || e_unshare == ENOSYS)) {
		c = add(r, DOCTOR_FAIL, "seccomp", "a seccomp filter blocks unshare(2): %s",
			strerror(e_unshare));
		fix(c, "run nsrun outside this container, or relax its seccomp profile");
	} else if (e_clone3 != 0) {
		c = add(r, DOCTOR_WARN, "seccomp",
			"clone3(2) answers %s (a seccomp filter?): nsrun does not need it, "
			"programs in the sandbox may",
			strerror(e_clone3));
		fix(c, "let the container's seccomp profile allow clone3");
	} else {
		add(r, DOCTOR_OK, "seccomp",
		    seccomp_mode() == 2 ? "a seccomp filter is active but lets unshare and clone3 "
					  "through" :
					  "no seccomp filter on this process");
	}
}

/* One line per --landlock-* option: whether landlock_describe_abi() accepts it here. */
static void check_landlock_option(struct doctor_report *r, int abi, const char *opt,
				  struct landlock_config *cfg)
{
	char *paths[] = { (char *)"/", NULL };
	struct nsrun_error err = { 0 };
	struct landlock_desc desc;
	struct doctor_check *c;

	cfg->enabled = true;
	cfg->rw = paths;
	if (abi <= 0) {
		add(r, DOCTOR_WARN, opt + 2, "%s exits 126 here: no Landlock", opt);
	} else if (landlock_describe_abi(cfg, abi, &desc, &err) < 0) {
		c = add(r, DOCTOR_WARN, opt + 2, "%s exits 126 here: %s", opt, err.msg);
		fix(c, "a newer kernel (see the landlock line)");
	} else if (cfg->deny_unix && desc.unix_connect == LANDLOCK_UNIX_SECCOMP) {
		add(r, DOCTOR_OK, opt + 2,
		    "%s works through a seccomp filter refusing socket(AF_UNIX) (Landlock ABI 9 "
		    "restricts it by path)",
		    opt);
	} else {
		add(r, DOCTOR_OK, opt + 2, "%s works (Landlock ABI %d)", opt, abi);
	}
}

static void check_landlock(struct doctor_report *r)
{
	int abi = landlock_query_abi();
	struct doctor_check *c;

	if (abi > 0) {
		c = add(r, abi >= 3 ? DOCTOR_OK : DOCTOR_WARN, "landlock", "Landlock ABI %d%s", abi,
			abi >= 3 ? "" :
				   ": truncation is not Landlock's before ABI 3, so --landlock-rw "
				   "refuses truncate(2) and read-only O_TRUNC opens everywhere");
		if (abi < 3)
			fix(c, "Linux 6.2 or later");
	} else {
		c = add(r, DOCTOR_FAIL, "landlock",
			"Landlock is unavailable (%s): every --landlock-* option exits 126",
			abi == -ENOSYS		? "ENOSYS: not built in, or filtered" :
			abi == -EOPNOTSUPP	? "EOPNOTSUPP: disabled at boot" :
			abi == -EPROTONOSUPPORT ? "nsrun was built with --disable-landlock" :
						  strerror(-abi));
		fix(c, "Linux 5.13+ with CONFIG_SECURITY_LANDLOCK=y and landlock in the lsm= "
		       "boot list (/sys/kernel/security/lsm)");
	}
	check_landlock_option(r, abi, "--landlock-rw", &(struct landlock_config){ 0 });
	check_landlock_option(r, abi, "--landlock-exec",
			      &(struct landlock_config){ .exec = (char *[]){ (char *)"/", NULL } });
	for (int k = 0; k < LL_PORT_KINDS; k++) {
		struct landlock_config cfg = { 0 };

		cfg.ports[k].has = true;
		check_landlock_option(r, abi, plan_landlock_port_option(k), &cfg);
	}
	check_landlock_option(r, abi, "--landlock-scope",
			      &(struct landlock_config){ .scope = true });
	check_landlock_option(r, abi, "--landlock-deny-unix",
			      &(struct landlock_config){ .deny_unix = true });
}

static void check_memfd_pidfd(struct doctor_report *r)
{
	_cleanup_close_ int mfd = memfd_create("nsrun-doctor", MFD_CLOEXEC | MFD_NOEXEC_SEAL);
	_cleanup_close_ int pfd = sys_pidfd_open(getpid(), 0);
	long policy = read_sysctl("/proc/sys/vm/memfd_noexec");
	struct doctor_check *c;

	if (mfd >= 0) {
		add(r, DOCTOR_OK, "memfd-noexec", "MFD_NOEXEC_SEAL (vm.memfd_noexec=%ld)", policy);
	} else {
		c = add(r, DOCTOR_WARN, "memfd-noexec",
			"MFD_NOEXEC_SEAL is refused (%s): only --landlock-exec's seccomp filter "
			"keeps code in memfds from running",
			strerror(errno));
		fix(c, "Linux 6.3 or later");
	}
	if (pfd >= 0) {
		add(r, DOCTOR_OK, "pidfd", "pidfd_open(2)");
	} else {
		c = add(r, DOCTOR_WARN, "pidfd", "pidfd_open(2) fails (%s)", strerror(errno));
		fix(c, "Linux 5.3 or later");
	}
}

/* Which cgroup limits (--memory-max, --pids-max, --cpu-max) nsrun can apply for this
 * user without --cgroup-parent, and how to get them where it cannot. */
static void check_cgroup(struct doctor_report *r)
{
	static struct nsrun_error err; /* see error.h */
	char where[4096 + 64], limits[64];
	struct doctor_check *c;

	if (cgroup_probe(where, sizeof(where), limits, sizeof(limits), &err) < 0) {
		c = add(r, DOCTOR_WARN, "cgroup", "no cgroup limits: %s", err.msg);
		/* The fix where pid 1 is systemd, and what works anywhere. */
		fix(c, "%s; or run without the cgroup limits, or bound each process with --rlimit",
		    strstr(err.msg, "cgroup v1") ?
			    "boot with systemd.unified_cgroup_hierarchy=1 where pid 1 is systemd" :
			    "run nsrun alone in a delegated cgroup (systemd-run --user --scope -p "
			    "Delegate=yes nsrun ...), or give --cgroup-parent a delegated cgroup");
		return;
	}
	if (geteuid() == 0)
		add(r, DOCTOR_OK, "cgroup", "limits on %s, in %s", limits, where);
	else
		add(r, DOCTOR_OK, "cgroup",
		    "limits on %s, in %s (delegated; nsrun must be the only process in it, as "
		    "under systemd-run --user --scope -p Delegate=yes)",
		    limits, where);
}

/* A masked /proc: --proc in a new pid namespace mounts a new procfs, which the kernel
 * refuses in any user namespace but the first (root there without one still can). */
static void check_proc(struct doctor_report *r)
{
	char cause[DOCTOR_TEXT_MAX];
	bool host_root = geteuid() == 0 && in_initial_userns();
	struct doctor_check *c;

	if (!proc_mask_cause(cause, sizeof(cause))) {
		add(r, DOCTOR_OK, "proc",
		    "no mounts over /proc's entries: a sandbox can mount a new /proc");
		return;
	}
	c = add(r, host_root ? DOCTOR_WARN : DOCTOR_FAIL, "proc",
		"--proc with --unshare-pid fails%s: %s", host_root ? " with --unshare-user" : "",
		cause);
	fix(c, "give the container an unmasked /proc (docker run --security-opt "
	       "systempaths=unconfined; Kubernetes: procMount: Unmasked), or leave out "
	       "--unshare-pid (--proc then binds this /proc)");
}

/* In a new network namespace, the child's lo: 0 when nsrun's loopback setup had nothing
 * refused; 128 + errno when RTM_NEWADDR was refused but lo came up with 127.0.0.1; an
 * errno when the setup fails; 255 when no network namespace could be made. */
static int try_loopback(void)
{
	struct nsrun_error err = { 0 };
	int refused = 0;

	if (unshare(CLONE_NEWNET | (geteuid() != 0 ? CLONE_NEWUSER : 0)) < 0)
		return 255;
	if (loopback_setup_report(&refused, &err) < 0)
		return err.code > 0 && err.code < 128 ? err.code : EIO;
	return refused ? 128 + (refused < 127 ? refused : EIO) : 0;
}

static void check_loopback(struct doctor_report *r)
{
	int e = in_child(try_loopback);
	struct doctor_check *c;

	if (e == 0) {
		add(r, DOCTOR_OK, "loopback", "a new network namespace gets lo up with 127.0.0.1");
	} else if (e == 255) {
		c = add(r, DOCTOR_WARN, "loopback",
			"not checked: no network namespace could be made");
		fix(c, "see the userns lines");
	} else if (e > 128) {
		c = add(r, DOCTOR_WARN, "loopback",
			"RTM_NEWADDR is refused (%s), yet lo comes up with the kernel's 127.0.0.1: "
			"--unshare-net works; bubblewrap fails here (loopback: Failed RTM_NEWADDR)",
			strerror(e - 128));
		fix(c, "nothing for nsrun; let programs that run bwrap run nsrun as bwrap");
	} else {
		c = add(r, DOCTOR_FAIL, "loopback",
			"lo cannot be set up in a new network namespace (%s): --unshare-net fails",
			strerror(e));
		fix(c,
		    "allow rtnetlink (RTM_NEWLINK) in new network namespaces, or leave out --unshare-net");
	}
}

/* An owner no other user can act as: root, this user, or, in a user namespace but the
 * first, the overflow uid, which stands for the ids it does not map (root's files show
 * so to the root of a nested namespace): no one in it can act as them either. */
static bool safe_owner(uid_t uid)
{
	return uid == 0 || uid == geteuid() ||
	       ((long)uid == read_sysctl("/proc/sys/kernel/overflowuid") && !in_initial_userns());
}

/* A directory others can change: written by group or others without the sticky bit,
 * or owned by someone else than root and this user (its owner can rename it away). */
static bool others_can_change(const struct stat *st)
{
	return ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(st->st_mode & S_ISVTX)) ||
	       !safe_owner(st->st_uid);
}

/* The first directory on the way from path up to / that others can change, written
 * into dir; false when every one is safe. */
static bool unsafe_ancestor(const char *path, char *dir, size_t size)
{
	struct stat st;
	char *slash;

	snprintf(dir, size, "%s", path);
	while ((slash = strrchr(dir, '/'))) {
		*(slash == dir ? slash + 1 : slash) = '\0';
		if (stat(dir, &st) == 0 && others_can_change(&st))
			return true;
		if (slash == dir)
			break;
	}
	return false;
}

/* nsrun refuses to run setuid; a binary others can replace, itself or by renaming a
 * directory above it, is a hole for every caller. */
static void check_binary(struct doctor_report *r)
{
	char exe[4096], dir[4096];
	struct stat st;
	struct doctor_check *c;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n < 0 || stat("/proc/self/exe", &st) < 0) {
		add(r, DOCTOR_WARN, "binary", "cannot inspect /proc/self/exe");
		return;
	}
	exe[n] = '\0';
	if (st.st_mode & (S_ISUID | S_ISGID)) {
		c = add(r, DOCTOR_FAIL, "binary", "'%s' is setuid or setgid: nsrun refuses it",
			exe);
		fix(c, "chmod u-s,g-s '%s'", exe);
	} else if ((st.st_mode & (S_IWGRP | S_IWOTH)) || !safe_owner(st.st_uid)) {
		c = add(r, DOCTOR_FAIL, "binary",
			"'%s' can be replaced by another user (mode %04o, owner %u)", exe,
			(unsigned)(st.st_mode & 07777), (unsigned)st.st_uid);
		fix(c, "chown root:root '%s' && chmod 0755 '%s'", exe, exe);
	} else if (unsafe_ancestor(exe, dir, sizeof(dir))) {
		c = add(r, DOCTOR_FAIL, "binary",
			"'%s' is below '%s', which another user can change", exe, dir);
		fix(c, "chmod go-w '%s' and make root or yourself its owner", dir);
	} else {
		add(r, DOCTOR_OK, "binary",
		    "'%s' is not setuid, and no other user can change it or a directory above it",
		    exe);
	}
}

void doctor_collect(struct doctor_report *report)
{
	bool unpriv = geteuid() != 0;

	report->n = 0;
	check_kernel(report);
	check_mount_api(report);
	check_userns_sysctls(report, unpriv);
	check_apparmor(report, unpriv);
	check_userns_probe(report);
	check_overlay(report);
	check_landlock(report);
	check_memfd_pidfd(report);
	check_cgroup(report);
	check_proc(report);
	check_loopback(report);
	check_binary(report);
}

int doctor_status(const struct doctor_report *report)
{
	for (size_t i = 0; i < report->n; i++)
		if (report->checks[i].level == DOCTOR_FAIL)
			return 1;
	return 0;
}

static void json_string(FILE *out, const char *s)
{
	_cleanup_free_ char *esc = json_escape(s);

	fprintf(out, "\"%s\"", esc);
}

/* The top-level status of --json: the worst of the checks (a WARN is not "ok"). */
static enum doctor_level worst(const struct doctor_report *report)
{
	enum doctor_level w = DOCTOR_OK;

	for (size_t i = 0; i < report->n; i++)
		if (report->checks[i].level > w)
			w = report->checks[i].level;
	return w;
}

void doctor_print(FILE *out, const struct doctor_report *report, bool json)
{
	static const char *const labels[DOCTOR_LEVEL_MAX] = { "OK  ", "WARN", "FAIL" };
	size_t count[DOCTOR_LEVEL_MAX] = { 0 };

	if (json)
		fprintf(out, "{\"version\": \"%s\", \"uid\": %u, \"status\": \"%s\", \"checks\": [",
			PACKAGE_VERSION, (unsigned)geteuid(), doctor_level_name(worst(report)));
	for (size_t i = 0; i < report->n; i++) {
		const struct doctor_check *c = &report->checks[i];

		count[c->level]++;
		if (!json) {
			fprintf(out, "%s %s: %s%s%s\n", labels[c->level], c->name, c->text,
				c->fix[0] ? "; do: " : "", c->fix);
			continue;
		}
		fprintf(out, "%s\n  {\"name\": ", i ? "," : "");
		json_string(out, c->name);
		fprintf(out, ", \"status\": \"%s\", \"message\": ", doctor_level_name(c->level));
		json_string(out, c->text);
		fputs(", \"fix\": ", out);
		json_string(out, c->fix);
		fputc('}', out);
	}
	if (json)
		fputs("\n]}\n", out);
	else
		fprintf(out, "%zu ok, %zu warn, %zu fail (as uid %u)\n", count[DOCTOR_OK],
			count[DOCTOR_WARN], count[DOCTOR_FAIL], (unsigned)geteuid());
}
