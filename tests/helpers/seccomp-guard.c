/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * seccomp-guard: runs a command under one of nsrun's seccomp guards alone
 * (seccomp_apply_guards), for the filter's own cases the launcher has no reason to
 * reach (other architectures' calls, TIOCSTI on a shared terminal).
 *   seccomp-guard GUARD[,GUARD...]|none -- CMD [ARGS...]
 * guards: exec-memfd, unix-socket, tiocsti, all.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "macros.h"
#include "seccomp.h"

static const struct {
	const char *name;
	unsigned guard;
} names[] = {
	{ "exec-memfd", SECCOMP_GUARD_EXEC_MEMFD },
	{ "unix-socket", SECCOMP_GUARD_UNIX_SOCKET },
	{ "tiocsti", SECCOMP_GUARD_TIOCSTI },
	{ "all", SECCOMP_GUARD_ALL },
	{ "none", 0 },
};

static int parse_guards(char *list, unsigned *guards)
{
	for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(names) && strcmp(names[i].name, tok) != 0; i++)
			;
		if (i == ARRAY_SIZE(names)) {
			fprintf(stderr, "seccomp-guard: unknown guard '%s'\n", tok);
			return -1;
		}
		*guards |= names[i].guard;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct nsrun_error err = { 0 };
	unsigned guards = 0;
	int i = 1;

	if (argc - i < 3 || strcmp(argv[i + 1], "--") != 0 || parse_guards(argv[i], &guards) < 0) {
		fprintf(stderr, "usage: seccomp-guard GUARD[,GUARD...]|none -- CMD "
				"[ARGS...]\n");
		return 2;
	}
	if (seccomp_apply_guards(guards, &err) < 0) {
		fprintf(stderr, "seccomp-guard: %s\n", err.msg);
		return 125;
	}
	execvp(argv[i + 2], argv + i + 2);
	fprintf(stderr, "seccomp-guard: execvp %s: %s\n", argv[i + 2], strerror(errno));
	return 127;
}
