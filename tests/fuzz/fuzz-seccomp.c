/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fuzz-seccomp.c: libFuzzer target for --seccomp and --add-seccomp-fd. Input: a shape
 * byte (how many options, 1-4, and whether a COMMAND follows), an option byte (bit i:
 * option i is --seccomp, else --add-seccomp-fd), then the programs, each but the last
 * prefixed by a 16-bit little-endian length. Each program is a memfd read by nsrun's
 * real reader. The parse is checked against a model of bwrap's rules (the two options
 * exclude each other, --seccomp reads only its last fd and only after parsing,
 * --add-seccomp-fd reads at once, a length must be a non-zero multiple of 8), down to
 * which fds were read and the bytes kept. Then seccomp_prog_fprog(), everything nsrun
 * does to a program before prctl(), must build a sock_fprog of exactly the program, or
 * refuse it when over BPF_MAXINSNS. Nothing is loaded: the kernel checks the rest.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fuzz-common.h"
#include "plan.h"
#include "seccomp.h"
#include "util.h"

#define FUZZ_MAX_INPUT (256u << 10)
#define FUZZ_MAX_PROGS 4

static const char invalid_len[] = "Invalid seccomp data, must be multiple of 8";

struct input {
	size_t n;
	bool is_seccomp[FUZZ_MAX_PROGS];
	const uint8_t *prog[FUZZ_MAX_PROGS];
	size_t len[FUZZ_MAX_PROGS];
	int fd[FUZZ_MAX_PROGS];
	bool command;
};

/* What nsrun must do, as a list of expected reads, programs kept and the error. */
struct expect {
	int reads[FUZZ_MAX_PROGS];
	size_t n_reads;
	size_t kept[FUZZ_MAX_PROGS]; /* indexes into input */
	size_t n_kept;
	bool from_seccomp_opt;
	const char *error;
};

/* An empty program is valid here: bwrap's prctl refuses it in the sandbox. */
static bool bad_len(size_t len)
{
	return len % 8 != 0;
}

static void model(const struct input *in, struct expect *ex)
{
	ssize_t last = -1;

	*ex = (struct expect){ 0 };
	for (size_t i = 0; i < in->n; i++) {
		if (in->is_seccomp[i]) {
			if (ex->n_kept > 0) {
				ex->error = "--seccomp cannot be combined with --add-seccomp-fd";
				return;
			}
			last = (ssize_t)i;
			continue;
		}
		if (last >= 0) {
			ex->error = "--add-seccomp-fd cannot be combined with --seccomp";
			return;
		}
		ex->reads[ex->n_reads++] = in->fd[i];
		if (bad_len(in->len[i])) {
			ex->error = invalid_len;
			return;
		}
		ex->kept[ex->n_kept++] = i;
	}
	if (last < 0)
		return;
	ex->reads[ex->n_reads++] = in->fd[last];
	if (bad_len(in->len[last])) {
		ex->error = invalid_len;
		return;
	}
	ex->kept[ex->n_kept++] = (size_t)last;
	ex->from_seccomp_opt = true;
}

static void fail(const char *what)
{
	fprintf(stderr, "fuzz-seccomp: %s\n", what);
	abort();
}

static void check_parse(const struct input *in, const struct fuzz_fds *fds, int r,
			const struct nsrun_error *err, const struct plan *p)
{
	struct expect ex;

	model(in, &ex);
	if (fds->n_reads != ex.n_reads || memcmp(fds->reads, ex.reads, sizeof(int) * ex.n_reads))
		fail("the fds read are not the ones bwrap reads");
	if (ex.error) {
		if (r >= 0 || strcmp(err->msg, ex.error) != 0)
			fail(r >= 0 ? "accepted" : err->msg);
		return;
	}
	if (r < 0)
		fail(err->msg);
	if (p->seccomp.n_progs != ex.n_kept || p->seccomp.from_seccomp_opt != ex.from_seccomp_opt)
		fail("wrong programs kept");
	for (size_t i = 0; i < ex.n_kept; i++) {
		const struct seccomp_prog *sp = &p->seccomp.progs[i];

		if (sp->len != in->len[ex.kept[i]] ||
		    memcmp(sp->data, in->prog[ex.kept[i]], sp->len))
			fail("a program's bytes changed");
	}
}

static void check_fprog(const struct plan *p)
{
	for (size_t i = 0; i < p->seccomp.n_progs; i++) {
		const struct seccomp_prog *sp = &p->seccomp.progs[i];
		struct nsrun_error err = { 0 };
		struct sock_fprog fp = { 0 };
		int r = seccomp_prog_fprog(sp, &fp, &err);

		if (sp->len / 8 > BPF_MAXINSNS) {
			if (r >= 0 || !err.msg[0])
				fail("a program over BPF_MAXINSNS accepted");
			continue;
		}
		if (r < 0 || (size_t)fp.len * 8 != sp->len || (void *)fp.filter != (void *)sp->data)
			fail("sock_fprog is not the program");
	}
}

static size_t read_input(const uint8_t *data, size_t size, struct input *in)
{
	uint8_t opts = data[1];

	*in = (struct input){ .n = 1 + data[0] % FUZZ_MAX_PROGS, .command = data[0] & 0x80 };
	data += 2;
	size -= 2;
	for (size_t i = 0; i < in->n; i++) {
		size_t len = size;

		in->is_seccomp[i] = opts & (1u << i);
		if (i + 1 < in->n && size >= 2) {
			len = (size_t)data[0] | (size_t)data[1] << 8;
			data += 2;
			size -= 2;
			len = len < size ? len : size;
		}
		in->prog[i] = data;
		in->len[i] = len;
		data += len;
		size -= len;
	}
	return in->n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_fds fds = { 0 };
	struct cli_io io = { .read_fd = fuzz_read_fd, .userdata = &fds, .envp = fuzz_env };
	_cleanup_strv_free_ char **argv = NULL;
	struct nsrun_error err = { 0 };
	struct input in;
	struct plan plan;
	int r;

	if (size < 2 || size > FUZZ_MAX_INPUT)
		return 0;
	read_input(data, size, &in);
	strv_push(&argv, "nsrun");
	for (size_t i = 0; i < in.n; i++) {
		_cleanup_free_ char *num = NULL;

		in.fd[i] = fuzz_fds_add(&fds, in.prog[i], in.len[i]);
		num = xasprintf("%d", in.fd[i]);
		strv_push(&argv, in.is_seccomp[i] ? "--seccomp" : "--add-seccomp-fd");
		strv_push(&argv, num);
	}
	if (in.command)
		strv_push(&argv, "true");
	r = cli_parse((int)strv_length(argv), argv, &io, &plan, &err);
	check_parse(&in, &fds, r, &err, &plan);
	if (r >= 0) {
		check_fprog(&plan);
		fuzz_round_trip(&plan, false);
	}
	fuzz_fds_close(&fds);
	plan_free(&plan);
	return 0;
}
