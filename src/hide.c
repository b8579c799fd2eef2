/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * hide.c: carries out a hide plan (hide-plan.c) in the root being built. Per directory,
 * a layer on the staging tmpfs either holds whiteouts under a read-only overlay, or holds
 * only the kept entries (each bound from the original) and replaces the directory as a
 * read-only bind. Nothing on the host is created or changed, and a failure always stops
 * the sandbox: no command runs with an entry that was meant to be hidden.
 */
#include "config.h"

#include "hide.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "macros.h"
#include "mount.h"
#include "mountinfo.h"
#include "path.h"
#include "syscall.h"
#include "util.h"

/* ---- the sandbox's tree, seen through the root fd ---- */

/* Symlinks resolve inside the sandbox: the result names the directory a process in the
 * sandbox would reach. */
static int root_resolve_dir(void *ctx, const char *path, char **ret)
{
	return path_resolve_dir(&path_fd_tree, *(int *)ctx, path, ret);
}

/* Names are gathered in one buffer and packed: no allocation per entry (/usr/bin: 1300). */
static int root_list_dir(void *ctx, const char *dir, char ***ret)
{
	int root_fd = *(int *)ctx;
	/* dir is canonical: a symlink in any component now is a swap, and fails */
	int fd = path_open_no_symlinks(root_fd, dir, O_RDONLY | O_DIRECTORY);
	_cleanup_free_ char *buf = NULL;
	size_t len = 0, cap = 0, n = 0;
	struct dirent *de;
	DIR *d;

	if (fd < 0)
		return fd;
	d = fdopendir(fd);
	if (!d) {
		int r = -errno;

		close(fd);
		return r;
	}
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name) + 1;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (len + l > cap) {
			cap = cap ? 2 * cap : 16384;
			buf = xrealloc(buf, cap);
		}
		memcpy(buf + len, de->d_name, l);
		len += l;
		n++;
	}
	closedir(d);
	*ret = hide_pack_names(buf, len, n);
	return 0;
}

