/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mount.c: fd-based mount primitives. The new mount API is used whenever the
 * kernel has it, so a recursive bind with N submounts costs one mount_setattr;
 * the legacy mount(2) path (Linux < 5.12, or a seccomp filter answering ENOSYS)
 * reaches targets through /proc/self/fd/N and remounts submounts one by one.
 */
#include "config.h"

#include "mount.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "macros.h"
#include "mountinfo.h"
#include "syscall.h"
#include "util.h"

/* -1 unknown, 0 missing, 1 present; the only cache in the module (a kernel fact). */
static int api_state = -1;

int mount_api_missing(void)
{
	/* Calls that change nothing and fail before any lookup with side effects: empty
	 * paths (ENOENT), an empty mount_attr (0: nothing to change) and fsopen with an
	 * invalid flag (EINVAL, checked before the name, whose lookup could make the kernel
	 * run modprobe). Valid pointers: no kernel fault. open_tree without OPEN_TREE_CLONE
	 * checks no capability, so EPERM there can only be a seccomp filter (old container
	 * profiles answer EPERM for unknown syscalls). */
	struct nsrun_mount_attr none = { 0 };
	int missing = 0;

	missing += sys_open_tree(-1, "", 0) < 0 && (errno == ENOSYS || errno == EPERM);
	missing += sys_mount_setattr(-1, "", 0, &none) < 0 && errno == ENOSYS;
	missing += sys_move_mount(-1, "", -1, "", 0) < 0 && errno == ENOSYS;
	missing += sys_fsopen("", ~(unsigned)FSOPEN_CLOEXEC) < 0 && errno == ENOSYS;
	return missing;
}

bool mount_api_available(void)
{
	if (api_state < 0)
		api_state = mount_api_missing() == 0;
	return api_state == 1;
}

void mount_force_fallback(void)
{
	api_state = 0;
}

static unsigned long attrs_to_ms(uint64_t attrs)
{
	unsigned long f = 0;

	if (attrs & MOUNT_ATTR_RDONLY)
		f |= MS_RDONLY;
	if (attrs & MOUNT_ATTR_NOSUID)
		f |= MS_NOSUID;
	if (attrs & MOUNT_ATTR_NODEV)
		f |= MS_NODEV;
	if (attrs & MOUNT_ATTR_NOEXEC)
		f |= MS_NOEXEC;
	if (attrs & MOUNT_ATTR_NODIRATIME)
		f |= MS_NODIRATIME;
	if ((attrs & MOUNT_ATTR__ATIME) == MOUNT_ATTR_NOATIME)
		f |= MS_NOATIME;
	else if ((attrs & MOUNT_ATTR__ATIME) == MOUNT_ATTR_STRICTATIME)
		f |= MS_STRICTATIME;
	return f;
}

/* Which step of a bind or remount failed, in bwrap 0.12+'s words, for mount_error():
 * "Unable to mount source on destination", "mount_setattr() failed at \"/newroot/x\"".
 * Set by the failing step, consumed by the next mount_error(). */
static struct {
	char text[PATH_MAX + 64];
	bool no_errno; /* bwrap prints no strerror after it */
} detail;

_printf_(2, 3) static int fail_at(int r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail.text, sizeof(detail.text), fmt, ap);
	va_end(ap);
	detail.no_errno = false;
	return r;
}

static void detail_clear(void)
{
	detail.text[0] = '\0';
}

/* mount_setattr() failed on the mount dest_fd names: bwrap names its real path. */
static int setattr_failed(int r, int dest_fd)
{
	_cleanup_free_ char *real = NULL;

	return fail_at(r, "mount_setattr() failed at \"%s\"",
		       fd_real_path(dest_fd, &real) == 0 ? real : "?");
}

/* The per-mount flags mountinfo lists for a mount ("ro,nosuid,relatime"). */
static unsigned long opts_to_ms(const char *opts)
{
	static const struct {
		const char *name;
		unsigned long flag;
	} known[] = {
		{ "ro", MS_RDONLY },
		{ "nosuid", MS_NOSUID },
		{ "nodev", MS_NODEV },
		{ "noexec", MS_NOEXEC },
		{ "noatime", MS_NOATIME },
		{ "nodiratime", MS_NODIRATIME },
		{ "relatime", MS_RELATIME },
		{ "strictatime", MS_STRICTATIME },
		{ "nosymfollow", 256 /* MS_NOSYMFOLLOW, Linux 5.10; glibc 2.36 lacks it */ },
	};
	unsigned long f = 0;

	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		if (mountinfo_has_opt(opts, known[i].name))
			f |= known[i].flag;
	return f;
}

