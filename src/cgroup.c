/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cgroup.c: the sandbox's cgroup v2. The parent comes from --cgroup-parent, else for
 * root from <hierarchy>/nsrun, else from nsrun's own cgroup when it is delegated and
 * nsrun is alone in it (systemd-run --user --scope -p Delegate=yes): nsrun then moves
 * itself to a leaf of its own, as cgroup v2 passes controllers on only from cgroups
 * without processes. The sandbox is cloned straight into its cgroup (clone3), so no
 * process of it ever runs without the limits.
 */
#include "config.h"

#include "cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mountinfo.h"
#include "util.h"

#define CGROUP2_MAGIC 0x63677270
#define CGROUP_DRAIN_MS 5000
#define CGROUP_LOCK_WAIT_MS 2000

/* The controllers plan_limits[] use; in a set, each is 1u << its index. */
static const char *const controllers[] = { "memory", "pids", "cpu" };

static ssize_t read_at(int dfd, const char *name, char *buf, size_t size)
{
	_cleanup_close_ int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return n;
}

static int write_at(int dfd, const char *name, const char *text)
{
	_cleanup_close_ int fd = openat(dfd, name, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	ssize_t n;

	/* cgroup files take one write; a short one is an error like any other. */
	n = write(fd, text, strlen(text));
	if (n < 0)
		return -errno;
	return n == (ssize_t)strlen(text) ? 0 : -EIO;
}

static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\n' || !p[n]))
			return true;
	return false;
}

/* The controller of a limit file, "<controller>.<name>", as its bit. */
static unsigned controller_of(const char *file)
{
	for (size_t i = 0; i < ARRAY_SIZE(controllers); i++) {
		size_t n = strlen(controllers[i]);

		if (strncmp(file, controllers[i], n) == 0 && file[n] == '.')
			return 1u << i;
	}
	abort(); /* a row of plan_limits[] whose controller is missing above */
}

static unsigned wanted(const struct limits_config *l)
{
	unsigned want = 0;
	uint64_t v;

	for (size_t i = 0; i < plan_n_limits; i++)
		if (plan_limit_value(&plan_limits[i], l, &v) != PLAN_LIMIT_UNSET)
			want |= controller_of(plan_limits[i].file);
	return want;
}

static bool is_cgroup2(int fd)
{
	struct statfs sfs;

	return fstatfs(fd, &sfs) == 0 && sfs.f_type == CGROUP2_MAGIC;
}

/* What every refusal about the machine's cgroups offers besides its own fix, which may not
 * apply (a boot flag where pid 1 is not systemd, a systemd scope): the run without them. */
static const char no_limits_fix[] = "; or run without the cgroup limits, or bound each "
				    "process with --rlimit instead (run 'nsrun --doctor')";

