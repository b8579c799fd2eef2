/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rootfs.c: the filesystem phase in the child. Host sources are realpath()ed
 * before the first pivot (so host symlinks resolve against the host root), then
 * a private staging tmpfs on /tmp becomes "/" with the host at /oldroot and the
 * sandbox root at /newroot; ops run in order with destinations confined to
 * /newroot; overlay-hide runs; /oldroot is detached and a second pivot makes
 * /newroot "/", so neither the host nor the staging tmpfs stays reachable. Where the
 * root is the initial ramfs, which pivot_root refuses, the first pivot is a move over it
 * (staging_over_ramfs), and the ramfs stays under the sandbox's root mount.
 */
#include "config.h"

#include "rootfs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "files.h"
#include "hide.h"
#include "macros.h"
#include "mount.h"
#include "mountinfo.h"
#include "noexec.h"
#include "path.h"
#include "syscall.h"
#include "util.h"

#define OLDROOT "/oldroot"
#define NEWROOT "/newroot"

/* Host paths of one op, as seen after the first pivot ("/oldroot/..."). */
struct resolved {
	char *src;
	char *work;
	char **layers; /* command-line order */
	bool skip;     /* -try op whose source is missing */
};

struct rootfs_state {
	const struct rootfs_config *cfg;
	struct resolved *res;
	int staging_fd; /* "/" after the first pivot: the staging tmpfs */
	int oldroot_fd; /* OLDROOT, where every host source is opened */
	int host_dev_fd;
	char *console;		/* host tty of stdout ("/oldroot/dev/pts/N") when --dev needs it */
	bool over_ramfs;	/* staging_over_ramfs: OLDROOT is a bind of the initial ramfs */
	const struct op *adopt; /* the bind that may move the host's tree (adoptable_root) */
	bool adopted;		/* it did: OLDROOT is empty, nothing to detach */
	unsigned n_tmp_overlays;
	/* Overlay directories, open while the tree is built: mountinfo names them
	 * /proc/self/fd/N, which only these fds resolve (noexec reads the layers), and
	 * only for the overlays nsrun made, known by their devices. */
	int *overlay_fds;
	size_t n_overlay_fds;
	dev_t *overlay_devs;
	size_t n_overlay_devs;
};

/* realpath() fails on a path whose last component is a magic link such as
 * /proc/self/ns/user: it reads the link text ("user:[4026531837]") and looks that up
 * as a name. The kernel's own lookup follows such a link to the object itself, so for
 * a -try source (Flatpak passes --ro-bind-try /proc/self/ns/user) resolve the parent
 * and keep the last component as given; the bind then opens it and binds the object,
 * as bwrap does. The inode must match what the whole path names. Without -try bwrap
 * fails with realpath's ENOENT, and so does nsrun. */
static char *resolve_magic_link(const char *path)
{
	_cleanup_free_ char *dir = xstrdup(path), *rdir = NULL, *full = NULL;
	char *slash = strrchr(dir, '/');
	const char *base = slash ? slash + 1 : dir;
	struct stat want, got;

	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return NULL;
	if (lstat(path, &got) < 0 || !S_ISLNK(got.st_mode) || stat(path, &want) < 0)
		return NULL;
	if (slash)
		*slash = '\0';
	rdir = realpath(!slash ? "." : *dir ? dir : "/", NULL);
	if (!rdir)
		return NULL;
	full = xconcat(strcmp(rdir, "/") == 0 ? "" : rdir, "/", base);
	if (stat(full, &got) < 0 || got.st_dev != want.st_dev || got.st_ino != want.st_ino)
		return NULL;
	return TAKE_PTR(full);
}

static int resolve_one(const char *path, bool try, char **ret, bool *skip, struct nsrun_error *err)
{
	_cleanup_free_ char *rp = realpath(path, NULL);
	int e = errno;

	if (!rp && e == ENOENT && try)
		rp = resolve_magic_link(path);
	if (!rp) {
		if (try && e == ENOENT) {
			*skip = true;
			return 0;
		}
		return error_set(err, e, "Can't find source path %s", path);
	}
	*ret = xconcat(OLDROOT, strcmp(rp, "/") == 0 ? "" : rp);
	return 0;
}

/* A caller's fd belongs to the parent's mount namespace, which open_tree() cannot clone
 * from (unprivileged), so --bind-fd binds the fd's path here and checks the result. */
static int resolve_fd(int fd, char **ret, struct nsrun_error *err)
{
	_cleanup_free_ char *path = NULL;
	char link[FD_PATH_SIZE];
	int r = fd_real_path(fd, &path);

	fd_proc_path(link, fd);
	if (r < 0)
		return error_set(err, -r, "Can't find source path %s", link);
	if (path[0] != '/')
		return error_set(err, ENOENT, "Can't find source path %s", link);
	*ret = xconcat(OLDROOT, strcmp(path, "/") == 0 ? "" : path);
	return 0;
}

static int resolve_op(const struct op *op, struct resolved *res, struct nsrun_error *err)
{
	bool try = op->flags & OP_F_TRY;
	int r = 0;

	switch (op->type) {
	case OP_BIND:
	case OP_RO_BIND:
	case OP_DEV_BIND:
		return resolve_one(op->source, try, &res->src, &res->skip, err);
	case OP_OVERLAY:
		r = resolve_one(op->source, false, &res->src, &res->skip, err);
		if (r == 0)
			r = resolve_one(op->workdir, false, &res->work, &res->skip, err);
		_fallthrough_;
	case OP_TMP_OVERLAY:
	case OP_RO_OVERLAY:
		res->layers = xcalloc(strv_length(op->layers) + 1, sizeof(char *));
		for (size_t i = 0; r == 0 && op->layers && op->layers[i]; i++)
			r = resolve_one(op->layers[i], false, &res->layers[i], &res->skip, err);
		return r;
	case OP_BIND_FD:
	case OP_RO_BIND_FD:
		return resolve_fd(op->fd, &res->src, err);
	case OP_REMOUNT_RO:
	case OP_PROC:
	case OP_SYS:
	case OP_DEV:
	case OP_TMPFS:
	case OP_MQUEUE:
	case OP_DIR:
	case OP_FILE:
	case OP_BIND_DATA:
	case OP_RO_BIND_DATA:
	case OP_SYMLINK:
	case OP_CHMOD:
	case OP_MAX:
	default:
		return 0;
	}
}

