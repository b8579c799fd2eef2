/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * path.c: confined resolution beneath a root fd. The walk keeps a stack of
 * directory fds so ".." never climbs above the root and an absolute symlink
 * restarts at the root; each component is opened O_PATH|O_NOFOLLOW, so the
 * kernel never follows a link on our behalf (magic links included).
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

int path_openat2(int dfd, const char *path, struct nsrun_open_how *how)
{
	if (force_walk) {
		errno = ENOSYS;
		return -1;
	}
	return sys_openat2(dfd, path, how);
}

struct walk_stack {
	int *fds;
	size_t depth;
	size_t cap;
};

static void stack_push(struct walk_stack *s, int fd)
{
	if (s->depth == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 16;
		s->fds = xrealloc(s->fds, s->cap * sizeof(int));
	}
	s->fds[s->depth++] = fd;
}

/* Pops down to keep entries (never below the root at index 0). */
static void stack_pop_to(struct walk_stack *s, size_t keep)
{
	while (s->depth > keep && s->depth > 1)
		close(s->fds[--s->depth]);
}

static void stack_free(struct walk_stack *s)
{
	stack_pop_to(s, 0);
	if (s->depth)
		close(s->fds[0]);
	free(s->fds);
}

static int top(const struct walk_stack *s)
{
	return s->fds[s->depth - 1];
}

static int open_nofollow(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* Creates the missing component NAME in dirfd according to the walk options. */
static int create_component(int dirfd, const char *name, bool is_last, bool slash,
			    const struct path_walk_opts *o, bool *created)
{
	int fd;

	if (!is_last) {
		if (!o->create_parents)
			return -ENOENT;
		if (mkdirat(dirfd, name, o->parent_mode) < 0 && errno != EEXIST)
			return -errno;
		return 0;
	}
	switch (o->last) {
	case PATH_LAST_DIR:
		if (mkdirat(dirfd, name, o->last_mode) < 0)
			return errno == EEXIST ? 0 : -errno;
		break;
	case PATH_LAST_FILE:
		/* "NAME/" names a directory: open(O_CREAT) refuses it so, and so does bwrap. */
		if (slash)
			return -EISDIR;
		fd = openat(dirfd, name, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC,
			    o->last_mode);
		if (fd < 0)
			return errno == EEXIST ? 0 : -errno;
		close(fd);
		break;
	case PATH_LAST_EXISTING:
	case PATH_LAST_PARENT:
	default:
		return -ENOENT;
	}
	*created = true;
	return 0;
}

/* Replaces the walked part of *buf with the link target followed by the rest. */
static int splice_link(int linkfd, char **buf, const char *rest, struct walk_stack *s)
{
	char target[PATH_MAX];
	ssize_t n = readlinkat(linkfd, "", target, sizeof(target) - 1);
	char *next;

	if (n < 0)
		return -errno;
	target[n] = '\0';
	if (target[0] == '/')
		stack_pop_to(s, 1);
	/* No '/' after the target when nothing follows: it would read as "a directory". */
	next = xasprintf("%s%s%s", target, *rest ? "/" : "", rest);
	free(*buf);
	*buf = next;
	return 0;
}

static int walk_finish(struct walk_stack *s, int fd, const char *name, struct path_walk_result *res)
{
	res->parent_fd = fcntl(top(s), F_DUPFD_CLOEXEC, 3);
	if (res->parent_fd < 0) {
		int r = -errno;

		if (fd >= 0)
			close(fd);
		return r;
	}
	res->fd = fd;
	res->name = xstrdup(name);
	return 0;
}

/* One component: returns 1 when the walk is finished, 0 to continue, or -errno. */
static int walk_step(struct walk_stack *s, char **buf, char **p, const struct path_walk_opts *o,
		     unsigned *links, struct path_walk_result *res)
{
	char *comp = *p, *end = strchrnul(comp, '/'), *next = *end ? end + 1 : end;
	bool is_last, slash = *end == '/';
	struct stat st;
	int fd, r;

	*end = '\0';
	is_last = next[strspn(next, "/")] == '\0';
	*p = next;
	if (strcmp(comp, ".") == 0)
		return 0;
	if (strcmp(comp, "..") == 0) {
		stack_pop_to(s, s->depth - 1);
		return 0;
	}
	fd = open_nofollow(top(s), comp);
	if (is_last && o->last == PATH_LAST_PARENT) {
		if (fd < 0 && fd != -ENOENT)
			return fd;
		r = walk_finish(s, fd < 0 ? -1 : fd, comp, res);
		return r < 0 ? r : 1;
	}
	if (fd == -ENOENT) {
		r = create_component(top(s), comp, is_last, slash, o, &res->created);
		if (r < 0)
			return r;
		fd = open_nofollow(top(s), comp);
	}
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	if (S_ISLNK(st.st_mode) && !(is_last && o->nofollow_last)) {
		if (o->no_symlinks || ++*links > PATH_MAX_LINKS)
			r = -ELOOP;
		else
			r = splice_link(fd, buf, next, s);
		close(fd);
		*p = *buf;
		return r;
	}
	if (is_last && (!slash || S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode))) {
		r = walk_finish(s, fd, comp, res);
		return r < 0 ? r : 1;
	}
	if (!S_ISDIR(st.st_mode)) {
		close(fd);
		return -ENOTDIR;
	}
	stack_push(s, fd);
	return 0;
}