/* FIX ends the refusal: no_limits_fix, or "" for --doctor, which says it itself. */
static int open_hierarchy(char *mnt, size_t size, const char *fix, struct nsrun_error *err)
{
	static const char *const where[] = { "/sys/fs/cgroup", "/sys/fs/cgroup/unified" };

	for (size_t i = 0; i < ARRAY_SIZE(where); i++) {
		int fd = open(where[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0 && is_cgroup2(fd)) {
			snprintf(mnt, size, "%s", where[i]);
			return fd;
		}
		if (fd >= 0)
			close(fd);
	}
	return error_fail_closed(
		err, error_set(err, 0,
			       "cgroup v2 is not mounted at /sys/fs/cgroup (this host uses "
			       "cgroup v1): the limits need the unified hierarchy (boot with "
			       "systemd.unified_cgroup_hierarchy=1 where pid 1 is systemd)%s",
			       fix));
}

/* nsrun's own cgroup as /proc/self/cgroup's "0::" line names it. */
static int own_path(char *buf, size_t size)
{
	char text[8192];
	_cleanup_close_ int fd = open("/proc/self/cgroup", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, text, sizeof(text) - 1);
	char *line, *end;

	if (n <= 0)
		return -EIO;
	text[n] = '\0';
	line = strncmp(text, "0::", 3) == 0 ? text : strstr(text, "\n0::");
	if (!line)
		return -ENOENT;
	line += line == text ? 3 : 4;
	end = strchrnul(line, '\n');
	snprintf(buf, size, "%.*s", (int)(end - line), line);
	return 0;
}

/* Every controller of WANT exists in the hierarchy (MNT_FD): not taken by cgroup v1. */
static int in_hierarchy(int mnt_fd, const char *mnt, unsigned want, struct nsrun_error *err)
{
	char avail[512] = "";

	(void)read_at(mnt_fd, "cgroup.controllers", avail, sizeof(avail));
	for (size_t i = 0; i < ARRAY_SIZE(controllers); i++)
		if ((want & (1u << i)) && !has_word(avail, controllers[i]))
			return error_fail_closed(
				err, error_set(err, 0,
					       "cgroup v2 (%s) has no %s controller: this "
					       "host uses cgroup v1 for it (boot with "
					       "systemd.unified_cgroup_hierarchy=1 where pid 1 "
					       "is systemd)%s",
					       mnt, controllers[i], no_limits_fix));
	return 0;
}

/* Every controller of WANT enabled in DFD's cgroup.subtree_control; ENABLED gets the
 * ones nsrun turned on. */
static int enable(int dfd, const char *path, unsigned want, unsigned *enabled,
		  struct nsrun_error *err)
{
	char avail[512], on[512], word[16];
	int r;

	if (read_at(dfd, "cgroup.controllers", avail, sizeof(avail)) < 0 ||
	    read_at(dfd, "cgroup.subtree_control", on, sizeof(on)) < 0)
		return error_fail_closed(err, error_set(err, errno,
							"Can't read the controllers of %s", path));
	for (size_t i = 0; i < ARRAY_SIZE(controllers); i++) {
		if (!(want & (1u << i)) || has_word(on, controllers[i]))
			continue;
		if (!has_word(avail, controllers[i]))
			return error_fail_closed(
				err,
				error_set(err, 0,
					  "the %s controller is not available in %s: the "
					  "cgroup above it must pass it on (+%s in its "
					  "cgroup.subtree_control)%s",
					  controllers[i], path, controllers[i], no_limits_fix));
		snprintf(word, sizeof(word), "+%s", controllers[i]);
		r = write_at(dfd, "cgroup.subtree_control", word);
		if (r == -EBUSY)
			return error_fail_closed(
				err, error_set(err, 0,
					       "Can't enable the %s controller in %s: it holds "
					       "processes itself, and cgroup v2 passes "
					       "controllers on only from cgroups without any; "
					       "give --cgroup-parent an empty cgroup",
					       controllers[i], path));
		if (r < 0)
			return error_fail_closed(err,
						 error_set(err, -r,
							   "Can't enable the %s controller in %s",
							   controllers[i], path));
		if (enabled)
			*enabled |= 1u << i;
	}
	return 0;
}

static void disable(int dfd, unsigned enabled)
{
	char word[16];

	for (size_t i = 0; i < ARRAY_SIZE(controllers); i++)
		if (enabled & (1u << i)) {
			snprintf(word, sizeof(word), "-%s", controllers[i]);
			(void)write_at(dfd, "cgroup.subtree_control", word);
		}
}

/* Whether the cgroup DFD can take the sandbox's: cgroup v2 lets no process live beside
 * child cgroups (the hierarchy's root aside, which has no cgroup.type), nor a domain
 * cgroup below a threaded one. Checked before anything is written: pids and cpu (threaded
 * controllers) can be enabled in a cgroup with processes, which then becomes a thread
 * root, and only clone3 would fail, for no reason it could name. WHAT prefixes the
 * path; FIX says what to do. */
static int check_parent(int dfd, const char *what, const char *path, const char *fix,
			struct nsrun_error *err)
{
	char type[64], procs[64];
	ssize_t n = read_at(dfd, "cgroup.type", type, sizeof(type));

	if (n == -ENOENT)
		return 0;
	/* A threaded cgroup lists no processes of its own (EOPNOTSUPP): its type speaks. */
	if (n >= 0 && (n = read_at(dfd, "cgroup.procs", procs, sizeof(procs))) == -EOPNOTSUPP)
		n = 0;
	if (n < 0)
		return error_fail_closed(err, error_set(err, (int)-n, "Can't read the cgroup '%s'",
							path));
	if (n > 0)
		return error_fail_closed(
			err,
			error_set(err, 0,
				  "%s'%s' holds processes: cgroup v2 lets no process live "
				  "beside child cgroups (the no-internal-process rule), so the "
				  "sandbox's cgroup cannot be made in it; %s",
				  what, path, fix));
	type[strcspn(type, "\n")] = '\0';
	if (strcmp(type, "domain") != 0)
		return error_fail_closed(
			err, error_set(err, 0,
				       "%s'%s' is a '%s' cgroup: cgroup v2 makes no domain cgroup "
				       "(which the limits need) in a threaded subtree; %s",
				       what, path, type, fix));
	return 0;
}

/* The lock nsruns hold while they change the controllers of the cgroup DFD or make a
 * cgroup in it. On cgroup.kill (Linux 5.14, not in the hierarchy's root) where nsrun
 * may open it: mode 0200, so nobody else can open it at all. Else on
 * cgroup.subtree_control, which anyone may open for reading, and so lock: a process that
 * holds it delays nsrun by CGROUP_LOCK_WAIT_MS at most, after which nsrun goes on without
 * the lock (-EBUSY; undo_enabled then leaves the controllers on). Closing the fd unlocks;
 * -errno when it cannot be taken. */
static int lock_controllers(int dfd)
{
	int fd = openat(dfd, "cgroup.kill", O_WRONLY | O_CLOEXEC), r;

	if (fd < 0)
		fd = openat(dfd, "cgroup.subtree_control", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (unsigned ms = 0; flock(fd, LOCK_EX | LOCK_NB) < 0; ms += 10) {
		r = errno == EWOULDBLOCK ? -EBUSY : -errno;
		if ((r != -EBUSY && r != -EINTR) || ms >= CGROUP_LOCK_WAIT_MS) {
			close(fd);
			return r;
		}
		(void)nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
	}
	return fd;
}

/* Whether the cgroup DFD has a cgroup below it (or cannot be listed). */
static bool has_children(int dfd)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *de;
	bool any = false;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return true;
	}
	while (!any && (de = readdir(d)))
		any = de->d_type == DT_DIR && strcmp(de->d_name, ".") != 0 &&
		      strcmp(de->d_name, "..") != 0;
	closedir(d);
	return any;
}