/* A deny list binds one source (/dev/null) over thousands of paths: a bind whose source,
 * type and -try are its predecessor's takes that answer instead of a realpath() each,
 * which reads every component's link. */
static int resolve_again(const struct op *ops, struct resolved *res, size_t i,
			 struct nsrun_error *err)
{
	const struct op *op = &ops[i], *prev = i > 0 ? &ops[i - 1] : NULL;

	if (!prev || prev->type != op->type || prev->flags != op->flags || !op->source ||
	    !prev->source || strcmp(prev->source, op->source) != 0 ||
	    (op->type != OP_BIND && op->type != OP_RO_BIND && op->type != OP_DEV_BIND))
		return resolve_op(op, &res[i], err);
	res[i].src = res[i - 1].src ? xstrdup(res[i - 1].src) : NULL;
	res[i].skip = res[i - 1].skip;
	return 0;
}

static void resolved_free(struct resolved *res, size_t n)
{
	for (size_t i = 0; res && i < n; i++) {
		free(res[i].src);
		free(res[i].work);
		strv_free(res[i].layers);
	}
	free(res);
}

/* ---- staging and pivots ---- */

/* A mount the host forbids (EPERM, EACCES) is its refusal, not a mistake in the plan. */
static int host_refused(struct nsrun_error *err, enum nsrun_step step, int r)
{
	return r == -EPERM || r == -EACCES ? error_refused(err, step, r) : r;
}

/* pivot_root(2) refuses a root that is mounted on nothing, the initial ramfs (an initramfs
 * that never switched root; the process in it is at the bottom of the tree). There the
 * staging tmpfs is moved over "/" as switch_root does, with a recursive copy of the host's
 * tree at oldroot first (less the staging tmpfs's own copy at /tmp), and the root entered
 * with chroot. The final pivot then works and detaches the copy and the staging tmpfs as
 * usual, but the ramfs itself stays under the sandbox's root mount: ".." from the top of the
 * root comes back down onto it and mountinfo does not show it, yet unmounting the root
 * (CAP_SYS_ADMIN in the user namespace that owns the mounts) and then entering the mount
 * namespace again would uncover it. So a command that keeps CAP_SYS_ADMIN is refused. */
static int staging_over_ramfs(bool command_admin, struct nsrun_error *err)
{
	if (command_admin)
		return error_fail_closed(
			err,
			error_set_plain(err, EINVAL,
					"pivot_root: Invalid argument: the root is the initial "
					"ramfs, which stays under the sandbox's root where a "
					"command with CAP_SYS_ADMIN could uncover it; drop it "
					"(--cap-drop CAP_SYS_ADMIN) to run from the initramfs"));
	log_debug("pivot_root: the root is the initial ramfs; moving the staging tmpfs over it");
	if (mount("/", "oldroot", NULL, MS_BIND | MS_REC, NULL) < 0)
		return error_set(err, errno, "bind-mount '/' on oldroot (initramfs fallback)");
	if (umount2("oldroot/tmp", MNT_DETACH) < 0)
		return error_set(err, errno,
				 "unmount the staging tmpfs's copy (initramfs fallback)");
	if (mount(".", "/", NULL, MS_MOVE, NULL) < 0)
		return error_set(err, errno,
				 "move the staging tmpfs onto '/' (initramfs fallback)");
	if (chroot(".") < 0)
		return error_set(err, errno, "chroot into the staging tmpfs (initramfs fallback)");
	return 0;
}

/* The bottom of the namespace is its own parent in mountinfo. Only there is pivot_root's
 * EINVAL the initial ramfs's: a root on a mount that is shared (hidden below it, so
 * MS_SLAVE on "/" cannot reach it) gets EINVAL too, and keeps bwrap's error. */
static bool absolute_root(const struct mountinfo_entry *e, void *data)
{
	(void)data;
	return e->id == e->parent_id && strcmp(e->mountpoint, "/") == 0;
}

static bool root_is_initial_ramfs(void)
{
	_cleanup_close_ int fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);

	return fd >= 0 && mountinfo_any(fd, NULL, absolute_root, NULL);
}

