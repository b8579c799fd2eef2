/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * util.h: allocation that aborts on OOM, string vectors, whole-fd I/O and
 * strict number parsing. Nothing here knows about sandboxes.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "macros.h"

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* Grows *array (of elem-sized items, count *n) by one slot and returns the new slot, zeroed.
 * The array must only ever be grown by xappend (a caller may lower *n). */
void *xappend(void *array_ptr, size_t *n, size_t elem);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) _printf_(1, 2);
/* The strings up to the NULL, joined into a new string. The setup side (pid 1) builds
 * its strings with these instead of printf: see HACKING, "Start-up costs". */
char *xconcat_(const char *first, ...) __attribute__((sentinel));
#define xconcat(...) xconcat_(__VA_ARGS__, (const char *)NULL)
/* The first la bytes of a, '/', then b. */
char *xjoin_n(const char *a, size_t la, const char *b);
/* v's digits in base 8, 10 or 16, in buf; returns a pointer into buf. */
#define NUM_BUF_SIZE 24
const char *num_str(char buf[static NUM_BUF_SIZE], unsigned long long v, unsigned base);

/* "/proc/self/fd/N": the name by which path-taking syscalls such as mount(2) reach fd. */
#define FD_PATH_SIZE 64
void fd_proc_path(char buf[static FD_PATH_SIZE], int fd);
/* The path of fd as the current root sees it (its /proc/self/fd link): -errno, or 0
 * and *ret, which the caller frees. */
int fd_real_path(int fd, char **ret);
/* Closes every fd >= 3 that keep does not name (negative entries are ignored; keep is
 * sorted in place): close_range(2) over the gaps; before Linux 5.9 the fds /proc/self/fd
 * lists, or without /proc every fd below 65536. */
void fd_close_all_except(int *keep, size_t n);

/* CLOCK_MONOTONIC in milliseconds, for deadlines. */
uint64_t now_ms(void);

/* NULL-terminated string vectors. */
size_t strv_length(char *const *v);
char **strv_copy(char *const *v);
void strv_push(char ***v, const char *s); /* copies s */
/* strv_push for a vector only ever grown by this, whose length the caller keeps in *n:
 * amortised O(1), for lists that reach thousands of entries. */
void strv_append(char ***v, size_t *n, const char *s);
void strv_free(char **v);
char *strv_join(char *const *v, const char *sep); /* "" for an empty or NULL v */
static inline void strv_freep(char ***v)
{
	strv_free(*v);
}
#define _cleanup_strv_free_ _cleanup_(strv_freep)

/* Environment vectors ("NAME=value"). */
const char *env_get(char *const *envp, const char *name);
void env_set(char ***envp, const char *name, const char *value);
void env_unset(char ***envp, const char *name);

/* Reads fd to EOF into a malloc'd buffer (NUL-terminated, *len excludes the NUL).
 * Fails with -EFBIG past max bytes. Returns 0 or -errno. */
int read_all(int fd, size_t max, char **ret, size_t *len);
/* Reads up to len bytes, retrying on EINTR and short reads, until len or EOF.
 * Returns the number of bytes read (< len at EOF) or -errno. */
ssize_t read_full(int fd, void *buf, size_t len);
/* read_full with rd(ctx, fd, buf, len) as the single read (-1/errno on failure). */
ssize_t read_full_with(int fd, void *buf, size_t len,
		       ssize_t (*rd)(void *ctx, int fd, void *buf, size_t len), void *ctx);
/* Two close-on-exec pipes, or neither: 0, or -errno with nothing left open. */
int pipe2_pair(int a[2], int b[2]);
/* One byte of a handshake pipe: the byte (0-255), or -1 at EOF or on error. */
int read_byte(int fd);
/* Writes all of buf, retrying on EINTR and short writes. Returns 0 or -errno. */
int write_all(int fd, const void *buf, size_t len);

/* S as the content of a JSON string ('"', '\\' and control characters escaped), malloc'd. */
char *json_escape(const char *s);

/* Strict parsers: the whole string must be consumed. Return 0 or -EINVAL/-ERANGE. */

int parse_fd(const char *s, int *ret);		       /* decimal, >= 0, <= INT_MAX */
int parse_octal_mode(const char *s, mode_t *ret);      /* octal, <= 07777 */
int parse_u64(const char *s, int base, uint64_t *ret); /* strtoull semantics, no sign */

bool str_has_prefix(const char *s, const char *prefix);
/* Whether absolute path equals top or lies below it; "/" contains every absolute path.
 * Textual: no normalisation of "." or "..". */
bool path_is_below(const char *path, const char *top);
/* Joins a and b with exactly one '/' between them. */
char *path_join(const char *a, const char *b);
