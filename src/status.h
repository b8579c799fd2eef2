/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * status.h: --info-fd and --json-status-fd. The text is built by pure
 * formatters (unit-tested against bwrap's exact key names and layout) and
 * written with one write per record.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cgroup.h"
#include "error.h"
#include "fallback.h"
#include "landlock.h"

#define STATUS_MAX_NS 8

struct status_ns {
	const char *name; /* "cgroup", "ipc", "mnt", "net", "pid", "uts" */
	uint64_t ino;
};

struct status_info {
	pid_t child_pid;
	struct status_ns ns[STATUS_MAX_NS]; /* in bwrap's order */
	size_t n_ns;
	const struct landlock_desc *landlock; /* NULL: no Landlock fields */
	const char *cgroup;		      /* the sandbox's cgroup, NULL: no limit fields */
	const struct limits_config *limits;
	const struct fallback_report *fallback; /* NULL: no --fallback fields */
	const struct plan_bridge *bridges;	/* --bridge, n_bridges of them */
	size_t n_bridges;
};

/* In the sandbox's first process, before it waits for the monitor: the namespaces it
 * was created in (CLONE_NEW* flags), from PROC_FD's thread-self/ns/, written to FD. The
 * monitor cannot always read them from /proc/PID/ns/: a child that holds nsrun's
 * AppArmor grant is not dumpable (apparmor_drop_grant). */
int status_report_ns(int proc_fd, unsigned long clone_flags, int fd, struct nsrun_error *err);

/* The monitor's side: fills ns[] from that report on FD, child-pid from PID. */
int status_collect(pid_t pid, unsigned long clone_flags, int fd, struct status_info *info,
		   struct nsrun_error *err);

/* Pure formatters; return a malloc'd string. */
char *status_format_info(const struct status_info *info); /* pretty, multi-line */
char *status_format_json(const struct status_info *info); /* one line + '\n' */
char *status_format_exit(int exit_code);		  /* { "exit-code": N } + '\n' */
/* With the supervision options: { "command-pid": N }, and the final document
 * { "exit-code": N, "exit-status": S | "exit-signal": SIG, "timed-out": BOOL }. */
char *status_format_command(pid_t command_pid);
char *status_format_end(int exit_code, int wait_status, bool timed_out,
			const struct cgroup_usage *u);

/* Write the formatted record to fd. */
int status_write_info(int fd, const struct status_info *info, struct nsrun_error *err);
int status_write_json(int fd, const struct status_info *info, struct nsrun_error *err);
int status_write_exit(int fd, int exit_code, struct nsrun_error *err);
int status_write_command(int fd, pid_t command_pid, struct nsrun_error *err);
int status_write_end(int fd, int exit_code, int wait_status, bool timed_out,
		     const struct cgroup_usage *u, struct nsrun_error *err);

/* doc (a document from the formatters above, taken) with one more field, `"key": json`,
 * before its closing brace (malloc'd). Pure. */
char *status_with_field(char *doc, const char *key, const char *json);
/* Writes status_with_field(doc, key, json) (--report-fd's summary in the last document). */
int status_write_with(int fd, char *doc, const char *key, const char *json,
		      struct nsrun_error *err);
