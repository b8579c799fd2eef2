/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * util.c: see util.h. Out-of-memory aborts with bwrap's plain "Out of memory".
 */
#include "config.h"

#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "syscall.h"

static _noreturn_ void oom(void)
{
	static const char msg[] = "Out of memory\n";

	(void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *xappend(void *array_ptr, size_t *n, size_t elem)
{
	void **array = array_ptr;
	char *slot;

	if (*n > SIZE_MAX / elem / 2 - 1)
		oom();
	/* Grown to the next power of two when the length reaches one, so a vector of
	 * many thousand entries (a policy's ops) costs linear time, not a copy per entry.
	 * The room is implied by the length: only xappend may grow it. */
	if (!*array || !(*n & (*n - 1)))
		*array = xrealloc(*array, (*n ? 2 * *n : 1) * elem);
	slot = (char *)*array + *n * elem;
	memset(slot, 0, elem);
	(*n)++;
	return slot;
}

char *xstrdup(const char *s)
{
	char *p;

	if (!s)
		return NULL;
	p = strdup(s);
	if (!p)
		oom();
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (r < 0)
		oom();
	return p;
}

char *xconcat_(const char *first, ...)
{
	va_list ap;
	size_t len = 0;
	char *r, *p;

	va_start(ap, first);
	for (const char *s = first; s; s = va_arg(ap, const char *))
		len += strlen(s);
	va_end(ap);
	p = r = xmalloc(len + 1);
	va_start(ap, first);
	for (const char *s = first; s; s = va_arg(ap, const char *))
		p = stpcpy(p, s);
	va_end(ap);
	return r;
}

char *xjoin_n(const char *a, size_t la, const char *b)
{
	size_t lb = strlen(b);
	char *r = xmalloc(la + lb + 2);

	memcpy(r, a, la);
	r[la] = '/';
	memcpy(r + la + 1, b, lb + 1);
	return r;
}

const char *num_str(char buf[static NUM_BUF_SIZE], unsigned long long v, unsigned base)
{
	char *p = buf + NUM_BUF_SIZE - 1;

	*p = '\0';
	do
		*--p = "0123456789abcdef"[v % base];
	while ((v /= base) > 0);
	return p;
}

char *strv_join(char *const *v, const char *sep)
{
	size_t len = 1, seplen = strlen(sep);
	char *s, *p;

	for (size_t i = 0; v && v[i]; i++)
		len += strlen(v[i]) + (i ? seplen : 0);
	p = s = xmalloc(len);
	for (size_t i = 0; v && v[i]; i++)
		p = stpcpy(i ? stpcpy(p, sep) : p, v[i]);
	*p = '\0';
	return s;
}

size_t strv_length(char *const *v)
{
	size_t n = 0;

	while (v && v[n])
		n++;
	return n;
}

char **strv_copy(char *const *v)
{
	size_t n = strv_length(v);
	char **c = xcalloc(n + 1, sizeof(char *));

	for (size_t i = 0; i < n; i++)
		c[i] = xstrdup(v[i]);
	return c;
}

void strv_push(char ***v, const char *s)
{
	size_t n = strv_length(*v);

	*v = xrealloc(*v, (n + 2) * sizeof(char *));
	(*v)[n] = xstrdup(s);
	(*v)[n + 1] = NULL;
}

void strv_append(char ***v, size_t *n, const char *s)
{
	/* The room is implied by the length: the next power of two above it. */
	size_t used = *n + 1;

	if (!*v || !(used & (used - 1)))
		*v = xrealloc(*v, 2 * used * sizeof(char *));
	(*v)[*n] = xstrdup(s);
	(*v)[++*n] = NULL;
}

void strv_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

static ssize_t env_find(char *const *envp, const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; envp && envp[i]; i++)
		if (strncmp(envp[i], name, len) == 0 && envp[i][len] == '=')
			return (ssize_t)i;
	return -1;
}

const char *env_get(char *const *envp, const char *name)
{
	ssize_t i = env_find(envp, name);

	return i < 0 ? NULL : envp[i] + strlen(name) + 1;
}

void env_set(char ***envp, const char *name, const char *value)
{
	ssize_t i = env_find(*envp, name);
	char *entry = xconcat(name, "=", value);

	if (i >= 0) {
		free((*envp)[i]);
		(*envp)[i] = entry;
		return;
	}
	strv_push(envp, entry);
	free(entry);
}

void env_unset(char ***envp, const char *name)
{
	ssize_t i = env_find(*envp, name);
	size_t n;

	if (i < 0)
		return;
	n = strv_length(*envp);
	free((*envp)[i]);
	memmove(&(*envp)[i], &(*envp)[i + 1], (n - (size_t)i) * sizeof(char *));
}

int read_all(int fd, size_t max, char **ret, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = xmalloc(cap);

	for (;;) {
		ssize_t r;

		if (n + 1 >= cap) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			free(buf);
			return -e;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max) {
			free(buf);
			return -EFBIG;
		}
	}
	buf[n] = '\0';
	*ret = buf;
	if (len)
		*len = n;
	return 0;
}

static ssize_t plain_read(void *ctx, int fd, void *buf, size_t len)
{
	(void)ctx;
	return read(fd, buf, len);
}

ssize_t read_full_with(int fd, void *buf, size_t len,
		       ssize_t (*rd)(void *ctx, int fd, void *buf, size_t len), void *ctx)
{
	char *p = buf;
	size_t total = 0;

	while (total < len) {
		ssize_t r = rd(ctx, fd, p + total, len - total);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		total += (size_t)r;
	}
	return (ssize_t)total;
}

ssize_t read_full(int fd, void *buf, size_t len)
{
	return read_full_with(fd, buf, len, plain_read, NULL);
}

