/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * error.c: formatting and printing of errors and warnings. The prefix follows
 * the name nsrun was invoked under so that scripts matching bwrap's messages
 * keep working through a `bwrap` symlink.
 */
#include "config.h"

#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *program = "nsrun";
static bool level_prefix;
static bool debug_on;

void log_set_program(const char *argv0)
{
	const char *base;

	if (!argv0)
		return;
	base = strrchr(argv0, '/');
	base = base ? base + 1 : argv0;
	program = strcmp(base, "bwrap") == 0 ? "bwrap" : "nsrun";
}

const char *log_program(void)
{
	return program;
}

void log_set_level_prefix(bool on)
{
	level_prefix = on;
}

void log_set_debug(char *const *envp)
{
	static const char key[] = "NSRUN_DEBUG=";

	for (size_t i = 0; envp && envp[i]; i++)
		if (strncmp(envp[i], key, sizeof(key) - 1) == 0)
			debug_on = envp[i][sizeof(key) - 1] != '\0';
}

bool log_debug_on(void)
{
	return debug_on;
}

/* A message too long for the struct (an overlay's many long layers) keeps its end: what
 * fits, "...", then ": strerror", so the reason is never what is cut. */
static void error_suffix(struct nsrun_error *err, size_t len, const char *suffix)
{
	size_t room = sizeof(err->msg), need = strlen(suffix) + 3;

	if (len + strlen(suffix) >= room) {
		len = room - 1 - need;
		memcpy(err->msg + len, "...", 3);
		len += 3;
	}
	memcpy(err->msg + len, suffix, strlen(suffix) + 1);
}

static _printf_(4, 0) int error_vset(struct nsrun_error *err, int code, bool with_strerror,
				     const char *fmt, va_list ap)
{
	int n;

	if (err) {
		err->code = code;
		err->refused = NSRUN_STEP_NONE; /* a refusal is marked after its message */
		n = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		if (n < 0)
			n = 0;
		if (with_strerror && code != 0) {
			char suffix[128];

			snprintf(suffix, sizeof(suffix), ": %s", strerror(code));
			error_suffix(err, (size_t)n, suffix);
		} else if ((size_t)n >= sizeof(err->msg)) {
			error_suffix(err, (size_t)n, "");
		}
	}
	return code > 0 ? -code : -EINVAL;
}

int error_set(struct nsrun_error *err, int code, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = error_vset(err, code, true, fmt, ap);
	va_end(ap);
	return r;
}

int error_set_plain(struct nsrun_error *err, int code, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = error_vset(err, code, false, fmt, ap);
	va_end(ap);
	return r;
}

static _printf_(2, 0) void log_vprint(int level, const char *fmt, va_list ap)
{
	char line[NSRUN_ERROR_MSG_MAX + 64];
	int n = 0;

	if (level_prefix)
		n = snprintf(line, sizeof(line), "<%d>", level);
	/* Trace lines come from several processes: each says which. */
	if (level == 7)
		n += snprintf(line + n, sizeof(line) - (size_t)n, "%s[%d]: ", program,
			      (int)getpid());
	else
		n += snprintf(line + n, sizeof(line) - (size_t)n, "%s: ", program);
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	/* One write so that lines from concurrent processes do not interleave. */
	fprintf(stderr, "%s\n", line);
}

void log_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vprint(4, fmt, ap);
	va_end(ap);
}

static _printf_(1, 2) void log_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vprint(3, fmt, ap);
	va_end(ap);
}

void log_debug(const char *fmt, ...)
{
	va_list ap;

	if (!debug_on)
		return;
	va_start(ap, fmt);
	log_vprint(7, fmt, ap);
	va_end(ap);
}

void error_append(struct nsrun_error *err, const char *fmt, ...)
{
	/* Formatted apart first: an argument may be part of the message it extends. */
	char more[NSRUN_ERROR_MSG_MAX];
	size_t used;
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(more, sizeof(more), fmt, ap);
	va_end(ap);
	used = strlen(err->msg);
	snprintf(err->msg + used, sizeof(err->msg) - used, "%s", more);
}

int error_fail_closed(struct nsrun_error *err, int r)
{
	if (err && r < 0)
		err->status = NSRUN_EXIT_FAIL_CLOSED;
	return r;
}

int error_refused(struct nsrun_error *err, enum nsrun_step step, int r)
{
	if (err && r < 0)
		err->refused = (int)step;
	return r;
}

/* Prints "PREFIX: msg" (with "<3>" under --level-prefix) to stderr. */
static void error_print(const struct nsrun_error *err)
{
	log_error("%s", err->msg[0] ? err->msg : "unknown error");
}

void error_die(const struct nsrun_error *err)
{
	error_print(err);
	fflush(stderr);
	_exit(err->status ? err->status : 1);
}
