/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * path.h: resolve and create paths beneath a root directory fd without ever
 * leaving it: absolute symlinks and ".." are taken relative to that root, as if
 * it were "/". openat2(RESOLVE_IN_ROOT|RESOLVE_NO_MAGICLINKS) when the kernel has
 * it, else a component-by-component O_NOFOLLOW walk with the same semantics.
 * All fds returned are O_CLOEXEC; "-errno" on failure.
 */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

enum path_last {
	PATH_LAST_EXISTING = 0, /* the last component must exist */
	PATH_LAST_DIR,		/* create a missing last component as a directory */
	PATH_LAST_FILE,		/* create a missing last component as an empty file */
	PATH_LAST_PARENT,	/* stop at the last component: fd may be -1, never followed;
				 * a last "NAME/" is a parent, created and followed; past a
				 * dangling symlink the walk stops with both fds -1 */
};

/* What path_walk does with missing components and the last one. */
struct path_walk_opts {
	bool create_parents; /* mkdir missing parents with parent_mode */
	mode_t parent_mode;
	enum path_last last;
	mode_t last_mode;   /* mode for a created last component */
	bool nofollow_last; /* do not follow a symlink in the last component */
	bool no_symlinks;   /* a symlink in any component fails the walk with -ELOOP */
};

/* Result of path_walk: fd of the last component (O_PATH), its parent directory (O_PATH)
 * and the last component's name (as found after following symlinks; "." when PATH
 * ends on the root or on "."/".."). */
struct path_walk_result {
	int fd;
	int parent_fd;
	char *name;
	char *canon;  /* the canonical path of the result in the root: "/", "/usr/bin" */
	bool created; /* the last component was created by this walk */
};

/* A tree the walk runs over. Handles are ints (O_PATH fds for the real tree); every
 * callback returns -errno on failure. open never follows a symlink in NAME (it opens "."
 * too); mode gives st_mode; readlink returns the length (unterminated); mkdir and
 * mkfile (NULL: read-only tree) fail with -EEXIST when NAME exists. */
struct path_tree {
	void *ctx;
	int (*open)(void *ctx, int dir, const char *name);
	int (*mode)(void *ctx, int h, mode_t *mode);
	int (*readlink)(void *ctx, int h, char *buf, size_t size);
	int (*mkdir)(void *ctx, int dir, const char *name, mode_t mode);
	int (*mkfile)(void *ctx, int dir, const char *name, mode_t mode);
	int (*dup)(void *ctx, int h);
	void (*close)(void *ctx, int h);
};

/* The real tree: handles are fds, root is a directory fd. */
extern const struct path_tree path_fd_tree;

/* The canonical path ("/usr/bin") of the directory PATH names in the tree, symlinks
 * resolved inside it: -ENOENT, -ENOTDIR, -ELOOP as the walk finds them. */
int path_resolve_dir(const struct path_tree *t, int root, const char *path, char **canon);

/* Walks PATH beneath root_fd. On success fills *res (release with path_walk_result_free). */
int path_walk(int root_fd, const char *path, const struct path_walk_opts *opts,
	      struct path_walk_result *res);
void path_walk_result_free(struct path_walk_result *res);

/* Opens an existing PATH beneath root_fd with open flags (O_PATH, O_DIRECTORY...).
 * Symlinks are followed inside the root; magic links are refused (ELOOP). */
int path_open(int root_fd, const char *path, int flags);

/* --debug-opt=force-openat-fallback: from now on path_openat2() answers ENOSYS, as on a
 * kernel without openat2() (< 5.6), so every caller takes its fallback. */
void path_force_fallback(void);
struct nsrun_open_how;

/* Opens an existing PATH beneath root_fd like path_open, but a symlink in any component
 * (the last included) fails with -ELOOP: openat2(RESOLVE_NO_SYMLINKS), else the walk. For
 * paths whose every component the caller must see as named (Landlock rule paths). */
int path_open_no_symlinks(int root_fd, const char *path, int flags);

/* bwrap 0.12+'s way to a destination: every component but the last is made a directory
 * (parent_mode; an existing entry is kept) and then opened in the root, symlinks followed
 * inside it. Returns the last component's parent (O_PATH directory fd) and the last
 * component in *name (malloc'd; "." for a path naming the root; a trailing '/' dropped). */
int path_dest_parent(int root_fd, const char *path, mode_t parent_mode, char **name);

/* Mode for auto-created parent directories: 0755, narrowed when --perms (has_perms)
 * denies group or other access (bwrap's rule). */
mode_t path_parent_mode(bool has_perms, mode_t perms);