int path_walk(int root_fd, const char *path, const struct path_walk_opts *opts,
	      struct path_walk_result *res)
{
	struct walk_stack s = { 0 };
	_cleanup_free_ char *buf = xstrdup(path);
	char *p = buf;
	unsigned links = 0;
	int fd, r = 0;

	*res = (struct path_walk_result){ .fd = -1, .parent_fd = -1 };
	fd = openat(root_fd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	stack_push(&s, fd);
	for (;;) {
		p += strspn(p, "/");
		if (*p == '\0') {
			/* Ended on the root, "." or "..": the result is the current directory. */
			fd = fcntl(top(&s), F_DUPFD_CLOEXEC, 3);
			r = fd < 0 ? -errno : walk_finish(&s, fd, ".", res);
			break;
		}
		r = walk_step(&s, &buf, &p, opts, &links, res);
		if (r != 0)
			break;
	}
	stack_free(&s);
	return r < 0 ? r : 0;
}

void path_walk_result_free(struct path_walk_result *res)
{
	if (res->fd >= 0)
		close(res->fd);
	if (res->parent_fd >= 0)
		close(res->parent_fd);
	free(res->name);
	*res = (struct path_walk_result){ .fd = -1, .parent_fd = -1 };
}

static int open_via_walk(int root_fd, const char *path, int flags, bool no_symlinks)
{
	struct path_walk_opts o = { .last = PATH_LAST_EXISTING, .no_symlinks = no_symlinks };
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
	int fd = -1;

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

int path_mkdir_p(int root_fd, const char *path, mode_t mode, mode_t parent_mode)
{
	struct path_walk_opts o = {
		.create_parents = true,
		.parent_mode = parent_mode,
		.last = PATH_LAST_DIR,
		.last_mode = mode,
	};
	struct path_walk_result res;
	struct stat st;
	int r;

	r = path_walk(root_fd, path, &o, &res);
	if (r < 0)
		return r;
	if (fstat(res.fd, &st) < 0)
		r = -errno;
	else if (!S_ISDIR(st.st_mode))
		r = -ENOTDIR;
	else
		r = TAKE_FD(res.fd);
	path_walk_result_free(&res);
	return r;
}

int path_mkdir_parents(int root_fd, const char *path, mode_t parent_mode)
{
	struct path_walk_opts o = {
		.create_parents = true,
		.parent_mode = parent_mode,
		.last = PATH_LAST_PARENT,
	};
	struct path_walk_result res;
	int r;

	r = path_walk(root_fd, path, &o, &res);
	if (r == 0)
		path_walk_result_free(&res);
	return r;
}

int path_make_mountpoint(int root_fd, const char *path, bool is_dir, mode_t parent_mode)
{
	struct path_walk_opts o = {
		.create_parents = true,
		.parent_mode = parent_mode,
		.last = is_dir ? PATH_LAST_DIR : PATH_LAST_FILE,
		.last_mode = is_dir ? 0755 : 0444,
	};
	struct path_walk_result res;
	struct stat st;
	int fd, r;

	fd = path_open(root_fd, path, O_PATH);
	if (fd == -ENOENT) {
		r = path_walk(root_fd, path, &o, &res);
		if (r < 0)
			return r;
		fd = TAKE_FD(res.fd);
		path_walk_result_free(&res);
	}
	if (fd < 0)
		return fd;
	r = fstat(fd, &st) < 0 ? -errno : 0;
	if (r == 0 && is_dir && !S_ISDIR(st.st_mode))
		r = -ENOTDIR;
	else if (r == 0 && !is_dir && S_ISDIR(st.st_mode))
		r = -EISDIR;
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
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
