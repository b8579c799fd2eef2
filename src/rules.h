/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rules.h: the rules between options, as one table (rules.c) and the one walk of it.
 * Every refusal in it is a usage error (exit 1) found before anything runs; the man
 * page's statement of each rule is checked against the table (tests/meta/t-rules.sh).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "cli-options.h"
#include "error.h"
#include "plan.h"

enum rule_kind {
	RULE_REQUIRES, /* A without B is refused */
	RULE_EXCLUDES, /* A with B is refused */
	RULE_ONCE,     /* A a second time is refused (B is NULL) */
	RULE_KIND_MAX
};

enum rule_stage {
	RULE_PARSE, /* as A is parsed, against the options before it (bwrap's order) */
	RULE_MODE,  /* once parsed, in every mode: what --doctor and --json allow */
	RULE_RUN,   /* when a command is to run (mode run, a COMMAND given) */
	RULE_STAGE_MAX
};

struct rules_ctx {
	bool is_root; /* real uid 0: no user namespace is implied */
};

/* What one side of a rule finds in a plan: the option that makes it true, as the
 * messages name it ("--unshare-user-try" for the user namespace), or NULL. */
typedef const char *rule_cond(const struct plan *plan, const struct rules_ctx *ctx);

struct rule {
	enum rule_stage stage;
	/* A as the man page names it: an option, whose entry states the rule, or for a group
	 * of options the title of the subsection that does ("Resource limits"). */
	const char *a;
	enum rule_kind kind;
	/* B as that entry names it: an option, or a phrase for several ("a namespace"). */
	const char *b;
	rule_cond *has_a, *has_b; /* NULL at RULE_PARSE, where a and b are option names */
	/* The refusal, word for word; "{a}" or "{b}" (one at most) stands for what has_a or
	 * has_b found, "{limits}" for every cgroup limit's option (from plan_limits[]). */
	const char *msg;
};

/* The table, in the order the rules are checked (which decides the message when several
 * are broken). */
extern const struct rule rules_table[];
extern const size_t rules_count;

/* "requires", "excludes", "once"; "parse", "mode", "run" (tests/helpers/list-options). */
const char *rules_kind_name(enum rule_kind kind);
const char *rules_stage_name(enum rule_stage stage);

/* The RULE_PARSE rules of opt, just before its handler runs; seen[id]: whether option id
 * came before. Returns 0 or -EINVAL with err filled. */
int rules_check_parsed(const struct cli_option *opt, const bool *seen, struct nsrun_error *err);

/* The RULE_MODE and RULE_RUN rules, in the table's order; the first one broken fills err.
 * Pure: no syscalls. Returns 0 or -EINVAL. */
int rules_check(const struct plan *plan, const struct rules_ctx *ctx, struct nsrun_error *err);
