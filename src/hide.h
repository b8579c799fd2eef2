/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * hide.h: --overlay-hide / --overlay-allow. Each affected directory of the
 * sandbox gets one read-only overlay whose top layer, on the private staging
 * tmpfs, holds whiteouts (char 0:0) for the hidden names. Needs Linux 5.8 for
 * unprivileged whiteouts and 5.11 for overlayfs in a user namespace.
 * Planning (which directory loses which names) is pure and works on callbacks,
 * so it is unit-tested without namespaces; hide_apply() carries the plan out.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "plan.h"

/* The search path glibc's execvp uses when PATH is unset (confstr(_CS_PATH)). */
#define HIDE_DEFAULT_PATH "/bin:/usr/bin"

struct hide_env {
	int root_fd;		  /* O_PATH|O_DIRECTORY fd of the sandbox root being built */
	const char *root_path;	  /* that root as an absolute path in the current view, e.g. "/newroot" */
	int staging_fd;		  /* dirfd of the private tmpfs for the whiteout layers */
	const char *staging_path; /* that tmpfs as an absolute path in the current view */
	const char *path_env;	  /* PATH the payload runs with; NULL: glibc's default */
	bool in_userns;
};

/* Runs after every other filesystem op and before the final pivot. A no-op when cfg has
 * neither hides nor allows. Fails (never partially hides and continues) when the kernel
 * cannot do it, naming the cause. Refuses a directory that is writable in the sandbox (the
 * overlay is read-only) and one with mounts below it (an overlay's lower layer carries no
 * submounts; Linux < 6.8 without listmount: only mounts on its own entries are seen). */
int hide_apply(const struct hide_config *cfg, const struct hide_env *env, struct nsrun_error *err);

/* ---- planning (pure: all filesystem access goes through struct hide_fs) ---- */

/* The sandbox's tree as the planner sees it. Paths are absolute paths inside the sandbox. */
struct hide_fs {
	void *ctx;
	/* Canonical form of directory path: absolute, no ".", "..", "//" or symlinks (symlinks
	 * resolved inside the sandbox). Returns 0 with *ret malloc'd, or -ENOENT/-ENOTDIR/... */
	int (*resolve_dir)(void *ctx, const char *path, char **ret);
	/* Names in canonical directory dir, without "." and "..", malloc'd NULL-terminated. */
	int (*list_dir)(void *ctx, const char *dir, char ***ret);
	/* Target of the symlink dir/name: 0 with *ret malloc'd; -EINVAL when the entry is not a
	 * symlink; -ENOENT when it does not exist. */
	int (*read_link)(void *ctx, const char *dir, const char *name, char **ret);
};

struct hide_dir {
	char *dir;    /* canonical path inside the sandbox */
	char **names; /* names to whiteout: sorted, unique, NULL-terminated, never empty */
	size_t n_names;
};

struct hide_plan {
	struct hide_dir *dirs; /* sorted by dir, so a parent comes before its subdirectories */
	size_t n_dirs;
};

/* Works out which names each directory loses. path_env: the payload's PATH (NULL: unset,
 * HIDE_DEFAULT_PATH). Rules:
 *  - PATH form (contains '/'; must be absolute): the parent must exist (else an error);
 *    a literal last component is whited out whether or not it exists, a glob matches the
 *    entries present now.
 *  - NAME form (no '/'): applies to each absolute PATH directory that exists; a literal
 *    name only where it exists, so PATH directories without it are left alone.
 *  - an allow turns the directories it names into allowlists: every entry there that no
 *    allow matches is hidden. An entry both allowed and hidden stays visible.
 *  - an allowed symlink keeps the chain it points through visible wherever that chain
 *    enters a planned directory (sh -> dash, python3 -> python3.11).
 *  - globs use fnmatch(3) with FNM_PERIOD: '*' does not match a leading dot. */
int hide_plan_build(const struct hide_config *cfg, const char *path_env, const struct hide_fs *fs,
		    struct hide_plan *ret, struct nsrun_error *err);
void hide_plan_free(struct hide_plan *plan);

/* Escapes '\\', ':' and ',' for an overlayfs lowerdir value. Returns a malloc'd string. */
char *hide_escape_layer(const char *path);
