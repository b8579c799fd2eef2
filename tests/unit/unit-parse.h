/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * unit-parse.h: the unit tests' one way to run the parser on a list of arguments.
 * ARGS("--bind", "/a", "/b", "true") is a NULL-terminated list; parse_args() puts
 * "nsrun" before it and calls cli_parse() with the caller's io (fd readers, env).
 */
#pragma once

#include <string.h>

#include "cli.h"
#include "error.h"
#include "plan.h"
#include "util.h"

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

static inline int parse_args(const struct cli_io *io, const char *const *args, struct plan *p,
			     struct nsrun_error *e)
{
	size_t n = 1 + strv_length((char *const *)args);
	_cleanup_free_ const char **argv = xcalloc(n + 1, sizeof(*argv));

	argv[0] = "nsrun";
	memcpy(argv + 1, args, (n - 1) * sizeof(*argv));
	memset(e, 0, sizeof(*e));
	return cli_parse((int)n, (char *const *)argv, io, p, e);
}
