/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fuzz-args.c: libFuzzer target for --args FD. Input: one shape byte, then up to three
 * buffers separated by "\n--\n". Each buffer goes into a memfd named on argv as
 * "--args FD" and is read by nsrun's real reader. The shape byte picks how many --args,
 * whether an option sits between them and whether a COMMAND follows. Invariants: a
 * failure explains itself; a success round-trips (fuzz_round_trip) and gives the plan
 * that the same entries written straight on argv give (unless one is "--"), split by a
 * reference splitter (NUL ends an entry, a trailing unterminated piece is an entry);
 * every --args fd that was read is closed and the others are left open. Past 9000
 * entries the inline argv is bwrap's refusal, and only --args carries them.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fuzz-common.h"
#include "plan-print.h"
#include "plan.h"
#include "util.h"

#define FUZZ_MAX_INPUT (256u << 10)
#define FUZZ_MAX_BUFS 3

struct shape {
	size_t n_bufs;
	bool between; /* "--dir /between" after the first --args */
	bool command; /* "true" after the last --args */
	bool selinux;
};

/* The argv with every buffer's entries inline, split the way bwrap documents. */
static char **inline_argv(const struct shape *sh, const uint8_t **buf, const size_t *len)
{
	char **v = NULL;

	strv_push(&v, "nsrun");
	for (size_t b = 0; b < sh->n_bufs; b++) {
		const char *p = (const char *)buf[b], *end = p + len[b];

		while (p < end) {
			const char *nul = memchr(p, '\0', (size_t)(end - p));
			size_t n = nul ? (size_t)(nul - p) : (size_t)(end - p);
			char *s = xmalloc(n + 1);

			memcpy(s, p, n);
			s[n] = '\0';
			strv_push(&v, s);
			free(s);
			p += n + 1;
		}
		if (b == 0 && sh->between) {
			strv_push(&v, "--dir");
			strv_push(&v, "/between");
		}
	}
	if (sh->command)
		strv_push(&v, "true");
	return v;
}

static char **args_argv(const struct shape *sh, struct fuzz_fds *fds, const uint8_t **buf,
			const size_t *len)
{
	char **v = NULL;

	strv_push(&v, "nsrun");
	for (size_t b = 0; b < sh->n_bufs; b++) {
		_cleanup_free_ char *num = xasprintf("%d", fuzz_fds_add(fds, buf[b], len[b]));

		strv_push(&v, "--args");
		strv_push(&v, num);
		if (b == 0 && sh->between) {
			strv_push(&v, "--dir");
			strv_push(&v, "/between");
		}
	}
	if (sh->command)
		strv_push(&v, "true");
	return v;
}

/* Only when the parse read exactly the --args buffers, in order, can the inline argv
 * mean the same: any other read (--seccomp N inside a buffer) depends on fd state. */
static bool reads_only_buffers(const struct fuzz_fds *fds)
{
	if (fds->overflow || fds->n_reads != fds->n)
		return false;
	for (size_t i = 0; i < fds->n; i++)
		if (fds->reads[i] != fds->fd[i])
			return false;
	return true;
}

static void compare_inline(const struct shape *sh, const struct plan *p1, const uint8_t **buf,
			   const size_t *len)
{
	struct fuzz_fds none = { 0 };
	struct cli_io io = { .read_fd = fuzz_read_fd,
			     .userdata = &none,
			     .envp = fuzz_env,
			     .selinux_enabled = sh->selinux };
	_cleanup_strv_free_ char **argv = inline_argv(sh, buf, len);
	_cleanup_free_ char *t1 = plan_format(p1), *t2 = NULL;
	struct nsrun_error err = { 0 };
	struct plan p2;

	/* Past bwrap's 9000 only --args carries the entries (the command line is refused). */
	if (strv_length(argv) > PLAN_MAX_ARGS + 1)
		return;
	/* "--" ending a buffer ends only that buffer; inline it would end all options. */
	for (size_t i = 0; argv[i]; i++)
		if (strcmp(argv[i], "--") == 0)
			return;
	if (cli_parse((int)strv_length(argv), argv, &io, &p2, &err) < 0) {
		fprintf(stderr, "--args parsed, the same entries inline did not: %s\n", err.msg);
		abort();
	}
	t2 = plan_format(&p2);
	if (strcmp(t1, t2) != 0) {
		fprintf(stderr, "--args and inline differ:\n--- args\n%s--- inline\n%s", t1, t2);
		abort();
	}
	for (size_t i = 0; p1->warnings && p1->warnings[i]; i++)
		if (!p2.warnings || !p2.warnings[i] || strcmp(p1->warnings[i], p2.warnings[i]))
			abort();
	if (strv_length(p1->warnings) != strv_length(p2.warnings))
		abort();
	plan_free(&p2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_fds fds = { 0 };
	struct cli_io io = { .read_fd = fuzz_read_fd, .userdata = &fds, .envp = fuzz_env };
	const uint8_t *buf[FUZZ_MAX_BUFS];
	size_t len[FUZZ_MAX_BUFS];
	_cleanup_strv_free_ char **argv = NULL;
	struct nsrun_error err = { 0 };
	struct shape sh;
	struct plan plan;

	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	sh = (struct shape){ .n_bufs = 1 + data[0] % FUZZ_MAX_BUFS,
			     .between = data[0] & 0x04,
			     .command = data[0] & 0x08,
			     .selinux = data[0] & 0x10 };
	io.selinux_enabled = sh.selinux;
	sh.n_bufs = fuzz_split(data + 1, size - 1, "\n--\n", sh.n_bufs, buf, len);
	argv = args_argv(&sh, &fds, buf, len);
	if (cli_parse((int)strv_length(argv), argv, &io, &plan, &err) >= 0) {
		fuzz_round_trip(&plan, sh.selinux);
		if (reads_only_buffers(&fds))
			compare_inline(&sh, &plan, buf, len);
	} else if (!err.msg[0]) {
		abort(); /* every failure must explain itself */
	}
	fuzz_fds_close(&fds);
	plan_free(&plan);
	return 0;
}
