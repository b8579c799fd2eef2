/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rootfs.c: the filesystem phase in the child. Host sources are realpath()ed
 * before the first pivot (so host symlinks resolve against the host root), then
 * a private staging tmpfs on /tmp becomes "/" with the host at /oldroot and the
 * sandbox root at /newroot; ops run in order with destinations confined to
 * /newroot; overlay-hide runs; /oldroot is detached and a second pivot makes
 * /newroot "/", so neither the host nor the staging tmpfs stays reachable.
 */
#include "config.h"

#include "rootfs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
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
	int host_dev_fd;
	char *console; /* host tty of stdout ("/oldroot/dev/pts/N") when --dev needs it */
	unsigned n_tmp_overlays;
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

static int staging_setup(bool hides, struct nsrun_error *err)
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
	if (mount(NULL, "/", NULL, MS_SLAVE | MS_REC, NULL) < 0)
		return error_set(err, errno, "Failed to make / slave");
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
	if (sys_pivot_root(".", "oldroot") < 0)
		return error_set(err, errno, "pivot_root");
	if (chdir("/") < 0)
		return error_set(err, errno, "chdir /");
	/* mount(2) reaches fd targets through /proc/self/fd: keep that path working. It is
	 * used without the mount API, and with it for values too long for fsconfig. */
	if (symlink("oldroot/proc", "/proc") < 0)
		return error_set(err, errno, "Can't create symlink /proc");
	return 0;
}

