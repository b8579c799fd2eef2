/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * seccomp-guard: runs a command under nsrun's seccomp guards, the test-only way to
 * reach seccomp_apply_guards() and seccomp_memfd_noexec_pidns() before the
 * launcher has options for them.
 *   seccomp-guard [--memfd-noexec] GUARD[,GUARD...]|none -- CMD [ARGS...]
 * guards: exec-memfd, unix-socket, tiocsti, all. --memfd-noexec first sets
 * vm.memfd_noexec=2 through /proc and prints "memfd-noexec: ok" or the error
 * (as "memfd-noexec: ENAME: message"), then goes on either way.
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

static void memfd_noexec(void)
{
	struct nsrun_error err = { 0 };
	_cleanup_close_ int proc = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	int r = proc < 0 ? -errno : seccomp_memfd_noexec_pidns(proc, &err);

	if (r == 0)
		printf("memfd-noexec: ok\n");
	else
		printf("memfd-noexec: %s: %s\n", strerrorname_np(-r),
		       proc < 0 ? "open /proc" : err.msg);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct nsrun_error err = { 0 };
	unsigned guards = 0;
	int i = 1;

	if (i < argc && !strcmp(argv[i], "--memfd-noexec")) {
		memfd_noexec();
		i++;
	}
	if (argc - i < 3 || strcmp(argv[i + 1], "--") != 0 || parse_guards(argv[i], &guards) < 0) {
		fprintf(stderr,
			"usage: seccomp-guard [--memfd-noexec] GUARD[,GUARD...]|none -- CMD "
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
