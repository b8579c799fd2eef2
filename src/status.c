/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * status.c: --info-fd (pretty JSON, written once) and --json-status-fd (JSON
 * lines: the child record, then the exit code if the payload ran). Key names,
 * order and spacing match bwrap byte for byte; the Landlock keys are nsrun's, and so
 * are command-pid and the final document's extra keys, written only with the
 * supervision options.
 */
#include "config.h"

#include "status.h"

#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "util.h"

/* bwrap's order; the user namespace is not reported. The time namespace is nsrun's
 * (--unshare-time), after bwrap's. */
static const struct {
	const char *name;
	unsigned long flag;
} ns_table[] = {
	{ "cgroup", CLONE_NEWCGROUP }, { "ipc", CLONE_NEWIPC }, { "mnt", CLONE_NEWNS },
	{ "net", CLONE_NEWNET },       { "pid", CLONE_NEWPID }, { "uts", CLONE_NEWUTS },
	{ "time", CLONE_NEWTIME },
};

int status_report_ns(int proc_fd, unsigned long clone_flags, int fd, struct nsrun_error *err)
{
	uint64_t ino[ARRAY_SIZE(ns_table)] = { 0 };
	char path[64];
	struct stat st;
	int r;

	for (size_t i = 0; i < ARRAY_SIZE(ns_table); i++) {
		if (!(clone_flags & ns_table[i].flag))
			continue;
		snprintf(path, sizeof(path), "thread-self/ns/%s", ns_table[i].name);
		if (fstatat(proc_fd, path, &st, 0) < 0)
			return error_set(err, errno, "Can't stat /proc/%s", path);
		ino[i] = (uint64_t)st.st_ino;
	}
	r = write_all(fd, ino, sizeof(ino));
	if (r < 0)
		return error_set(err, -r, "Can't report the sandbox's namespaces");
	return 0;
}

int status_collect(pid_t pid, unsigned long clone_flags, int fd, struct status_info *info,
		   struct nsrun_error *err)
{
	uint64_t ino[ARRAY_SIZE(ns_table)];

	info->child_pid = pid;
	info->n_ns = 0;
	if (read_full(fd, ino, sizeof(ino)) != (ssize_t)sizeof(ino))
		return error_set_plain(err, EIO, "Can't read the sandbox's namespaces");
	for (size_t i = 0; i < ARRAY_SIZE(ns_table); i++) {
		if (!(clone_flags & ns_table[i].flag))
			continue;
		info->ns[info->n_ns].name = ns_table[i].name;
		info->ns[info->n_ns].ino = ino[i];
		info->n_ns++;
	}
	return 0;
}

/* Appends one "key": value pair per entry, each preceded by sep. */
static char *append(char *s, const char *sep, const char *key, uint64_t value)
{
	char *r = xasprintf("%s%s\"%s\": %" PRIu64, s, sep, key, value);

	free(s);
	return r;
}

static char *append_str(char *s, const char *sep, const char *key, const char *value)
{
	char *r = xasprintf("%s%s\"%s\": \"%s\"", s, sep, key, value);

	free(s);
	return r;
}

/* The limits as the cgroup's files hold them, keyed by option: a number, or the string
 * "QUOTA PERIOD" (cpu-max: microseconds per period). */
static char *limit_fields(char *s, const char *sep, const struct status_info *info)
{
	_cleanup_free_ char *path = json_escape(info->cgroup);
	char text[64];
	uint64_t v;

	s = append_str(s, sep, "cgroup", path);
	for (size_t i = 0; i < plan_n_limits; i++) {
		const struct plan_limit *lim = &plan_limits[i];
		const char *key = lim->option + strlen("--");

		if (plan_limit_value(lim, info->limits, &v) == PLAN_LIMIT_UNSET)
			continue;
		plan_limit_text(lim, v, text, sizeof(text));
		s = lim->period ? append_str(s, sep, key, text) : append(s, sep, key, v);
	}
	return s;
}

/* "bridges": [{"port": N, "target": "..."}, ...], in the order given. */
static char *bridge_fields(char *s, const char *sep, const struct status_info *info)
{
	char *r = xasprintf("%s%s\"bridges\": [", s, sep);

	free(s);
	for (size_t i = 0; i < info->n_bridges; i++) {
		_cleanup_free_ char *target = json_escape(info->bridges[i].target);
		char *t = xasprintf("%s%s{\"port\": %u, \"target\": \"%s\"}", r, i ? ", " : "",
				    (unsigned)info->bridges[i].port, target);

		free(r);
		r = t;
	}
	s = xasprintf("%s]", r);
	free(r);
	return s;
}

