/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * hide-plan.h: the pure half of --overlay-hide / --overlay-allow: which directory of
 * the sandbox loses which names, and how hide.c should carry that out. The planner sees
 * the tree only through struct hide_fs callbacks, so it is unit-tested without
 * namespaces. Paths are canonical absolute paths inside the sandbox.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "plan.h"

/* The search path glibc's execvp uses when PATH is unset (confstr(_CS_PATH)). */
#define HIDE_DEFAULT_PATH "/bin:/usr/bin"

/* Symlinks followed while resolving one path or one allowed link chain. */
#define HIDE_MAX_SYMLINKS 40

/* The sandbox's tree as the planner sees it. Paths are absolute paths inside the sandbox. */
struct hide_fs {
	void *ctx;
	/* Canonical form of directory path: absolute, no ".", "..", "//" or symlinks (symlinks
	 * resolved inside the sandbox). Returns 0 with *ret malloc'd, or -ENOENT/-ENOTDIR/... */
	int (*resolve_dir)(void *ctx, const char *path, char **ret);
	/* Names in canonical directory dir, without "." and "..": a NULL-terminated vector in
	 * one allocation with its strings (hide_pack_names), released by one free(). */
	int (*list_dir)(void *ctx, const char *dir, char ***ret);
	/* Target of the symlink dir/name: 0 with *ret malloc'd; -EINVAL when the entry is not a
	 * symlink; -ENOENT when it does not exist. */
	int (*read_link)(void *ctx, const char *dir, const char *name, char **ret);
};

enum hide_method {
	/* An overlay whose top layer holds one whiteout per hidden name: O(hidden). */
	HIDE_WHITEOUTS,
	/* An allowlist: a read-only directory holding only the kept entries, each bound from
	 * the original: O(kept). Nothing else of the original shows. */
	HIDE_KEEP_ONLY,
};

/* names and keep are sorted, unique, NULL-terminated and packed (one allocation each). */
struct hide_dir {
	char *dir; /* canonical path inside the sandbox */
	enum hide_method method;
	char **names; /* HIDE_WHITEOUTS: the names to white out, never empty; else empty */
	size_t n_names;
	char **keep; /* HIDE_KEEP_ONLY: the existing entries left visible (may be empty) */
	size_t n_keep;
};

struct hide_plan {
	struct hide_dir *dirs; /* sorted by dir, so a parent comes before its subdirectories */
	size_t n_dirs;
	/* The literal --overlay-hide arguments that name no entry: a NAME in no PATH
	 * directory, a PATH that does not exist (a typo, or a tool this machine lacks);
	 * NULL-terminated, NULL when there is none. Globs never land here. */
	char **missing;
	/* The same for the literal --overlay-allow arguments: each leaves out the entry it
	 * meant to keep (a misspelt tool just disappears). */
	char **missing_allow;
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
 *  - globs use fnmatch(3) with FNM_PERIOD: '*' does not match a leading dot.
 *  - an allowlist directory gets HIDE_KEEP_ONLY without being listed when its allows are
 *    literal names; with an allow glob it is listed and gets HIDE_KEEP_ONLY only when it
 *    would hide more entries than it keeps (HIDE_WHITEOUTS, and no entry at all when
 *    nothing is hidden, otherwise). Hide rules never make a directory keep-only. */
int hide_plan_build(const struct hide_config *cfg, const char *path_env, const struct hide_fs *fs,
		    struct hide_plan *ret, struct nsrun_error *err);
void hide_plan_free(struct hide_plan *plan);

/* Whether hd's whiteout list (sorted) holds name. */
bool hide_dir_hides(const struct hide_dir *hd, const char *name);

/* n consecutive NUL-terminated names from buf (len bytes) as a NULL-terminated vector in
 * one allocation with its strings: free() releases both. */
char **hide_pack_names(const char *buf, size_t len, size_t n);
