/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cli.h: argv (and --args buffers) to struct plan. Pure: no syscalls except
 * through the injected io callbacks, no printing, no exit. The option table in
 * cli-options.h is the single source of truth for names, arity and help.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli-options.h"
#include "error.h"
#include "plan.h"

struct cli_io {
	/* Reads fd to EOF (at most max bytes), closes it, returns 0 or -errno.
	 * Used for --args, --seccomp and --add-seccomp-fd. */
	int (*read_fd)(void *userdata, int fd, size_t max, char **ret, size_t *len);
	/* Optional: 0 if fd is open (and readable when read is set), else -errno. Used for
	 * --sync-fd, --block-fd and --userns-block-fd once a command is known. */
	int (*check_fd)(void *userdata, int fd, bool read);
	/* Optional: 0 if fd is open for writing, else -errno. Used for --report-fd. */
	int (*check_fd_writable)(void *userdata, int fd);
	void *userdata;
	char *const *envp;    /* the starting environment (copied into plan->proc.envp) */
	bool selinux_enabled; /* --exec-label / --file-label are errors without SELinux */
};

/* Initialises *plan (plan_init) and fills it from argv[1..argc-1]. On failure returns
 * -errno with err filled; the caller still owns and must plan_free() the plan. */
int cli_parse(int argc, char *const *argv, const struct cli_io *io, struct plan *plan,
	      struct nsrun_error *err);

/* Prints "usage: ARGV0 [OPTIONS...] [--] COMMAND [ARGS...]" and the option list. */
void cli_usage(FILE *out, const char *argv0);

/* The real reader for main.c: read_all() then close(). */
int cli_read_fd_default(void *userdata, int fd, size_t max, char **ret, size_t *len);

/* The real fd check for main.c: fcntl(F_GETFL). */
int cli_check_fd_default(void *userdata, int fd, bool read);
int cli_check_fd_writable_default(void *userdata, int fd);

/* Under nsrun's own name (bwrap's words stay bwrap's): an unknown option's message gains
 * a pointer on, that a value goes in the next argument (--timeout=5), or to --help. */
void cli_hint(struct nsrun_error *err);
