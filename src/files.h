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

/* Missing parents of dest, with bwrap's "Can't mkdir parents for DEST" on failure. */
int files_mkdir_parents(int root_fd, const char *dest, mode_t parent_mode, struct nsrun_error *err);

/* --dir: mkdir -p; an existing directory is left unchanged. */
int files_dir(int root_fd, const char *dest, mode_t mode, mode_t parent_mode,
	      struct nsrun_error *err);

/* --file: create (or truncate) dest with mode and copy data_fd into it. */
int files_file(int root_fd, const char *dest, int data_fd, mode_t mode, mode_t parent_mode,
	       struct nsrun_error *err);

/* --bind-data / --ro-bind-data: data in a temp file on staging_fd, bound onto dest. */
int files_bind_data(int root_fd, int staging_fd, const char *dest, int data_fd, mode_t mode,
		    bool readonly, mode_t parent_mode, struct nsrun_error *err);

/* --symlink: an identical existing symlink is accepted (bwrap >= 0.9). */
int files_symlink(int root_fd, const char *target, const char *dest, mode_t parent_mode,
		  struct nsrun_error *err);

/* --chmod: follows symlinks inside the root. */
int files_chmod(int root_fd, const char *path, mode_t mode, struct nsrun_error *err);

/* --dev: tmpfs with the host's null, zero, full, random, urandom, tty (from host_dev_fd),
 * the std symlinks, shm, a new devpts instance and, when console_fd >= 0 (the host tty
 * of stdout, opened O_PATH in this mount namespace), console bound to it. */
int files_dev(int root_fd, const char *dest, int host_dev_fd, int console_fd, mode_t parent_mode,
	      struct nsrun_error *err);

/* After --proc: bind sys, sysrq-trigger, irq and bus read-only over themselves. With
 * host_privileged (root, or no user namespace) every one that exists is covered;
 * otherwise, as in bwrap, only those the caller can write (access W_OK). */
int files_proc_cover(int root_fd, const char *dest, bool host_privileged, struct nsrun_error *err);