/* readlinkat answers EINVAL for an entry that is not a symlink, as hide_fs wants. */
static int root_read_link(void *ctx, const char *dir, const char *name, char **ret)
{
	_cleanup_close_ int dfd = -1;
	char target[PATH_MAX];
	ssize_t n;

	if (strchr(name, '/'))
		return -EINVAL;
	/* the directory through the confined walk, then one name in it */
	dfd = path_open_no_symlinks(*(int *)ctx, dir, O_PATH | O_DIRECTORY);
	if (dfd < 0)
		return dfd;
	n = readlinkat(dfd, name, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	*ret = xstrdup(target);
	return 0;
}

/* ---- carrying one directory's hiding out ---- */

/* canon holds no symlinks: any found now (a bind source changed meanwhile) fails, in
 * every component, with openat2 or without it (the walk). */
static int open_in_root(int root_fd, const char *canon)
{
	return path_open_no_symlinks(root_fd, canon, O_PATH | O_DIRECTORY);
}

/* First component of path below dir, if path lies strictly below dir. */
static const char *below(const char *dir, const char *path, char *buf, size_t size)
{
	size_t ld = strlen(dir), n;

	if (strcmp(dir, "/") == 0)
		ld = 0;
	if (strncmp(path, dir, ld) != 0 || path[ld] != '/' || !path[ld + 1])
		return NULL;
	n = strcspn(path + ld + 1, "/");
	if (n >= size)
		n = size - 1;
	memcpy(buf, path + ld + 1, n);
	buf[n] = '\0';
	return buf;
}

static int refuse_submount(const struct hide_dir *hd, const char *name, struct nsrun_error *err)
{
	return error_set(err, 0,
			 "--overlay-hide: '%s' has a mount at '%s%s%s' below it, which the "
			 "overlay would cover; hide entries inside that mount, or do not mount it",
			 hd->dir, strcmp(hd->dir, "/") ? hd->dir : "", "/", name);
}

/* Without listmount (< 6.8): every mount below the directory, from mountinfo, in the tree
 * that a lookup of it reaches (a mask two levels down counts as much as one on an entry). */
static int check_submounts_mountinfo(const char *view_path, const struct hide_dir *hd,
				     struct nsrun_error *err)
{
	_cleanup_strv_free_ char **subs = NULL;
	char name[NAME_MAX + 1];
	const char *first;
	int r = mountinfo_list_subtree(view_path, &subs);

	if (r < 0)
		return error_set(err, -r, "--overlay-hide: list the mounts below '%s'", hd->dir);
	for (size_t i = 1; subs[i]; i++) {
		first = below(view_path, subs[i], name, sizeof(name));
		if (first)
			return refuse_submount(hd, first, err);
	}
	return 0;
}

/* An overlay's lower layer is one filesystem: mounts below the directory would vanish
 * with it, changing more than the hidden names. A mount on a hidden name is refused too:
 * in a user namespace the kernel will not stack on a directory with locked mounts below
 * it, and root and unprivileged runs should accept the same command lines. */
static int check_submounts(int dfd, const char *view_path, const struct hide_dir *hd,
			   struct nsrun_error *err)
{
	struct nsrun_mnt_id_req req = { .size = NSRUN_MNT_ID_REQ_SIZE_VER0 };
	_cleanup_free_ struct nsrun_statmount *sm = xmalloc(16384);
	__u64 ids[128];
	struct statx stx;
	long n;

	if (statx(dfd, "", AT_EMPTY_PATH, STATX_MNT_ID_UNIQUE, &stx) < 0 ||
	    !(stx.stx_mask & STATX_MNT_ID_UNIQUE))
		return check_submounts_mountinfo(view_path, hd, err);
	req.mnt_id = stx.stx_mnt_id;
	do {
		n = sys_listmount(&req, ids, ARRAY_SIZE(ids), 0);
		if (n < 0)
			return check_submounts_mountinfo(view_path, hd, err);
		for (long i = 0; i < n; i++) {
			struct nsrun_mnt_id_req sreq = { .size = NSRUN_MNT_ID_REQ_SIZE_VER0,
							 .mnt_id = ids[i],
							 .param = NSRUN_STATMOUNT_MNT_POINT };
			char name[NAME_MAX + 1];
			const char *first;

			if (sys_statmount(&sreq, sm, 16384, 0) < 0 ||
			    !(sm->mask & NSRUN_STATMOUNT_MNT_POINT))
				return error_set(err, errno,
						 "--overlay-hide: inspect mounts below '%s'",
						 hd->dir);
			first = below(view_path, sm->str + sm->mnt_point, name, sizeof(name));
			if (first)
				return refuse_submount(hd, first, err);
			req.param = ids[i];
		}
	} while (n == (long)ARRAY_SIZE(ids));
	return 0;
}

/* ---- the layer on the staging tmpfs ---- */

static int layer_open(const struct hide_env *env, const char *ws, int *ret, struct nsrun_error *err)
{
	if (mkdirat(env->staging_fd, ws, 0700) < 0)
		return error_set(err, errno, "--overlay-hide: create '%s/%s'", env->staging_path,
				 ws);
	*ret = openat(env->staging_fd, ws, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (*ret < 0)
		return error_set(err, errno, "--overlay-hide: open '%s/%s'", env->staging_path, ws);
	return 0;
}

/* The hidden directory shows the layer's owner, mode and times, so they are copied from
 * the original (the owner only where it is mapped) once the layer is filled. */
static int layer_finish(int wfd, const struct stat *st, const char *ws, const struct hide_env *env,
			struct nsrun_error *err)
{
	struct timespec times[2] = { st->st_atim, st->st_mtim };

	if (fchown(wfd, st->st_uid, st->st_gid) < 0 && errno != EPERM && errno != EINVAL)
		return error_set(err, errno, "--overlay-hide: chown '%s/%s'", env->staging_path,
				 ws);
	if (fchmod(wfd, st->st_mode & 07777) < 0 || futimens(wfd, times) < 0)
		return error_set(err, errno, "--overlay-hide: set attributes of '%s/%s'",
				 env->staging_path, ws);
	return 0;
}

/* One whiteout inode linked under every name, as overlayfs shares one in its own upper
 * layers: it tells a whiteout by type and device number alone. A link allocates no
 * inode, so it costs less than a mknod (bench/hide.sh: about 15% of the per-name time)
 * and the layer holds one inode however many names it hides. */
static int make_whiteouts(const struct hide_dir *hd, int wfd, struct nsrun_error *err)
{
	for (size_t i = 0; i < hd->n_names; i++) {
		if (i > 0 && linkat(wfd, hd->names[0], wfd, hd->names[i], 0) == 0)
			continue;
		if (mknodat(wfd, hd->names[i], S_IFCHR | 0000, makedev(0, 0)) == 0)
			continue;
		if (errno == EPERM)
			return error_set(
				err, errno,
				"--overlay-hide: create a whiteout for '%s' in '%s' (whiteouts "
				"in a user namespace need Linux 5.8)",
				hd->names[i], hd->dir);
		return error_set(err, errno, "--overlay-hide: create a whiteout for '%s' in '%s'",
				 hd->names[i], hd->dir);
	}
	return 0;
}

/* A bind cannot sit on a symlink, so a kept symlink is recreated with its target text. */
static int keep_symlink(int src, int wfd, const char *name, const struct stat *st,
			const struct hide_dir *hd, struct nsrun_error *err)
{
	struct timespec times[2] = { st->st_atim, st->st_mtim };
	char target[PATH_MAX];
	ssize_t n = readlinkat(src, "", target, sizeof(target) - 1);

	if (n < 0)
		return error_set(err, errno, "--overlay-allow: read the symlink '%s' in '%s'", name,
				 hd->dir);
	target[n] = '\0';
	if (symlinkat(target, wfd, name) < 0)
		return error_set(err, errno, "--overlay-allow: copy the symlink '%s' of '%s'", name,
				 hd->dir);
	if (fchownat(wfd, name, st->st_uid, st->st_gid, AT_SYMLINK_NOFOLLOW) < 0 &&
	    errno != EPERM && errno != EINVAL)
		return error_set(err, errno, "--overlay-allow: chown the copy of '%s'", name);
	if (utimensat(wfd, name, times, AT_SYMLINK_NOFOLLOW) < 0)
		return error_set(err, errno, "--overlay-allow: set the times of the copy of '%s'",
				 name);
	return 0;
}

/* Any other entry gets a placeholder of its kind (a directory or an empty file) with the
 * real entry bound on it, so owner, mode, times and contents are the original's. */
static int keep_entry(int dfd, int wfd, const char *name, const struct hide_dir *hd,
		      struct nsrun_error *err)
{
	_cleanup_close_ int src = openat(dfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	_cleanup_close_ int ph = -1;
	struct stat st;
	int r;

	if (src < 0 || fstat(src, &st) < 0)
		return error_set(err, errno, "--overlay-allow: open '%s' in '%s'", name, hd->dir);
	if (S_ISLNK(st.st_mode))
		return keep_symlink(src, wfd, name, &st, hd, err);
	if (S_ISDIR(st.st_mode)) {
		if (mkdirat(wfd, name, 0700) == 0)
			ph = openat(wfd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	} else {
		ph = openat(wfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	}
	if (ph < 0)
		return error_set(err, errno,
				 "--overlay-allow: create a mount point for '%s' of '%s'", name,
				 hd->dir);
	r = mount_bind(src, ph, false, 0);
	if (r < 0)
		return mount_error(err, r,
				   "--overlay-allow: bind '%s' of '%s' into its new directory",
				   name, hd->dir);
	return 0;
}

/* ---- the two ways of hiding one directory ---- */

/* The directory's own flags carry over, so hiding never re-enables setuid binaries,
 * device nodes or exec. atime: only where the attrs go to a new mount (not setattr). */
static uint64_t dir_attrs(unsigned long st_flags, bool with_atime)
{
	uint64_t attr = MOUNT_ATTR_RDONLY;

	attr |= (st_flags & ST_NOSUID) ? MOUNT_ATTR_NOSUID : 0;
	attr |= (st_flags & ST_NODEV) ? MOUNT_ATTR_NODEV : 0;
	attr |= (st_flags & ST_NOEXEC) ? MOUNT_ATTR_NOEXEC : 0;
	if (!with_atime)
		return attr;
	if (st_flags & ST_NOATIME)
		attr |= MOUNT_ATTR_NOATIME;
	else if (!(st_flags & ST_RELATIME))
		attr |= MOUNT_ATTR_STRICTATIME;
	if (st_flags & ST_NODIRATIME)
		attr |= MOUNT_ATTR_NODIRATIME;
	return attr;
}

static int overlay_error(int r, const char *log, const char *dir, struct nsrun_error *err)
{
	if (r == -ENODEV)
		return error_set(err, ENODEV, "--overlay-hide: overlayfs is not available");
	if (r == -E2BIG)
		return error_set(err, E2BIG,
				 "--overlay-hide: mount a read-only overlay on '%s' (the directory's "
				 "path is too long for the overlay's mount options)",
				 dir);
	/* Most refusals are only in the kernel log: name the usual causes. */
	return error_set(err, -r,
			 "--overlay-hide: mount a read-only overlay on '%s'%s%s%s (overlayfs does "
			 "not stack on every filesystem, e.g. /proc, nor on a directory with mounts "
			 "below it, and in a user namespace needs Linux 5.11)",
			 dir, *log ? " [" : "", log, *log ? "]" : "");
}

/* O(kept): the layer holds only the kept entries and is bound, with their binds, over the
 * directory. Without an overlay nothing of the original shows through. */
static int apply_keep_only(const struct hide_dir *hd, int dfd, const struct stat *st,
			   unsigned long st_flags, const char *ws, const struct hide_env *env,
			   struct nsrun_error *err)
{
	_cleanup_close_ int wfd = -1;
	int r = layer_open(env, ws, &wfd, err);

	for (size_t i = 0; r == 0 && i < hd->n_keep; i++)
		r = keep_entry(dfd, wfd, hd->keep[i], hd, err);
	if (r == 0)
		r = layer_finish(wfd, st, ws, env, err);
	if (r < 0)
		return r;
	r = mount_bind(wfd, dfd, true, dir_attrs(st_flags, false));
	if (r < 0)
		return mount_error(err, r,
				   "--overlay-allow: mount the kept entries of '%s' over it",
				   hd->dir);
	return 0;
}

/* Kernels that mount no overlay in a user namespace (before 5.11): the same result the
 * other way, the directory's entries but the hidden ones, each bound into a layer. */
static int keep_all_but_hidden(const struct hide_dir *hd, int dfd, const struct stat *st,
			       unsigned long st_flags, const char *ws, const struct hide_env *env,
			       struct nsrun_error *err)
{
	_cleanup_free_ char *ws_keep = xconcat(ws, "-keep");
	_cleanup_free_ char **all = NULL;
	_cleanup_free_ char **keep = NULL;
	struct hide_dir k = *hd;
	int root_fd = env->root_fd;
	int r = root_list_dir(&root_fd, hd->dir, &all);

	if (r < 0)
		return error_set(err, -r, "--overlay-hide: list '%s'", hd->dir);
	k.method = HIDE_KEEP_ONLY;
	k.n_keep = 0;
	for (size_t i = 0; all[i]; i++)
		if (!hide_dir_hides(hd, all[i]))
			*(char **)xappend(&keep, &k.n_keep, sizeof(char *)) = all[i];
	k.keep = keep;
	return apply_keep_only(&k, dfd, st, st_flags, ws_keep, env, err);
}

static int apply_whiteouts(const struct hide_dir *hd, int dfd, const char *target,
			   const struct stat *st, unsigned long st_flags, const char *ws,
			   const struct hide_env *env, struct nsrun_error *err)
{
	_cleanup_free_ char *ws_path = path_join(env->staging_path, ws);
	const char *lowers[] = { ws_path, target };
	char log[200] = "";
	struct mount_overlay ov = {
		.lowers = lowers,
		.n_lowers = 2,
		.userxattr = env->in_userns,
		.log = log,
		.log_size = sizeof(log),
	};
	_cleanup_close_ int wfd = -1;
	int r = layer_open(env, ws, &wfd, err);

	if (r == 0)
		r = make_whiteouts(hd, wfd, err);
	if (r == 0)
		r = layer_finish(wfd, st, ws, env, err);
	if (r < 0)
		return r;
	r = mount_overlay_at(&ov, dir_attrs(st_flags, true), dfd);
	if (r == -EPERM && env->in_userns)
		return keep_all_but_hidden(hd, dfd, st, st_flags, ws, env, err);
	return r < 0 ? overlay_error(r, log, hd->dir, err) : 0;
}

/* NSRUN_DEBUG: the directory's plan, every name of it. */
static void trace_dir(const struct hide_dir *hd)
{
	bool keep = hd->method == HIDE_KEEP_ONLY;
	char **names = keep ? hd->keep : hd->names;
	_cleanup_free_ char *list = NULL;

	if (!log_debug_on())
		return;
	list = strv_join(names, " ");
	log_debug("hide: %s: %s %zu: %s", hd->dir, keep ? "allowlist, keeps" : "whiteouts, hides",
		  keep ? hd->n_keep : hd->n_names, list);
}

static int hide_dir_apply(const struct hide_dir *hd, size_t idx, const struct hide_env *env,
			  struct nsrun_error *err)
{
	char num[NUM_BUF_SIZE];
	_cleanup_free_ char *ws = xconcat(".nsrun-hide-", num_str(num, idx, 10));
	_cleanup_free_ char *target = strcmp(hd->dir, "/") ? path_join(env->root_path, hd->dir) :
							     xstrdup(env->root_path);
	_cleanup_close_ int dfd = open_in_root(env->root_fd, hd->dir);
	struct statvfs vfs;
	struct stat st;
	int r;

	/* ENOENT: a parent's layer (applied first: the plan is sorted) already hid it. */
	if (dfd == -ENOENT)
		return 0;
	if (dfd < 0)
		return error_set(err, -dfd, "--overlay-hide: open '%s' in the sandbox", hd->dir);
	if (fstat(dfd, &st) < 0 || fstatvfs(dfd, &vfs) < 0)
		return error_set(err, errno, "--overlay-hide: stat '%s'", hd->dir);
	if (!(vfs.f_flag & ST_RDONLY))
		return error_set(err, 0,
				 "--overlay-hide: '%s' is writable in the sandbox and hiding would "
				 "make it read-only; bind it with --ro-bind, or mask single entries "
				 "with --ro-bind /dev/null PATH",
				 hd->dir);
	r = check_submounts(dfd, target, hd, err);
	if (r < 0)
		return r;
	trace_dir(hd);
	if (hd->method == HIDE_KEEP_ONLY)
		return apply_keep_only(hd, dfd, &st, vfs.f_flag, ws, env, err);
	return apply_whiteouts(hd, dfd, target, &st, vfs.f_flag, ws, env, err);
}

bool hide_wanted(const struct hide_config *cfg)
{
	return cfg && ((cfg->hide && cfg->hide[0]) || (cfg->allow && cfg->allow[0]));
}

/* A list shared across machines may name tools some lack: a warning, not an error; a glob
 * that matches nothing says "if present" and stays silent. */
static void warn_missing(const char *opt, char *const *missing, const char *done)
{
	for (size_t i = 0; missing && missing[i]; i++)
		log_warn("%s '%s': no such entry in the sandbox%s; nothing %s", opt, missing[i],
			 strchr(missing[i], '/') ? "" : "'s PATH directories", done);
}

int hide_apply(const struct hide_config *cfg, const struct hide_env *env, struct nsrun_error *err)
{
	int root_fd = env->root_fd;
	struct hide_fs fs = {
		.ctx = &root_fd,
		.resolve_dir = root_resolve_dir,
		.list_dir = root_list_dir,
		.read_link = root_read_link,
	};
	struct hide_plan plan;
	int r;

	if (!hide_wanted(cfg))
		return 0;
	r = hide_plan_build(cfg, env->path_env, &fs, &plan, err);
	if (r == 0) {
		warn_missing("--overlay-hide", plan.missing, "hidden");
		warn_missing("--overlay-allow", plan.missing_allow, "allowed");
	}
	for (size_t i = 0; r == 0 && i < plan.n_dirs; i++)
		r = hide_dir_apply(&plan.dirs[i], i, env, err);
	hide_plan_free(&plan);
	return r;
}
