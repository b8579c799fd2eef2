/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * path.c: confined resolution beneath a root. The walk keeps a stack of
 * directory handles so ".." never climbs above the root and an absolute symlink
 * restarts at the root; each component is opened without following it, so the
 * kernel never follows a link on our behalf (magic links included). It runs over
 * a tree of callbacks, the real one (O_PATH fds) and the unit tests' tables, so
 * the walk that ships is the walk that is tested.
 */
#include "config.h"

#include "path.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "macros.h"
#include "syscall.h"
#include "util.h"

#define PATH_MAX_LINKS 40

/* --debug-opt=force-openat-fallback: resolve by the walk, as where openat2() is missing.
 * Set once before the sandbox starts; like mount.c's API probe, a fact about the kernel. */
static bool force_walk;

void path_force_fallback(void)
{
	force_walk = true;
}

/* Whether a name of LEN bytes below the root is one the kernel takes. */
static bool name_len_fits(size_t len)
{
	return len < PATH_MAX;
}

/* The part of PATH a "mkdir -p" of its parents names: up to the end of the last component
 * a '/' follows ("/a/b" of "/a/b/c", all of "/a/b/"). */
static size_t parents_len(const char *path)
{
	size_t len = 0;

	for (size_t i = 1; path[0] && path[i]; i++)
		if (path[i] == '/' && path[i - 1] != '/')
			len = i;
	return len;
}

/* ENAMETOOLONG where the kernel would refuse the name as a whole, before any lookup: the
 * walk opens one component at a time and would otherwise accept any length. */
static int name_check(const char *path, enum path_last last)
{
	size_t len = last == PATH_LAST_PARENT ? parents_len(path) : strlen(path);

	return name_len_fits(len) ? 0 : -ENAMETOOLONG;
}

static int path_openat2(int dfd, const char *path, struct nsrun_open_how *how)
{
	if (force_walk) {
		errno = ENOSYS;
		return -1;
	}
	return sys_openat2(dfd, path, how);
}

/* ---- the real tree: handles are O_PATH fds ---- */

static int fd_open(void *ctx, int dir, const char *name)
{
	int fd = openat(dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);

	(void)ctx;
	return fd < 0 ? -errno : fd;
}

static int fd_mode(void *ctx, int h, mode_t *mode)
{
	struct stat st;

	(void)ctx;
	if (fstat(h, &st) < 0)
		return -errno;
	*mode = st.st_mode;
	return 0;
}

static int fd_readlink(void *ctx, int h, char *buf, size_t size)
{
	ssize_t n = readlinkat(h, "", buf, size);

	(void)ctx;
	return n < 0 ? -errno : (int)n;
}

static int fd_mkdir(void *ctx, int dir, const char *name, mode_t mode)
{
	(void)ctx;
	return mkdirat(dir, name, mode) < 0 ? -errno : 0;
}

