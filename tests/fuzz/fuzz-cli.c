/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fuzz-cli.c: libFuzzer target for the parser. The input, split on NUL, is argv and
 * also what every --args/--seccomp fd reads. Invariant: when parsing succeeds,
 * plan_format(parse(plan_to_argv(plan))) equals plan_format(plan), and validation
 * gives the same answer for both plans. Any mismatch aborts.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fuzz-common.h"
#include "plan.h"
#include "util.h"

#define FUZZ_MAX_INPUT (64u << 10)
#define FUZZ_MAX_ARGV 1024

struct fuzz_reader {
	const uint8_t *data;
	size_t size;
};

/* fd % 3 picks the whole input, the input after its first NUL, or EBADF. */
static int fuzz_read(void *userdata, int fd, size_t max, char **ret, size_t *len)
{
	struct fuzz_reader *r = userdata;
	const uint8_t *nul;

	switch (fd % 3) {
	case 0:
		return fuzz_give(r->data, r->size, max, ret, len);
	case 1:
		nul = memchr(r->data, 0, r->size);
		if (!nul)
			return fuzz_give("", 0, max, ret, len);
		return fuzz_give(nul + 1, r->size - (size_t)(nul + 1 - r->data), max, ret, len);
	default:
		return -EBADF;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_reader r1 = { .data = data, .size = size };
	struct cli_io io = {
		.read_fd = fuzz_read, .userdata = &r1, .envp = fuzz_env, .selinux_enabled = size & 1
	};
	_cleanup_free_ char *buf = NULL;
	_cleanup_free_ char **argv = NULL;
	struct nsrun_error err = { 0 };
	static char prog[] = "nsrun";
	struct plan plan;
	int argc = 1;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	buf = xmalloc(size + 1);
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv = xcalloc(FUZZ_MAX_ARGV + 2, sizeof(char *));
	argv[0] = prog;
	for (char *p = buf; p < buf + size && argc <= FUZZ_MAX_ARGV; p += strlen(p) + 1)
		argv[argc++] = p;
	if (cli_parse(argc, argv, &io, &plan, &err) >= 0)
		fuzz_round_trip(&plan, io.selinux_enabled);
	else if (!err.msg[0])
		abort(); /* every failure must explain itself */
	plan_free(&plan);
	return 0;
}
