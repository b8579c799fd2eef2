/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fuzz-common.c: the round trip and the memfd reader shared by the fuzz targets.
 * Anything unexpected aborts, which libFuzzer and the corpus replay report as a crash.
 */
#include "config.h"

#include "fuzz-common.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rules.h"
#include "util.h"

static char env_path[] = "PATH=/usr/bin:/bin", env_home[] = "HOME=/home/u",
	    env_lang[] = "LANG=C.UTF-8";
char *const fuzz_env[] = { env_path, env_home, env_lang, NULL };

int fuzz_give(const void *src, size_t n, size_t max, char **ret, size_t *len)
{
	if (n > max)
		return -EFBIG;
	*ret = xmalloc(n + 1);
	memcpy(*ret, src, n);
	(*ret)[n] = '\0';
	*len = n;
	return 0;
}

/* The second pass: plan_to_argv() names program i as fd PLAN_TO_ARGV_SECCOMP_FD_BASE + i. */
static int serve_progs(void *userdata, int fd, size_t max, char **ret, size_t *len)
{
	const struct plan *p = userdata;
	size_t i = (size_t)fd - PLAN_TO_ARGV_SECCOMP_FD_BASE;

	if (fd < PLAN_TO_ARGV_SECCOMP_FD_BASE || i >= p->seccomp.n_progs)
		return -EBADF;
	return fuzz_give(p->seccomp.progs[i].data, p->seccomp.progs[i].len, max, ret, len);
}

void fuzz_round_trip(const struct plan *p1, bool selinux_enabled)
{
	struct cli_io io2 = { .read_fd = serve_progs,
			      .userdata = (void *)p1,
			      .envp = fuzz_env,
			      .selinux_enabled = selinux_enabled };
	struct nsrun_error e1 = { 0 }, e2 = { 0 };
	_cleanup_free_ char *t1 = plan_format(p1), *t2 = NULL;
	_cleanup_strv_free_ char **argv2 = plan_to_argv(p1);
	struct plan p2;

	/* A plan read from --args may need more than a command line carries (bwrap's 9000). */
	if (strv_length(argv2) > PLAN_MAX_ARGS + 1)
		return;
	if (cli_parse((int)strv_length(argv2), argv2, &io2, &p2, &e2) < 0) {
		fprintf(stderr, "re-parse failed: %s\n%s", e2.msg, t1);
		abort();
	}
	t2 = plan_format(&p2);
	if (strcmp(t1, t2) != 0) {
		fprintf(stderr, "round trip mismatch:\n--- first\n%s--- second\n%s", t1, t2);
		abort();
	}
	for (int root = 0; root <= 1; root++) {
		const struct rules_ctx ctx = { .is_root = root };
		int v1 = rules_check(p1, &ctx, &e1), v2 = rules_check(&p2, &ctx, &e2);

		if (v1 != v2 || (v1 < 0 && strcmp(e1.msg, e2.msg) != 0)) {
			fprintf(stderr, "validation differs: '%s' vs '%s'\n", e1.msg, e2.msg);
			abort();
		}
	}
	plan_free(&p2);
}

int fuzz_memfd(const void *data, size_t len)
{
	int fd = memfd_create("nsrun-fuzz", MFD_CLOEXEC);

	if (fd < 0 || write_all(fd, data, len) < 0 || lseek(fd, 0, SEEK_SET) != 0) {
		perror("memfd");
		abort();
	}
	return fd;
}

static bool in_set(const struct fuzz_fds *f, int fd)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->fd[i] == fd)
			return true;
	return false;
}

int fuzz_read_fd(void *userdata, int fd, size_t max, char **ret, size_t *len)
{
	struct fuzz_fds *f = userdata;

	if (f->n_reads < ARRAY_SIZE(f->reads))
		f->reads[f->n_reads++] = fd;
	else
		f->overflow = true;
	/* Parsing opens no fd, so a consumed memfd's number is still free: the real
	 * reader then fails on it with EBADF, exactly as nsrun would. */
	if (!in_set(f, fd))
		return -EBADF;
	return cli_read_fd_default(NULL, fd, max, ret, len);
}

int fuzz_fds_add(struct fuzz_fds *f, const void *data, size_t len)
{
	if (f->n >= FUZZ_MAX_FDS)
		abort();
	f->fd[f->n] = fuzz_memfd(data, len);
	return f->fd[f->n++];
}

bool fuzz_fds_was_read(const struct fuzz_fds *f, int fd)
{
	for (size_t i = 0; i < f->n_reads; i++)
		if (f->reads[i] == fd)
			return true;
	return f->overflow;
}

void fuzz_fds_close(struct fuzz_fds *f)
{
	for (size_t i = 0; i < f->n; i++) {
		bool read = fuzz_fds_was_read(f, f->fd[i]);

		/* A read memfd must be closed (the reader owns it), an unread one open. */
		if ((fcntl(f->fd[i], F_GETFD) < 0) != read && !f->overflow) {
			fprintf(stderr, "fd %d: read %d but open %d\n", f->fd[i], read,
				fcntl(f->fd[i], F_GETFD) >= 0);
			abort();
		}
		if (!read)
			close(f->fd[i]);
	}
	f->n = 0;
}

size_t fuzz_split(const uint8_t *data, size_t size, const char *sep, size_t max,
		  const uint8_t **piece, size_t *len)
{
	size_t n = 0, seplen = strlen(sep);

	while (n + 1 < max) {
		const uint8_t *hit = memmem(data, size, sep, seplen);

		if (!hit)
			break;
		piece[n] = data;
		len[n++] = (size_t)(hit - data);
		size -= (size_t)(hit - data) + seplen;
		data = hit + seplen;
	}
	piece[n] = data;
	len[n++] = size;
	return n;
}
