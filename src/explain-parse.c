/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * explain-parse.c: the words of --explain, in and out: the grammar of ACCESS:TARGET and
 * the answer as one JSON line. The decision is explain.c's. Pure.
 */
#include "config.h"

#include "explain-parse.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The words of ACCESS, the first for each access being its name. */
static const struct {
	const char *word;
	enum explain_access access;
} words[] = {
	{ "read", EXPLAIN_READ },	{ "write", EXPLAIN_WRITE },
	{ "create", EXPLAIN_CREATE },	{ "remove", EXPLAIN_REMOVE },
	{ "rename", EXPLAIN_RENAME },	{ "truncate", EXPLAIN_TRUNCATE },
	{ "execute", EXPLAIN_EXECUTE }, { "connect", EXPLAIN_CONNECT },
	{ "bind", EXPLAIN_BIND },	{ "send", EXPLAIN_SEND },
	{ "signal", EXPLAIN_SIGNAL },	{ "link", EXPLAIN_RENAME },
	{ "exec", EXPLAIN_EXECUTE },
};
#define access_name(a) (words[a].word)

static const char *const layer_names[EXPLAIN_L_MAX] = {
	[EXPLAIN_L_NONE] = "none",
	[EXPLAIN_L_PIDNS] = "pid-namespace",
	[EXPLAIN_L_HIDE] = "hide",
	[EXPLAIN_L_MOUNT] = "mount",
	[EXPLAIN_L_LANDLOCK] = "landlock",
	[EXPLAIN_L_SECCOMP] = "seccomp",
	[EXPLAIN_L_NETNS] = "network-namespace",
};

const char *explain_layer_name(enum explain_layer layer)
{
	return (unsigned)layer < EXPLAIN_L_MAX ? layer_names[layer] : "?";
}

const char *explain_access_name(enum explain_access access)
{
	return (unsigned)access < EXPLAIN_ACCESS_MAX ? access_name(access) : "?";
}

/* ---- the question ---- */

static int lookup_access(const char *name, size_t n, enum explain_access *ret)
{
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (strlen(words[i].word) == n && strncmp(words[i].word, name, n) == 0)
			return *ret = words[i].access, 0;
	return -EINVAL;
}

/* [tcp:|udp:][localhost:]PORT */
static int parse_port(const char *s, struct explain_query *q)
{
	uint64_t port;

	q->kind = EXPLAIN_T_PORT;
	if (str_has_prefix(s, "tcp:") || str_has_prefix(s, "udp:")) {
		q->udp = s[0] == 'u';
		s += 4;
	}
	if (str_has_prefix(s, "localhost:")) {
		q->loopback = true;
		s += strlen("localhost:");
	}
	/* Port 0 asks the kernel for any free port: no rule is about it. */
	if (parse_u64(s, 10, &port) < 0 || port == 0 || port > UINT16_MAX)
		return -EINVAL;
	q->port = (uint16_t)port;
	return 0;
}

static int parse_target(struct explain_query *q)
{
	const char *t = q->target;
	bool net = q->access == EXPLAIN_CONNECT || q->access == EXPLAIN_BIND ||
		   q->access == EXPLAIN_SEND;

	if (q->access == EXPLAIN_SIGNAL) {
		q->kind = EXPLAIN_T_PROCESS;
		q->outside = strcmp(t, "outside") == 0;
		return q->outside || strcmp(t, "inside") == 0 ? 0 : -EINVAL;
	}
	if (net && str_has_prefix(t, "unix:") && t[5]) {
		q->kind = EXPLAIN_T_UNIX;
		q->path = xstrdup(t + 5);
		return 0;
	}
	if (net)
		return parse_port(t, q);
	q->kind = EXPLAIN_T_PATH;
	q->path = xstrdup(t);
	return t[0] ? 0 : -EINVAL;
}

int explain_parse(const char *arg, struct explain_query *q, struct nsrun_error *err)
{
	const char *colon = strchr(arg, ':');

	/* shown escaped, so that a newline in the question cannot make a second line */
	_cleanup_free_ char *shown = NULL;

	*q = (struct explain_query){ 0 };
	if (!colon || lookup_access(arg, (size_t)(colon - arg), &q->access) < 0) {
		shown = json_escape(arg);
		return error_set(err, 0,
				 "--explain: unknown access in '%s' (read, write, create, remove, "
				 "rename, link, truncate, execute, connect, bind, send or signal)",
				 shown);
	}
	q->target = xstrdup(colon + 1);
	if (parse_target(q) < 0) {
		int r;

		shown = json_escape(q->target);
		r = error_set(err, 0, "--explain: '%s' is not a target for %s", shown,
			      access_name(q->access));

		explain_query_free(q);
		return r;
	}
	return 0;
}

void explain_query_free(struct explain_query *q)
{
	free(q->target);
	free(q->path);
	*q = (struct explain_query){ 0 };
}

/* ---- the answer ---- */

void explain_answer_free(struct explain_answer *a)
{
	free(a->rule);
	free(a->path);
	free(a->why);
	*a = (struct explain_answer){ 0 };
}

/* "null", or the string quoted and escaped (malloc'd). */
static char *json_str(const char *s)
{
	_cleanup_free_ char *e = s ? json_escape(s) : NULL;

	return e ? xconcat("\"", e, "\"") : xstrdup("null");
}

char *explain_json(const struct explain_query *q, const struct explain_answer *a)
{
	_cleanup_free_ char *target = json_str(q->target), *path = json_str(a->path),
			    *option = json_str(a->option), *rule = json_str(a->rule),
			    *error = json_str(a->error), *why = json_str(a->why);

	return xasprintf("{\"access\":\"%s\",\"target\":%s,\"path\":%s,\"decision\":\"%s\","
			 "\"layer\":\"%s\",\"option\":%s,\"rule\":%s,\"error\":%s,\"why\":%s,"
			 "\"source\":\"rules\"}",
			 access_name(q->access), target, path, a->allowed ? "allowed" : "refused",
			 explain_layer_name(a->layer), option, rule, error, why);
}