/* ENABLED (what nsrun enabled in DFD) off again, unless a cgroup below may use it: under
 * the lock another nsrun's sandbox is either there already, or will enable what it needs
 * itself. Disabling under a cgroup that uses a controller would drop its limits. */
static void undo_enabled(int dfd, unsigned enabled)
{
	_cleanup_close_ int lock = -1;

	if (!enabled)
		return;
	lock = lock_controllers(dfd);
	if (lock >= 0 && !has_children(dfd))
		disable(dfd, enabled);
}

/* Whether the cgroup DFD holds no process but nsrun itself. */
static bool alone_in(int dfd)
{
	char buf[4096], *p, *end;
	pid_t self = getpid();

	if (read_at(dfd, "cgroup.procs", buf, sizeof(buf)) < 0)
		return false;
	for (p = buf; *p; p = end) {
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		if (pid != self)
			return false;
		while (*end == '\n')
			end++;
	}
	return true;
}

static void monitor_leaf(const struct cgroup *cg, char *buf, size_t size)
{
	snprintf(buf, size, "%s-monitor", cg->name);
}

/* nsrun's own cgroup as the parent: only when it is delegated to the caller and nsrun
 * is alone in it; nsrun moves to a leaf of its own so that the controllers can pass. */
static int take_own(struct cgroup *cg, const char *path, struct nsrun_error *err)
{
	char leaf[96];
	_cleanup_close_ int fd = -1;
	int r;

	if (faccessat(cg->parent_fd, "cgroup.procs", W_OK, 0) < 0 ||
	    faccessat(cg->parent_fd, "cgroup.subtree_control", W_OK, 0) < 0 ||
	    !alone_in(cg->parent_fd))
		return error_fail_closed(
			err, error_set(err, 0,
				       "No cgroup for the limits: nsrun's cgroup %s is not "
				       "delegated to you or holds other processes; run nsrun in a "
				       "scope of its own (systemd-run --user --scope -p "
				       "Delegate=yes nsrun ...) or give --cgroup-parent a cgroup "
				       "directory delegated to you%s",
				       path, no_limits_fix));
	monitor_leaf(cg, leaf, sizeof(leaf));
	if (mkdirat(cg->parent_fd, leaf, 0755) < 0 && errno != EEXIST)
		return error_fail_closed(err, error_set(err, errno, "Can't create the cgroup %s/%s",
							path, leaf));
	fd = openat(cg->parent_fd, leaf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	r = fd < 0 ? -errno : write_at(fd, "cgroup.procs", "0");
	if (r < 0) {
		int e = -r;

		(void)unlinkat(cg->parent_fd, leaf, AT_REMOVEDIR);
		return error_fail_closed(err,
					 error_set(err, e, "Can't move nsrun to the cgroup %s/%s",
						   path, leaf));
	}
	cg->own = true;
	return 0;
}

static bool same_dir(int a, int b)
{
	struct stat sa, sb;

	return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

static int open_under(int mnt_fd, const char *rel)
{
	while (*rel == '/')
		rel++;
	return *rel ? openat(mnt_fd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC) :
		      fcntl(mnt_fd, F_DUPFD_CLOEXEC, 3);
}

static bool delegating_at(const struct mountinfo_entry *e, void *mnt)
{
	return strcmp(e->mountpoint, mnt) == 0 && (mountinfo_has_opt(e->super_opts, "nsdelegate") ||
						   mountinfo_has_opt(e->mount_opts, "nsdelegate"));
}

static bool any_cgroup2_mount(int fd, bool (*fn)(const struct mountinfo_entry *, void *),
			      void *data)
{
	return mountinfo_any(fd, "cgroup2", fn, data);
}

/* The procfs instances of this process's own pid namespace (a procfs shows the pid
 * namespace of whoever mounted it; "self" names this process by its pid there), and
 * the first that is not one: by device, so that binds of parts of them (bwrap's
 * read-only /proc/sys and the like) count as theirs. Mounts covered by another are
 * looked up by path, so only what is on top counts. */
struct proc_view {
	dev_t own[16];
	size_t n_own;
	char where[4096];
};

static bool own_proc(const struct mountinfo_entry *e, void *data)
{
	struct proc_view *v = data;
	char path[4200], link[32], want[32];
	struct stat st;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/self",
		 strcmp(e->mountpoint, "/") == 0 ? "" : e->mountpoint);
	n = strcmp(e->root, "/") == 0 ? readlink(path, link, sizeof(link) - 1) : -1;
	if (n <= 0 || stat(e->mountpoint, &st) < 0 || v->n_own >= ARRAY_SIZE(v->own))
		return false;
	link[n] = '\0';
	snprintf(want, sizeof(want), "%d", (int)getpid());
	if (strcmp(link, want) == 0)
		v->own[v->n_own++] = st.st_dev;
	return false;
}

static bool foreign_proc(const struct mountinfo_entry *e, void *data)
{
	struct proc_view *v = data;
	struct stat st;

	snprintf(v->where, sizeof(v->where), "%s", e->mountpoint);
	if (stat(e->mountpoint, &st) < 0)
		return errno != ENOENT; /* gone from view: under a covered tree */
	for (size_t i = 0; i < v->n_own; i++)
		if (v->own[i] == st.st_dev)
			return false;
	return true;
}

static bool writable(const struct mountinfo_entry *e, void *where)
{
	snprintf(where, 4096, "%s", e->mountpoint);
	return mountinfo_has_opt(e->mount_opts, "rw");
}

/* The sandbox gets a cgroup namespace rooted at its cgroup; only where the hierarchy
 * treats namespaces as delegation boundaries may it not write its own limits. */
static int require_nsdelegate(const char *mnt, struct nsrun_error *err)
{
	_cleanup_close_ int fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);

	if (any_cgroup2_mount(fd, delegating_at, (void *)mnt))
		return 0;
	return error_fail_closed(
		err, error_set(err, 0,
			       "%s is mounted without nsdelegate: the sandbox could raise "
			       "its own limits (mount -o remount,nsdelegate %s, as systemd "
			       "mounts it)%s",
			       mnt, mnt, no_limits_fix));
}