static int fd_mkfile(void *ctx, int dir, const char *name, mode_t mode)
{
	int fd = openat(dir, name, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, mode);

	(void)ctx;
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int fd_dup(void *ctx, int h)
{
	int fd = fcntl(h, F_DUPFD_CLOEXEC, 3);

	(void)ctx;
	return fd < 0 ? -errno : fd;
}

static void fd_close(void *ctx, int h)
{
	(void)ctx;
	close(h);
}

const struct path_tree path_fd_tree = {
	.open = fd_open,
	.mode = fd_mode,
	.readlink = fd_readlink,
	.mkdir = fd_mkdir,
	.mkfile = fd_mkfile,
	.dup = fd_dup,
	.close = fd_close,
};

/* ---- the walk, over any tree ---- */

/* The directories walked so far, root first, with the length of the canonical path of
 * each: ".." pops one, an absolute symlink pops back to the root. */
struct walk {
	const struct path_tree *t;
	int *h;
	size_t *len;
	size_t depth, cap;
	char *canon; /* "" for the root, else "/a/b" */
	unsigned links;
	size_t link_end; /* the buffer's components that start before this offset came from
			  * symlinks' targets, the others from the caller's path */
};

static void walk_push(struct walk *w, int h, const char *name)
{
	size_t len = w->depth ? w->len[w->depth - 1] : 0;

	if (w->depth == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 16;
		w->h = xrealloc(w->h, w->cap * sizeof(*w->h));
		w->len = xrealloc(w->len, w->cap * sizeof(*w->len));
	}
	if (name) {
		char *c = xjoin_n(w->canon, len, name);

		free(w->canon);
		w->canon = c;
		len = strlen(c);
	}
	w->h[w->depth] = h;
	w->len[w->depth++] = len;
}

/* Pops down to keep entries (never below the root at index 0). */
static void walk_pop_to(struct walk *w, size_t keep)
{
	while (w->depth > keep && w->depth > 1)
		w->t->close(w->t->ctx, w->h[--w->depth]);
	if (w->depth)
		w->canon[w->len[w->depth - 1]] = '\0';
}

static void walk_free(struct walk *w)
{
	walk_pop_to(w, 1);
	if (w->depth)
		w->t->close(w->t->ctx, w->h[0]);
	free(w->h);
	free(w->len);
	free(w->canon);
}

static int top(const struct walk *w)
{
	return w->h[w->depth - 1];
}

/* create_component's answer for a parents' walk that passes over a dangling symlink. */
#define WALK_STOPPED 2

/* Whether the caller's own path, from rest on, still names a parent (a component with a
 * '/' after it). */
static bool own_parents_left(const char *rest)
{
	rest += strspn(rest, "/");
	return strchr(rest, '/') != NULL;
}

/* Creates the missing component NAME in the current directory as the options say.
 * from_link: NAME comes from a symlink's target. mkdir(2) never creates through a
 * symlink, and bwrap's mkdir -p passes over a dangling one (its EEXIST ignored) to fail
 * at the next name, so such a NAME is only created as the file of PATH_LAST_FILE, as
 * open(O_CREAT) follows the link: else ENOENT, or WALK_STOPPED for a parents' walk
 * with no parent of the caller's own left to make. */
static int create_component(const struct walk *w, const char *name, bool is_last, bool slash,
			    bool from_link, const char *own_rest, const struct path_walk_opts *o,
			    bool *created)
{
	void *ctx = w->t->ctx;
	int r;

	/* "NAME/" at the end is one of the parents, as mkdir -p makes them (and bwrap). */
	if (!is_last || (slash && o->last == PATH_LAST_PARENT)) {
		if (!o->create_parents)
			return -ENOENT;
		if (from_link)
			return o->last == PATH_LAST_PARENT && !own_parents_left(own_rest) ?
				       WALK_STOPPED :
				       -ENOENT;
		r = w->t->mkdir ? w->t->mkdir(ctx, top(w), name, o->parent_mode) : -EROFS;
		return r == -EEXIST ? 0 : r;
	}
	switch (o->last) {
	case PATH_LAST_DIR:
		if (from_link)
			return -ENOENT;
		r = w->t->mkdir ? w->t->mkdir(ctx, top(w), name, o->last_mode) : -EROFS;
		break;
	case PATH_LAST_FILE:
		/* "NAME/" names a directory: open(O_CREAT) refuses it so, and so does bwrap. */
		if (slash)
			return -EISDIR;
		r = w->t->mkfile ? w->t->mkfile(ctx, top(w), name, o->last_mode) : -EROFS;
		break;
	case PATH_LAST_EXISTING:
	case PATH_LAST_PARENT:
	default:
		return -ENOENT;
	}
	if (r == 0)
		*created = true;
	return r == -EEXIST ? 0 : r;
}

/* Replaces the walked part of *buf with the link target followed by the rest. slash: the
 * link's name had a '/' after it, which then applies to the target. */
static int splice_link(struct walk *w, int link, char **buf, const char *rest, bool slash)
{
	char target[PATH_MAX];
	int n = w->t->readlink(w->t->ctx, link, target, sizeof(target) - 1);
	size_t rest_off = (size_t)(rest - *buf);
	const char *sep = *rest || slash ? "/" : "";
	char *next;

	if (n < 0)
		return n;
	target[n] = '\0';
	if (target[0] == '/')
		walk_pop_to(w, 1);
	/* No '/' after the target when nothing follows: it would read as "a directory". */
	next = xconcat(target, sep, rest);
	/* What of the rest came from earlier links still did. */
	w->link_end =
		(size_t)n + strlen(sep) + (w->link_end > rest_off ? w->link_end - rest_off : 0);
	free(*buf);
	*buf = next;
	return 0;
}

/* A parents' walk that reached a dangling symlink's missing target with nothing of its
 * own left to make: done, as bwrap's mkdir -p is, with nothing to show (fds -1). */
static int walk_stopped(const char *name, struct path_walk_result *res)
{
	res->fd = -1;
	res->parent_fd = -1;
	res->name = xstrdup(name);
	res->canon = xstrdup("");
	return 1;
}

/* Fills *res with h (may be -1) named NAME in the current directory; returns 1 (done).
 * The current directory's handle moves to the result: the walk ends here. */
static int walk_finish(struct walk *w, int h, const char *name, struct path_walk_result *res)
{
	size_t len = w->len[w->depth - 1];

	res->parent_fd = w->h[--w->depth];
	res->fd = h;
	res->name = xstrdup(name);
	if (strcmp(name, ".") == 0)
		res->canon = xstrdup(len ? w->canon : "/");
	else
		res->canon = xjoin_n(w->canon, len, name);
	return 1;
}

/* Follows the symlink h; the walk goes on from the start of the spliced buffer. */
static int step_link(struct walk *w, int h, char **buf, char **p, const char *next, bool slash,
		     const struct path_walk_opts *o)
{
	int r;

	if (o->no_symlinks || ++w->links > PATH_MAX_LINKS)
		r = -ELOOP;
	else
		r = splice_link(w, h, buf, next, slash);
	w->t->close(w->t->ctx, h);
	*p = *buf;
	return r;
}

/* One component: returns 1 when the walk is finished, 0 to continue, or -errno. */
static int walk_step(struct walk *w, char **buf, char **p, const struct path_walk_opts *o,
		     struct path_walk_result *res)
{
	char *comp = *p, *end = strchrnul(comp, '/'), *next = *end ? end + 1 : end;
	bool is_last, slash = *end == '/';
	mode_t mode;
	int h, r;

	*end = '\0';
	is_last = next[strspn(next, "/")] == '\0';
	*p = next;
	if (strcmp(comp, ".") == 0)
		return 0;
	if (strcmp(comp, "..") == 0) {
		walk_pop_to(w, w->depth - 1);
		return 0;
	}
	h = w->t->open(w->t->ctx, top(w), comp);
	if (is_last && !slash && o->last == PATH_LAST_PARENT) {
		if (h < 0 && h != -ENOENT)
			return h;
		return walk_finish(w, h < 0 ? -1 : h, comp, res);
	}
	if (h == -ENOENT) {
		r = create_component(w, comp, is_last, slash, (size_t)(comp - *buf) < w->link_end,
				     *buf + w->link_end, o, &res->created);
		if (r == WALK_STOPPED)
			return walk_stopped(comp, res);
		if (r < 0)
			return r;
		h = w->t->open(w->t->ctx, top(w), comp);
	}
	if (h < 0)
		return h;
	r = w->t->mode(w->t->ctx, h, &mode);
	if (r < 0) {
		w->t->close(w->t->ctx, h);
		return r;
	}
	if (S_ISLNK(mode) && !(is_last && o->nofollow_last))
		return step_link(w, h, buf, p, next, slash, o);
	if (is_last && (!slash || S_ISDIR(mode) || S_ISLNK(mode)))
		return walk_finish(w, h, comp, res);
	if (!S_ISDIR(mode)) {
		w->t->close(w->t->ctx, h);
		return -ENOTDIR;
	}
	walk_push(w, h, comp);
	return 0;
}

/* path_walk over any tree (root: its root's handle); release with
 * path_walk_result_free_tree. */
static int path_walk_tree(const struct path_tree *t, int root, const char *path,
			  const struct path_walk_opts *opts, struct path_walk_result *res)
{
	struct walk w = { .t = t, .canon = xstrdup("") };
	_cleanup_free_ char *buf = xstrdup(path);
	char *p = buf;
	int h, r = 0;

	*res = (struct path_walk_result){ .fd = -1, .parent_fd = -1 };
	r = name_check(path, opts->last);
	if (r < 0) {
		free(w.canon);
		return r;
	}
	/* The root itself, as a handle the walk may close ("." would be a lookup more). */
	h = t->dup(t->ctx, root);
	if (h < 0) {
		free(w.canon);
		return h;
	}
	walk_push(&w, h, NULL);
	for (;;) {
		p += strspn(p, "/");
		if (*p == '\0') {
			/* Ended on the root, "." or "..": the result is the current directory. */
			h = t->dup(t->ctx, top(&w));
			r = h < 0 ? h : walk_finish(&w, h, ".", res);
			break;
		}
		r = walk_step(&w, &buf, &p, opts, res);
		if (r != 0)
			break;
	}
	walk_free(&w);
	return r < 0 ? r : 0;
}

int path_walk(int root_fd, const char *path, const struct path_walk_opts *opts,
	      struct path_walk_result *res)
{
	return path_walk_tree(&path_fd_tree, root_fd, path, opts, res);
}

static void path_walk_result_free_tree(const struct path_tree *t, struct path_walk_result *res)
{
	if (res->fd >= 0)
		t->close(t->ctx, res->fd);
	if (res->parent_fd >= 0)
		t->close(t->ctx, res->parent_fd);
	free(res->name);
	free(res->canon);
	*res = (struct path_walk_result){ .fd = -1, .parent_fd = -1 };
}

void path_walk_result_free(struct path_walk_result *res)
{
	path_walk_result_free_tree(&path_fd_tree, res);
}

int path_resolve_dir(const struct path_tree *t, int root, const char *path, char **canon)
{
	struct path_walk_opts o = { .last = PATH_LAST_EXISTING };
	struct path_walk_result res;
	mode_t mode;
	int r;

	r = path_walk_tree(t, root, path, &o, &res);
	if (r < 0)
		return r;
	r = t->mode(t->ctx, res.fd, &mode);
	if (r == 0 && !S_ISDIR(mode))
		r = -ENOTDIR;
	if (r == 0)
		*canon = TAKE_PTR(res.canon);
	path_walk_result_free_tree(t, &res);
	return r;
}

static int open_via_walk(int root_fd, const char *path, int flags, bool no_symlinks)
{
	struct path_walk_opts o = { .last = PATH_LAST_EXISTING,
				    .no_symlinks = no_symlinks,
				    .nofollow_last = (flags & O_NOFOLLOW) != 0 };
	struct path_walk_result res;
	struct stat st;
	int r;

	r = path_walk(root_fd, path, &o, &res);
	if (r < 0)
		return r;
	if ((flags & O_DIRECTORY) && (fstat(res.fd, &st) < 0 || !S_ISDIR(st.st_mode)))
		r = -ENOTDIR;
	else if (flags & O_PATH)
		r = TAKE_FD(res.fd);
	else if ((r = openat(res.parent_fd, res.name, flags | O_CLOEXEC | O_NOFOLLOW)) < 0)
		r = -errno;
	path_walk_result_free(&res);
	return r;
}

static int open_resolve(int root_fd, const char *path, int flags, bool no_symlinks)
{
	struct nsrun_open_how how = {
		.flags = (unsigned)(flags | O_CLOEXEC),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS |
			   (no_symlinks ? RESOLVE_NO_SYMLINKS : 0),
	};
	int fd = name_check(path, PATH_LAST_EXISTING);

	if (fd < 0)
		return fd;
	for (int tries = 0; tries < 8; tries++) {
		fd = path_openat2(root_fd, path, &how);
		/* EAGAIN: a concurrent rename made the kernel give up on ".." safety. */
		if (fd >= 0 || errno != EAGAIN)
			break;
	}
	if (fd >= 0)
		return fd;
	if (errno != ENOSYS && errno != EAGAIN && errno != E2BIG)
		return -errno;
	return open_via_walk(root_fd, path, flags, no_symlinks);
}

int path_open(int root_fd, const char *path, int flags)
{
	return open_resolve(root_fd, path, flags, false);
}

int path_open_no_symlinks(int root_fd, const char *path, int flags)
{
	return open_resolve(root_fd, path, flags, true);
}

/* The common case, a parent that exists: one confined lookup of it, where the walk below
 * makes and looks up each component from the root (a policy of 10,000 binds spent most of
 * its time there). Any failure leaves the answer to the walk, which makes what is missing
 * and returns the same errors as before. */
static int open_existing_parent(int root_fd, const char *path, char **name)
{
	_cleanup_free_ char *prefix = NULL;
	size_t end = strlen(path), start;
	int fd;

	while (end > 0 && path[end - 1] == '/')
		end--;
	start = end;
	while (start > 0 && path[start - 1] != '/')
		start--;
	if (start == end || strspn(path, "/") >= start)
		return -ENOENT; /* no component, or the parent is the root: the walk opens it */
	prefix = xstrdup(path);
	prefix[start] = '\0';
	fd = path_open(root_fd, prefix, O_PATH | O_DIRECTORY);
	if (fd >= 0) {
		*name = xstrdup(path + start);
		(*name)[end - start] = '\0'; /* a trailing '/' is dropped, as in the walk */
	}
	return fd;
}

int path_dest_parent(int root_fd, const char *path, mode_t parent_mode, char **name)
{
	_cleanup_free_ char *prefix = xstrdup(path);
	_cleanup_close_ int parent = -1;
	char *p = prefix;

	*name = NULL;
	parent = open_existing_parent(root_fd, path, name);
	if (parent >= 0)
		return TAKE_FD(parent);
	parent = path_open(root_fd, "/", O_PATH | O_DIRECTORY);
	if (parent < 0)
		return parent;
	while (*p == '/')
		p++;
	while (*p) {
		char *start = p, saved;
		int next;

		while (*p && *p != '/')
			p++;
		saved = *p;
		*p = '\0';
		if (saved == '\0' || !p[1 + strspn(p + 1, "/")]) {
			*name = xstrdup(start); /* the last component; a trailing '/' is dropped */
			return TAKE_FD(parent);
		}
		if (mkdirat(parent, start, parent_mode) < 0 && errno != EEXIST)
			return -errno;
		next = path_open(root_fd, prefix, O_PATH | O_DIRECTORY);
		if (next < 0)
			return next;
		close(parent);
		parent = next;
		*p = saved;
		p += strspn(p, "/");
	}
	*name = xstrdup(".");
	return TAKE_FD(parent);
}

mode_t path_parent_mode(bool has_perms, mode_t perms)
{
	mode_t mode = 0755;

	if (!has_perms)
		return mode;
	if ((perms & 0070) == 0)
		mode &= ~0050u;
	if ((perms & 0007) == 0)
		mode &= ~0005u;
	return mode;
}
