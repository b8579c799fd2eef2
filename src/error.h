/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * error.h: the error contract. Functions return 0 (or a non-negative value) on
 * success and -errno on failure; a failure the user can see also fills a
 * fixed-size struct nsrun_error (no heap, so it can cross the error pipe as-is).
 * Only main.c, setup.c's top level and reaper.c print.
 */
#pragma once

#include <stdbool.h>

#include "macros.h"

/* Room for bwrap's longest messages whole: two paths of PATH_MAX and the words around them.
 * At this size a local struct would touch three stack pages in every run (and push every
 * frame below it deeper), which shows in the peak RSS: each process's top-level functions,
 * which run once per process, keep theirs static instead, in .bss, paid for only when a
 * message is written. */
#define NSRUN_ERROR_MSG_MAX (2 * 4096 + 512)

struct nsrun_error {
	int code;    /* errno value, 0 when the message is complete without strerror */
	int status;  /* exit status to use; 0 means the default, 1 */
	int refused; /* enum nsrun_step: the host refused this step of the sandbox, or 0 */
	char msg[NSRUN_ERROR_MSG_MAX];
};

/* The steps of a sandbox that a host may refuse (a container's seccomp profile, a
 * disabled or restricted user namespace, a masked /proc, a netlink filter), as opposed to
 * a mistake in the arguments: what --fallback can answer by giving something up. */
enum nsrun_step {
	NSRUN_STEP_NONE,
	NSRUN_STEP_USERNS,     /* creating the user namespace (clone) */
	NSRUN_STEP_NAMESPACES, /* creating the other namespaces, without a user namespace */
	NSRUN_STEP_MAPS,       /* writing the ID maps */
	NSRUN_STEP_MOUNT,      /* the first mount in the new namespace (/ made a slave) */
	NSRUN_STEP_PROC,       /* mounting a fresh procfs */
	NSRUN_STEP_NET,	       /* bringing up lo in the new network namespace */
	NSRUN_STEP_SYS,	       /* mounting a fresh sysfs (--sys) */
	NSRUN_STEP_MAX
};

/* nsrun's own exit statuses; the command's pass through unchanged. One rule decides
 * between the first two: what is wrong in the arguments themselves is 1, before anything
 * runs; what the machine cannot do at run time for a boundary or a limit that was asked
 * for is 126, and the command never runs (fail-closed). */
enum nsrun_exit {
	NSRUN_EXIT_FAILURE = 1,	      /* usage errors and setup failures, as bwrap */
	NSRUN_EXIT_TIMEOUT = 124,     /* --timeout ended the command, as timeout(1) */
	NSRUN_EXIT_FAIL_CLOSED = 126, /* a boundary or limit asked for cannot be built */
	NSRUN_EXIT_CANNOT_RUN = 126,  /* the command was found but cannot run, as env(1) */
	NSRUN_EXIT_NOT_FOUND = 127,   /* the command was not found, as env(1) */
};

/* Fills err with "FMT: strerror(code)" (no suffix when code is 0) and returns -code
 * (or -EINVAL when code is 0). err may be NULL. */
int error_set(struct nsrun_error *err, int code, const char *fmt, ...) _printf_(3, 4);

/* Like error_set, but the message carries no strerror suffix even when code != 0. */
int error_set_plain(struct nsrun_error *err, int code, const char *fmt, ...) _printf_(3, 4);

/* Appends FMT to err's message (err may be NULL), cut where the message ends. The
 * arguments may point into err->msg itself. */
void error_append(struct nsrun_error *err, const char *fmt, ...) _printf_(2, 3);

/* Marks err (may be NULL) as a fail-closed refusal, NSRUN_EXIT_FAIL_CLOSED, when r < 0;
 * returns r,
 * so that `return error_fail_closed(err, error_set(err, ...));` reads as one step. */
int error_fail_closed(struct nsrun_error *err, int r);

/* Marks err (may be NULL) as the host's refusal of STEP when r < 0; returns r, as
 * error_fail_closed does. */
int error_refused(struct nsrun_error *err, enum nsrun_step step, int r);

/* "PREFIX: text" warnings ("<4>" under --level-prefix). */
void log_warn(const char *fmt, ...) _printf_(1, 2);

/* The trace of NSRUN_DEBUG: "PREFIX[PID]: text" ("<7>" under --level-prefix), one line
 * per step, from whichever process takes it; an exception to "only the top levels print",
 * as it changes no outcome. log_set_debug reads ENVP once, in main, before any other
 * process exists; when it is off a call costs one test, and callers that must build their
 * text first ask log_debug_on(). */
void log_set_debug(char *const *envp);
bool log_debug_on(void);
void log_debug(const char *fmt, ...) _printf_(1, 2);

/* Program name used as the message prefix: "bwrap" when invoked as bwrap, else "nsrun". */
void log_set_program(const char *argv0);
const char *log_program(void);
void log_set_level_prefix(bool on);

/* Prints an error and exits 1 (or err->status); for the few places that own the exit. */
_noreturn_ void error_die(const struct nsrun_error *err);
