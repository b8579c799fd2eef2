/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cli.c: placeholder until the parser lands. */
#include "config.h"

#include "cli.h"

#include "util.h"

int cli_parse(int argc, char *const *argv, const struct cli_io *io, struct plan *plan,
	      struct nsrun_error *err)
{
	(void)argc;
	(void)argv;
	plan_init(plan, io->envp);
	return error_set(err, ENOSYS, "option parsing is not implemented yet");
}

void cli_usage(FILE *out, const char *argv0)
{
	fprintf(out, "usage: %s [OPTIONS...] [--] COMMAND [ARGS...]\n", argv0);
}

int cli_read_fd_default(void *userdata, int fd, size_t max, char **ret, size_t *len)
{
	int r;

	(void)userdata;
	r = read_all(fd, max, ret, len);
	close(fd);
	return r;
}
