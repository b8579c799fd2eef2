/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mountinfo.c: parsing mountinfo lines (no library needed), and the only file
 * that uses libmount. The legacy mount path needs the submounts of a freshly
 * bound tree to remount each of them; the fast path (mount_setattr
 * AT_RECURSIVE) never parses mountinfo. libmount is therefore
 * loaded on first use: linking it pulls in libblkid, libselinux and libpcre2,
 * about 1 MiB of resident memory in every run, for code most runs never reach.
 */
#include "config.h"

#include "mountinfo.h"

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <libmount.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "syscall.h"
#include "util.h"

#define LIBMOUNT_SONAME "libmount.so.1"

/* ---- the line parser ---- */

void mountinfo_unescape(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

bool mountinfo_has_opt(const char *opts, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = opts; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return true;
	return false;
}

static int parse_ull(const char *s, unsigned long long *ret)
{
	char *end;

	if (!s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	*ret = strtoull(s, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

static int parse_devno(char *s, unsigned *major, unsigned *minor)
{
	unsigned long long a, b;
	char *colon = s ? strchr(s, ':') : NULL;

	if (!colon)
		return -EINVAL;
	*colon = '\0';
	if (parse_ull(s, &a) < 0 || parse_ull(colon + 1, &b) < 0 || a > UINT32_MAX ||
	    b > UINT32_MAX)
		return -EINVAL;
	*major = (unsigned)a;
	*minor = (unsigned)b;
	return 0;
}

/* Fields are separated by single spaces (spaces inside them are escaped); strsep keeps
 * empty fields, such as an empty source, in place. */
int mountinfo_parse_line(char *line, struct mountinfo_entry *ret)
{
	char *f[6], *p = line, *sep;

	line[strcspn(line, "\n")] = '\0';
	for (size_t i = 0; i < 6; i++)
		if (!(f[i] = strsep(&p, " ")))
			return -EINVAL;
	/* optional fields ("shared:1 master:2 ...") end with a lone "-" */
	while ((sep = strsep(&p, " ")) && strcmp(sep, "-") != 0)
		;
	*ret = (struct mountinfo_entry){ .root = f[3], .mountpoint = f[4], .mount_opts = f[5] };
	ret->fstype = strsep(&p, " ");
	ret->source = strsep(&p, " ");
	ret->super_opts = strsep(&p, " ");
	if (!sep || !ret->super_opts || parse_ull(f[0], &ret->id) < 0 ||
	    parse_ull(f[1], &ret->parent_id) < 0 || parse_devno(f[2], &ret->major, &ret->minor) < 0)
		return -EINVAL;
	mountinfo_unescape(ret->root);
	mountinfo_unescape(ret->mountpoint);
	mountinfo_unescape(ret->source);
	return 0;
}

/* ---- overlayfs layers in the super options ---- */

/* overlayfs's escapes: '\' keeps the next character, whatever it is. */
static void ovl_unescape(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++) {
		if (*r == '\\' && r[1])
			r++;
		*w++ = *r;
	}
	*w = '\0';
}

static void push_lowerdir(char *v, char ***lowers)
{
	char *start = v;

	for (char *p = v;; p++) {
		if (*p == '\\' && p[1]) {
			p++;
		} else if (*p == ':' || !*p) {
			bool end = !*p;

			*p = '\0';
			ovl_unescape(start);
			if (*start)
				strv_push(lowers, start);
			if (end)
				return;
			start = p + 1;
		}
	}
}

void mountinfo_overlay_layers(const char *super_opts, char ***lowers, char ***uppers)
{
	_cleanup_free_ char *s = xstrdup(super_opts);
	char *p = s, *opt;

	/* a ',' inside a value is escaped as \054, so splitting comes first */
	while ((opt = strsep(&p, ","))) {
		char *v = strchr(opt, '=');

		if (!v)
			continue;
		*v++ = '\0';
		mountinfo_unescape(v);
		if (strcmp(opt, "lowerdir") == 0) {
			push_lowerdir(v, lowers);
		} else if (strcmp(opt, "lowerdir+") == 0 || strcmp(opt, "datadir+") == 0) {
			strv_push(lowers, v);
		} else if (strcmp(opt, "upperdir") == 0 || strcmp(opt, "workdir") == 0) {
			ovl_unescape(v);
			strv_push(uppers, v);
		}
	}
}

/* ---- libmount, for the legacy mount path ---- */

struct libmount_api {
	__typeof__(mnt_new_table) *new_table;
	__typeof__(mnt_unref_table) *unref_table;
	__typeof__(mnt_table_parse_file) *table_parse_file;
	__typeof__(mnt_new_iter) *new_iter;
	__typeof__(mnt_free_iter) *free_iter;
	__typeof__(mnt_table_next_fs) *table_next_fs;
	__typeof__(mnt_fs_get_target) *fs_get_target;
	__typeof__(mnt_fs_get_id) *fs_get_id;
	__typeof__(mnt_fs_get_parent_id) *fs_get_parent_id;
	__typeof__(mnt_fs_get_vfs_options) *fs_get_vfs_options;
};

/* Loaded once per process and never unloaded: a cache, not state that changes meaning. */
static const struct libmount_api *libmount(void)
{
	static struct libmount_api api;
	static int loaded; /* 0 not tried, 1 ok, -1 failed */
	void *h;

	if (loaded)
		return loaded > 0 ? &api : NULL;
	loaded = -1;
	h = dlopen(LIBMOUNT_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return NULL;
	api.new_table = (__typeof__(api.new_table))dlsym(h, "mnt_new_table");
	api.unref_table = (__typeof__(api.unref_table))dlsym(h, "mnt_unref_table");
	api.table_parse_file = (__typeof__(api.table_parse_file))dlsym(h, "mnt_table_parse_file");
	api.new_iter = (__typeof__(api.new_iter))dlsym(h, "mnt_new_iter");
	api.free_iter = (__typeof__(api.free_iter))dlsym(h, "mnt_free_iter");
	api.table_next_fs = (__typeof__(api.table_next_fs))dlsym(h, "mnt_table_next_fs");
	api.fs_get_target = (__typeof__(api.fs_get_target))dlsym(h, "mnt_fs_get_target");
	api.fs_get_id = (__typeof__(api.fs_get_id))dlsym(h, "mnt_fs_get_id");
	api.fs_get_parent_id = (__typeof__(api.fs_get_parent_id))dlsym(h, "mnt_fs_get_parent_id");
	api.fs_get_vfs_options =
		(__typeof__(api.fs_get_vfs_options))dlsym(h, "mnt_fs_get_vfs_options");
	if (!api.new_table || !api.unref_table || !api.table_parse_file || !api.new_iter ||
	    !api.free_iter || !api.table_next_fs || !api.fs_get_target || !api.fs_get_id ||
	    !api.fs_get_parent_id || !api.fs_get_vfs_options)
		return NULL;
	loaded = 1;
	return &api;
}

/* The id of the mount a fresh lookup of path reaches (the topmost one there): statx's
 * STATX_MNT_ID (5.8), else the fd's fdinfo. statx first: before 5.14 a non-dumpable
 * process (nsrun under its AppArmor profile) may not open its own fdinfo. */
static int path_mount_id(const char *path, int *id)
{
	_cleanup_close_ int fd = -1;
	char name[64], buf[512], *p;
	_cleanup_close_ int info = -1;
	struct statx stx = { 0 };
	ssize_t n;

	if (statx(AT_FDCWD, path, AT_NO_AUTOMOUNT, STATX_MNT_ID, &stx) == 0 &&
	    (stx.stx_mask & STATX_MNT_ID)) {
		*id = (int)stx.stx_mnt_id;
		return 0;
	}
	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	snprintf(name, sizeof(name), "/proc/self/fdinfo/%d", fd);
	info = open(name, O_RDONLY | O_CLOEXEC);
	if (info < 0)
		return -errno;
	n = read_full(info, buf, sizeof(buf) - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	p = strstr(buf, "mnt_id:");
	if (!p)
		return -EIO;
	*id = atoi(p + 7);
	return 0;
}

struct mount_node {
	int id, parent;
	bool in_tree;
};

static int cmp_node(const void *a, const void *b)
{
	int x = ((const struct mount_node *)a)->id, y = ((const struct mount_node *)b)->id;

	return (x > y) - (x < y);
}

/* Marks the mounts whose chain of parents reaches root_id (v sorted by id): passes until
 * nothing changes, one or two as mountinfo mostly lists parents first. */
static void mark_tree(struct mount_node *v, size_t n, int root_id)
{
	bool changed = true;

	while (changed) {
		changed = false;
		for (size_t i = 0; i < n; i++) {
			struct mount_node key = { .id = v[i].parent }, *p;

			if (v[i].in_tree)
				continue;
			p = v[i].parent != v[i].id ? bsearch(&key, v, n, sizeof(*v), cmp_node) :
						     NULL;
			if (v[i].id == root_id || (p && p->in_tree))
				changed = v[i].in_tree = true;
		}
	}
}

/* Leaves out (after the first) each mount that another one later in mountinfo's order
 * (the ones on it come after it) is stacked on at the same path: that path reaches the
 * top one, whose flags (locked ones included) are not the covered one's. The host's /sys
 * under --sys's is one: remounting the top with its options failed (EPERM). */
static void drop_stacked(char **out, char **opts)
{
	size_t k = 1;

	for (size_t i = 1; out[i]; i++) {
		bool stacked = false;

		for (size_t j = i + 1; out[j] && !stacked; j++)
			stacked = strcmp(out[i], out[j]) == 0;
		if (stacked) {
			free(out[i]);
			free(opts[i]);
			continue;
		}
		out[k] = out[i];
		opts[k++] = opts[i];
	}
	out[k] = opts[k] = NULL;
}

/* The mounts of the tree whose root is the topmost mount at mountpoint: not the ones
 * it covers, whose paths now reach something else (EINVAL, or the wrong mount), nor
 * those covered inside it (drop_stacked). */
static int collect_subtree(const struct libmount_api *m, struct libmnt_table *tb,
			   const char *mountpoint, char ***ret, char ***ret_opts)
{
	_cleanup_free_ struct mount_node *v = NULL;
	struct libmnt_iter *it;
	struct libmnt_fs *fs;
	char **out = NULL, **opts = NULL;
	size_t n = 0;
	int root_id, r = path_mount_id(mountpoint, &root_id);

	if (r < 0)
		return r;
	it = m->new_iter(MNT_ITER_FORWARD);
	if (!it)
		return -ENOMEM;
	while (m->table_next_fs(tb, it, &fs) == 0)
		*(struct mount_node *)xappend(&v, &n, sizeof(*v)) = (struct mount_node){
			.id = m->fs_get_id(fs),
			.parent = m->fs_get_parent_id(fs),
		};
	m->free_iter(it);
	qsort(v, n, sizeof(*v), cmp_node);
	mark_tree(v, n, root_id);
	/* mountinfo's order (parents first) is kept: a stable pick in table order */
	strv_push(&out, mountpoint);
	strv_push(&opts, "");
	it = m->new_iter(MNT_ITER_FORWARD);
	if (!it) {
		strv_free(out);
		strv_free(opts);
		return -ENOMEM;
	}
	while (m->table_next_fs(tb, it, &fs) == 0) {
		struct mount_node key = { .id = m->fs_get_id(fs) }, *e;
		const char *t = m->fs_get_target(fs), *o = m->fs_get_vfs_options(fs);

		e = bsearch(&key, v, n, sizeof(*v), cmp_node);
		if (!e || !e->in_tree || !t)
			continue;
		if (e->id == root_id) {
			free(opts[0]);
			opts[0] = xstrdup(o ? o : "");
		} else if (strcmp(t, mountpoint) != 0 && path_is_below(t, mountpoint)) {
			strv_push(&out, t);
			strv_push(&opts, o ? o : "");
		}
	}
	m->free_iter(it);
	drop_stacked(out, opts);
	*ret = out;
	if (ret_opts)
		*ret_opts = opts;
	else
		strv_free(opts);
	return 0;
}

bool mountinfo_any(int fd, const char *fstype, bool (*fn)(const struct mountinfo_entry *, void *),
		   void *data)
{
	_cleanup_free_ char *text = NULL;
	struct mountinfo_entry e;
	size_t len;
	char *line, *next;

	if (fd < 0 || read_all(fd, 16u << 20, &text, &len) < 0)
		return false;
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (mountinfo_parse_line(line, &e) == 0 &&
		    (!fstype || strcmp(e.fstype, fstype) == 0) && fn(&e, data))
			return true;
	}
	return false;
}

struct top_on_path {
	const char *path;
	size_t best;
	unsigned long long id;
};

/* The longest mount point above the path, the last of them at one place (the top). */
static bool deeper_on_path(const struct mountinfo_entry *e, void *data)
{
	struct top_on_path *t = data;

	if (path_is_below(t->path, e->mountpoint) && strlen(e->mountpoint) >= t->best) {
		t->best = strlen(e->mountpoint);
		t->id = e->id;
	}
	return false;
}

bool mountinfo_cwd_is(const char *path)
{
	/* The mount a lookup of PATH would end on, from the mount table alone (PATH may be
	 * unsearchable). */
	_cleanup_close_ int fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	struct top_on_path top = { .path = path };
	struct statx stx;

	(void)mountinfo_any(fd, NULL, deeper_on_path, &top);
	return top.id != 0 &&
	       /* the directory itself, which its user may not even search */
	       statx(AT_FDCWD, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) == 0 &&
	       (stx.stx_mask & STATX_MNT_ID) && stx.stx_mnt_id == top.id;
}

int mountinfo_preload(void)
{
	return libmount() ? 0 : -ELIBACC;
}

int mountinfo_list_subtree(const char *mountpoint, char ***ret)
{
	return mountinfo_list_subtree_opts(mountpoint, ret, NULL);
}

int mountinfo_list_subtree_opts(const char *mountpoint, char ***ret, char ***opts)
{
	const struct libmount_api *m = libmount();
	struct libmnt_table *tb;
	int r;

	if (!m)
		return -ELIBACC;
	tb = m->new_table();
	if (!tb)
		return -ENOMEM;
	r = m->table_parse_file(tb, "/proc/self/mountinfo");
	if (r < 0)
		r = r == -1 ? -EIO : r;
	else
		r = collect_subtree(m, tb, mountpoint, ret, opts);
	m->unref_table(tb);
	return r;
}

int mountinfo_list_file(const char *path, char ***ret, char ***opts)
{
	static const struct {
		unsigned long bit;
		const char *name;
	} names[] = {
		{ ST_NOSUID, ",nosuid" },
		{ ST_NODEV, ",nodev" },
		{ ST_NOEXEC, ",noexec" },
		{ ST_NOATIME, ",noatime" },
		{ ST_NODIRATIME, ",nodiratime" },
		{ ST_RELATIME, ",relatime" },
		{ 0x2000 /* ST_NOSYMFOLLOW, Linux 5.10; older glibc lacks it */, ",nosymfollow" },
	};
	struct nsrun_open_how how = { .flags = O_PATH | O_CLOEXEC, .resolve = RESOLVE_NO_SYMLINKS };
	_cleanup_close_ int fd = -1;
	char buf[128];
	struct statvfs sv;

	/* Through no symlink: a name swapped for one since the caller read the path would
	 * answer for another mount; the caller then reads the table, which has no line for
	 * the swapped name, and fails closed as it did before this shortcut. */
	fd = sys_openat2(AT_FDCWD, path, &how);
	if (fd < 0)
		return -errno;
	if (fstatvfs(fd, &sv) < 0)
		return -errno;
	strcpy(buf, (sv.f_flag & ST_RDONLY) ? "ro" : "rw");
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (sv.f_flag & names[i].bit)
			strcat(buf, names[i].name);
	strv_push(ret, path);
	strv_push(opts, buf);
	return 0;
}
