/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * noexec.h: with --landlock-exec, no file the command can write may stay
 * reachable through a mount that allows exec. Landlock checks execve(2) only;
 * the dynamic loader, which an exec allowlist must let run, maps any readable
 * file PROT_EXEC ("ld.so ./written-file"), and noexec mounts refuse that.
 */
#pragma once

#include "error.h"
#include "plan.h"

/* Makes everything the command can write non-executable wherever it shows in the tree
 * under root_path: mounts whose root lies in writable content become noexec; a place
 * inside a mount that shows writable content but also other files is covered by a
 * recursive bind of that place over itself, made noexec. Files and mounts that stay
 * executable are unchanged, so the exec paths, their libraries and ELF interpreters keep
 * working. An exec path that is itself writable fails closed.
 *
 * root_path: the command's "/" as seen now ("/newroot" before the final pivot, "/" for
 * --landlock-only); proc_path: a procfs whose "self" is this process ("/oldroot/proc",
 * "/proc"); cfg->rw and cfg->exec: paths under root_path as the command will open them.
 * What counts as writable is what Landlock lets through: the rw paths and everything
 * below them, across mounts and through every alias (the exec list makes Landlock
 * restrict writes). Nothing to do without exec or rw paths. Needs CAP_SYS_ADMIN over the
 * current mount namespace (in a user namespace the kernel lets noexec be added to
 * locked mounts), which must not share mount events with another one: the covering
 * binds would propagate (make "/" rslave or rprivate first). Returns 0 or -errno with
 * err filled and err->status 126. */
/* This process's own overlays, which name their layers /proc/self/fd/N (bwrap 0.12+'s
 * naming): the devices of those overlays and the fds that resolve their names. An overlay
 * naming a layer so that is not one of them was made by another process, whose fd numbers
 * mean nothing here: what it shows cannot be told, so all of it counts as writable.
 * host_root: where paths as the host names them resolve ("/oldroot" while the new root is
 * built, "" for --landlock-only). */
struct noexec_fds {
	const int *fds;
	size_t n;
	const dev_t *devs;
	size_t n_devs;
	const char *host_root;
};

int noexec_apply(const char *root_path, const char *proc_path, const struct landlock_config *cfg,
		 const struct noexec_fds *own, struct nsrun_error *err);
/* Whether noexec_apply has anything to do for cfg (an exec list and rw paths). */
bool noexec_wanted(const struct landlock_config *cfg);

/* ---- pure helpers (unit-tested) ---- */

enum noexec_overlap {
	NOEXEC_DISJOINT = 0, /* the mount shows nothing of fspath */
	NOEXEC_INSIDE,	     /* the mount's root lies at or below fspath: all of it is fspath's */
	NOEXEC_ALIAS,	     /* fspath shows at a path below the mount point (in *alias) */
};

/* How a mount (its mount point, and its root inside its filesystem) shows fspath, a
 * path of the same filesystem. For NOEXEC_ALIAS, *alias is malloc'd. */
enum noexec_overlap noexec_overlap(const char *mountpoint, const char *mount_root,
				   const char *fspath, char **alias);
