/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * landlock-interp.h: the ELF interpreters (PT_INTERP, the dynamic loader) that
 * --landlock-exec must also allow. What an ELF file names is attacker-controlled
 * (anyone who can write into an exec directory can plant one), so an interpreter
 * is only ever a regular file, opened without magic links, and only that file is
 * allowed: never a directory, a device, a fifo or whatever a link points at.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define LANDLOCK_MAX_INTERPRETERS 64

/* Interpreter files, each an O_PATH fd of a regular file, distinct by inode. */
struct landlock_interps {
	int fds[LANDLOCK_MAX_INTERPRETERS];
	dev_t dev[LANDLOCK_MAX_INTERPRETERS];
	ino_t ino[LANDLOCK_MAX_INTERPRETERS];
	char *paths[LANDLOCK_MAX_INTERPRETERS]; /* as PT_INTERP names them, for messages */
	size_t n;
};

/* Reads PT_INTERP of the ELF file open (readable) at fd into buf. Returns 1 when found,
 * 0 otherwise (not ELF, static, foreign byte order, malformed). Pure but for pread. */
int landlock_elf_interp(int fd, char *buf, size_t size);

/* Adds the interpreters of what the --landlock-exec rule at path (open O_PATH at fd)
 * names: of the file itself, or of the files directly inside a directory (a recursive
 * walk could be arbitrarily expensive; entries that are symlinks are not followed).
 * Interpreter paths are resolved beneath root_fd. Never fails: an interpreter that is
 * missing or refused only makes the boundary stricter. */
void landlock_interps_collect(struct landlock_interps *s, int root_fd, int fd, const char *path);

void landlock_interps_free(struct landlock_interps *s);