/* Per-mount flags the kernel would otherwise reset (or refuse to clear when locked). */
static int legacy_remount_one(const char *path, const char *opts, unsigned long add)
{
	if (mount(NULL, path, NULL, MS_BIND | MS_REMOUNT | opts_to_ms(opts) | add, NULL) < 0)
		return -errno;
	return 0;
}

/* A submount we may not touch (locked, foreign) keeps its flags, as in bwrap; one covered
 * by a later mount is unreachable (ENOENT/ENOTDIR) and unseen. With fail_open
 * (--not-a-security-boundary) any other failure on a submount is a warning too; the top
 * of the tree (i == 0) must always get the flags. */
static bool submount_error_ok(size_t i, int r, const char *path, bool fail_open)
{
	if (i == 0)
		return false;
	if (r == -EACCES || r == -ENOENT || r == -ENOTDIR)
		return true;
	if (!fail_open)
		return false;
	log_warn("Can't remount %s submount (%s), ignoring error", path, strerror(-r));
	return true;
}

static int legacy_set_attrs(int fd, bool recursive, uint64_t attrs, bool fail_open)
{
	_cleanup_free_ char *path = NULL;
	_cleanup_strv_free_ char **subs = NULL, **opts = NULL;
	unsigned long add = attrs_to_ms(attrs);
	struct stat st;
	int r;

	/* By its path, not its /proc/self/fd link: mount(2) then reaches the topmost mount
	 * there, which a link to the covered dentry would not. */
	r = fd_real_path(fd, &path);
	if (r < 0)
		return r;
	/* A file has no submounts: statvfs answers for it, where a read of the whole table
	 * made N file binds cost N reads of up to N lines. */
	if (fstat(fd, &st) < 0 || S_ISDIR(st.st_mode) ||
	    mountinfo_list_file(path, &subs, &opts) < 0)
		r = mountinfo_list_subtree_opts(path, &subs, &opts);
	if (r < 0)
		return r;
	for (size_t i = 0; subs[i] && (recursive || i == 0); i++) {
		r = legacy_remount_one(subs[i], opts[i], add);
		if (r == -EINVAL && i == 0) {
			/* not a mount point: bwrap finds no mountinfo line for it */
			fail_at(r, "Unable to find \"%s\" in mount table", subs[i]);
			detail.no_errno = true;
			return r;
		}
		if (r < 0 && i == 0)
			return fail_at(r, "Unable to remount destination \"%s\" with correct flags",
				       subs[i]);
		if (r < 0 && !submount_error_ok(i, r, subs[i], fail_open))
			return fail_at(r, "Unable to apply mount flags: remount \"%s\"", subs[i]);
	}
	return 0;
}

/* Fast path only: a detached recursive clone of src_fd with attrs applied (an fd for
 * mount_attach), or -ENOSYS on kernels without the new API. */
static int mount_clone_tree(int src_fd, bool recursive, uint64_t attrs)
{
	unsigned rec = recursive ? AT_RECURSIVE : 0;
	_cleanup_close_ int fd = -1;

	if (!mount_api_available())
		return -ENOSYS;
	fd = sys_open_tree(src_fd, "", AT_EMPTY_PATH | OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | rec);
	if (fd < 0)
		return -errno;
	if (attrs) {
		struct nsrun_mount_attr a = { .attr_set = attrs };

		if (sys_mount_setattr(fd, "", AT_EMPTY_PATH | rec, &a) < 0)
			return -errno;
	}
	return TAKE_FD(fd);
}

