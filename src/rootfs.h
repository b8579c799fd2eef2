/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rootfs.h: the filesystem phase, run in the child inside its new mount
 * namespace: staging tmpfs, every --bind/--tmpfs/--dir/... op in command-line
 * order, overlay-hide, then pivot into the new root. Nothing of the host or of
 * the staging tmpfs is reachable afterwards.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "fallback.h"
#include "plan.h"

struct rootfs_config {
	const struct op *ops;
	size_t n_ops;
	const struct hide_config *hide; /* may be NULL */
	const char *path_env;		/* PATH the payload will run with (NULL: unset) */
	bool in_userns;			/* inside a user namespace (overlay needs userxattr) */
	bool new_pidns;			/* --proc mounts a fresh procfs instead of binding */
	bool sys_fresh;	      /* --sys: a netns of its own, a fresh sysfs; else the caller's /sys */
	bool host_privileged; /* root, or no userns: every /proc cover is needed */
	const char *file_label; /* --file-label, NULL if unset */
	bool fail_open; /* --not-a-security-boundary: binds tolerate submount remount failures */
	bool command_admin; /* the command keeps CAP_SYS_ADMIN: no initramfs fallback */
	const struct landlock_config
		*landlock; /* --landlock-rw/-exec: what the command can write becomes noexec */
	/* --fallback proc: where a fresh procfs is refused, the host's is bound instead and
	 * the refusal recorded here; NULL: the refusal is the error. */
	struct fallback_refusal *proc_refused;
	/* --idmap: per op, the idmapped tree rootfs_idmap_open made (-1: none); each is
	 * closed once attached. NULL without --idmap. */
	int *idmap_fds;
};

/* --idmap asked by a caller that cannot idmap the host's filesystems: 126, saying so. */
int rootfs_idmap_needs_root(const char *source, struct nsrun_error *err);

/* --idmap, in the monitor before clone (only a process in the user namespace that owns
 * a filesystem's superblock may idmap its mounts, the host's root for the host's): for
 * each op marked OP_F_IDMAP, a detached tree of its source with the bind's flags and
 * userns_fd's idmapping, in fds[i] (else -1; a -try op's missing source too). Fails
 * closed naming what the kernel or the filesystem lacks. */
int rootfs_idmap_open(const struct op *ops, size_t n_ops, int userns_fd, int *fds,
		      struct nsrun_error *err);

/* On success the process's root and cwd are the sandbox's "/". */
int rootfs_build(const struct rootfs_config *cfg, struct nsrun_error *err);
