/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * explain-parse.h: the words of --explain (issue 36): the question ACCESS:TARGET, the
 * answer's fields and its JSON line. Below the decision (explain.h) so that the parser
 * can check a question as the option is read.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

enum explain_access {
	EXPLAIN_READ,
	EXPLAIN_WRITE,	  /* open for writing an entry that exists */
	EXPLAIN_CREATE,	  /* a new entry (file, directory, node, symlink, bound socket) */
	EXPLAIN_REMOVE,	  /* unlink, rmdir */
	EXPLAIN_RENAME,	  /* rename or link, either side ("link" is its alias) */
	EXPLAIN_TRUNCATE, /* truncate(2), O_TRUNC */
	EXPLAIN_EXECUTE,  /* execve ("exec" is its alias) */
	EXPLAIN_CONNECT,  /* [tcp:|udp:][localhost:]PORT, or unix:PATH */
	EXPLAIN_BIND,	  /* [tcp:|udp:]PORT, or unix:PATH (a create) */
	EXPLAIN_SEND,	  /* udp:PORT, or unix:PATH */
	EXPLAIN_SIGNAL,	  /* "outside" (a process outside the sandbox) or "inside" */
	EXPLAIN_ACCESS_MAX
};

enum explain_target {
	EXPLAIN_T_PATH,
	EXPLAIN_T_PORT,
	EXPLAIN_T_UNIX, /* a pathname UNIX socket */
	EXPLAIN_T_PROCESS,
};

struct explain_query {
	enum explain_access access;
	enum explain_target kind;
	char *target;  /* TARGET as given */
	char *path;    /* EXPLAIN_T_PATH and EXPLAIN_T_UNIX: the path part, as given */
	uint16_t port; /* EXPLAIN_T_PORT */
	bool udp;      /* EXPLAIN_T_PORT: udp: was given (tcp is the default) */
	bool loopback; /* EXPLAIN_T_PORT: localhost: was given */
	bool outside;  /* EXPLAIN_T_PROCESS */
};

/* Who decides, in the kernel's order for the access. */
enum explain_layer {
	EXPLAIN_L_NONE,	    /* nothing of nsrun's restricts it */
	EXPLAIN_L_PIDNS,    /* the pid namespace: outside processes cannot be named */
	EXPLAIN_L_HIDE,	    /* --overlay-hide / --overlay-allow */
	EXPLAIN_L_MOUNT,    /* the sandbox's mounts: absent, or read-only */
	EXPLAIN_L_LANDLOCK, /* a Landlock rule */
	EXPLAIN_L_SECCOMP,  /* nsrun's seccomp guard standing in for Landlock on an older ABI */
	EXPLAIN_L_NETNS,    /* the network namespace: only loopback */
	EXPLAIN_L_MAX
};

struct explain_answer {
	bool allowed;
	enum explain_layer layer;
	const char *option; /* the option that decides ("--landlock-rw"), or NULL */
	char *rule;	    /* that option's argument ("/workspace", "443"), or NULL */
	const char *error;  /* refused: the errno name the command sees ("EACCES") */
	char *path;	    /* the path as resolved (lexically, --symlink ops followed), or NULL */
	char *why;	    /* one sentence */
};

/* Parses ACCESS:TARGET. An unknown access or a malformed target is a usage error
 * (-EINVAL with err filled, exit status 1 before anything runs). */
int explain_parse(const char *arg, struct explain_query *q, struct nsrun_error *err);
void explain_query_free(struct explain_query *q);

/* "read", "write", ...: the access's name, as the JSON says it. */
const char *explain_access_name(enum explain_access access);

void explain_answer_free(struct explain_answer *a);

/* The answer as one JSON object on one line, without a newline (malloc'd). */
char *explain_json(const struct explain_query *q, const struct explain_answer *a);

/* "landlock", "mount", ...: the JSON's layer, for the tests. */
const char *explain_layer_name(enum explain_layer layer);
