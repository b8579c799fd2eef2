/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fallback.h: --fallback, the caller's declared ladder. Which declared item answers a step
 * the host refused, whether an item can keep every boundary asked for, the plan of a rung,
 * and the report of what was given up and why (status JSON, one stderr line). Pure: the
 * attempts themselves are sandbox.c's.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "plan.h"

#define FALLBACK_MAX_REFUSED 6
#define FALLBACK_MSG_MAX 480

/* One step the host refused, as the report keeps it. */
struct fallback_refusal {
	int step; /* enum nsrun_step */
	int code; /* errno */
	char msg[FALLBACK_MSG_MAX];
};

/* What a run gave up and why. Fixed size: the sandbox's process sends the refusal it
 * answered itself (a fresh procfs) to the monitor as-is. */
struct fallback_report {
	unsigned gave_up; /* 1u << enum fallback_item */
	struct fallback_refusal refused[FALLBACK_MAX_REFUSED];
	size_t n_refused;
};

const char *fallback_item_name(enum fallback_item item);

/* Appends the comma-separated items of LIST (net, proc, userns, landlock) to cfg;
 * an unknown or repeated item is a usage error naming OPTION. */
int fallback_parse(const char *option, const char *list, struct fallback_config *cfg,
		   struct nsrun_error *err);

/* The plan of the rung that gives up GAVE_UP: a shallow copy of PLAN (its pointers are
 * shared) without what was given up. */
void fallback_rung(const struct plan *plan, unsigned gave_up, struct plan *out);

/* Which declared item answers STEP on top of GAVE_UP: the first, in the caller's order,
 * that resolves the step and keeps every boundary asked for. -1 when none; then WHY (LEN
 * bytes) says what each candidate could not keep, or that none was declared. */
int fallback_answer(const struct plan *plan, unsigned gave_up, enum nsrun_step step, bool root,
		    char *why, size_t len);

/* F as err says it; and F added to the report (which keeps the first
 * FALLBACK_MAX_REFUSED). */
void fallback_refusal_set(struct fallback_refusal *f, const struct nsrun_error *err);
void fallback_add(struct fallback_report *rep, const struct fallback_refusal *f);

/* The status fields ("fallback-gave-up": [...], "fallback-refused": [...]), each preceded
 * by SEP; and the one stderr line, NULL when nothing was given up. Both malloc'd. */
char *fallback_json_fields(const struct fallback_report *rep, const char *sep);
char *fallback_line(const struct fallback_report *rep);
