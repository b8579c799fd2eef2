/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * hide.c: plans and applies --overlay-hide / --overlay-allow. The planner sees the
 * sandbox only through struct hide_fs; hide_apply() backs it with the new root and then,
 * per directory, fills a whiteout layer on the staging tmpfs and stacks one read-only
 * overlay on the directory. Nothing on the host is created or changed, and a failure
 * always stops the sandbox: no command runs with an entry that was meant to be hidden.
 */
#include "config.h"

#include "hide.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "syscall.h"
#include "util.h"

#define MAX_SYMLINKS 40

/* A growable, counted string vector (strv_push is quadratic; the bench hides 1000 names). */
struct names {
	char **v;
	size_t n, cap;
};

static void names_add(struct names *s, const char *name)
{
	if (s->n + 1 >= s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->v = xrealloc(s->v, s->cap * sizeof(char *));
	}
	s->v[s->n++] = xstrdup(name);
	s->v[s->n] = NULL;
}

static void names_free(struct names *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	*s = (struct names){ 0 };
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void names_sort_unique(struct names *s)
{
	size_t j = 0;

	if (s->n == 0)
		return;
	qsort(s->v, s->n, sizeof(char *), cmp_str);
	for (size_t i = 1; i < s->n; i++) {
		if (strcmp(s->v[i], s->v[j]) == 0)
			free(s->v[i]);
		else
			s->v[++j] = s->v[i];
	}
	s->n = j + 1;
	s->v[s->n] = NULL;
}

static bool names_has(const struct names *s, const char *name)
{
	return s->n && bsearch(&name, s->v, s->n, sizeof(char *), cmp_str);
}

static bool is_glob(const char *pat)
{
	return strpbrk(pat, "*?[\\") != NULL;
}

static bool glob_any(const struct names *globs, const char *name)
{
	for (size_t i = 0; i < globs->n; i++)
		if (fnmatch(globs->v[i], name, FNM_PERIOD) == 0)
			return true;
	return false;
}

/* One directory the rules touch. Literal rules are looked up with bsearch, globs scanned. */
struct pdir {
	char *dir;
	bool allowlist;
	struct names allow_lit, allow_glob;
	struct names hide_always; /* PATH form literals: whited out even when absent */
	struct names hide_present; /* NAME form literals, checked present */
	struct names hide_glob;
	struct names list; /* read only when allowlist or hide_glob need it */
};

struct planner {
	const struct hide_fs *fs;
	struct pdir *dirs;
	size_t n_dirs;
	char **path_dirs; /* canonical, existing, unique PATH directories */
	size_t n_path_dirs;
	struct names *path_lists;    /* listings of path_dirs, read when many names probe them */
	bool list_path_dirs;
	char *last_raw, *last_canon; /* consecutive PATH-form rules mostly share a parent */
};

/* Whether NAME form literal name exists in PATH directory i: one lstat per name, or one
 * listing per directory when many names ask (the bench hides 1000). */
static bool path_dir_has(struct planner *p, size_t i, const char *name)
{
	_cleanup_free_ char *target = NULL;
	char **v = NULL;

	if (!p->list_path_dirs)
		return p->fs->read_link(p->fs->ctx, p->path_dirs[i], name, &target) != -ENOENT;
	if (!p->path_lists[i].v) {
		if (p->fs->list_dir(p->fs->ctx, p->path_dirs[i], &v) < 0)
			v = NULL;
		for (size_t j = 0; v && v[j]; j++)
			names_add(&p->path_lists[i], v[j]);
		strv_free(v);
		if (!p->path_lists[i].v)
			names_add(&p->path_lists[i], "."); /* listed; never a real name */
		names_sort_unique(&p->path_lists[i]);
	}
	return names_has(&p->path_lists[i], name);
}

static struct pdir *find_dir(struct planner *p, const char *dir)
{
	for (size_t i = 0; i < p->n_dirs; i++)
		if (strcmp(p->dirs[i].dir, dir) == 0)
			return &p->dirs[i];
	return NULL;
}

static struct pdir *get_dir(struct planner *p, const char *dir)
{
	struct pdir *d = find_dir(p, dir);

	if (!d) {
		d = xappend(&p->dirs, &p->n_dirs, sizeof(*d));
		d->dir = xstrdup(dir);
	}
	return d;
}

static void resolve_path_dirs(struct planner *p, const char *path_env)
{
	_cleanup_free_ char *copy = xstrdup(path_env ? path_env : HIDE_DEFAULT_PATH);
	char *save = NULL;

	/* Relative and empty entries name no fixed directory of the sandbox: skipped. */
	for (char *e = strtok_r(copy, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
		char *canon = NULL;
		bool dup = false;

		if (e[0] != '/' || p->fs->resolve_dir(p->fs->ctx, e, &canon) < 0)
			continue;
		for (size_t i = 0; i < p->n_path_dirs && !dup; i++)
			dup = strcmp(p->path_dirs[i], canon) == 0;
		if (dup) {
			free(canon);
			continue;
		}
		p->path_dirs = xrealloc(p->path_dirs, (p->n_path_dirs + 1) * sizeof(char *));
		p->path_dirs[p->n_path_dirs++] = canon;
	}
}

static void add_rule(struct pdir *d, const char *pat, bool allow, bool path_form)
{
	if (allow) {
		d->allowlist = true;
		names_add(is_glob(pat) ? &d->allow_glob : &d->allow_lit, pat);
	} else if (is_glob(pat)) {
		names_add(&d->hide_glob, pat);
	} else {
		names_add(path_form ? &d->hide_always : &d->hide_present, pat);
	}
}

/* Splits one --overlay-hide/--overlay-allow argument and records it in its directories. */
static int add_arg(struct planner *p, const char *arg, bool allow, struct nsrun_error *err)
{
	const char *opt = allow ? "--overlay-allow" : "--overlay-hide";
	_cleanup_free_ char *copy = xstrdup(arg);
	_cleanup_free_ char *canon = NULL;
	char *slash, *base;
	size_t len = strlen(copy);
	int r;

	while (len > 1 && copy[len - 1] == '/')
		copy[--len] = '\0';
	slash = strrchr(copy, '/');
	base = slash ? slash + 1 : copy;
	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return error_set(err, 0, "%s: '%s' does not name a directory entry", opt, arg);
	if (!slash) {
		for (size_t i = 0; i < p->n_path_dirs; i++) {
			/* Most PATH directories lack a given name: leave those alone. */
			if (!allow && !is_glob(base) && !path_dir_has(p, i, base))
				continue;
			add_rule(get_dir(p, p->path_dirs[i]), base, allow, false);
		}
		return 0;
	}
	if (copy[0] != '/')
		return error_set(err, 0, "%s: '%s' must be an absolute path or a name without '/'",
				 opt, arg);
	*slash = '\0';
	if (p->last_raw && strcmp(p->last_raw, slash == copy ? "/" : copy) == 0) {
		add_rule(get_dir(p, p->last_canon), base, allow, true);
		return 0;
	}
	r = p->fs->resolve_dir(p->fs->ctx, slash == copy ? "/" : copy, &canon);
	if (r < 0)
		return error_set(err, -r, "%s: directory '%s' of '%s' in the sandbox", opt,
				 slash == copy ? "/" : copy, arg);
	add_rule(get_dir(p, canon), base, allow, true);
	free(p->last_raw);
	free(p->last_canon);
	p->last_raw = xstrdup(slash == copy ? "/" : copy);
	p->last_canon = TAKE_PTR(canon);
	return 0;
}

static bool is_allowed(const struct pdir *d, const char *name)
{
	return names_has(&d->allow_lit, name) || glob_any(&d->allow_glob, name);
}

/* Keeps every link of the chain dir/name -> ... visible where it passes through a planned
 * directory, so allowing "sh" does not leave a dangling link to a hidden "dash". */
static void allow_link_chain(struct planner *p, const char *dir, const char *name)
{
	_cleanup_free_ char *cur_dir = xstrdup(dir), *cur = xstrdup(name);

	for (int hop = 0; hop < MAX_SYMLINKS; hop++) {
		_cleanup_free_ char *target = NULL, *full = NULL, *canon = NULL;
		struct pdir *t;
		char *slash;
		size_t len;

		if (p->fs->read_link(p->fs->ctx, cur_dir, cur, &target) < 0)
			return;
		full = target[0] == '/' ? xstrdup(target) : path_join(cur_dir, target);
		len = strlen(full);
		while (len > 1 && full[len - 1] == '/')
			full[--len] = '\0';
		slash = strrchr(full, '/');
		if (!slash[1] || strcmp(slash + 1, ".") == 0 || strcmp(slash + 1, "..") == 0)
			return;
		*slash = '\0';
		if (p->fs->resolve_dir(p->fs->ctx, slash == full ? "/" : full, &canon) < 0)
			return;
		t = find_dir(p, canon);
		if (t && !is_allowed(t, slash + 1)) {
			names_add(&t->allow_lit, slash + 1);
			names_sort_unique(&t->allow_lit);
		}
		free(cur_dir);
		free(cur);
		cur_dir = TAKE_PTR(canon);
		cur = xstrdup(slash + 1);
	}
}

static int list_dirs(struct planner *p, struct nsrun_error *err)
{
	for (size_t i = 0; i < p->n_dirs; i++) {
		struct pdir *d = &p->dirs[i];
		char **v = NULL;
		int r = 0;

		if (d->allowlist || d->hide_glob.n)
			r = p->fs->list_dir(p->fs->ctx, d->dir, &v);
		if (r < 0)
			return error_set(err, -r, "--overlay-hide: list '%s' in the sandbox", d->dir);
		for (size_t j = 0; v && v[j]; j++)
			names_add(&d->list, v[j]);
		strv_free(v);
		names_sort_unique(&d->list);
		names_sort_unique(&d->allow_lit);
		names_sort_unique(&d->hide_always);
		names_sort_unique(&d->hide_present);
	}
	return 0;
}

static void finish_dir(struct pdir *d, struct hide_plan *plan)
{
	struct names out = { 0 };
	struct hide_dir *hd;

	for (size_t i = 0; i < d->list.n; i++) {
		const char *n = d->list.v[i];

		if ((d->allowlist || glob_any(&d->hide_glob, n)) && !is_allowed(d, n))
			names_add(&out, n);
	}
	for (size_t i = 0; i < d->hide_always.n; i++)
		if (!is_allowed(d, d->hide_always.v[i]))
			names_add(&out, d->hide_always.v[i]);
	for (size_t i = 0; i < d->hide_present.n; i++)
		if (!is_allowed(d, d->hide_present.v[i]))
			names_add(&out, d->hide_present.v[i]);
	if (out.n == 0)
		return;
	names_sort_unique(&out);
	hd = xappend(&plan->dirs, &plan->n_dirs, sizeof(*hd));
	hd->dir = xstrdup(d->dir);
	hd->names = out.v;
	hd->n_names = out.n;
}

static void planner_free(struct planner *p)
{
	for (size_t i = 0; i < p->n_dirs; i++) {
		struct pdir *d = &p->dirs[i];

		free(d->dir);
		names_free(&d->allow_lit);
		names_free(&d->allow_glob);
		names_free(&d->hide_always);
		names_free(&d->hide_present);
		names_free(&d->hide_glob);
		names_free(&d->list);
	}
	free(p->dirs);
	for (size_t i = 0; i < p->n_path_dirs; i++) {
		free(p->path_dirs[i]);
		names_free(&p->path_lists[i]);
	}
	free(p->path_dirs);
	free(p->path_lists);
	free(p->last_raw);
	free(p->last_canon);
}

static int cmp_hide_dir(const void *a, const void *b)
{
	return strcmp(((const struct hide_dir *)a)->dir, ((const struct hide_dir *)b)->dir);
}

int hide_plan_build(const struct hide_config *cfg, const char *path_env, const struct hide_fs *fs,
		    struct hide_plan *ret, struct nsrun_error *err)
{
	struct planner p = { .fs = fs };
	int r = 0;

	*ret = (struct hide_plan){ 0 };
	resolve_path_dirs(&p, path_env);
	p.path_lists = xcalloc(p.n_path_dirs + 1, sizeof(*p.path_lists));
	p.list_path_dirs = strv_length(cfg->hide) > 16;
	for (size_t i = 0; cfg->hide && cfg->hide[i] && r == 0; i++)
		r = add_arg(&p, cfg->hide[i], false, err);
	for (size_t i = 0; cfg->allow && cfg->allow[i] && r == 0; i++)
		r = add_arg(&p, cfg->allow[i], true, err);
	if (r == 0)
		r = list_dirs(&p, err);
	if (r == 0) {
		for (size_t i = 0; i < p.n_dirs; i++)
			for (size_t j = 0; j < p.dirs[i].list.n; j++)
				if (is_allowed(&p.dirs[i], p.dirs[i].list.v[j]))
					allow_link_chain(&p, p.dirs[i].dir, p.dirs[i].list.v[j]);
		for (size_t i = 0; i < p.n_dirs; i++)
			finish_dir(&p.dirs[i], ret);
		if (ret->n_dirs)
			qsort(ret->dirs, ret->n_dirs, sizeof(*ret->dirs), cmp_hide_dir);
	}
	planner_free(&p);
	if (r < 0)
		hide_plan_free(ret);
	return r;
}

void hide_plan_free(struct hide_plan *plan)
{
	for (size_t i = 0; i < plan->n_dirs; i++) {
		free(plan->dirs[i].dir);
		strv_free(plan->dirs[i].names);
	}
	free(plan->dirs);
	*plan = (struct hide_plan){ 0 };
}

char *hide_escape_layer(const char *path)
{
	char *out = xmalloc(2 * strlen(path) + 1), *o = out;

	for (const char *s = path; *s; s++) {
		if (*s == '\\' || *s == ':' || *s == ',')
			*o++ = '\\';
		*o++ = *s;
	}
	*o = '\0';
	return out;
}

/* ---- the sandbox's tree, seen through the root fd ---- */

/* Relative form of a canonical path for *at() calls on the root fd ("." for "/"). */
static const char *rel(const char *canon)
{
	return canon[1] ? canon + 1 : ".";
}

/* Walks path one component at a time so that symlinks resolve inside the sandbox and the
 * result names the directory a process in the sandbox would reach. */
static int root_resolve_dir(void *ctx, const char *path, char **ret)
{
	int root_fd = *(int *)ctx;
	_cleanup_free_ char *cur = xstrdup(""), *todo = xstrdup(path);
	int links = 0;

	for (;;) {
		char *p = todo, *comp, *next;
		struct stat st;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		comp = p;
		p += strcspn(p, "/");
		if (*p)
			*p++ = '\0';
		if (strcmp(comp, ".") == 0 || strcmp(comp, "..") == 0) {
			if (comp[1] == '.' && cur[0]) /* ".." of "/" is "/" */
				*strrchr(cur, '/') = '\0';
			memmove(todo, p, strlen(p) + 1);
			continue;
		}
		next = xasprintf("%s/%s", cur, comp);
		if (fstatat(root_fd, next + 1, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			int r = -errno;

			free(next);
			return r;
		}
		if (S_ISLNK(st.st_mode)) {
			char target[PATH_MAX];
			ssize_t n = readlinkat(root_fd, next + 1, target, sizeof(target) - 1);
			char *rest;

			free(next);
			if (n < 0)
				return -errno;
			if (++links > MAX_SYMLINKS)
				return -ELOOP;
			target[n] = '\0';
			if (target[0] == '/')
				cur[0] = '\0';
			rest = xasprintf("%s/%s", target, p);
			free(todo);
			todo = rest;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			free(next);
			return -ENOTDIR;
		}
		free(cur);
		cur = next;
		memmove(todo, p, strlen(p) + 1);
	}
	*ret = cur[0] ? TAKE_PTR(cur) : xstrdup("/");
	return 0;
}

static int root_list_dir(void *ctx, const char *dir, char ***ret)
{
	int root_fd = *(int *)ctx;
	int fd = openat(root_fd, rel(dir), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct names out = { 0 };
	struct dirent *de;
	DIR *d;

	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		int r = -errno;

		close(fd);
		return r;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			names_add(&out, de->d_name);
	closedir(d);
	*ret = out.v ? out.v : xcalloc(1, sizeof(char *));
	return 0;
}

static int root_read_link(void *ctx, const char *dir, const char *name, char **ret)
{
	int root_fd = *(int *)ctx;
	_cleanup_free_ char *path = path_join(rel(dir), name);
	char target[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (fstatat(root_fd, path, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	if (!S_ISLNK(st.st_mode))
		return -EINVAL;
	n = readlinkat(root_fd, path, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	*ret = xstrdup(target);
	return 0;
}

/* ---- carrying one directory's hiding out ---- */

static int open_in_root(int root_fd, const char *canon)
{
	struct nsrun_open_how how = {
		.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	int fd = sys_openat2(root_fd, canon, &how);

	/* Without openat2 (< 5.6) the plain walk is equivalent: canon holds no symlinks. */
	if (fd < 0 && errno == ENOSYS)
		fd = openat(root_fd, rel(canon), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* First component of path below dir, if path lies strictly below dir. */
static const char *below(const char *dir, const char *path, char *buf, size_t size)
{
	size_t ld = strlen(dir);

	if (strcmp(dir, "/") == 0)
		ld = 0;
	if (strncmp(path, dir, ld) != 0 || path[ld] != '/' || !path[ld + 1])
		return NULL;
	snprintf(buf, size, "%.*s", (int)strcspn(path + ld + 1, "/"), path + ld + 1);
	return buf;
}

static int refuse_submount(const struct hide_dir *hd, const char *name, struct nsrun_error *err)
{
	return error_set(err, 0,
			 "--overlay-hide: '%s' has a mount at '%s%s%s' below it, which the "
			 "overlay would cover; hide entries inside that mount, or do not mount it",
			 hd->dir, strcmp(hd->dir, "/") ? hd->dir : "", "/", name);
}

/* Without listmount (< 6.8): the directory's own entries only (mount roots among them). */
static int check_submounts_shallow(int dfd, const struct hide_dir *hd, struct nsrun_error *err)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *de;
	DIR *d;
	int r = 0;

	if (fd < 0 || !(d = fdopendir(fd))) {
		r = -errno;
		if (fd >= 0)
			close(fd);
		return error_set(err, -r, "--overlay-hide: list '%s'", hd->dir);
	}
	while (r == 0 && (de = readdir(d))) {
		struct statx stx;

		if (de->d_type != DT_DIR && de->d_type != DT_REG && de->d_type != DT_UNKNOWN)
			continue;
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (statx(dirfd(d), de->d_name, AT_SYMLINK_NOFOLLOW, 0, &stx) == 0 &&
		    (stx.stx_attributes & stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT))
			r = refuse_submount(hd, de->d_name, err);
	}
	closedir(d);
	return r;
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
		return check_submounts_shallow(dfd, hd, err);
	req.mnt_id = stx.stx_mnt_id;
	do {
		n = sys_listmount(&req, ids, ARRAY_SIZE(ids), 0);
		if (n < 0)
			return check_submounts_shallow(dfd, hd, err);
		for (long i = 0; i < n; i++) {
			struct nsrun_mnt_id_req sreq = { .size = NSRUN_MNT_ID_REQ_SIZE_VER0,
							 .mnt_id = ids[i],
							 .param = NSRUN_STATMOUNT_MNT_POINT };
			char name[NAME_MAX + 1];
			const char *first;

			if (sys_statmount(&sreq, sm, 16384, 0) < 0 ||
			    !(sm->mask & NSRUN_STATMOUNT_MNT_POINT))
				return error_set(err, errno, "--overlay-hide: inspect mounts below '%s'",
						 hd->dir);
			first = below(view_path, sm->str + sm->mnt_point, name, sizeof(name));
			if (first)
				return refuse_submount(hd, first, err);
			req.param = ids[i];
		}
	} while (n == (long)ARRAY_SIZE(ids));
	return 0;
}

/* The top layer: one char 0:0 per name. The overlay's root takes its owner, mode and times
 * from the top layer, so they are copied from the directory (owner only where mapped). */
static int make_whiteouts(const struct hide_dir *hd, const struct stat *st, const char *ws,
			  const struct hide_env *env, struct nsrun_error *err)
{
	_cleanup_close_ int wfd = -1;
	struct timespec times[2] = { st->st_atim, st->st_mtim };

	if (mkdirat(env->staging_fd, ws, 0700) < 0)
		return error_set(err, errno, "--overlay-hide: create '%s/%s'", env->staging_path, ws);
	wfd = openat(env->staging_fd, ws, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (wfd < 0)
		return error_set(err, errno, "--overlay-hide: open '%s/%s'", env->staging_path, ws);
	for (size_t i = 0; i < hd->n_names; i++) {
		if (mknodat(wfd, hd->names[i], S_IFCHR | 0000, makedev(0, 0)) == 0)
			continue;
		if (errno == EPERM)
			return error_set(err, errno,
					 "--overlay-hide: create a whiteout for '%s' in '%s' (whiteouts "
					 "in a user namespace need Linux 5.8)",
					 hd->names[i], hd->dir);
		return error_set(err, errno, "--overlay-hide: create a whiteout for '%s' in '%s'",
				 hd->names[i], hd->dir);
	}
	if (fchown(wfd, st->st_uid, st->st_gid) < 0 && errno != EPERM && errno != EINVAL)
		return error_set(err, errno, "--overlay-hide: chown '%s/%s'", env->staging_path, ws);
	if (fchmod(wfd, st->st_mode & 07777) < 0 || futimens(wfd, times) < 0)
		return error_set(err, errno, "--overlay-hide: set attributes of '%s/%s'",
				 env->staging_path, ws);
	return 0;
}

/* The overlay keeps the directory's nosuid/nodev/noexec/atime flags, so hiding never
 * re-enables setuid binaries or device nodes. */
static unsigned mount_attrs(unsigned long st_flags)
{
	unsigned attr = MOUNT_ATTR_RDONLY;

	if (st_flags & ST_NOSUID)
		attr |= MOUNT_ATTR_NOSUID;
	if (st_flags & ST_NODEV)
		attr |= MOUNT_ATTR_NODEV;
	if (st_flags & ST_NOEXEC)
		attr |= MOUNT_ATTR_NOEXEC;
	if (st_flags & ST_NOATIME)
		attr |= MOUNT_ATTR_NOATIME;
	else if (!(st_flags & ST_RELATIME))
		attr |= MOUNT_ATTR_STRICTATIME;
	if (st_flags & ST_NODIRATIME)
		attr |= MOUNT_ATTR_NODIRATIME;
	return attr;
}

static unsigned long ms_flags(unsigned long st_flags)
{
	unsigned long ms = MS_RDONLY;

	ms |= (st_flags & ST_NOSUID) ? MS_NOSUID : 0;
	ms |= (st_flags & ST_NODEV) ? MS_NODEV : 0;
	ms |= (st_flags & ST_NOEXEC) ? MS_NOEXEC : 0;
	ms |= (st_flags & ST_NOATIME) ? MS_NOATIME : 0;
	ms |= (st_flags & ST_NODIRATIME) ? MS_NODIRATIME : 0;
	ms |= (st_flags & ST_RELATIME) ? MS_RELATIME : 0;
	return ms;
}

static int overlay_error(int fsfd, int code, const char *dir, struct nsrun_error *err)
{
	char log[200] = "";
	ssize_t n = fsfd >= 0 ? read(fsfd, log, sizeof(log) - 1) : -1;

	log[n > 0 ? n : 0] = '\0';
	if (n > 0 && log[n - 1] == '\n')
		log[n - 1] = '\0';
	if (code == ENODEV)
		return error_set(err, code, "--overlay-hide: overlayfs is not available");
	/* Most refusals are only in the kernel log: name the usual causes. */
	return error_set(err, code,
			 "--overlay-hide: mount a read-only overlay on '%s'%s%s%s (overlayfs does "
			 "not stack on every filesystem, e.g. /proc, nor on a directory with mounts "
			 "below it, and in a user namespace needs Linux 5.11)",
			 dir, n > 0 ? " [" : "", n > 0 ? log : "", n > 0 ? "]" : "");
}

/* Legacy mount(2) path for kernels without fsopen (< 5.2). */
static int mount_overlay_legacy(const char *lower, const char *target, unsigned long st_flags,
				const struct hide_dir *hd, bool userxattr, struct nsrun_error *err)
{
	_cleanup_free_ char *data = xasprintf("lowerdir=%s%s", lower, userxattr ? ",userxattr" : "");

	if (mount("overlay", target, "overlay", ms_flags(st_flags), data) < 0)
		return overlay_error(-1, errno, hd->dir, err);
	return 0;
}

static int mount_overlay(int dfd, const char *ws_path, const char *target, unsigned long st_flags,
			 const struct hide_dir *hd, bool userxattr, struct nsrun_error *err)
{
	_cleanup_free_ char *e_ws = hide_escape_layer(ws_path), *e_dir = hide_escape_layer(target);
	_cleanup_free_ char *lower = xasprintf("%s:%s", e_ws, e_dir);
	_cleanup_close_ int fsfd = sys_fsopen("overlay", FSOPEN_CLOEXEC);
	_cleanup_close_ int mfd = -1;

	if (fsfd < 0 && errno == ENOSYS)
		return mount_overlay_legacy(lower, target, st_flags, hd, userxattr, err);
	if (fsfd < 0)
		return overlay_error(-1, errno, hd->dir, err);
	if (sys_fsconfig(fsfd, FSCONFIG_SET_STRING, "lowerdir", lower, 0) < 0 ||
	    (userxattr && sys_fsconfig(fsfd, FSCONFIG_SET_FLAG, "userxattr", NULL, 0) < 0) ||
	    sys_fsconfig(fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return overlay_error(fsfd, errno, hd->dir, err);
	mfd = sys_fsmount(fsfd, FSMOUNT_CLOEXEC, mount_attrs(st_flags));
	if (mfd < 0)
		return overlay_error(fsfd, errno, hd->dir, err);
	if (sys_move_mount(mfd, "", dfd, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return error_set(err, errno, "--overlay-hide: attach the overlay on '%s'", hd->dir);
	return 0;
}

static int hide_dir_apply(const struct hide_dir *hd, size_t idx, const struct hide_env *env,
			  struct nsrun_error *err)
{
	_cleanup_free_ char *ws = xasprintf(".nsrun-hide-%zu", idx);
	_cleanup_free_ char *ws_path = path_join(env->staging_path, ws);
	_cleanup_free_ char *target = strcmp(hd->dir, "/") ? path_join(env->root_path, hd->dir)
							   : xstrdup(env->root_path);
	_cleanup_close_ int dfd = open_in_root(env->root_fd, hd->dir);
	struct statvfs vfs;
	struct stat st;
	int r;

	/* ENOENT: a parent's overlay (applied first: the plan is sorted) already hid it. */
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
	if (r == 0)
		r = make_whiteouts(hd, &st, ws, env, err);
	if (r == 0)
		r = mount_overlay(dfd, ws_path, target, vfs.f_flag, hd, env->in_userns, err);
	return r;
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

	if (!cfg || ((!cfg->hide || !cfg->hide[0]) && (!cfg->allow || !cfg->allow[0])))
		return 0;
	r = hide_plan_build(cfg, env->path_env, &fs, &plan, err);
	for (size_t i = 0; r == 0 && i < plan.n_dirs; i++)
		r = hide_dir_apply(&plan.dirs[i], i, env, err);
	hide_plan_free(&plan);
	return r;
}
