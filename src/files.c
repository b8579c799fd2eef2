/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * files.c: files created inside the new root. Every lookup goes through path.h,
 * so a symlink planted in a bound directory cannot redirect a write outside the
 * root; the last component is always opened O_NOFOLLOW after resolution.
 */
#include "config.h"

#include "files.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "macros.h"
#include "mount.h"
#include "path.h"
#include "plan.h"
#include "syscall.h"
#include "util.h"

/* ---- destinations (bwrap 0.12+) ---- */

static int ensure_node(int parent_fd, const char *name, enum files_node node, int perms,
		       bool writable)
{
	/* Most destinations exist (a deny list binds over files that are there): they are
	 * opened first, in one call. Anything else takes the create-then-open way, whose
	 * answers (and errors) are unchanged. */
	int fd = -1;

	if (node != FILES_NODE_FILE || !writable) {
		fd = openat(parent_fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0)
			return fd;
	}
	if (node == FILES_NODE_DIR) {
		if (mkdirat(parent_fd, name, perms >= 0 ? (mode_t)perms : 0755) < 0 &&
		    errno != EEXIST)
			return -errno;
	} else if (node == FILES_NODE_FILE) {
		fd = openat(parent_fd, name,
			    O_WRONLY | O_CREAT | (writable ? O_TRUNC : O_EXCL) | O_NOFOLLOW |
				    O_NOCTTY | O_CLOEXEC,
			    perms >= 0 ? (mode_t)perms : 0444);
		if (writable)
			return fd < 0 ? -errno : fd;
		if (fd < 0 && errno != EEXIST)
			return -errno;
		if (fd >= 0)
			close(fd);
	}
	fd = openat(parent_fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* Mounting on a symlink would mount on its target, wherever the link (maybe planted by
 * the sandbox in a bound directory) says: refused, as bwrap 0.12+ does. */
static int check_node(const struct files_dest_opts *o, int fd, struct nsrun_error *err)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return error_set(err, errno, "Can't get type of dest %s", o->dest);
	if (o->is_mount && S_ISLNK(st.st_mode))
		return error_set_plain(err, ELOOP, "Can't mount on symlink destination %s",
				       o->dest);
	if (o->node == FILES_NODE_DIR && !S_ISDIR(st.st_mode))
		return error_set_plain(err, ENOTDIR, "Destination is not a directory %s", o->dest);
	if (o->node == FILES_NODE_FILE && S_ISDIR(st.st_mode))
		return error_set_plain(err, EISDIR, "Destination is not a file %s", o->dest);
	return 0;
}

int files_dest_open(int root_fd, const struct files_dest_opts *o, struct files_dest *d,
		    struct nsrun_error *err)
{
	*d = (struct files_dest){ .fd = -1, .parent_fd = -1 };
	d->parent_fd = path_dest_parent(root_fd, o->dest, o->parent_mode, &d->name);
	if (d->parent_fd < 0)
		return error_set(err, -d->parent_fd, "Can't mkdir parents for %s", o->dest);
	if (o->node == FILES_NODE_NONE)
		return 0;
	d->fd = ensure_node(d->parent_fd, d->name, o->node, o->perms, o->writable);
	if (d->fd < 0)
		return error_set(err, -d->fd, "Can't create file %s", o->dest);
	return check_node(o, d->fd, err);
}

void files_dest_close(struct files_dest *d)
{
	if (d->fd >= 0)
		close(d->fd);
	if (d->parent_fd >= 0)
		close(d->parent_fd);
	free(d->name);
	*d = (struct files_dest){ .fd = -1, .parent_fd = -1 };
}

/* Copies at most PLAN_MAX_FILE_DATA bytes, like every other --file-style payload. */
static int copy_data(int in_fd, int out_fd)
{
	char buf[65536];
	uint64_t total = 0;

	for (;;) {
		ssize_t n = read(in_fd, buf, sizeof(buf));
		int r;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		total += (uint64_t)n;
		if (total > PLAN_MAX_FILE_DATA)
			return -EFBIG;
		r = write_all(out_fd, buf, (size_t)n);
		if (r < 0)
			return r;
	}
}

int files_bind_check(int dest_fd, const char *src, const char *dest, struct nsrun_error *err)
{
	_cleanup_free_ char *real = NULL;
	char proc[FD_PATH_SIZE];
	int r = fd_real_path(dest_fd, &real);

	if (r == 0)
		return 0;
	fd_proc_path(proc, dest_fd);
	return error_set(err, -r, "Can't bind mount %s on %s: readlink(/proc/self/fd/N) for \"%s\"",
			 src, dest, proc);
}

int files_file(const struct files_dest *d, const char *dest, int data_fd, struct nsrun_error *err)
{
	int r = copy_data(data_fd, d->fd);

	if (r < 0)
		return error_set(err, -r, "Can't write data to file %s", dest);
	return 0;
}

/* A fresh name in the staging tmpfs. Temp files are unlinked right after use and nothing
 * else writes there, so counting up from 0 with O_EXCL finds a free name at once. */
static int make_tempfile(int staging_fd, char name[static 32])
{
	for (unsigned i = 0; i < 1000000; i++) {
		char num[NUM_BUF_SIZE], *p = stpcpy(name, "bindfile");
		const char *digits = num_str(num, i, 10);
		int fd;

		for (size_t k = strlen(digits); k < 6; k++)
			*p++ = '0';
		strcpy(p, digits);
		fd = openat(staging_fd, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd < 0 ? -errno : fd;
	}
	return -EEXIST;
}

int files_bind_data(const struct files_dest *d, int staging_fd, const char *dest, int data_fd,
		    mode_t mode, bool readonly, struct nsrun_error *err)
{
	uint64_t attrs = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | (readonly ? MOUNT_ATTR_RDONLY : 0);
	_cleanup_close_ int fd = -1;
	char name[32];
	int r;

	fd = make_tempfile(staging_fd, name);
	if (fd < 0)
		return error_set(err, -fd, "Can't create tmpfile for %s", dest);
	if (fchmod(fd, mode) < 0) {
		r = error_set(err, errno, "Can't set mode %#o on file to be used for %s",
			      (unsigned)mode, dest);
	} else {
		r = copy_data(data_fd, fd);
		if (r < 0)
			error_set(err, -r, "Can't write data to file %s", dest);
	}
	if (r == 0)
		r = files_bind_check(d->fd, "tmpfile", dest, err);
	if (r == 0) {
		r = mount_bind(fd, d->fd, false, attrs);
		if (r < 0)
			mount_error(err, r, "Can't bind mount tmpfile on %s", dest);
	}
	unlinkat(staging_fd, name, 0);
	return r;
}

/* DEST exists: fine when it is the same symlink (bwrap 0.9's idempotence). */
static int symlink_existing(int dir, const char *name, const char *target, const char *dest,
			    struct nsrun_error *err)
{
	char existing[PATH_MAX];
	ssize_t n = readlinkat(dir, name, existing, sizeof(existing) - 1);

	if (n < 0 && errno == EINVAL)
		return error_set_plain(err, EEXIST,
				       "Can't make symlink at %s: destination exists and is not a "
				       "symlink",
				       dest);
	if (n < 0)
		return error_set(err, errno,
				 "Can't make symlink at %s: destination exists, and cannot read "
				 "symlink target",
				 dest);
	existing[n] = '\0';
	if (strcmp(existing, target) == 0)
		return 0;
	return error_set_plain(err, EEXIST, "Can't make symlink at %s: existing destination is %s",
			       dest, existing);
}

int files_symlink(const struct files_dest *d, const char *target, const char *dest,
		  struct nsrun_error *err)
{
	if (symlinkat(target, d->parent_fd, d->name) == 0)
		return 0;
	if (errno == EEXIST)
		return symlink_existing(d->parent_fd, d->name, target, dest, err);
	return error_set(err, errno, "Can't make symlink at %s", dest);
}

/* The last component is not followed: a symlink gets EOPNOTSUPP, as from bwrap 0.12+. */
int files_chmod(int root_fd, const char *path, mode_t mode, struct nsrun_error *err)
{
	_cleanup_close_ int fd = path_open(root_fd, path, O_PATH | O_NOFOLLOW);
	char proc[FD_PATH_SIZE];

	if (fd < 0)
		return error_set(err, -fd, "Can't open %s", path);
	fd_proc_path(proc, fd);
	if (chmod(proc, mode) < 0)
		return error_set(err, errno, "Can't chmod %#o %s", (unsigned)mode, path);
	return 0;
}

static const char *const dev_nodes[] = { "null", "zero", "full", "random", "urandom", "tty" };

/* bwrap's message for a failed link names some with the path it gave the kernel. */
static const struct {
	const char *name, *target;
	bool named_in_newroot;
} dev_links[] = {
	{ "stdin", "/proc/self/fd/0", false },	{ "stdout", "/proc/self/fd/1", false },
	{ "stderr", "/proc/self/fd/2", false }, { "fd", "/proc/self/fd", true },
	{ "core", "/proc/kcore", true },
};

/* Binds src_fd (a host node or our tty) over a new empty file NAME in the fresh tmpfs;
 * what: bwrap's words for a failure to create it. */
static int dev_bind_node(int dev_fd, const char *dest, const char *name, int src_fd,
			 const char *what, struct nsrun_error *err)
{
	_cleanup_close_ int fd = -1, target = -1;
	char src_name[32];
	int r;

	fd = openat(dev_fd, name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0444);
	if (fd < 0)
		return error_set(err, errno, "%s %s/%s", what, dest, name);
	target = openat(dev_fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (target < 0)
		return error_set(err, errno, "%s %s/%s", what, dest, name);
	snprintf(src_name, sizeof(src_name), "/dev/%s", name);
	r = files_bind_check(target, src_name, name, err);
	if (r < 0)
		return r;
	/* Device nodes need a mount without nodev; nosuid is kept. */
	r = mount_bind(src_fd, target, true, MOUNT_ATTR_NOSUID);
	if (r < 0)
		return mount_error(err, r, "Can't bind mount %s on %s", src_name, name);
	return 0;
}

static int dev_populate(int dev_fd, const char *dest, int host_dev_fd, struct nsrun_error *err)
{
	for (size_t i = 0; i < ARRAY_SIZE(dev_nodes); i++) {
		_cleanup_close_ int src = openat(host_dev_fd, dev_nodes[i], O_PATH | O_CLOEXEC);
		int r;

		if (src < 0)
			return error_set(err, errno, "Can't bind mount /oldroot/dev/%s on %s/%s",
					 dev_nodes[i], dest, dev_nodes[i]);
		r = dev_bind_node(dev_fd, dest, dev_nodes[i], src, "Can't create file", err);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < ARRAY_SIZE(dev_links); i++)
		if (symlinkat(dev_links[i].target, dev_fd, dev_links[i].name) < 0)
			return error_set(err, errno, "Can't create symlink %s%s/%s",
					 dev_links[i].named_in_newroot ? "/newroot" : "", dest,
					 dev_links[i].name);
	if (mkdirat(dev_fd, "shm", 0755) < 0)
		return error_set(err, errno, "Can't create %s/shm", dest);
	return 0;
}

static int dev_mount_pts(int dev_fd, const char *dest, struct nsrun_error *err)
{
	static const struct mount_opt opts[] = {
		{ "source", "devpts" },
		{ "newinstance", NULL },
		{ "ptmxmode", "0666" },
		{ "mode", "620" },
	};
	_cleanup_close_ int pts = -1;
	int r;

	if (mkdirat(dev_fd, "pts", 0755) < 0)
		return error_set(err, errno, "Can't create %s/devpts", dest);
	pts = openat(dev_fd, "pts", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pts < 0)
		return error_set(err, errno, "Can't create %s/devpts", dest);
	r = mount_fs_at("devpts", opts, ARRAY_SIZE(opts), MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC,
			pts);
	if (r < 0)
		return mount_error(err, r, "Can't mount devpts on /newroot%s/pts", dest);
	if (symlinkat("pts/ptmx", dev_fd, "ptmx") < 0)
		return error_set(err, errno, "Can't make symlink at %s/ptmx", dest);
	return 0;
}

int files_dev(int root_fd, const struct files_dest *d, const char *dest, int host_dev_fd,
	      int console_fd, struct nsrun_error *err)
{
	static const struct mount_opt opts[] = { { "source", "tmpfs" }, { "mode", "0755" } };
	_cleanup_close_ int dev_fd = -1;
	int r;

	r = mount_fs_at("tmpfs", opts, ARRAY_SIZE(opts), MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
			d->fd);
	if (r < 0)
		return mount_error(err, r, "Can't mount tmpfs on /newroot%s", dest);
	/* A fresh lookup lands on the new tmpfs, which holds only what we create. */
	dev_fd = path_open(root_fd, dest, O_PATH | O_DIRECTORY);
	if (dev_fd < 0)
		return error_set(err, -dev_fd, "Can't mount tmpfs on /newroot%s", dest);
	r = dev_populate(dev_fd, dest, host_dev_fd, err);
	if (r == 0)
		r = dev_mount_pts(dev_fd, dest, err);
	if (r == 0 && console_fd >= 0)
		r = dev_bind_node(dev_fd, dest, "console", console_fd, "creating", err);
	return r;
}

/* Whether dest/name needs a cover. With host privileges every entry that exists does:
 * sandbox processes are then the host's uid 0, whom the kernel lets write sysctls by
 * their mode bits alone (no capability checked), and access(W_OK) cannot tell, as
 * procfs answers EACCES for the sys directory itself whoever asks. Otherwise bwrap's
 * rule stands: only what the caller can write, normally nothing. */
static int proc_needs_cover(int proc, const char *dest, const char *name, bool host_privileged,
			    struct nsrun_error *err)
{
	if (host_privileged) {
		if (faccessat(proc, name, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
			return 1;
	} else if (faccessat(proc, name, W_OK, 0) == 0) {
		return 1;
	} else if (errno == EACCES || errno == EROFS) {
		return 0;
	}
	if (errno == ENOENT)
		return 0;
	return error_set(err, errno, "Can't access /newroot%s/%s", dest, name);
}

/* Read-only covers for the parts of /proc that reach the host kernel: sysctls, sysrq,
 * irq affinity, PCI config space. Recursive, so a binfmt_misc mounted under sys is
 * covered too (and so that a locked submount does not make the bind fail). */
int files_proc_cover(int root_fd, const char *dest, bool host_privileged, struct nsrun_error *err)
{
	static const char *const covered[] = { "sys", "sysrq-trigger", "irq", "bus" };
	_cleanup_close_ int proc = path_open(root_fd, dest, O_PATH | O_DIRECTORY);

	if (proc < 0)
		return error_set(err, -proc, "Can't mount proc on /newroot%s", dest);
	for (size_t i = 0; i < ARRAY_SIZE(covered); i++) {
		_cleanup_close_ int fd = -1;
		int r = proc_needs_cover(proc, dest, covered[i], host_privileged, err);

		if (r <= 0) {
			if (r < 0)
				return r;
			continue;
		}
		fd = openat(proc, covered[i], O_PATH | O_NOFOLLOW | O_CLOEXEC);
		r = fd < 0 ? -errno :
			     mount_bind(fd, fd, true,
					MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
		if (r < 0)
			return mount_error(err, r,
					   "Can't bind mount /newroot%s/%s on /newroot%s/%s", dest,
					   covered[i], dest, covered[i]);
	}
	return 0;
}

/* ---- --sys: what the sandbox's sysfs hides (man page, --sys, lists the reasons) ---- */

/* Directories covered by an empty read-only directory: firmware tables and EFI variables,
 * the RAPL energy counters (CVE-2020-8694), interrupt and slab counters, the page idle
 * bitmap and KSM's counters (side channels), suspend controls and history, and every
 * place the kernel keeps for another filesystem (a bound host /sys brings the host's
 * mounts there). */
static const char *const sys_masked_dirs[] = {
	"firmware",	  "devices/virtual/powercap",
	"power",	  "kernel/debug",
	"kernel/tracing", "kernel/security",
	"kernel/config",  "kernel/irq",
	"kernel/slab",	  "kernel/mm/page_idle",
	"kernel/mm/ksm",  "fs/cgroup",
	"fs/bpf",	  "fs/pstore",
	"fs/selinux",	  "fs/smackfs",
	"fs/resctrl",	  "fs/fuse/connections",
};

/* Files covered by an empty read-only file: the machine's identifiers (root-only on the
 * host, yet a sandbox of root reads them), and vmcoreinfo's physical address. */
static const char *const sys_masked_files[] = {
	"devices/virtual/dmi/id/product_serial",
	"devices/virtual/dmi/id/product_uuid",
	"devices/virtual/dmi/id/board_serial",
	"devices/virtual/dmi/id/chassis_serial",
	"devices/virtual/dmi/id/board_asset_tag",
	"devices/virtual/dmi/id/chassis_asset_tag",
	"kernel/vmcoreinfo",
};

#define SYS_MASK_ATTRS \
	(MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC)

/* The masks' empty nodes, on the staging tmpfs, which the sandbox never sees: one bind
 * each rather than a tmpfs each (a superblock per mask, per CPU for thermal_throttle). */
struct sys_empty {
	int dir, file;
};

/* The mask of sys/NAME; 0 when this kernel has no such entry (nothing to hide). */
static int sys_mask_one(int sys_fd, const char *dest, const char *name, const struct sys_empty *e,
			struct nsrun_error *err)
{
	_cleanup_close_ int fd = openat(sys_fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	int r;

	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0 || fstat(fd, &st) < 0)
		return error_set(err, errno, "Can't open %s/%s", dest, name);
	r = mount_bind(S_ISDIR(st.st_mode) ? e->dir : e->file, fd, false, SYS_MASK_ATTRS);
	if (r < 0)
		return mount_error(err, r, "Can't mask %s/%s", dest, name);
	return 0;
}

/* Each CPU's thermal_throttle: its event counters follow the load of every CPU of the
 * host (the mask Kubernetes adds to runc's since 1.34). */
static int sys_mask_cpus(int sys_fd, const char *dest, const struct sys_empty *e,
			 struct nsrun_error *err)
{
	int fd = openat(sys_fd, "devices/system/cpu", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *de;
	int r = 0;

	if (!d) {
		r = errno == ENOENT ?
			    0 :
			    error_set(err, errno, "Can't open %s/devices/system/cpu", dest);
		if (fd >= 0)
			close(fd);
		return r;
	}
	while (r == 0 && (de = readdir(d))) {
		_cleanup_free_ char *name = NULL;

		if (strncmp(de->d_name, "cpu", 3) != 0 || de->d_name[3] < '0' ||
		    de->d_name[3] > '9')
			continue;
		name = xconcat("devices/system/cpu/", de->d_name, "/thermal_throttle");
		r = sys_mask_one(sys_fd, dest, name, e, err);
	}
	closedir(d);
	return r;
}

/* Whether REL (relative to the sysfs, no leading '/') is PREFIX or below it. */
static bool sys_below(const char *rel, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(rel, prefix, n) == 0 && (rel[n] == '\0' || rel[n] == '/');
}

bool files_sys_hidden(const char *rel)
{
	const char *cpu = "devices/system/cpu/cpu";
	const char *p;

	for (size_t i = 0; i < ARRAY_SIZE(sys_masked_dirs); i++)
		if (sys_below(rel, sys_masked_dirs[i]) && rel[strlen(sys_masked_dirs[i])] == '/')
			return true;
	if (strncmp(rel, cpu, strlen(cpu)) != 0)
		return false;
	p = rel + strlen(cpu);
	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	return strncmp(p, "/thermal_throttle/", 18) == 0;
}

int files_sys_mask(int root_fd, const char *dest, int staging_fd, struct nsrun_error *err)
{
	_cleanup_close_ int sys = path_open(root_fd, dest, O_PATH | O_DIRECTORY);
	_cleanup_close_ int dir = -1, file = -1;
	int r = 0;

	if (sys < 0)
		return error_set(err, -sys, "Can't mount sysfs on /newroot%s", dest);
	if (mkdirat(staging_fd, "sys-mask-dir", 0555) < 0 && errno != EEXIST)
		return error_set(err, errno, "Can't create the empty directory of --sys's masks");
	dir = openat(staging_fd, "sys-mask-dir", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	file = openat(staging_fd, "sys-mask-file", O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
		      0444);
	if (dir < 0 || file < 0)
		return error_set(err, errno, "Can't create the empty nodes of --sys's masks");
	for (size_t i = 0; r == 0 && i < ARRAY_SIZE(sys_masked_dirs); i++)
		r = sys_mask_one(sys, dest, sys_masked_dirs[i], &(struct sys_empty){ dir, file },
				 err);
	for (size_t i = 0; r == 0 && i < ARRAY_SIZE(sys_masked_files); i++)
		r = sys_mask_one(sys, dest, sys_masked_files[i], &(struct sys_empty){ dir, file },
				 err);
	if (r == 0)
		r = sys_mask_cpus(sys, dest, &(struct sys_empty){ dir, file }, err);
	return r;
}
