/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fuzz-common.h: what the fuzz targets share: the parse/print/parse round trip, memfds
 * holding fuzz data, and a reader that runs nsrun's real cli_read_fd_default() on those
 * memfds only (never on the fuzzer's own fds) while recording every read in order.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "plan-print.h"
#include "plan.h"

#define FUZZ_MAX_FDS 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The environment every target parses with. */
extern char *const fuzz_env[];

/* plan_format(parse(plan_to_argv(p1))) must equal plan_format(p1), and validation must
 * answer the same for both plans, as root and not; aborts otherwise. */
void fuzz_round_trip(const struct plan *p1, bool selinux_enabled);

/* A cli_io.read_fd answer: a NUL-terminated malloc'd copy of src[0..n), -EFBIG past max. */
int fuzz_give(const void *src, size_t n, size_t max, char **ret, size_t *len);

/* A memfd holding data (offset 0); aborts if it cannot be made. */
int fuzz_memfd(const void *data, size_t len);

/* The memfds a parse may read, and what it read, in order. */
struct fuzz_fds {
	int fd[FUZZ_MAX_FDS];
	size_t n;
	int reads[4 * FUZZ_MAX_FDS]; /* fds passed to the reader, in call order */
	size_t n_reads;
	bool overflow; /* more reads than fit in reads[] */
};

/* cli_io.read_fd: cli_read_fd_default() for an fd in the set (it reads to EOF and closes
 * it, so a second read gets EBADF as in nsrun), -EBADF for any other fd. */
int fuzz_read_fd(void *userdata, int fd, size_t max, char **ret, size_t *len);

/* Adds a memfd holding data to the set and returns its number. */
int fuzz_fds_add(struct fuzz_fds *f, const void *data, size_t len);

/* Closes the set's fds that no read consumed. */
void fuzz_fds_close(struct fuzz_fds *f);

/* Whether fd was passed to the reader. */
bool fuzz_fds_was_read(const struct fuzz_fds *f, int fd);

/* Splits data into at most max pieces at each occurrence of sep (the last piece takes
 * the rest); returns the number of pieces. */
size_t fuzz_split(const uint8_t *data, size_t size, const char *sep, size_t max,
		  const uint8_t **piece, size_t *len);
