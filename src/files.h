/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * files.h: operations that create files inside the new root (--dir, --file,
 * --bind-data, --ro-bind-data, --symlink, --chmod) and the minimal /dev of --dev.
 * Every path is resolved beneath root_fd (path.h); messages use the sandbox path.
 * The caller runs them with umask 0 so modes are exact.
 */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

#include "error.h"

/* What bwrap 0.12+ makes at a destination before an op: parents always (in the root,
 * symlinks followed inside it), then the node the op needs. */
enum files_node {
	FILES_NODE_NONE,     /* parents only (--symlink) */
	FILES_NODE_EXISTING, /* must exist (--remount-ro) */
	FILES_NODE_FILE,     /* an empty file, unless something exists */
	FILES_NODE_DIR,	     /* a directory, unless something exists */
};

struct files_dest_opts {
	const char *dest;
	enum files_node node;
	int perms;	    /* mode of a new node; -1: 0755 for a directory, 0444 for a file */
	bool writable;	    /* --file: the node is opened O_TRUNC for writing */
	bool is_mount;	    /* the op mounts there: a symlink is refused */
	mode_t parent_mode; /* for new parents */
};

struct files_dest {
	int parent_fd; /* O_PATH directory */
	char *name;    /* the last component in it */
	int fd;	       /* the node, O_PATH|O_NOFOLLOW (writable for --file); -1 for NONE */
};

/* Fills *d, or fails with bwrap's words: "Can't mkdir parents for", "Can't create file",
 * "Can't mount on symlink destination", "Destination is not a directory/file". Release
 * with files_dest_close (also after a failure). */
int files_dest_open(int root_fd, const struct files_dest_opts *o, struct files_dest *d,
		    struct nsrun_error *err);
void files_dest_close(struct files_dest *d);

/* bwrap 0.12+ reads a bind's destination back (readlink of /proc/self/fd/N) before it
 * mounts, and fails where the kernel cannot print that path (too long). */
int files_bind_check(int dest_fd, const char *src, const char *dest, struct nsrun_error *err);

/* --file: the data into the node files_dest_open opened for writing. */
int files_file(const struct files_dest *d, const char *dest, int data_fd, struct nsrun_error *err);

/* --bind-data, --ro-bind-data: the data in a file of the staging tmpfs, bound on the node. */
int files_bind_data(const struct files_dest *d, int staging_fd, const char *dest, int data_fd,
		    mode_t mode, bool readonly, struct nsrun_error *err);

/* --symlink TARGET DEST at d's parent and name; the same link already there is fine. */
int files_symlink(const struct files_dest *d, const char *target, const char *dest,
		  struct nsrun_error *err);

int files_chmod(int root_fd, const char *path, mode_t mode, struct nsrun_error *err);

/* --dev: a tmpfs on d's node, with the minimal device set. */
int files_dev(int root_fd, const struct files_dest *d, const char *dest, int host_dev_fd,
	      int console_fd, struct nsrun_error *err);

/* After --proc: bind sys, sysrq-trigger, irq and bus read-only over themselves. With
 * host_privileged (root, or no user namespace) every one that exists is covered;
 * otherwise, as in bwrap, only those the caller can write (access W_OK). */
int files_proc_cover(int root_fd, const char *dest, bool host_privileged, struct nsrun_error *err);

/* After --sys: the masks the man page lists, over dest's sysfs (an empty directory or
 * file of the staging tmpfs, bound read-only);
 * what this kernel lacks is skipped. Any other failure is the caller's to fail closed. */
int files_sys_mask(int root_fd, const char *dest, int staging_fd, struct nsrun_error *err);

/* Whether REL, a path relative to a --sys sysfs (no leading '/'), is strictly below one
 * of its masked directories, so absent in the sandbox (pure: for --explain). */
bool files_sys_hidden(const char *rel);