static int final_pivot(struct nsrun_error *err)
{
	_cleanup_close_ int old = -1;

	if (mount(NULL, OLDROOT, NULL, MS_PRIVATE | MS_REC, NULL) < 0)
		return error_set(err, errno, "Failed to make old root rprivate");
	if (umount2(OLDROOT, MNT_DETACH) < 0)
		return error_set(err, errno, "unmount old root");
	old = open("/", O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	if (old < 0)
		return error_set(err, errno, "can't open /");
	if (chdir(NEWROOT) < 0)
		return error_set(err, errno, "chdir %s", NEWROOT);
	/* Stack the new root over the staging root, then drop the staging one from under it. */
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

static int make_mountpoint_for(int root_fd, const struct op *op, int src_fd,
			       struct nsrun_error *err)
{
	struct stat st;
	int fd;

	if (fstat(src_fd, &st) < 0)
		return error_set(err, errno, "Can't get type of source %s", op->source);
	fd = files_mkdir_parents(root_fd, op->dest, op_parent_mode(op), err);
	if (fd < 0)
		return fd;
	fd = path_make_mountpoint(root_fd, op->dest, S_ISDIR(st.st_mode), op_parent_mode(op));
	if (fd < 0)
		return error_set(err, -fd,
				 S_ISDIR(st.st_mode) ? "Can't mkdir %s" : "Can't create file at %s",
				 op->dest);
	return fd;
}

/* Opens the resolved host source, makes the mount point and binds the tree there.
 * Returns 1 when bound, 0 when a -try source vanished since it was resolved. fail_open:
 * --not-a-security-boundary, so a submount that cannot be remounted is only a warning. */
static int bind_source(int root_fd, const struct op *op, const char *src, bool fail_open,
		       struct nsrun_error *err)
{
	_cleanup_close_ int src_fd = -1, dest_fd = -1;
	int r;

	src_fd = open(src, O_PATH | O_CLOEXEC);
	if (src_fd < 0 && errno == ENOENT && (op->flags & OP_F_TRY))
		return 0; /* removed since it was resolved: still a missing source */
	if (src_fd < 0)
		/* --bind-fd has no source argument: name the path its fd resolved to. */
		return error_set(err, errno, "Can't find source path %s",
				 op->source ? op->source : src);
	dest_fd = make_mountpoint_for(root_fd, op, src_fd, err);
	if (dest_fd < 0)
		return dest_fd;
	r = fail_open ? mount_bind_fail_open(src_fd, dest_fd, bind_attrs(op->type)) :
			mount_bind(src_fd, dest_fd, true, bind_attrs(op->type));
	if (r < 0)
		return mount_error(err, r, "Can't bind mount %s on %s%s", src, NEWROOT, op->dest);
	return 1;
}

static int do_bind(int root_fd, const struct op *op, const char *src, bool fail_open,
		   struct nsrun_error *err)
{
	int r = bind_source(root_fd, op, src, fail_open, err);

	return r < 0 ? r : 0;
}

/* --bind-fd: the fd's path was resolved before the pivot; the mounted tree must be the
 * fd's directory, or the path was swapped in between. */
static int do_bind_fd(int root_fd, const struct op *op, const char *src, bool fail_open,
		      struct nsrun_error *err)
{
	_cleanup_close_ int fd = op->fd, check = -1;
	struct stat a, b;
	int r;

	r = bind_source(root_fd, op, src, fail_open, err);
	if (r < 0)
		return r;
	check = path_open(root_fd, op->dest, O_PATH);
	if (check < 0 || fstat(check, &a) < 0 || fstat(fd, &b) < 0)
		return error_set(err, check < 0 ? -check : errno, "Can't stat mount at %s",
				 op->dest);
	if (a.st_dev != b.st_dev || a.st_ino != b.st_ino)
		return error_set_plain(err, 0, "Race condition binding dirfd");
	return 0;
}

static int do_remount_ro(int root_fd, const struct op *op, struct nsrun_error *err)
{
	_cleanup_close_ int fd = path_open(root_fd, op->dest, O_PATH);
	_cleanup_free_ char *real = NULL;
	int r;

	if (fd < 0)
		return error_set(err, -fd, "Can't remount readonly on %s%s: realpath(destination)",
				 NEWROOT, op->dest);
	r = mount_set_readonly(fd);
	if (r == -EINVAL) /* not a mount point: bwrap names the real path it looked for */
		return error_set_plain(err, EINVAL,
				       "Can't remount readonly on %s%s: Unable to find \"%s\" in "
				       "mount table",
				       NEWROOT, op->dest,
				       fd_real_path(fd, &real) == 0 ? real : op->dest);
	if (r < 0)
		return mount_error(err, r, "Can't remount readonly on %s%s", NEWROOT, op->dest);
	return 0;
}

/* A directory mount point (parents first, for bwrap's distinct messages). */
static int mkdir_dest(int root_fd, const struct op *op, struct nsrun_error *err)
{
	int fd = files_mkdir_parents(root_fd, op->dest, op_parent_mode(op), err);

	if (fd < 0)
		return fd;
	fd = path_mkdir_p(root_fd, op->dest, 0755, op_parent_mode(op));
	if (fd < 0)
		return error_set(err, -fd, "Can't mkdir %s", op->dest);
	return fd;
}

static int do_tmpfs(int root_fd, const struct op *op, struct nsrun_error *err)
{
	char mbuf[NUM_BUF_SIZE], sbuf[NUM_BUF_SIZE];
	_cleanup_free_ char *mode = xconcat("0", num_str(mbuf, (unsigned)op_mode(op), 8));
	const char *size = num_str(sbuf, (unsigned long long)op->size, 10);
	struct mount_opt opts[3] = { { "source", "tmpfs" }, { "mode", mode }, { "size", size } };
	size_t n = (op->flags & OP_F_HAS_SIZE) ? 3 : 2;
	_cleanup_close_ int fd = -1;
	int r;

	fd = mkdir_dest(root_fd, op, err);
	if (fd < 0)
		return fd;
	r = mount_fs_at("tmpfs", opts, n, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, fd);
	if (r < 0)
		return mount_error(err, r, "Can't mount tmpfs on %s%s", NEWROOT, op->dest);
	return 0;
}

static int do_simple_fs(int root_fd, const struct op *op, const char *fstype, uint64_t attrs,
			struct nsrun_error *err)
{
	struct mount_opt opts[] = { { "source", fstype } };
	_cleanup_close_ int fd = -1;
	int r;

	fd = mkdir_dest(root_fd, op, err);
	if (fd < 0)
		return fd;
	r = mount_fs_at(fstype, opts, ARRAY_SIZE(opts), attrs, fd);
	if (r < 0)
		return mount_error(err, r, "Can't mount %s on %s%s", fstype, NEWROOT, op->dest);
	return 0;
}

static int do_proc(struct rootfs_state *st, int root_fd, const struct op *op,
		   struct nsrun_error *err)
{
	int r;

	if (st->cfg->new_pidns) {
		r = do_simple_fs(root_fd, op, "proc",
				 MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC | MOUNT_ATTR_NODEV, err);
	} else {
		struct op bind = *op;

		bind.type = OP_BIND;
		bind.source = (char *)"/proc";
		r = do_bind(root_fd, &bind, OLDROOT "/proc", false, err);
	}
	return r < 0 ? r : files_proc_cover(root_fd, op->dest, st->cfg->host_privileged, err);
}

static int do_dev(struct rootfs_state *st, int root_fd, const struct op *op,
		  struct nsrun_error *err)
{
	_cleanup_close_ int console = -1;

	if (st->host_dev_fd < 0) {
		st->host_dev_fd = open(OLDROOT "/dev", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (st->host_dev_fd < 0)
			return error_set(err, errno, "Can't open %s/dev", OLDROOT);
	}
	if (st->console)
		console = open(st->console, O_PATH | O_CLOEXEC);
	return files_dev(root_fd, op->dest, st->host_dev_fd, console, op_parent_mode(op), err);
}

static int tmp_overlay_dirs(struct rootfs_state *st, char **upper, char **work,
			    struct nsrun_error *err)
{
	char num[NUM_BUF_SIZE];
	const char *n = num_str(num, st->n_tmp_overlays++, 10);

	*upper = xconcat("tmp-overlay-upper-", n);
	*work = xconcat("tmp-overlay-work-", n);
	if (mkdirat(st->staging_fd, *upper, 0755) < 0 || mkdirat(st->staging_fd, *work, 0755) < 0)
		return error_set(err, errno, "Can't create overlay directories");
	return 0;
}

static int do_overlay(struct rootfs_state *st, int root_fd, const struct op *op,
		      const struct resolved *res, struct nsrun_error *err)
{
	_cleanup_free_ char *upper = NULL, *work = NULL, *tu = NULL, *tw = NULL, *desc = NULL;
	_cleanup_free_ const char **lowers = NULL;
	/* bwrap passes userxattr whether or not it runs in a user namespace. */
	struct mount_overlay ov = { .userxattr = true };
	_cleanup_close_ int fd = -1;
	size_t n = strv_length(res->layers);
	int r;

	lowers = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		lowers[i] = res->layers[n - 1 - i]; /* last given is the top layer */
	ov.lowers = lowers;
	ov.n_lowers = n;
	if (op->type == OP_OVERLAY) {
		ov.upper = res->src;
		ov.work = res->work;
	} else if (op->type == OP_TMP_OVERLAY) {
		r = tmp_overlay_dirs(st, &tu, &tw, err);
		if (r < 0)
			return r;
		ov.upper = upper = xconcat("/", tu);
		ov.work = work = xconcat("/", tw);
	}
	fd = mkdir_dest(root_fd, op, err);
	if (fd < 0)
		return fd;
	/* No nosuid/nodev: bwrap mounts overlays with default flags (rw,relatime). */
	r = mount_overlay_at(&ov, 0, fd);
	if (r < 0) {
		desc = mount_overlay_describe(&ov);
		if (r == -ELOOP)
			return error_set_plain(err, ELOOP,
					       "Can't make overlay mount on %s%s with options %s: "
					       "Overlay directories may not overlap",
					       NEWROOT, op->dest, desc);
		return mount_error(err, r, "Can't make overlay mount on %s%s with options %s",
				   NEWROOT, op->dest, desc);
	}
	return 0;
}

/* Ops that consume a caller fd close it, so it cannot leak into the payload. */
static int do_data_op(struct rootfs_state *st, int root_fd, const struct op *op,
		      struct nsrun_error *err)
{
	int r;

	if (op->type == OP_FILE)
		r = files_file(root_fd, op->dest, op->fd, op_mode(op), op_parent_mode(op), err);
	else
		r = files_bind_data(root_fd, st->staging_fd, op->dest, op->fd, op_mode(op),
				    op_desc(op->type)->read_only, op_parent_mode(op), err);
	close(op->fd);
	return r;
}

/* bwrap looks a bind's or --overlay's source up again when its op's turn comes, by the
 * name "/oldroot" + its real path (+ the path as given, for a missing -try source): a name
 * the kernel refuses as too long fails there, after the ops before it have run. Layers
 * and work directories are not looked up so (measured against 0.11.1). */
static int source_check(const struct op *op, const struct resolved *res, struct nsrun_error *err)
{
	const char *src = res->skip ? op->source : res->src + strlen(OLDROOT);

	if (strlen(OLDROOT) + strlen(src) < PATH_MAX)
		return 0;
	return error_set(err, ENAMETOOLONG, "Can't get type of source %s", src);
}

static int run_op(struct rootfs_state *st, const struct op *op, const struct resolved *res,
		  struct nsrun_error *err)
{
	/* Reopened per op: a mount on "/" itself must be seen by the next lookup. */
	_cleanup_close_ int root_fd = open(NEWROOT, O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (root_fd < 0)
		return error_set(err, errno, "Can't open %s", NEWROOT);
	switch (op->type) {
	case OP_BIND:
	case OP_RO_BIND:
	case OP_DEV_BIND:
		if (source_check(op, res, err) < 0)
			return -ENAMETOOLONG;
		return res->skip ? 0 : do_bind(root_fd, op, res->src, st->cfg->fail_open, err);
	case OP_BIND_FD:
	case OP_RO_BIND_FD:
		/* The same ops as --bind/--ro-bind in bwrap, so fail-open applies to them too. */
		return do_bind_fd(root_fd, op, res->src, st->cfg->fail_open, err);
	case OP_REMOUNT_RO:
		return do_remount_ro(root_fd, op, err);
	case OP_PROC:
		return do_proc(st, root_fd, op, err);
	case OP_DEV:
		return do_dev(st, root_fd, op, err);
	case OP_TMPFS:
		return do_tmpfs(root_fd, op, err);
	case OP_MQUEUE:
		return do_simple_fs(root_fd, op, "mqueue", 0, err);
	case OP_DIR:
		return files_dir(root_fd, op->dest, op_mode(op), op_parent_mode(op), err);
	case OP_FILE:
	case OP_BIND_DATA:
	case OP_RO_BIND_DATA:
		return do_data_op(st, root_fd, op, err);
	case OP_SYMLINK:
		return files_symlink(root_fd, op->source, op->dest, op_parent_mode(op), err);
	case OP_CHMOD:
		return files_chmod(root_fd, op->dest, op->perms, err);
	case OP_OVERLAY:
		if (source_check(op, res, err) < 0)
			return -ENAMETOOLONG;
		_fallthrough_;
	case OP_TMP_OVERLAY:
	case OP_RO_OVERLAY:
		return do_overlay(st, root_fd, op, res, err);
	case OP_MAX:
	default:
		return error_set_plain(err, EINVAL, "unknown filesystem operation %d", op->type);
	}
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
		r = resolve_op(&cfg->ops[i], &st->res[i], err);
		if (r < 0)
			return r;
		if (cfg->ops[i].type == OP_DEV && !st->console && isatty(STDOUT_FILENO)) {
			const char *tty = ttyname(STDOUT_FILENO);

			if (tty && tty[0] == '/')
				st->console = xconcat(OLDROOT, tty);
		}
	}
	r = staging_setup(hide_wanted(cfg->hide), err);
	if (r < 0)
		return r;
	st->staging_fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (st->staging_fd < 0)
		return error_set(err, errno, "can't open /");
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
	r = noexec_apply(NEWROOT, OLDROOT "/proc", cfg->landlock, err);
	if (r < 0)
		return r;
	if (st->host_dev_fd >= 0)
		close(TAKE_FD(st->host_dev_fd));
	close(TAKE_FD(st->staging_fd));
	return final_pivot(err);
}

int rootfs_build(const struct rootfs_config *cfg, struct nsrun_error *err)
{
	struct rootfs_state st = { .cfg = cfg, .staging_fd = -1, .host_dev_fd = -1 };
	mode_t old_umask = umask(0); /* modes given on the command line are exact */
	int r;

	/* Destinations are refused where bwrap's "/newroot" + DEST would be too long a name. */
	path_set_name_base(strlen(NEWROOT));
	r = build(&st, err);
	path_set_name_base(0);
	if (st.staging_fd >= 0)
		close(st.staging_fd);
	if (st.host_dev_fd >= 0)
		close(st.host_dev_fd);
	resolved_free(st.res, cfg->n_ops);
	free(st.console);
	umask(old_umask);
	return r;
}