static char *format_fields(const struct status_info *info, const char *sep)
{
	char *s = xasprintf("\"child-pid\": %d", (int)info->child_pid);
	char key[64];

	for (size_t i = 0; i < info->n_ns; i++) {
		snprintf(key, sizeof(key), "%s-namespace", info->ns[i].name);
		s = append(s, sep, key, info->ns[i].ino);
	}
	if (info->landlock) {
		s = append(s, sep, "landlock-abi", (uint64_t)info->landlock->abi);
		s = append(s, sep, "landlock-handled-fs", info->landlock->handled_fs);
		s = append(s, sep, "landlock-handled-net", info->landlock->handled_net);
		s = append(s, sep, "landlock-scoped", info->landlock->scoped);
		/* Who stops connects to host services' pathname sockets, if anyone. */
		s = append_str(s, sep, "landlock-unix-connect",
			       landlock_unix_connect_name(info->landlock->unix_connect));
		s = append_str(s, sep, "landlock-truncate", landlock_truncate_name(info->landlock));
		s = append_str(s, sep, "landlock-threads", landlock_threads_name(info->landlock));
	}
	if (info->cgroup)
		s = limit_fields(s, sep, info);
	if (info->n_bridges)
		s = bridge_fields(s, sep, info);
	if (info->fallback) {
		_cleanup_free_ char *more = fallback_json_fields(info->fallback, sep);
		char *t = xasprintf("%s%s", s, more);

		free(s);
		s = t;
	}
	return s;
}

char *status_format_info(const struct status_info *info)
{
	_cleanup_free_ char *fields = format_fields(info, ",\n    ");

	return xasprintf("{\n    %s\n}\n", fields);
}

char *status_format_json(const struct status_info *info)
{
	_cleanup_free_ char *fields = format_fields(info, ", ");

	return xasprintf("{ %s }\n", fields);
}

char *status_format_exit(int exit_code)
{
	return xasprintf("{ \"exit-code\": %d }\n", exit_code);
}

char *status_format_command(pid_t command_pid)
{
	return xasprintf("{ \"command-pid\": %d }\n", (int)command_pid);
}

/* nsrun's final document: bwrap's exit-code first, then how the command ended. */
/* The cgroup's keys: OOM kills, whether the command was one of them (SIGKILL while the
 * cgroup counted one, not the deadline's), and the peak where the kernel keeps it. */
static char *usage_fields(const struct cgroup_usage *u, int wait_status, bool timed_out)
{
	bool killed = WIFSIGNALED(wait_status) && WTERMSIG(wait_status) == SIGKILL && !timed_out;
	_cleanup_free_ char *oom =
		u->has_events ?
			xasprintf(", \"oom-kills\": %" PRIu64 ", \"oom-killed\": %s", u->oom_kills,
				  killed && u->oom_kills > 0 ? "true" : "false") :
			xstrdup("");
	_cleanup_free_ char *peak =
		u->has_peak ? xasprintf(", \"memory-peak\": %" PRIu64, u->memory_peak) :
			      xstrdup("");

	return xasprintf("%s%s", oom, peak);
}

char *status_format_end(int exit_code, int wait_status, bool timed_out,
			const struct cgroup_usage *u)
{
	bool sig = WIFSIGNALED(wait_status);
	_cleanup_free_ char *mem = u ? usage_fields(u, wait_status, timed_out) : NULL;

	return xasprintf("{ \"exit-code\": %d, \"%s\": %d, \"timed-out\": %s%s }\n", exit_code,
			 sig ? "exit-signal" : "exit-status",
			 sig ? WTERMSIG(wait_status) : WEXITSTATUS(wait_status),
			 timed_out ? "true" : "false", mem ? mem : "");
}

static int write_text(int fd, char *text, const char *what, struct nsrun_error *err)
{
	int r = write_all(fd, text, strlen(text));

	free(text);
	if (r < 0)
		return error_set(err, -r, "Write to %s", what);
	return 0;
}

/* bubblewrap names every status write failure "Write to info_fd", the --json-status-fd
 * ones included; scripts match that text, so the label is the same for both options. */
int status_write_info(int fd, const struct status_info *info, struct nsrun_error *err)
{
	return write_text(fd, status_format_info(info), "info_fd", err);
}

int status_write_json(int fd, const struct status_info *info, struct nsrun_error *err)
{
	return write_text(fd, status_format_json(info), "info_fd", err);
}

int status_write_command(int fd, pid_t command_pid, struct nsrun_error *err)
{
	return write_text(fd, status_format_command(command_pid), "info_fd", err);
}

int status_write_end(int fd, int exit_code, int wait_status, bool timed_out,
		     const struct cgroup_usage *u, struct nsrun_error *err)
{
	return write_text(fd, status_format_end(exit_code, wait_status, timed_out, u), "info_fd",
			  err);
}

int status_write_exit(int fd, int exit_code, struct nsrun_error *err)
{
	return write_text(fd, status_format_exit(exit_code), "info_fd", err);
}

char *status_with_field(char *doc, const char *key, const char *json)
{
	size_t n = strlen(doc);
	char *out;

	/* every document ends in " }\n" */
	if (n < 3 || strcmp(doc + n - 3, " }\n") != 0)
		return doc;
	doc[n - 3] = '\0';
	out = xasprintf("%s, \"%s\": %s }\n", doc, key, json);
	free(doc);
	return out;
}

int status_write_with(int fd, char *doc, const char *key, const char *json, struct nsrun_error *err)
{
	return write_text(fd, status_with_field(doc, key, json), "info_fd", err);
}