int pipe2_pair(int a[2], int b[2])
{
	int e;

	if (pipe2(a, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(b, O_CLOEXEC) == 0)
		return 0;
	e = errno;
	close(a[0]);
	close(a[1]);
	return -e;
}

int read_byte(int fd)
{
	unsigned char c;

	return read_full(fd, &c, 1) == 1 ? c : -1;
}

int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t r = write(fd, p, len);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += r;
		len -= (size_t)r;
	}
	return 0;
}

int parse_fd(const char *s, int *ret)
{
	char *end;
	long v;

	if (!s || !*s || isspace((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 0 || v > INT_MAX)
		return -EINVAL;
	*ret = (int)v;
	return 0;
}

int parse_octal_mode(const char *s, mode_t *ret)
{
	char *end;
	unsigned long v;

	if (!s || !*s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 8);
	if (errno || *end || v > 07777)
		return -EINVAL;
	*ret = (mode_t)v;
	return 0;
}

int parse_u64(const char *s, int base, uint64_t *ret)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno == ERANGE)
		return -ERANGE;
	if (errno || *end)
		return -EINVAL;
	*ret = v;
	return 0;
}

bool str_has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool path_is_below(const char *path, const char *top)
{
	size_t n = strlen(top);

	if (strcmp(top, "/") == 0)
		return path[0] == '/';
	return strncmp(path, top, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

char *path_join(const char *a, const char *b)
{
	size_t la = strlen(a);

	while (la > 0 && a[la - 1] == '/')
		la--;
	while (*b == '/')
		b++;
	return xjoin_n(a, la, b);
}

void fd_proc_path(char buf[static FD_PATH_SIZE], int fd)
{
	char num[NUM_BUF_SIZE];

	stpcpy(stpcpy(buf, "/proc/self/fd/"), num_str(num, (unsigned)fd, 10));
}

int fd_real_path(int fd, char **ret)
{
	char link[FD_PATH_SIZE], buf[PATH_MAX];
	ssize_t n;

	fd_proc_path(link, fd);
	n = readlink(link, buf, sizeof(buf) - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	*ret = xstrdup(buf);
	return 0;
}

uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* An insertion sort: a handful of fds, and no cold qsort pages in pid 1. */
static void sort_fds(int *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		int x = v[i];
		size_t j = i;

		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static bool fd_kept(const int *keep, size_t n, int fd)
{
	for (size_t i = 0; i < n; i++)
		if (keep[i] == fd)
			return true;
	return false;
}

/* Where close_range(2) is missing (before Linux 5.9) or refused: every number a process
 * can hold, never the fds /proc lists. In pid 1 that is the sandbox's /proc, which the
 * plan or the command may have shaped (a plain directory lists nothing), and what pid 1
 * kept the command could open through /proc/1/fd: the host's /proc among them. */
static void close_fds_slowly(const int *keep, size_t n)
{
	struct rlimit rl;
	int max = 65536;

	/* No process holds an fd at or above its hard limit, whatever the soft one is now;
	 * fs.nr_open (1M by default) caps that, and so does this loop, which runs only on
	 * kernels older than 5.9 or where a policy refuses close_range. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_max > (rlim_t)max)
		max = rl.rlim_max >= (rlim_t)(1 << 20) ? 1 << 20 : (int)rl.rlim_max;
	for (int fd = 3; fd < max; fd++)
		if (!fd_kept(keep, n, fd))
			close(fd);
}

void fd_close_all_except(int *keep, size_t n)
{
	unsigned int from = 3;

	sort_fds(keep, n);
	for (size_t i = 0; i <= n; i++) {
		unsigned int to = i < n ? (unsigned int)keep[i] : ~0u;

		if (i < n && (keep[i] < 3 || (unsigned int)keep[i] < from))
			continue;
		if (to > from && sys_close_range(from, to - 1, 0) < 0) {
			close_fds_slowly(keep, n);
			return;
		}
		if (i < n)
			from = to + 1;
	}
}

/* The length of the UTF-8 sequence at p, or 0 where it is not one (JSON text must be):
 * no overlong forms, no UTF-16 surrogates, nothing past U+10FFFF (RFC 3629's table). */
static size_t utf8_len(const unsigned char *p)
{
	size_t n = *p >= 0xc2 && *p <= 0xdf ? 2 :
		   *p >= 0xe0 && *p <= 0xef ? 3 :
		   *p >= 0xf0 && *p <= 0xf4 ? 4 :
					      0;
	/* the second byte's range where the first byte narrows it */
	unsigned lo = *p == 0xe0 ? 0xa0 : *p == 0xf0 ? 0x90 : 0x80;
	unsigned hi = *p == 0xed ? 0x9f : *p == 0xf4 ? 0x8f : 0xbf;

	if (n && (p[1] < lo || p[1] > hi))
		return 0;
	/* A continuation byte is never NUL: the string's end stops the loop. */
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

char *json_escape(const char *s)
{
	char *out = xmalloc(strlen(s) * 6 + 1), *o = out;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		size_t n;

		if (*p == '"' || *p == '\\') {
			o += sprintf(o, "\\%c", *p);
		} else if (*p < 0x20) {
			o += sprintf(o, "\\u%04x", *p);
		} else if (*p < 0x80) {
			*o++ = (char)*p;
		} else if ((n = utf8_len(p)) > 0) {
			memcpy(o, p, n);
			o += n;
			p += n - 1;
		} else {
			/* A path is bytes: one that is no UTF-8 shows as U+FFFD. */
			o += sprintf(o, "\\ufffd");
		}
	}
	*o = '\0';
	return out;
}
