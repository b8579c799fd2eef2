/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * macros.h: the few attributes and helpers used everywhere. Cleanup attributes
 * free or close on scope exit; TAKE_* hands ownership over explicitly.
 */
#pragma once

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#define _noreturn_ __attribute__((noreturn))
#define _printf_(a, b) __attribute__((format(printf, a, b)))
#define _cleanup_(f) __attribute__((cleanup(f)))
/* A statement: both gcc and clang check -Wimplicit-fallthrough against it. */
#define _fallthrough_ __attribute__((fallthrough))

/* AddressSanitizer, under gcc or clang. */
#if defined(__SANITIZE_ADDRESS__)
#define NSRUN_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NSRUN_ASAN 1
#endif
#endif
/* Any sanitizer (configure sets it for --enable-sanitizers=...; ASan is seen here too). */
#if defined(NSRUN_ASAN) && !defined(NSRUN_SANITIZE)
#define NSRUN_SANITIZE 1
#endif

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static inline void freep(void *p)
{
	free(*(void **)p);
}

static inline void closep(int *fd)
{
	if (*fd >= 0) {
		int saved = errno;
		close(*fd);
		errno = saved;
	}
}

#define _cleanup_free_ _cleanup_(freep)
#define _cleanup_close_ _cleanup_(closep)

#define TAKE_PTR(p)                      \
	({                               \
		__typeof__(p) _tp = (p); \
		(p) = NULL;              \
		_tp;                     \
	})

#define TAKE_FD(fd)             \
	({                      \
		int _tf = (fd); \
		(fd) = -1;      \
		_tf;            \
	})
