/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mount.h: fd-based mount primitives. Every target is an fd (O_PATH is enough),
 * so callers resolve paths safely first (path.h) and mount.c never walks a path.
 * The fast path is the Linux 5.12 mount API (open_tree, move_mount,
 * mount_setattr, fsopen/fsconfig/fsmount); when it answers ENOSYS the same calls
 * fall back to mount(2) on "/proc/self/fd/N" (so /proc must be reachable at /proc
 * in the current view) plus a mountinfo walk for recursive flag changes.
 * Attributes are MOUNT_ATTR_* bits (RDONLY, NOSUID, NODEV, NOEXEC).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* One filesystem parameter. value NULL: a flag (fsconfig SET_FLAG, "key" in mount data). */
struct mount_opt {
	const char *key;
	const char *value;
};

/* true when open_tree, move_mount, mount_setattr and fsopen all exist (probed once). */
bool mount_api_available(void);
/* How many of open_tree, mount_setattr, move_mount and fsopen are refused (ENOSYS, or
 * EPERM from a seccomp filter for open_tree); probed without side effects. */
int mount_api_missing(void);

/* --debug-opt=force-mount-setattr-fallback: take the mount(2) path from now on, as on a
 * kernel without the new API (what `make check-legacy` gets from a seccomp filter). */
void mount_force_fallback(void);

/* Bind the tree at src_fd (any fd: O_PATH, a directory, a tty...) onto dest_fd and set
 * attrs on every mount of the copy (recursive) or on its top only. One mount_setattr
 * call however many submounts. Returns 0 or -errno (no message: callers word it). */
int mount_bind(int src_fd, int dest_fd, bool recursive, uint64_t attrs);

/* --idmap: a detached recursive clone of path, in the caller's mount namespace, with
 * attrs and the idmapping of userns_fd (open_tree + mount_setattr, Linux 5.12). -ENOSYS
 * without the new mount API (there is no mount(2) form); *at_setattr says whether the
 * error came from mount_setattr (the idmapping itself) rather than open_tree. */
int mount_idmapped_tree(const char *path, int userns_fd, uint64_t attrs, bool *at_setattr);
/* Attaches a tree from mount_idmapped_tree onto dest_fd. */
int mount_attach_tree(int tree_fd, int dest_fd);

/* A recursive mount_bind() for --not-a-security-boundary: where submounts are remounted
 * one by one (the mount(2) path), one that cannot take attrs keeps its flags and a
 * warning is logged; the top of the tree must take them. */
int mount_bind_fail_open(int src_fd, int dest_fd, uint64_t attrs);

/* Moves the tree at src_fd, attached in this mount namespace, onto dest_fd (whose mount
 * must be private) and sets attrs on every mount of it: a recursive bind without the
 * copy, for a tree nothing else will read from where it was. 1: moved; 0: nothing
 * changed, bind a copy instead (no new mount API, or the tree holds an unbindable mount,
 * which a copy leaves out); -errno: moved, but the flags failed. */
int mount_move_tree(int src_fd, int dest_fd, uint64_t attrs);

/* Mount a new instance of fstype on dest_fd (fsopen... or mount(2) with a data string
 * built from opts; "source" is passed as mount(2)'s source in legacy mode). mount(2) also
 * where a value is longer than the 255 bytes fsconfig takes. */
int mount_fs_at(const char *fstype, const struct mount_opt *opts, size_t n_opts, uint64_t attrs,
		int dest_fd);

/* Add attrs to the mount dest_fd is on (recursive: the whole subtree), keeping its other
 * flags. mount_set_readonly is the --remount-ro case (non-recursive). */
int mount_set_attrs(int dest_fd, bool recursive, uint64_t attrs);
int mount_set_readonly(int dest_fd);

/* Overlay parameters: lowers top-first; upper/work NULL for a read-only overlay.
 * Passes one escaped "lowerdir=" list (as bwrap does, so mountinfo matches), through
 * mount(2) where it or another value is too long for fsconfig, as mount_fs_at. */
struct mount_overlay {
	const char *const *lowers;
	size_t n_lowers;
	const char *upper;
	const char *work;
	bool userxattr; /* userxattr (bwrap always passes it), and index/xino off */
	/* Optional: receives overlayfs's own error text (the fsopen log; new API only), as
	 * most refusals are otherwise only in the kernel log. "" when there is none. */
	char *log;
	size_t log_size;
};
int mount_overlay_at(const struct mount_overlay *ov, uint64_t attrs, int dest_fd);

/* The options as bwrap prints them in errors: upperdir=..,workdir=..,lowerdir=a:b[,userxattr]
 * (escaped, as passed). Returns malloc'd text. */
char *mount_overlay_describe(const struct mount_overlay *ov);

/* Fills err for a failed mount primitive (r = -errno): "FMT: strerror", except ENOSPC,
 * which gets bwrap's mount-max hint instead. Returns r. */
int mount_error(struct nsrun_error *err, int r, const char *fmt, ...) _printf_(3, 4);