static int staging_setup(bool hides, bool command_admin, bool *over_ramfs, struct nsrun_error *err)
{
	/* No mode option: the sandbox's "/" is the 0755 newroot directory, and bwrap's
	 * staging tmpfs shows no mode= in mountinfo either (byte-compatible output). */
	static const struct mount_opt opts[] = { { "source", "tmpfs" } };
	_cleanup_close_ int tmp = -1, nr = -1;
	int r;

	/* The legacy path parses mountinfo with libmount, loaded on demand, and so does the
	 * hide's check for mounts below a directory where listmount is missing: load it
	 * while the host's library directories are still the root. */
	if ((!mount_api_available() || hides) && mountinfo_preload() < 0)
		return error_set(err, ELIBACC, "loading libmount for the legacy mount path");
	/* The first mount: where the host lets a user namespace be made but not used
	 * (Ubuntu's AppArmor restriction), it fails here. */
	if (mount(NULL, "/", NULL, MS_SLAVE | MS_REC, NULL) < 0)
		return host_refused(err, NSRUN_STEP_MOUNT,
				    error_set(err, errno, "Failed to make / slave"));
	log_debug("staging: a tmpfs holds newroot, the host's root goes to oldroot");
	tmp = open("/tmp", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (tmp < 0)
		return error_set(err, errno, "Failed to mount tmpfs");
	r = mount_fs_at("tmpfs", opts, ARRAY_SIZE(opts), MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, tmp);
	if (r < 0)
		return mount_error(err, r, "Failed to mount tmpfs");
	if (chdir("/tmp") < 0)
		return error_set(err, errno, "chdir /tmp");
	if (mkdir("newroot", 0755) < 0)
		return error_set(err, errno, "Creating newroot failed");
	nr = open("newroot", O_PATH | O_DIRECTORY | O_CLOEXEC);
	r = nr < 0 ? -errno : mount_bind(nr, nr, true, 0);
	if (r < 0)
		return mount_error(err, r, "setting up newroot bind");
	if (mkdir("oldroot", 0755) < 0)
		return error_set(err, errno, "Creating oldroot failed");
	if (sys_pivot_root(".", "oldroot") < 0) {
		int e = errno;

		*over_ramfs = e == EINVAL && root_is_initial_ramfs();
		r = *over_ramfs ? staging_over_ramfs(command_admin, err) :
				  error_set(err, e, "pivot_root");
		if (r < 0)
			return r;
	}
	if (chdir("/") < 0)
		return error_set(err, errno, "chdir /");
	/* mount(2) reaches fd targets through /proc/self/fd: keep that path working. It is
	 * used without the mount API, and with it for values too long for fsconfig. */
	if (symlink("oldroot/proc", "/proc") < 0)
		return error_set(err, errno, "Can't create symlink /proc");
	return 0;
}

static int final_pivot(bool adopted, struct nsrun_error *err)
{
	_cleanup_close_ int old = -1;

	if (!adopted && mount(NULL, OLDROOT, NULL, MS_PRIVATE | MS_REC, NULL) < 0)
		return error_set(err, errno, "Failed to make old root rprivate");
	if (!adopted && umount2(OLDROOT, MNT_DETACH) < 0)
		return error_set(err, errno, "unmount old root");
	old = open("/", O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	if (old < 0)
		return error_set(err, errno, "can't open /");
	if (chdir(NEWROOT) < 0)
		return error_set(err, errno, "chdir %s", NEWROOT);
	/* Stack the new root over the staging root, then drop the staging one from under it. */
	log_debug("pivot_root into the new root; the host's root is detached");
	if (sys_pivot_root(".", ".") < 0)
		return error_set(err, errno, "pivot_root(%s)", NEWROOT);
	if (fchdir(old) < 0)
		return error_set(err, errno, "fchdir to old root");
	if (umount2(".", MNT_DETACH) < 0)
		return error_set(err, errno, "umount old root");
	if (chdir("/") < 0)
		return error_set(err, errno, "chdir /");
	return 0;
}

/* ---- ops ---- */

/* The op's mode: --perms, else its default from the op table. */
static mode_t op_mode(const struct op *op)
{
	return (op->flags & OP_F_HAS_PERMS) ? op->perms : op_desc(op->type)->default_perms;
}

/* bwrap narrows new parents by the op's effective mode, where ops that take no --perms
 * count as mode 0: a bind, symlink, --proc or --dev under a missing parent gets 0700
 * parents (measured with bwrap 0.8), while --dir/--tmpfs/--file keep 0755. */
static mode_t op_parent_mode(const struct op *op)
{
	return path_parent_mode(true, op_mode(op));
}

static uint64_t bind_attrs(enum op_type type)
{
	const struct op_desc *d = op_desc(type);

	return MOUNT_ATTR_NOSUID | (d->devices ? 0 : MOUNT_ATTR_NODEV) |
	       (d->read_only ? MOUNT_ATTR_RDONLY : 0);
}

/* The resolved source as bwrap 0.12+ names it: its real path in the host. */
static const char *source_name(const char *src)
{
	return src[strlen(OLDROOT)] ? src + strlen(OLDROOT) : "/";
}

/* Opens a resolved host source in the old root. /proc's magic links (Flatpak binds
 * /proc/self/ns/user) are opened as such, as bwrap does. 0: a -try source vanished. */
static int open_source(int oldroot, const struct op *op, const char *src, int *fd,
		       struct nsrun_error *err)
{
	const char *name = source_name(src);

	if (str_has_prefix(name, "/proc/") || strcmp(name, "/proc") == 0) {
		*fd = open(src, O_PATH | O_CLOEXEC);
		if (*fd < 0)
			*fd = -errno;
	} else {
		*fd = path_open(oldroot, name, O_PATH);
	}
	if (*fd == -ENOENT && (op->flags & OP_F_TRY))
		return 0;
	if (*fd < 0)
		return error_set(err, -*fd, "Can't open source %s", op->source ? name : src);
	return 1;
}

static int do_bind(const struct op *op, const struct files_dest *d, int src_fd, const char *src,
		   bool fail_open, struct nsrun_error *err)
{
	uint64_t attrs = bind_attrs(op->type);
	int r = files_bind_check(d->fd, source_name(src), op->dest, err);

	if (r < 0)
		return r;
	r = fail_open ? mount_bind_fail_open(src_fd, d->fd, attrs) :
			mount_bind(src_fd, d->fd, true, attrs);
	if (r < 0)
		return mount_error(err, r, "Can't bind mount %s on %s", source_name(src), op->dest);
	return 0;
}

/* Only a process in the user namespace that owns a filesystem may idmap it: the host's
 * root for the host's, so a user's --idmap fails closed at once or at the kernel's EPERM. */
int rootfs_idmap_needs_root(const char *source, struct nsrun_error *err)
{
	return error_fail_closed(
		err, error_set_plain(err, EPERM,
				     "--idmap %s: idmapping a mount of the host's needs "
				     "CAP_SYS_ADMIN over the caller's mount namespace and "
				     "the filesystem's user namespace (root)",
				     source));
}

/* Fails closed where the kernel or the filesystem cannot idmap; a missing source is an
 * ordinary error, worded as bwrap words it for any bind. */
static int idmap_error(const struct op *op, int r, bool at_setattr, struct nsrun_error *err)
{
	if (r == -ENOSYS)
		return error_fail_closed(
			err,
			error_set_plain(err, ENOSYS,
					"--idmap %s: idmapped mounts need the new mount API "
					"(open_tree, mount_setattr: Linux 5.12), which is missing "
					"here",
					op->source));
	if (r == -EPERM)
		return rootfs_idmap_needs_root(op->source, err);
	if (!at_setattr)
		return error_set(err, -r, "Can't find source path %s", op->source);
	if (r == -EINVAL)
		return error_fail_closed(
			err,
			error_set_plain(err, EINVAL,
					"--idmap %s: the filesystem (or a mount under it) does "
					"not support idmapped mounts (ext4, xfs, btrfs since Linux "
					"5.12-5.15, tmpfs since 6.3)",
					op->source));
	return error_fail_closed(err,
				 error_set(err, -r, "--idmap %s: mount_setattr(MOUNT_ATTR_IDMAP)",
					   op->source));
}

int rootfs_idmap_open(const struct op *ops, size_t n_ops, int userns_fd, int *fds,
		      struct nsrun_error *err)
{
	for (size_t i = 0; i < n_ops; i++)
		fds[i] = -1;
	for (size_t i = 0; i < n_ops; i++) {
		bool at_setattr;

		if (!(ops[i].flags & OP_F_IDMAP))
			continue;
		fds[i] = mount_idmapped_tree(ops[i].source, userns_fd, bind_attrs(ops[i].type),
					     &at_setattr);
		if (fds[i] == -ENOENT && !at_setattr && (ops[i].flags & OP_F_TRY))
			fds[i] = -1;
		else if (fds[i] < 0)
			return idmap_error(&ops[i], fds[i], at_setattr, err);
	}
	return 0;
}

/* --idmap: the monitor's tree, attached whole; never a plain bind in its place. */
static int do_idmap_bind(struct rootfs_state *st, const struct op *op, const struct files_dest *d,
			 const char *src, struct nsrun_error *err)
{
	int none = -1;
	int *fd = st->cfg->idmap_fds ? &st->cfg->idmap_fds[op - st->cfg->ops] : &none;
	int r = files_bind_check(d->fd, source_name(src), op->dest, err);

	if (r < 0)
		return r;
	if (*fd < 0)
		return error_fail_closed(err, error_set_plain(err, ENOENT,
							      "--idmap %s appeared after nsrun "
							      "looked for it",
							      op->source));
	r = mount_attach_tree(*fd, d->fd);
	close(*fd);
	*fd = -1;
	if (r < 0)
		return mount_error(err, r, "Can't bind mount %s on %s", source_name(src), op->dest);
	return 0;
}

/* --bind-fd: the fd's path was resolved before the pivot; the mounted tree must be the
 * fd's directory, or the path was swapped in between. */
static int check_bind_fd(int root_fd, const struct op *op, struct nsrun_error *err)
{
	_cleanup_close_ int check = path_open(root_fd, op->dest, O_PATH);
	struct stat a, b;

	if (check < 0)
		return error_set(err, -check, "Can't reopen %s", op->dest);
	if (fstat(op->fd, &b) < 0)
		return error_set(err, errno, "Can't stat fd %d", op->fd);
	if (fstat(check, &a) < 0)
		return error_set(err, errno, "Can't stat mount at %s", op->dest);
	if (a.st_dev != b.st_dev || a.st_ino != b.st_ino)
		return error_set_plain(err, 0, "Race condition binding dirfd");
	return 0;
}

static int do_remount_ro(const struct op *op, const struct files_dest *d, struct nsrun_error *err)
{
	int r = mount_set_readonly(d->fd);

	if (r < 0)
		return mount_error(err, r, "Can't remount readonly on %s", op->dest);
	return 0;
}

static int do_tmpfs(const struct op *op, const struct files_dest *d, struct nsrun_error *err)
{
	char mbuf[NUM_BUF_SIZE], sbuf[NUM_BUF_SIZE];
	_cleanup_free_ char *mode = xconcat("0", num_str(mbuf, (unsigned)op_mode(op), 8));
	const char *size = num_str(sbuf, (unsigned long long)op->size, 10);
	struct mount_opt opts[3] = { { "source", "tmpfs" }, { "mode", mode }, { "size", size } };
	size_t n = (op->flags & OP_F_HAS_SIZE) ? 3 : 2;
	int r = mount_fs_at("tmpfs", opts, n, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, d->fd);

	if (r < 0)
		return mount_error(err, r, "Can't mount tmpfs on %s", op->dest);
	return 0;
}

static int do_simple_fs(const struct op *op, const struct files_dest *d, const char *fstype,
			uint64_t attrs, struct nsrun_error *err)
{
	struct mount_opt opts[] = { { "source", fstype } };
	int r = mount_fs_at(fstype, opts, ARRAY_SIZE(opts), attrs, d->fd);

	if (r < 0)
		return mount_error(err, r, "Can't mount %s on %s", fstype, op->dest);
	return 0;
}

/* /proc without a pid namespace of its own: the host's, bound (covered by the caller). */
static int bind_host_proc(const struct op *op, const struct files_dest *d, struct nsrun_error *err)
{
	_cleanup_close_ int src = open(OLDROOT "/proc", O_PATH | O_CLOEXEC);

	if (src < 0)
		return error_set(err, errno, "Can't open source /proc");
	return do_bind(&(struct op){ .type = OP_BIND, .dest = op->dest }, d, src, OLDROOT "/proc",
		       false, err);
}

static int do_proc(struct rootfs_state *st, int root_fd, const struct op *op,
		   const struct files_dest *d, struct nsrun_error *err)
{
	int r;

	if (!st->cfg->new_pidns) {
		r = bind_host_proc(op, d, err);
	} else {
		r = host_refused(err, NSRUN_STEP_PROC,
				 do_simple_fs(op, d, "proc",
					      MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC |
						      MOUNT_ATTR_NODEV,
					      err));
		/* --fallback proc: the host's /proc, covered as without a pid namespace;
		 * the refusal goes in the report. */
		if (r < 0 && err->refused && st->cfg->proc_refused) {
			fallback_refusal_set(st->cfg->proc_refused, err);
			r = bind_host_proc(op, d, err);
		}
	}
	return r < 0 ? r : files_proc_cover(root_fd, op->dest, st->cfg->host_privileged, err);
}

#define SYS_ATTRS (MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC)

/* The caller's /sys, for a sandbox in the caller's network namespace: a fresh sysfs
 * would be the same superblock (which mount(2) refuses to stack on itself, EBUSY), and
 * in a user namespace the kernel refuses it. Recursive in a user namespace, where the
 * submounts are locked and a bind that left them behind would be refused; they are
 * masked after. */
static int bind_host_sys(const struct op *op, const struct files_dest *d, bool in_userns,
			 struct nsrun_error *err)
{
	_cleanup_close_ int src = open(OLDROOT "/sys", O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct statfs sfs;
	int r;

	if (src < 0 || fstatfs(src, &sfs) < 0)
		return error_set(err, errno, "Can't open source /sys");
	if (sfs.f_type != SYSFS_MAGIC)
		return error_set_plain(err, EINVAL,
				       "Can't bind /sys on %s: the host's /sys is no sysfs",
				       op->dest);
	r = mount_bind(src, d->fd, in_userns, SYS_ATTRS);
	if (r < 0)
		return mount_error(err, r, "Can't bind mount /sys on %s", op->dest);
	return 0;
}

/* --sys: a fresh sysfs for a network namespace of the sandbox's own (the kernel wants
 * CAP_SYS_ADMIN over the user namespace that owns it), else the caller's, which shows
 * the same network namespace. Read-only either way, and masked; the sandbox was
 * promised both, so any failure is 126. */
static int do_sys(struct rootfs_state *st, int root_fd, const struct op *op,
		  const struct files_dest *d, struct nsrun_error *err)
{
	int r;

	if (st->cfg->sys_fresh) {
		r = host_refused(err, NSRUN_STEP_SYS, do_simple_fs(op, d, "sysfs", SYS_ATTRS, err));
		if (r == -EPERM || r == -EACCES)
			error_append(err,
				     " (a fresh sysfs needs CAP_SYS_ADMIN over the user namespace "
				     "that owns the network namespace, and the host's /sys fully "
				     "visible)");
	} else {
		r = bind_host_sys(op, d, st->cfg->in_userns, err);
	}
	if (r == 0)
		r = files_sys_mask(root_fd, op->dest, st->staging_fd, err);
	return error_fail_closed(err, r);
}

static int do_dev(struct rootfs_state *st, int root_fd, const struct op *op,
		  const struct files_dest *d, struct nsrun_error *err)
{
	_cleanup_close_ int console = -1;

	if (st->host_dev_fd < 0) {
		st->host_dev_fd = open(OLDROOT "/dev", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (st->host_dev_fd < 0)
			return error_set(err, errno, "Can't open %s/dev", OLDROOT);
	}
	if (st->console)
		console = open(st->console, O_PATH | O_CLOEXEC);
	return files_dev(root_fd, d, op->dest, st->host_dev_fd, console, err);
}

/* bwrap 0.12+ opens every overlay directory in the old root and names it to the kernel as
 * /proc/self/fd/N: no escaping, no length limit, and mountinfo shows those names. */
struct overlay_fds {
	int *fds;
	char (*paths)[FD_PATH_SIZE];
	size_t n;
};

static const char *overlay_fd_path(struct overlay_fds *o, int oldroot_fd, const char *path,
				   int *err_no)
{
	int fd = path_open(oldroot_fd, path + strlen(OLDROOT), O_PATH);

	if (fd < 0) {
		*err_no = -fd;
		return NULL;
	}
	o->fds[o->n] = fd;
	fd_proc_path(o->paths[o->n], fd);
	return o->paths[o->n++];
}

/* The fds stay open in st until the tree is done (see struct rootfs_state). */
static void overlay_fds_keep(struct rootfs_state *st, struct overlay_fds *o)
{
	for (size_t i = 0; i < o->n; i++)
		if (o->fds[i] >= 0)
			*(int *)xappend(&st->overlay_fds, &st->n_overlay_fds, sizeof(int)) =
				o->fds[i];
	free(o->fds);
	free(o->paths);
}

/* upper and work: --overlay's own, or --tmp-overlay's pair on the staging tmpfs */
static int overlay_upper(struct rootfs_state *st, const struct op *op, const struct resolved *res,
			 struct overlay_fds *o, int oldroot_fd, struct mount_overlay *ov,
			 struct nsrun_error *err)
{
	int e = 0;

	if (op->type == OP_TMP_OVERLAY) {
		char num[NUM_BUF_SIZE];
		const char *n = num_str(num, st->n_tmp_overlays++, 10);

		ov->upper = o->paths[o->n++];
		ov->work = o->paths[o->n++];
		snprintf(o->paths[0], FD_PATH_SIZE, "/tmp-overlay-upper-%s", n);
		snprintf(o->paths[1], FD_PATH_SIZE, "/tmp-overlay-work-%s", n);
		o->fds[0] = o->fds[1] = -1;
		if (mkdirat(st->staging_fd, ov->upper + 1, 0755) < 0 ||
		    mkdirat(st->staging_fd, ov->work + 1, 0755) < 0)
			return error_set(err, errno, "Can't create overlay directories");
		return 0;
	}
	if (op->type != OP_OVERLAY)
		return 0;
	ov->upper = overlay_fd_path(o, oldroot_fd, res->src, &e);
	if (!ov->upper)
		return error_set(err, e, "Can't find source path %s", op->source);
	ov->work = overlay_fd_path(o, oldroot_fd, res->work, &e);
	if (!ov->work)
		return error_set(err, e, "Can't open overlay workdir %s", op->workdir);
	return 0;
}

static int overlay_mount_error(int r, const struct mount_overlay *ov, struct nsrun_error *err)
{
	_cleanup_free_ char *desc = mount_overlay_describe(ov);

	/* sic: bwrap 0.12+ names the destination of its last --overlay-src op here, which
	 * has none, so glibc prints "(null)". */
	if (r == -ELOOP)
		return error_set_plain(err, ELOOP,
				       "Can't make overlay mount on (null) with options %s: "
				       "Overlay directories may not overlap",
				       desc);
	return mount_error(err, r, "Can't make overlay mount on (null) with options %s", desc);
}

/* The device of the overlay just mounted on op's destination, for noexec. */
static int overlay_record(struct rootfs_state *st, const struct op *op, struct nsrun_error *err)
{
	_cleanup_close_ int root_fd = open(NEWROOT, O_PATH | O_DIRECTORY | O_CLOEXEC);
	_cleanup_close_ int fd = root_fd < 0 ? -errno : path_open(root_fd, op->dest, O_PATH);
	struct stat s;

	if (fd < 0 || fstat(fd, &s) < 0)
		return error_set(err, fd < 0 ? -fd : errno, "Can't reopen %s", op->dest);
	*(dev_t *)xappend(&st->overlay_devs, &st->n_overlay_devs, sizeof(dev_t)) = s.st_dev;
	return 0;
}

static int do_overlay(struct rootfs_state *st, const struct op *op, const struct resolved *res,
		      const struct files_dest *d, struct nsrun_error *err)
{
	size_t n = strv_length(res->layers);
	_cleanup_free_ const char **lowers = xcalloc(n + 1, sizeof(char *));
	/* bwrap passes userxattr whether or not it runs in a user namespace. */
	struct mount_overlay ov = { .userxattr = true, .lowers = lowers };
	struct overlay_fds o = { .fds = xcalloc(n + 2, sizeof(int)),
				 .paths = xcalloc(n + 2, FD_PATH_SIZE) };
	_cleanup_close_ int oldroot_fd = open(OLDROOT, O_PATH | O_DIRECTORY | O_CLOEXEC);
	int r = oldroot_fd < 0 ? error_set(err, errno, "Can't open %s", OLDROOT) : 0, e = 0;

	if (r == 0)
		r = overlay_upper(st, op, res, &o, oldroot_fd, &ov, err);
	/* The top layer is the last given; the kernel lists the top one first. */
	for (size_t i = n; r == 0 && i-- > 0; ov.n_lowers++) {
		lowers[ov.n_lowers] = overlay_fd_path(&o, oldroot_fd, res->layers[i], &e);
		if (!lowers[ov.n_lowers])
			r = error_set(err, e, "Can't open overlay source %s", op->layers[i]);
	}
	if (r == 0) {
		r = mount_overlay_at(&ov, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, d->fd);
		if (r < 0)
			r = overlay_mount_error(r, &ov, err);
		else
			r = overlay_record(st, op, err);
	}
	overlay_fds_keep(st, &o);
	return r < 0 ? r : 0;
}

/* Ops that consume a caller fd close it, so it cannot leak into the payload. */
static int do_data_op(struct rootfs_state *st, const struct op *op, const struct files_dest *d,
		      struct nsrun_error *err)
{
	if (op->type == OP_FILE)
		return files_file(d, op->dest, op->fd, err);
	return files_bind_data(d, st->staging_fd, op->dest, op->fd, op_mode(op),
			       op_desc(op->type)->read_only, err);
}

/* What bwrap 0.12+ makes at the op's destination before the op runs. */
static struct files_dest_opts dest_opts(const struct op *op, int src_fd)
{
	struct files_dest_opts o = { .dest = op->dest,
				     .perms = -1,
				     .is_mount = true,
				     .parent_mode = op_parent_mode(op),
				     .node = FILES_NODE_DIR };
	struct stat st;

	switch (op->type) {
	case OP_SYMLINK:
		o.node = FILES_NODE_NONE;
		o.is_mount = false;
		break;
	case OP_REMOUNT_RO:
		o.node = FILES_NODE_EXISTING;
		break;
	case OP_FILE:
		o.writable = true;
		o.is_mount = false;
		o.perms = (int)op_mode(op);
		o.node = FILES_NODE_FILE;
		break;
	case OP_BIND_DATA:
	case OP_RO_BIND_DATA:
		o.node = FILES_NODE_FILE;
		break;
	case OP_BIND:
	case OP_RO_BIND:
	case OP_DEV_BIND:
	case OP_BIND_FD:
	case OP_RO_BIND_FD:
		if (fstat(src_fd, &st) == 0 && !S_ISDIR(st.st_mode))
			o.node = FILES_NODE_FILE;
		break;
	case OP_DIR:
		o.is_mount = false;
		o.perms = (int)op_mode(op);
		break;
	case OP_PROC:
	case OP_SYS:
	case OP_DEV:
	case OP_TMPFS:
	case OP_MQUEUE:
	case OP_OVERLAY:
	case OP_TMP_OVERLAY:
	case OP_RO_OVERLAY:
	case OP_CHMOD:
	case OP_MAX:
	default:
		break;
	}
	return o;
}

/* ---- the host's tree at "/", moved rather than copied ---- */

/* Ops that never read the host through OLDROOT. --proc does only as a fresh procfs:
 * without a pid namespace, or where --fallback proc may bind the host's, it binds it. */
static bool host_free(const struct rootfs_config *cfg, enum op_type type)
{
	switch (type) {
	case OP_TMPFS:
	case OP_DIR:
	case OP_SYMLINK:
	case OP_CHMOD:
	case OP_REMOUNT_RO:
	case OP_MQUEUE:
	case OP_FILE:
	case OP_BIND_DATA:
	case OP_RO_BIND_DATA:
		return true;
	case OP_PROC:
		return cfg->new_pidns && !cfg->proc_refused;
	case OP_BIND:
	case OP_RO_BIND:
	case OP_DEV_BIND:
	case OP_BIND_FD:
	case OP_RO_BIND_FD:
	case OP_DEV:
	case OP_SYS:
	case OP_OVERLAY:
	case OP_TMP_OVERLAY:
	case OP_RO_OVERLAY:
	case OP_MAX:
	default:
		return false;
	}
}

/* --bind, --ro-bind or --dev-bind of the host's "/" itself on the sandbox's "/". */
static bool whole_root_bind(const struct op *op, const struct resolved *res)
{
	return (op->type == OP_BIND || op->type == OP_RO_BIND || op->type == OP_DEV_BIND) &&
	       !(op->flags & OP_F_IDMAP) && !res->skip && strcmp(res->src, OLDROOT) == 0 &&
	       op->dest[strspn(op->dest, "/")] == '\0';
}

/* The one op that may move the namespace's copy of the host's tree onto the new root
 * (adopt_root): a bind of the whole host root on "/", in a sandbox where nothing else
 * reads the host through OLDROOT once it has moved (other binds, --dev, --sys, overlays,
 * a bound /proc, the hide, noexec's host paths, the initramfs fallback). */
static const struct op *adoptable_root(const struct rootfs_state *st)
{
	const struct rootfs_config *cfg = st->cfg;
	const struct op *root = NULL;

	if (!mount_api_available() || st->over_ramfs || hide_wanted(cfg->hide) ||
	    noexec_wanted(cfg->landlock))
		return NULL;
	for (size_t i = 0; i < cfg->n_ops; i++) {
		if (host_free(cfg, cfg->ops[i].type))
			continue;
		if (root || !whole_root_bind(&cfg->ops[i], &st->res[i]))
			return NULL;
		root = &cfg->ops[i];
	}
	return root;
}

/* The staging root's /proc, a link into OLDROOT, made a copy of the host's /proc before
 * the tree moves: /proc/self/fd (chmod, the checks of binds, long mount options) must not
 * depend on what the sandbox's later ops put at /proc or over "/". Recursive: in a user
 * namespace its submounts are locked. 1: done; 0: the link as it was (copy the tree). */
static int keep_proc(const struct rootfs_state *st, struct nsrun_error *err)
{
	_cleanup_close_ int src = openat(st->oldroot_fd, "proc", O_PATH | O_CLOEXEC), dest = -1;

	if (src < 0 || unlinkat(st->staging_fd, "proc", 0) < 0)
		return 0;
	if (mkdirat(st->staging_fd, "proc", 0555) == 0) {
		dest = openat(st->staging_fd, "proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (dest >= 0 && mount_bind(src, dest, true, 0) == 0)
			return 1;
		(void)unlinkat(st->staging_fd, "proc", AT_REMOVEDIR);
	}
	if (symlinkat("oldroot/proc", st->staging_fd, "proc") < 0)
		return error_set(err, errno, "Can't create symlink /proc");
	return 0;
}

/* A bind copies the host's tree, which the namespace already holds a copy of at OLDROOT,
 * later detached: moving that copy instead halves the cost per host mount (bench/run.sh's
 * submounts). The sandbox sees the same mounts: a tree with an unbindable mount, which
 * a copy leaves out, is copied. --not-a-security-boundary changes nothing here: the flags
 * go on the whole tree in one call, as on a copy, and never fail for a locked submount. */
static int adopt_root(struct rootfs_state *st, const struct op *op, const struct files_dest *d,
		      int src_fd, const char *src, struct nsrun_error *err)
{
	int r = files_bind_check(d->fd, source_name(src), op->dest, err);

	if (r < 0)
		return r;
	r = keep_proc(st, err);
	if (r > 0)
		r = mount_move_tree(src_fd, d->fd, bind_attrs(op->type));
	else if (r < 0)
		return r;
	if (r == 0)
		return do_bind(op, d, src_fd, src, st->cfg->fail_open, err);
	if (r < 0)
		return mount_error(err, r, "Can't bind mount %s on %s", source_name(src), op->dest);
	log_debug("the host's tree moved onto the new root, not copied");
	st->adopted = true;
	return 0;
}

static int run_on_dest(struct rootfs_state *st, int root_fd, const struct op *op,
		       const struct resolved *res, const struct files_dest *d, int src_fd,
		       struct nsrun_error *err)
{
	int r;

	switch (op->type) {
	case OP_BIND:
	case OP_RO_BIND:
	case OP_DEV_BIND:
		if (op->flags & OP_F_IDMAP)
			return do_idmap_bind(st, op, d, res->src, err);
		if (op == st->adopt)
			return adopt_root(st, op, d, src_fd, res->src, err);
		return do_bind(op, d, src_fd, res->src, st->cfg->fail_open, err);
	case OP_BIND_FD:
	case OP_RO_BIND_FD:
		/* The same ops as --bind/--ro-bind in bwrap, so fail-open applies to them too. */
		r = do_bind(op, d, src_fd, res->src, st->cfg->fail_open, err);
		return r < 0 ? r : check_bind_fd(root_fd, op, err);
	case OP_REMOUNT_RO:
		return do_remount_ro(op, d, err);
	case OP_PROC:
		return do_proc(st, root_fd, op, d, err);
	case OP_SYS:
		return do_sys(st, root_fd, op, d, err);
	case OP_DEV:
		return do_dev(st, root_fd, op, d, err);
	case OP_TMPFS:
		return do_tmpfs(op, d, err);
	case OP_MQUEUE:
		return do_simple_fs(op, d, "mqueue", 0, err);
	case OP_FILE:
	case OP_BIND_DATA:
	case OP_RO_BIND_DATA:
		return do_data_op(st, op, d, err);
	case OP_SYMLINK:
		return files_symlink(d, op->source, op->dest, err);
	case OP_OVERLAY:
	case OP_TMP_OVERLAY:
	case OP_RO_OVERLAY:
		return do_overlay(st, op, res, d, err);
	case OP_DIR:
		return 0;
	case OP_CHMOD:
	case OP_MAX:
	default:
		return error_set_plain(err, EINVAL, "unknown filesystem operation %d", op->type);
	}
}

static bool has_host_source(enum op_type type)
{
	return type == OP_BIND || type == OP_RO_BIND || type == OP_DEV_BIND || type == OP_BIND_FD ||
	       type == OP_RO_BIND_FD;
}

/* --file, --bind-data, --ro-bind-data, --bind-fd, --ro-bind-fd */
static bool has_caller_fd(enum op_type type)
{
	return type == OP_FILE || type == OP_BIND_DATA || type == OP_RO_BIND_DATA ||
	       type == OP_BIND_FD || type == OP_RO_BIND_FD;
}

/* bwrap 0.12+'s order: the source, the destination, then the op itself. */
static int run_op(struct rootfs_state *st, const struct op *op, const struct resolved *res,
		  struct nsrun_error *err)
{
	/* Reopened per op: a mount on "/" itself must be seen by the next lookup. */
	_cleanup_close_ int root_fd = open(NEWROOT, O_PATH | O_DIRECTORY | O_CLOEXEC), src = -1;
	struct files_dest d = { .fd = -1, .parent_fd = -1 };
	struct files_dest_opts o;
	int r;

	if (root_fd < 0)
		return error_set(err, errno, "Can't open %s", NEWROOT);
	log_debug("op: %s%s%s %s%s", op_type_name(op->type), op->source ? " " : "",
		  op->source ? op->source : "", op->dest ? op->dest : "",
		  res->skip ? " (skipped: no source, a -try op)" : "");
	if (op->type == OP_CHMOD)
		return files_chmod(root_fd, op->dest, op->perms, err);
	r = 1;
	if (has_host_source(op->type) && !res->skip)
		r = open_source(st->oldroot_fd, op, res->src, &src, err);
	if (r > 0 && !res->skip) {
		o = dest_opts(op, src);
		r = files_dest_open(root_fd, &o, &d, err);
		if (r == 0)
			r = run_on_dest(st, root_fd, op, res, &d, src, err);
	}
	/* The caller's fd (data, or a directory outside the new root) is closed once the op
	 * is done, whatever its outcome, so it cannot reach the payload. */
	if (has_caller_fd(op->type) && op->fd >= 0)
		close(op->fd);
	files_dest_close(&d);
	return r < 0 ? r : 0;
}

static bool hide_requested(const struct hide_config *hide)
{
	return hide && ((hide->hide && hide->hide[0]) || (hide->allow && hide->allow[0]));
}

static int run_hide(const struct rootfs_config *cfg, int staging_fd, struct nsrun_error *err)
{
	_cleanup_close_ int root_fd = open(NEWROOT, O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct hide_env env = {
		.root_fd = root_fd,
		.root_path = NEWROOT,
		.staging_fd = staging_fd,
		.staging_path = "/",
		.path_env = cfg->path_env,
		.in_userns = cfg->in_userns,
	};

	if (root_fd < 0)
		return error_set(err, errno, "Can't open %s", NEWROOT);
	return hide_apply(cfg->hide, &env, err);
}

static int build(struct rootfs_state *st, struct nsrun_error *err)
{
	const struct rootfs_config *cfg = st->cfg;
	int r;

	if (cfg->file_label)
		return error_set_plain(err, 0, "labeling not supported on this system");
	st->res = xcalloc(cfg->n_ops + 1, sizeof(*st->res));
	for (size_t i = 0; i < cfg->n_ops; i++) {
		r = resolve_again(cfg->ops, st->res, i, err);
		if (r < 0)
			return r;
		if (cfg->ops[i].type == OP_DEV && !st->console && isatty(STDOUT_FILENO)) {
			const char *tty = ttyname(STDOUT_FILENO);

			if (tty && tty[0] == '/')
				st->console = xconcat(OLDROOT, tty);
		}
	}
	r = staging_setup(hide_wanted(cfg->hide), cfg->command_admin, &st->over_ramfs, err);
	if (r < 0)
		return r;
	st->staging_fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (st->staging_fd < 0)
		return error_set(err, errno, "can't open /");
	st->oldroot_fd = open(OLDROOT, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (st->oldroot_fd < 0)
		return error_set(err, errno, "Can't open %s", OLDROOT);
	st->adopt = adoptable_root(st);
	for (size_t i = 0; i < cfg->n_ops; i++) {
		r = run_op(st, &cfg->ops[i], &st->res[i], err);
		if (r < 0)
			return r;
	}
	if (hide_requested(cfg->hide)) {
		r = run_hide(cfg, st->staging_fd, err);
		if (r < 0)
			return r;
	}
	r = noexec_apply(NEWROOT, OLDROOT "/proc", cfg->landlock,
			 &(struct noexec_fds){ .fds = st->overlay_fds,
					       .n = st->n_overlay_fds,
					       .devs = st->overlay_devs,
					       .n_devs = st->n_overlay_devs,
					       .host_root = OLDROOT },
			 err);
	if (r < 0)
		return r;
	if (st->host_dev_fd >= 0)
		close(TAKE_FD(st->host_dev_fd));
	close(TAKE_FD(st->oldroot_fd));
	close(TAKE_FD(st->staging_fd));
	return final_pivot(st->adopted, err);
}

int rootfs_build(const struct rootfs_config *cfg, struct nsrun_error *err)
{
	struct rootfs_state st = {
		.cfg = cfg, .staging_fd = -1, .oldroot_fd = -1, .host_dev_fd = -1
	};
	mode_t old_umask = umask(0); /* modes given on the command line are exact */
	int r;

	r = build(&st, err);
	if (st.staging_fd >= 0)
		close(st.staging_fd);
	if (st.oldroot_fd >= 0)
		close(st.oldroot_fd);
	if (st.host_dev_fd >= 0)
		close(st.host_dev_fd);
	resolved_free(st.res, cfg->n_ops);
	for (size_t i = 0; i < st.n_overlay_fds; i++)
		close(st.overlay_fds[i]);
	free(st.overlay_fds);
	free(st.overlay_devs);
	free(st.console);
	umask(old_umask);
	return r;
}