/* Attach a detached mount (from mount_clone_tree or mount_fs_open) onto dest_fd. */
static int mount_attach(int mnt_fd, int dest_fd)
{
	if (sys_move_mount(mnt_fd, "", dest_fd, "",
			   MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return -errno;
	return 0;
}

/* NSRUN_DEBUG: what a mount step does, with its flags and the API that does it. */
static void trace(const char *what, const char *fstype, bool recursive, uint64_t attrs)
{
	static const struct {
		uint64_t bit;
		const char *name;
	} names[] = { { MOUNT_ATTR_RDONLY, "ro" },
		      { MOUNT_ATTR_NOSUID, "nosuid" },
		      { MOUNT_ATTR_NODEV, "nodev" },
		      { MOUNT_ATTR_NOEXEC, "noexec" } };
	char flags[64] = "";
	size_t n = 0;

	if (!log_debug_on())
		return;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (attrs & names[i].bit)
			n += (size_t)snprintf(flags + n, sizeof(flags) - n, "%s%s", n ? "," : "",
					      names[i].name);
	log_debug("mount: %s%s%s%s, flags %s, via %s", what, fstype ? " " : "",
		  fstype ? fstype : "", recursive ? " (recursive)" : "", n ? flags : "none",
		  mount_api_available() ? "the fd-based mount API" : "mount(2)");
}

static int legacy_bind(int src_fd, int dest_fd, bool recursive, uint64_t attrs, bool fail_open)
{
	char src[FD_PATH_SIZE], dst[FD_PATH_SIZE];

	fd_proc_path(src, src_fd);
	fd_proc_path(dst, dest_fd);
	if (mount(src, dst, NULL, MS_BIND | (recursive ? MS_REC : 0), NULL) < 0)
		return fail_at(-errno, "Unable to mount source on destination");
	/* Flags must be re-applied on a fresh lookup: dest_fd still names the covered dir. */
	return attrs ? legacy_set_attrs(dest_fd, recursive, attrs, fail_open) : 0;
}

static int bind_tree(int src_fd, int dest_fd, bool recursive, uint64_t attrs, bool fail_open)
{
	_cleanup_close_ int fd = -1;
	int r;

	detail_clear();
	trace("bind", NULL, recursive, attrs);
	if (!mount_api_available())
		return legacy_bind(src_fd, dest_fd, recursive, attrs, fail_open);
	fd = mount_clone_tree(src_fd, recursive, 0);
	if (fd < 0)
		return fail_at(fd, "Unable to mount source on destination");
	if (attrs) {
		struct nsrun_mount_attr a = { .attr_set = attrs };

		if (sys_mount_setattr(fd, "", AT_EMPTY_PATH | (recursive ? AT_RECURSIVE : 0), &a) <
		    0)
			return setattr_failed(-errno, dest_fd);
	}
	r = mount_attach(fd, dest_fd);
	return r < 0 ? fail_at(r, "Unable to mount source on destination") : 0;
}

int mount_idmapped_tree(const char *path, int userns_fd, uint64_t attrs, bool *at_setattr)
{
	struct nsrun_mount_attr a = { .attr_set = attrs | MOUNT_ATTR_IDMAP,
				      .userns_fd = (uint64_t)userns_fd };
	_cleanup_close_ int fd = -1;

	*at_setattr = false;
	/* No mount(2) form exists for an idmapping: without the new API there is none. */
	if (!mount_api_available())
		return -ENOSYS;
	fd = sys_open_tree(AT_FDCWD, path, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
	if (fd < 0)
		return -errno;
	*at_setattr = true;
	if (sys_mount_setattr(fd, "", AT_EMPTY_PATH | AT_RECURSIVE, &a) < 0)
		return -errno;
	return TAKE_FD(fd);
}

int mount_attach_tree(int tree_fd, int dest_fd)
{
	int r;

	detail_clear();
	trace("attach an idmapped tree", NULL, true, 0);
	r = mount_attach(tree_fd, dest_fd);
	return r < 0 ? fail_at(r, "Unable to mount source on destination") : 0;
}

int mount_bind(int src_fd, int dest_fd, bool recursive, uint64_t attrs)
{
	return bind_tree(src_fd, dest_fd, recursive, attrs, false);
}

/* On the fast path there is nothing to tolerate: mount_setattr() sets the flags on the
 * whole detached copy at once, and adding restrictions is never refused for a locked
 * submount, so it fails for the tree or not at all. */
int mount_bind_fail_open(int src_fd, int dest_fd, uint64_t attrs)
{
	return bind_tree(src_fd, dest_fd, true, attrs, true);
}

/* The kernel refuses to move a tree with an unbindable mount under a shared one (it would
 * propagate), and it checks before it changes anything: the destination is shared for the
 * move alone, so that such a tree stays where it is and is copied, without its unbindable
 * mounts, as a bind copies. The move makes every moved mount shared (each in a group of
 * its own); MS_SLAVE brings each back to what it was, a slave of its master or private. */
int mount_move_tree(int src_fd, int dest_fd, uint64_t attrs)
{
	struct nsrun_mount_attr shared = { .propagation = MS_SHARED };
	struct nsrun_mount_attr private = { .propagation = MS_PRIVATE };
	struct nsrun_mount_attr a = { .attr_set = attrs, .propagation = MS_SLAVE };
	int r = 0;

	detail_clear();
	trace("move the tree", NULL, true, attrs);
	if (!mount_api_available())
		return 0;
	if (sys_mount_setattr(dest_fd, "", AT_EMPTY_PATH, &shared) < 0)
		return 0;
	if (sys_move_mount(src_fd, "", dest_fd, "",
			   MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		r = -errno;
	if (sys_mount_setattr(dest_fd, "", AT_EMPTY_PATH, &private) < 0)
		return fail_at(-errno, "Unable to make the new root private again");
	if (r < 0)
		return 0;
	if (sys_mount_setattr(src_fd, "", AT_EMPTY_PATH | AT_RECURSIVE, &a) < 0)
		return setattr_failed(-errno, src_fd);
	return 1;
}

int mount_set_attrs(int dest_fd, bool recursive, uint64_t attrs)
{
	struct nsrun_mount_attr a = { .attr_set = attrs };

	detail_clear();
	trace("set flags", NULL, recursive, attrs);
	if (!mount_api_available())
		return legacy_set_attrs(dest_fd, recursive, attrs, false);
	if (sys_mount_setattr(dest_fd, "", AT_EMPTY_PATH | (recursive ? AT_RECURSIVE : 0), &a) < 0)
		return setattr_failed(-errno, dest_fd);
	return 0;
}

int mount_set_readonly(int dest_fd)
{
	return mount_set_attrs(dest_fd, false, MOUNT_ATTR_RDONLY);
}

static int fs_configure(int fsfd, const struct mount_opt *opts, size_t n_opts)
{
	for (size_t i = 0; i < n_opts; i++) {
		unsigned cmd = opts[i].value ? FSCONFIG_SET_STRING : FSCONFIG_SET_FLAG;

		if (sys_fsconfig(fsfd, cmd, opts[i].key, opts[i].value, 0) < 0)
			return -errno;
	}
	if (sys_fsconfig(fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return -errno;
	return 0;
}

/* Fast path only: a detached new filesystem instance (an fd for mount_attach), or
 * -ENOSYS/-errno. A "source" opt names the instance (it is mount(2)'s source in legacy). */
static int mount_fs_open(const char *fstype, const struct mount_opt *opts, size_t n_opts,
			 uint64_t attrs)
{
	_cleanup_close_ int fsfd = -1;
	int mfd, r;

	if (!mount_api_available())
		return -ENOSYS;
	fsfd = sys_fsopen(fstype, FSOPEN_CLOEXEC);
	if (fsfd < 0)
		return -errno;
	r = fs_configure(fsfd, opts, n_opts);
	if (r < 0)
		return r;
	mfd = sys_fsmount(fsfd, FSMOUNT_CLOEXEC, (unsigned)attrs);
	return mfd < 0 ? -errno : mfd;
}

/* mount(2) data: every opt but "source", comma-joined (values already escaped). */
static char *legacy_data(const struct mount_opt *opts, size_t n_opts, const char **ret_source)
{
	char *data = xstrdup("");

	for (size_t i = 0; i < n_opts; i++) {
		char *next;

		if (strcmp(opts[i].key, "source") == 0) {
			*ret_source = opts[i].value;
			continue;
		}
		next = xconcat(data, *data ? "," : "", opts[i].key, opts[i].value ? "=" : "",
			       opts[i].value ? opts[i].value : "");
		free(data);
		data = next;
	}
	return data;
}

/* fsconfig copies at most 255 bytes of a string value (and refuses a longer one); mount(2)
 * takes a page of data, which is what bwrap passes. */
#define FSCONFIG_STRING_MAX 255

static bool fits_fsconfig(const struct mount_opt *opts, size_t n_opts)
{
	for (size_t i = 0; i < n_opts; i++)
		if (opts[i].value && strlen(opts[i].value) > FSCONFIG_STRING_MAX)
			return false;
	return true;
}

static int legacy_mount_at(const char *fstype, const struct mount_opt *opts, size_t n_opts,
			   uint64_t attrs, int dest_fd)
{
	_cleanup_free_ char *data = NULL;
	const char *source = fstype;
	char dst[FD_PATH_SIZE];

	data = legacy_data(opts, n_opts, &source);
	/* mount(2) copies one page of data and ends it with a NUL: a longer string is cut
	 * there without a word, and the cut options would name other directories (bwrap
	 * passes it so). */
	if (strlen(data) >= (size_t)getpagesize())
		return -E2BIG;
	fd_proc_path(dst, dest_fd);
	if (mount(source, dst, fstype, attrs_to_ms(attrs), data) < 0)
		return -errno;
	return 0;
}

int mount_fs_at(const char *fstype, const struct mount_opt *opts, size_t n_opts, uint64_t attrs,
		int dest_fd)
{
	int mfd;

	trace("new", fstype, false, attrs);
	if (!mount_api_available() || !fits_fsconfig(opts, n_opts))
		return legacy_mount_at(fstype, opts, n_opts, attrs, dest_fd);
	mfd = mount_fs_open(fstype, opts, n_opts, attrs);
	if (mfd < 0)
		return mfd;
	return mount_attach(mfd, dest_fd);
}

/* Escape ':' ',' and '\' for an overlay lowerdir= string; returns malloc'd text. */
static char *mount_overlay_escape(const char *path)
{
	char *out = xmalloc(strlen(path) * 2 + 1), *o = out;

	for (const char *p = path; *p; p++) {
		if (*p == ':' || *p == ',' || *p == '\\')
			*o++ = '\\';
		*o++ = *p;
	}
	*o = '\0';
	return out;
}

static char *overlay_lowerdir(const struct mount_overlay *ov)
{
	char *s = xstrdup("");

	for (size_t i = 0; i < ov->n_lowers; i++) {
		_cleanup_free_ char *e = mount_overlay_escape(ov->lowers[i]);
		char *next = xconcat(s, i ? ":" : "", e);

		free(s);
		s = next;
	}
	return s;
}

/* The options in bwrap's order, so that mount(2)'s data page holds the same string.
 * overlayfs unescapes every path whether it comes from mount(2) data or fsconfig, so all
 * are escaped: upper and work (NULL for a read-only overlay), and lower, the "lowerdir="
 * list (NULL: left out, for layers passed one by one). */
static size_t overlay_opts(const struct mount_overlay *ov, struct mount_opt *o, const char *lower,
			   const char *upper, const char *work)
{
	size_t n = 0;

	o[n++] = (struct mount_opt){ "source", "overlay" };
	if (upper) {
		o[n++] = (struct mount_opt){ "upperdir", upper };
		o[n++] = (struct mount_opt){ "workdir", work };
	}
	if (lower)
		o[n++] = (struct mount_opt){ "lowerdir", lower };
	if (ov->userxattr) {
		/* In a user namespace the kernel cannot use file handles (no CAP_DAC_READ_SEARCH
		 * in the initial namespace) and logs a warning for every mount as it falls back
		 * to index=off,xino=off (bubblewrap#783); asking for that up front is silent. */
		o[n++] = (struct mount_opt){ "userxattr", NULL };
		o[n++] = (struct mount_opt){ "index", "off" };
		o[n++] = (struct mount_opt){ "xino", "off" };
	}
	return n;
}

/* The fs context's messages ("e: ...", "w: ..."): the last one read is the cause. */
static void overlay_read_log(int fsfd, const struct mount_overlay *ov)
{
	ssize_t n;

	if (!ov->log || ov->log_size < 2)
		return;
	ov->log[0] = '\0';
	while ((n = read(fsfd, ov->log, ov->log_size - 1)) > 0) {
		ov->log[n] = '\0';
		if (ov->log[n - 1] == '\n')
			ov->log[n - 1] = '\0';
	}
}

/* lowerdir+ (Linux 6.8) takes one unescaped layer per call. */
static int overlay_add_lowers(int fsfd, const struct mount_overlay *ov)
{
	for (size_t i = 0; i < ov->n_lowers; i++) {
		if (strlen(ov->lowers[i]) > FSCONFIG_STRING_MAX)
			return -E2BIG;
		if (sys_fsconfig(fsfd, FSCONFIG_SET_STRING, "lowerdir+", ov->lowers[i], 0) < 0)
			return -errno;
	}
	return 0;
}

/* per_layer: the layers go in one by one, and opts holds no "lowerdir". Every value in
 * opts fits fsconfig (the caller checked). */
static int overlay_new_api(const struct mount_overlay *ov, const struct mount_opt *opts,
			   size_t n_opts, bool per_layer, uint64_t attrs, int dest_fd)
{
	_cleanup_close_ int fsfd = -1, mfd = -1;
	int r;

	fsfd = sys_fsopen("overlay", FSOPEN_CLOEXEC);
	if (fsfd < 0)
		return -errno;
	r = per_layer ? overlay_add_lowers(fsfd, ov) : 0;
	if (r == 0)
		r = fs_configure(fsfd, opts, n_opts);
	if (r == 0) {
		mfd = sys_fsmount(fsfd, FSMOUNT_CLOEXEC, (unsigned)attrs);
		r = mfd < 0 ? -errno : 0;
	}
	if (r < 0) {
		overlay_read_log(fsfd, ov);
		return r;
	}
	return mount_attach(mfd, dest_fd);
}

/* bwrap prints the option string it passed, escapes included. */
char *mount_overlay_describe(const struct mount_overlay *ov)
{
	_cleanup_free_ char *upper = ov->upper ? mount_overlay_escape(ov->upper) : NULL;
	_cleanup_free_ char *work = ov->work ? mount_overlay_escape(ov->work) : NULL;
	_cleanup_free_ char *lower = overlay_lowerdir(ov);

	return xconcat(upper ? "upperdir=" : "", upper ? upper : "", upper ? ",workdir=" : "",
		       upper ? work : "", upper ? "," : "", "lowerdir=", lower,
		       ov->userxattr ? ",userxattr" : "");
}

static bool has_comma(const struct mount_opt *opts, size_t n_opts)
{
	for (size_t i = 0; i < n_opts; i++)
		if (opts[i].value && strchr(opts[i].value, ','))
			return true;
	return false;
}

int mount_overlay_at(const struct mount_overlay *ov, uint64_t attrs, int dest_fd)
{
	_cleanup_free_ char *upper = NULL, *work = NULL, *lower = NULL;
	struct mount_opt o[8];
	size_t n;
	int r;

	if (ov->upper) {
		upper = mount_overlay_escape(ov->upper);
		work = mount_overlay_escape(ov->work);
	}
	/* One "lowerdir=" list, as bwrap passes it, so mountinfo shows the same. */
	lower = overlay_lowerdir(ov);
	n = overlay_opts(ov, o, lower, upper, work);
	trace("new", "overlay", false, attrs);
	log_debug("mount: overlay lowerdir=%s%s%s", lower, upper ? " upperdir=" : "",
		  upper ? upper : "");
	if (mount_api_available() && fits_fsconfig(o, n)) {
		r = overlay_new_api(ov, o, n, false, attrs, dest_fd);
		/* Before 6.5 overlayfs parses fsconfig through the legacy shim, which refuses
		 * any value holding a comma, escaped or not; mount(2) takes the same string. */
		if (r != -EINVAL || !has_comma(o, n))
			return r;
	}
	r = legacy_mount_at("overlay", o, n, attrs, dest_fd);
	if (r != -E2BIG || !mount_api_available())
		return r;
	/* More than a page of options: only lowerdir+ can take them whole. */
	n = overlay_opts(ov, o, NULL, upper, work);
	if (!fits_fsconfig(o, n))
		return -E2BIG;
	return overlay_new_api(ov, o, n, true, attrs, dest_fd);
}

int mount_error(struct nsrun_error *err, int r, const char *fmt, ...)
{
	char msg[NSRUN_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (detail.text[0]) {
		size_t n = strlen(msg);

		snprintf(msg + n, sizeof(msg) - n, ": %s", detail.text);
		detail_clear();
		if (detail.no_errno) {
			error_set_plain(err, -r, "%s", msg);
			return r;
		}
	}
	if (r == -ENOSPC)
		error_set_plain(err, ENOSPC,
				"%s: Limit exceeded (ENOSPC). (Hint: Check that "
				"/proc/sys/fs/mount-max is sufficient, typically 100000)",
				msg);
	else
		error_set(err, -r, "%s", msg);
	return r;
}