/* The hierarchy's root: no cgroup.type, and processes may live beside child cgroups. */
static bool is_root_cgroup(int dfd)
{
	return faccessat(dfd, "cgroup.type", F_OK, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT;
}

/* --cgroup-parent, locked (LOCK) and checked unless it is nsrun's own cgroup (OWN_FD),
 * which nsrun takes by moving itself to a leaf. */
static int open_given(const char *given, int own_fd, struct cgroup *cg, int *lock,
		      struct nsrun_error *err)
{
	cg->parent_fd = open(given, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg->parent_fd < 0)
		return error_fail_closed(err, error_set(err, errno, "--cgroup-parent %s", given));
	if (!is_cgroup2(cg->parent_fd))
		return error_fail_closed(err,
					 error_set(err, 0,
						   "--cgroup-parent %s: not a directory of the "
						   "cgroup v2 hierarchy (%s)",
						   given, cg->mnt));
	if (own_fd >= 0 && same_dir(own_fd, cg->parent_fd) && !is_root_cgroup(cg->parent_fd))
		return take_own(cg, given, err);
	/* Without write access to its controllers there is nothing to lock: nsrun cannot
	 * change them either. */
	*lock = lock_controllers(cg->parent_fd);
	return check_parent(cg->parent_fd, "--cgroup-parent ", given,
			    "give --cgroup-parent an empty cgroup, or move those processes to a "
			    "cgroup of their own below it",
			    err);
}

static const char default_fix[] = "move them to a cgroup of their own, or give "
				  "--cgroup-parent an empty cgroup";

/* As root without --cgroup-parent: <hierarchy>/nsrun, made when missing, the controllers
 * enabled on the way. Both checked, then changed, under their locks (LOCKS: the root's,
 * nsrun's); CG records what was changed, for abandon(). */
static int open_default(int mnt_fd, unsigned want, struct cgroup *cg, char *path, size_t size,
			int *locks, struct nsrun_error *err)
{
	int r;

	cg->default_parent = true;
	snprintf(path, size, "%s/nsrun", cg->mnt);
	locks[0] = lock_controllers(mnt_fd);
	/* Not the root of the hierarchy: a cgroup namespace's, as in a container. */
	r = check_parent(mnt_fd, "the cgroup ", cg->mnt, default_fix, err);
	cg->parent_fd = openat(mnt_fd, "nsrun", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r == 0 && cg->parent_fd >= 0) {
		locks[1] = lock_controllers(cg->parent_fd);
		r = check_parent(cg->parent_fd, "the cgroup ", path, default_fix, err);
	}
	if (r == 0)
		r = enable(mnt_fd, cg->mnt, want, &cg->top_enabled, err);
	if (r < 0 || cg->parent_fd >= 0)
		return r;
	if (mkdirat(mnt_fd, "nsrun", 0755) < 0)
		return error_fail_closed(err,
					 error_set(err, errno, "Can't create the cgroup %s", path));
	cg->made_parent = true;
	cg->parent_fd = openat(mnt_fd, "nsrun", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg->parent_fd < 0)
		return error_fail_closed(err,
					 error_set(err, errno, "Can't open the cgroup %s", path));
	locks[1] = lock_controllers(cg->parent_fd);
	return 0;
}

/* Where the sandbox's cgroup is made; PATH gets its name for messages. LOCKS (two fds,
 * -1 when not taken) are held until the sandbox's cgroup is made. */
static int open_parent(const struct limits_config *l, struct cgroup *cg, char *path, size_t size,
		       int *locks, struct nsrun_error *err)
{
	char mnt[64], own[4000];
	_cleanup_close_ int mnt_fd = open_hierarchy(mnt, sizeof(mnt), no_limits_fix, err);
	_cleanup_close_ int own_fd = -1;
	int r;

	if (mnt_fd < 0)
		return mnt_fd;
	snprintf(cg->mnt, sizeof(cg->mnt), "%s", mnt);
	r = in_hierarchy(mnt_fd, mnt, wanted(l), err);
	if (r == 0)
		r = require_nsdelegate(mnt, err);
	if (r < 0)
		return r;
	if (own_path(own, sizeof(own)) == 0)
		own_fd = open_under(mnt_fd, own);
	if (l->cgroup_parent) {
		snprintf(path, size, "%s", l->cgroup_parent);
		return open_given(l->cgroup_parent, own_fd, cg, &locks[1], err);
	}
	if (geteuid() == 0)
		return open_default(mnt_fd, wanted(l), cg, path, size, locks, err);
	snprintf(path, size, "%s%s", mnt, strcmp(own, "/") == 0 ? "" : own);
	if (own_fd < 0)
		return error_fail_closed(err,
					 error_set(err, 0, "Can't find nsrun's own cgroup in %s",
						   mnt));
	cg->parent_fd = TAKE_FD(own_fd);
	return take_own(cg, path, err);
}

int cgroup_check_view(int proc_fd, struct nsrun_error *err)
{
	_cleanup_close_ int fd = openat(proc_fd, "thread-self/mountinfo", O_RDONLY | O_CLOEXEC);
	static struct proc_view view; /* see error.h: once per run, off the stack */
	char where[4096];

	if (fd < 0)
		return error_fail_closed(err, error_set(err, errno,
							"Can't read the sandbox's mountinfo"));
	if (any_cgroup2_mount(fd, writable, where))
		return error_fail_closed(
			err, error_set(err, 0,
				       "The sandbox would see the cgroup v2 hierarchy "
				       "writable at %s, and could undo its limits there: "
				       "bind it read-only (--ro-bind) or leave it out",
				       where));
	view.n_own = 0;
	if (lseek(fd, 0, SEEK_SET) == 0 && !mountinfo_any(fd, "proc", own_proc, &view) &&
	    lseek(fd, 0, SEEK_SET) == 0 && mountinfo_any(fd, "proc", foreign_proc, &view))
		return error_fail_closed(
			err, error_set(err, 0,
				       "The sandbox would see another pid namespace's "
				       "processes (the host's) at %s, and through them the "
				       "cgroup tree to undo its limits: cover it with --proc, "
				       "or leave it out",
				       view.where));
	return 0;
}

/* Whether the host has swap: without swap accounting a memory limit would not bound it.
 * From sysinfo(2), which no mount can hide (containers mask /proc/swaps with /dev/null);
 * /proc/swaps counts too, where a runtime answers sysinfo for the container. */
static bool swap_in_use(void)
{
	char buf[256];
	struct sysinfo si;
	_cleanup_close_ int fd = -1;
	ssize_t n;

	if (sysinfo(&si) < 0 || si.totalswap > 0)
		return true;
	fd = open("/proc/swaps", O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return strchr(buf, '\n') && strchr(buf, '\n')[1] != '\0';
}

static int write_limit(const struct cgroup *cg, const char *file, const char *value, bool optional,
		       struct nsrun_error *err)
{
	int r = write_at(cg->fd, file, value);

	log_debug("cgroup: %s/%s = %s", cg->path, file, value);
	if (r == -ENOENT && optional && !swap_in_use())
		return 0;
	if (r == -ENOENT && optional)
		return error_fail_closed(
			err, error_set(err, 0,
				       "Can't bound swap under --memory-max: this host has swap, "
				       "and the kernel has no %s in %s (swap accounting is off; "
				       "boot with swapaccount=1)",
				       file, cg->path));
	if (r == -ENOENT)
		return error_fail_closed(err,
					 error_set(err, 0,
						   "Can't set %s: the kernel has no %s in %s%s",
						   file, file, cg->path,
						   strcmp(file, "memory.swap.max") == 0 ?
							   " (swap accounting is off)" :
							   ""));
	if (r < 0)
		return error_fail_closed(err, error_set(err, -r, "Can't set %s to %s in %s", file,
							value, cg->path));
	return 0;
}

/* plan_limits[] in order; a value only implied (swap under --memory-max) may be
 * missing where the host has no swap. */
static int apply_limits(const struct limits_config *l, const struct cgroup *cg,
			struct nsrun_error *err)
{
	char text[64];
	uint64_t v;

	for (size_t i = 0; i < plan_n_limits; i++) {
		const struct plan_limit *lim = &plan_limits[i];
		enum plan_limit_state state = plan_limit_value(lim, l, &v);
		int r;

		if (state == PLAN_LIMIT_UNSET)
			continue;
		plan_limit_text(lim, v, text, sizeof(text));
		r = write_limit(cg, lim->file, text, state == PLAN_LIMIT_IMPLIED, err);
		if (r < 0)
			return r;
	}
	/* No cgroups below: the guard's and the monitor's rmdir must not meet any (nested
	 * namespaces could make them), and nsdelegate keeps this file from the sandbox. */
	return write_limit(cg, "cgroup.max.descendants", "0", false, err);
}

static int make_sandbox_cgroup(struct cgroup *cg, const char *ppath, struct nsrun_error *err)
{
	snprintf(cg->path, sizeof(cg->path), "%s/%s", ppath, cg->name);
	if (mkdirat(cg->parent_fd, cg->name, 0755) < 0)
		return error_fail_closed(err, error_set(err, errno, "Can't create the cgroup %s",
							cg->path));
	cg->fd = openat(cg->parent_fd, cg->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg->fd < 0)
		return error_fail_closed(err, error_set(err, errno, "Can't open the cgroup %s",
							cg->path));
	return 0;
}

void cgroup_kill(int fd)
{
	_cleanup_free_ char *buf = NULL;
	_cleanup_close_ int procs = -1;
	char *p, *end;
	size_t len;

	if (fd < 0 || write_at(fd, "cgroup.kill", "1") == 0)
		return;
	/* Before Linux 5.14: frozen, nothing forks while the list is read, whole (a pid cut
	 * at a buffer's end would name another process). */
	(void)write_at(fd, "cgroup.freeze", "1");
	procs = openat(fd, "cgroup.procs", O_RDONLY | O_CLOEXEC);
	if (procs < 0 || read_all(procs, 64u << 20, &buf, &len) < 0)
		return;
	for (p = buf; *p; p = end) {
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		if (pid > 0)
			(void)kill((pid_t)pid, SIGKILL);
		while (*end == '\n')
			end++;
	}
}

/* A cgroup that was removed has no cgroup.events any more, and nothing in it. */
static bool populated(int fd)
{
	char buf[256];

	return read_at(fd, "cgroup.events", buf, sizeof(buf)) >= 0 && !strstr(buf, "populated 0");
}

bool cgroup_drain(const struct cgroup *cg)
{
	uint64_t end = now_ms() + CGROUP_DRAIN_MS;
	_cleanup_close_ int ev = -1;

	if (cg->fd < 0)
		return true;
	ev = openat(cg->fd, "cgroup.events", O_RDONLY | O_CLOEXEC);
	while (populated(cg->fd) && now_ms() < end) {
		struct pollfd pfd = { .fd = ev, .events = POLLPRI };

		cgroup_kill(cg->fd);
		/* cgroup.events signals a change with POLLPRI; without the fd, a short nap. */
		(void)poll(&pfd, ev >= 0 ? 1 : 0, 20);
	}
	return !populated(cg->fd);
}

static uint64_t field(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

void cgroup_read_usage(const struct cgroup *cg, struct cgroup_usage *u)
{
	char buf[1024];

	memset(u, 0, sizeof(*u));
	if (cg->fd < 0)
		return;
	if (read_at(cg->fd, "memory.peak", buf, sizeof(buf)) > 0) {
		u->has_peak = true;
		u->memory_peak = strtoull(buf, NULL, 10);
	}
	if (read_at(cg->fd, "memory.events", buf, sizeof(buf)) > 0) {
		u->has_events = true;
		u->oom_kills = field(buf, "oom_kill ");
	}
	if (read_at(cg->fd, "pids.events", buf, sizeof(buf)) > 0) {
		u->has_pids_events = true;
		u->pids_max = field(buf, "max ");
	}
}

/* The sandbox's cgroup gone; then, where nsrun took its own cgroup, the controllers
 * off again and the calling process back in it. */
static void remove_sandbox(struct cgroup *cg)
{
	if (cg->fd >= 0) {
		if (!cgroup_drain(cg))
			log_warn("the cgroup %s still has processes after %d ms", cg->path,
				 CGROUP_DRAIN_MS);
		close(cg->fd);
		cg->fd = -1;
	}
	if (unlinkat(cg->parent_fd, cg->name, AT_REMOVEDIR) < 0 && errno != ENOENT)
		log_warn("Can't remove the cgroup %s: %s", cg->path, strerror(errno));
	if (cg->own) {
		disable(cg->parent_fd, cg->enabled);
		(void)write_at(cg->parent_fd, "cgroup.procs", "0");
	} else if (!cg->default_parent) {
		undo_enabled(cg->parent_fd, cg->enabled);
	}
}

/* cgroup_create failed: every cgroup as it was found, the default parent included (once a
 * sandbox has run in it, it is kept with its controllers). */
static void abandon(struct cgroup *cg)
{
	_cleanup_close_ int top = -1, lock = -1;
	char leaf[96];

	if (cg->parent_fd >= 0) {
		remove_sandbox(cg);
		monitor_leaf(cg, leaf, sizeof(leaf));
		if (cg->own)
			(void)unlinkat(cg->parent_fd, leaf, AT_REMOVEDIR);
		if (cg->default_parent)
			undo_enabled(cg->parent_fd, cg->enabled);
		close(cg->parent_fd);
		cg->parent_fd = -1;
	}
	if (!cg->made_parent && !cg->top_enabled)
		return;
	top = open(cg->mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	lock = top < 0 ? -1 : lock_controllers(top);
	if (lock < 0)
		return;
	if (cg->made_parent)
		(void)unlinkat(top, "nsrun", AT_REMOVEDIR);
	if (cg->top_enabled && !has_children(top))
		disable(top, cg->top_enabled);
}

/* The guard: outside the sandbox, in a session of its own and deaf to the terminal's
 * signals, it waits for the monitor's end of its pipe to close (the monitor ended,
 * however), then removes what is left. */
_noreturn_ static void guard_main(struct cgroup *cg, int rfd, int done_fd)
{
	int *mine[] = { &rfd, &done_fd, &cg->parent_fd, &cg->fd };
	int keep[ARRAY_SIZE(mine)];
	int null;
	sigset_t none;
	char c, leaf[96];

	/* Above the standard ones, which become /dev/null (nsrun may start without them). */
	for (size_t i = 0; i < ARRAY_SIZE(mine); i++) {
		if (*mine[i] >= 0 && *mine[i] < 3)
			*mine[i] = fcntl(*mine[i], F_DUPFD_CLOEXEC, 3);
		keep[i] = *mine[i];
	}
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	(void)setsid();
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			(void)signal(sig, sig == SIGCHLD ? SIG_DFL : SIG_IGN);
	sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
	for (int i = 0; i < 3 && null >= 0; i++)
		(void)dup2(null, i);
	fd_close_all_except(keep, ARRAY_SIZE(keep));
	(void)prctl(PR_SET_NAME, "nsrun-cgroup", 0, 0, 0);
	/* Its fds reach the cgroup's parent, where a user's sandbox could turn its limits
	 * off: a process of the same uid must not take them (ptrace, /proc/PID/fd). */
	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	/* Ready: nsrun goes on only now. */
	if (write(done_fd, "r", 1) != 1)
		_exit(1);
	while (read(rfd, &c, 1) < 0 && errno == EINTR)
		;
	/* Gone: nsrun ended as it should, and removed it itself. */
	if (!cg->own && faccessat(cg->parent_fd, cg->name, F_OK, AT_SYMLINK_NOFOLLOW) < 0)
		_exit(0);
	remove_sandbox(cg);
	if (cg->own) {
		monitor_leaf(cg, leaf, sizeof(leaf));
		(void)unlinkat(cg->parent_fd, leaf, AT_REMOVEDIR);
	}
	_exit(0);
}

/* Forked twice, so that it is nobody's child here (not the monitor's, which may reap
 * every orphan as a subreaper). */
static int start_guard(struct cgroup *cg, struct nsrun_error *err)
{
	int p[2], done[2], r;
	pid_t mid;
	char c;

	r = pipe2_pair(p, done);
	if (r < 0)
		return error_fail_closed(err, error_set(err, -r, "pipe"));
	mid = fork();
	if (mid == 0) {
		close(p[1]);
		close(done[0]);
		if (fork() == 0)
			guard_main(cg, p[0], done[1]);
		_exit(0);
	}
	close(p[0]);
	close(done[1]);
	if (mid < 0) {
		close(p[1]);
		close(done[0]);
		return error_fail_closed(err, error_set(err, errno, "fork"));
	}
	(void)waitpid(mid, NULL, 0);
	cg->guard_fd = p[1];
	cg->done_fd = done[0];
	/* No guard, no promise that nothing outlives nsrun. */
	if (read(cg->done_fd, &c, 1) != 1)
		return error_fail_closed(err,
					 error_set(err, errno,
						   "The cgroup's guard process did not start"));
	return 0;
}

int cgroup_create(const struct limits_config *l, struct cgroup *cg, struct nsrun_error *err)
{
	char ppath[4096];
	int locks[2] = { -1, -1 };
	unsigned salt;
	int r;

	*cg = (struct cgroup){ .parent_fd = -1, .fd = -1, .guard_fd = -1, .done_fd = -1 };
	/* The pid alone may repeat under a parent shared across pid namespaces. */
	if (getrandom(&salt, sizeof(salt), GRND_NONBLOCK) != (ssize_t)sizeof(salt))
		salt = (unsigned)now_ms();
	snprintf(cg->name, sizeof(cg->name), "nsrun-%d-%08x", (int)getpid(), salt);
	r = open_parent(l, cg, ppath, sizeof(ppath), locks, err);
	if (r >= 0)
		r = enable(cg->parent_fd, ppath, wanted(l), &cg->enabled, err);
	if (r >= 0)
		r = make_sandbox_cgroup(cg, ppath, err);
	/* The sandbox's cgroup is there: another nsrun now leaves the controllers on. */
	for (size_t i = 0; i < ARRAY_SIZE(locks); i++)
		if (locks[i] >= 0)
			close(locks[i]);
	if (r >= 0)
		r = apply_limits(l, cg, err);
	if (r >= 0)
		r = start_guard(cg, err);
	if (r < 0)
		abandon(cg);
	return r;
}

void cgroup_remove(struct cgroup *cg)
{
	char c;

	if (cg->parent_fd < 0)
		return;
	remove_sandbox(cg);
	if (cg->guard_fd >= 0)
		close(cg->guard_fd);
	cg->guard_fd = -1;
	/* Where nsrun took its own cgroup the guard removes nsrun's leaf once nsrun has
	 * left it; the leaf must be gone before nsrun exits. */
	if (cg->own && cg->done_fd >= 0) {
		struct pollfd pfd = { .fd = cg->done_fd, .events = POLLIN };

		if (poll(&pfd, 1, CGROUP_DRAIN_MS) > 0)
			(void)!read(cg->done_fd, &c, 1);
	}
	if (cg->done_fd >= 0)
		close(cg->done_fd);
	cg->done_fd = -1;
}

void cgroup_close_in_child(const struct cgroup *cg)
{
	int fds[] = { cg->parent_fd, cg->fd, cg->guard_fd, cg->done_fd };

	for (size_t i = 0; i < ARRAY_SIZE(fds); i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

size_t cgroup_fds(const struct cgroup *cg, int *fds)
{
	int all[] = { cg->parent_fd, cg->fd, cg->guard_fd, cg->done_fd };
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		if (all[i] >= 0)
			fds[n++] = all[i];
	return n;
}

/* The controllers of LIST that the limits use, as "memory pids cpu". */
static void usable(const char *list, char *out, size_t size)
{
	out[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(controllers); i++)
		if (has_word(list, controllers[i]))
			snprintf(out + strlen(out), size - strlen(out), "%s%s", *out ? " " : "",
				 controllers[i]);
}

int cgroup_probe(char *where, size_t wsize, char *limits, size_t lsize, struct nsrun_error *err)
{
	char mnt[64], own[4000], avail[512] = "";
	_cleanup_close_ int mnt_fd = open_hierarchy(mnt, sizeof(mnt), "", err);
	_cleanup_close_ int fd = -1;

	if (mnt_fd < 0)
		return mnt_fd;
	(void)read_at(mnt_fd, "cgroup.controllers", avail, sizeof(avail));
	usable(avail, limits, lsize);
	if (!*limits)
		return error_set(err, 0,
				 "cgroup v2 (%s) has no memory, pids or cpu controller: this host "
				 "uses cgroup v1 for them",
				 mnt);
	if (geteuid() == 0) {
		_cleanup_close_ int def =
			openat(mnt_fd, "nsrun", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		int r;

		snprintf(where, wsize, "%s/nsrun", mnt);
		/* What cgroup_create would refuse there. */
		r = check_parent(mnt_fd, "the cgroup ", mnt, default_fix, err);
		if (r == 0 && def >= 0)
			r = check_parent(def, "the cgroup ", where, default_fix, err);
		if (r < 0)
			return r;
		fd = TAKE_FD(mnt_fd);
	} else {
		if (own_path(own, sizeof(own)) < 0 || (fd = open_under(mnt_fd, own)) < 0)
			return error_set(err, 0, "nsrun's own cgroup is not in %s", mnt);
		snprintf(where, wsize, "%s%s", mnt, strcmp(own, "/") == 0 ? "" : own);
		if (faccessat(fd, "cgroup.procs", W_OK, 0) < 0 ||
		    faccessat(fd, "cgroup.subtree_control", W_OK, 0) < 0)
			return error_set(err, 0, "the cgroup %s is not delegated to this user",
					 where);
	}
	(void)read_at(fd, "cgroup.controllers", avail, sizeof(avail));
	usable(avail, limits, lsize);
	if (!*limits)
		return error_set(err, 0, "no memory, pids or cpu controller in %s", where);
	return 0;
}
