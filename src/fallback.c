/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fallback.c: --fallback's decisions, without side effects. nsrun gives up only what the
 * caller named, and of that only what the host refused: for each refused step, the first
 * declared item that answers it and still keeps every boundary asked for (the Landlock
 * rules, the limits, the timeout, --die-with-parent, seccomp).
 */
#include "config.h"

#include "fallback.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caps.h"
#include "rules.h"
#include "util.h"

static const char *const item_names[FALLBACK_ITEMS] = {
	[FALLBACK_NET] = "net",
	[FALLBACK_PROC] = "proc",
	[FALLBACK_USERNS] = "userns",
	[FALLBACK_LANDLOCK] = "namespaces",
};

/* Which items answer which step: giving the item up removes the step. */
static const unsigned answers[NSRUN_STEP_MAX] = {
	[NSRUN_STEP_USERNS] = 1u << FALLBACK_USERNS | 1u << FALLBACK_LANDLOCK,
	[NSRUN_STEP_NAMESPACES] = 1u << FALLBACK_LANDLOCK,
	[NSRUN_STEP_MAPS] = 1u << FALLBACK_USERNS | 1u << FALLBACK_LANDLOCK,
	[NSRUN_STEP_MOUNT] = 1u << FALLBACK_USERNS | 1u << FALLBACK_LANDLOCK,
	[NSRUN_STEP_PROC] = 1u << FALLBACK_PROC | 1u << FALLBACK_LANDLOCK,
	[NSRUN_STEP_NET] = 1u << FALLBACK_NET | 1u << FALLBACK_LANDLOCK,
	[NSRUN_STEP_SYS] = 1u << FALLBACK_LANDLOCK,
};

/* What the command runs without, in the stderr line. */
static const char *const item_phrases[FALLBACK_ITEMS] = {
	[FALLBACK_NET] = "a network namespace of its own",
	[FALLBACK_PROC] = "a fresh /proc",
	[FALLBACK_USERNS] = "a user namespace",
	[FALLBACK_LANDLOCK] = "namespaces (Landlock only)",
};

const char *fallback_item_name(enum fallback_item item)
{
	return item < FALLBACK_ITEMS ? item_names[item] : "?";
}

static const char *fallback_step_name(enum nsrun_step step)
{
	static const char *const names[NSRUN_STEP_MAX] = {
		[NSRUN_STEP_NONE] = "none",
		[NSRUN_STEP_USERNS] = "userns",
		[NSRUN_STEP_NAMESPACES] = "namespaces",
		[NSRUN_STEP_MAPS] = "id-maps",
		[NSRUN_STEP_MOUNT] = "mount",
		[NSRUN_STEP_PROC] = "proc",
		[NSRUN_STEP_NET] = "loopback",
		[NSRUN_STEP_SYS] = "sys",
	};

	return step < NSRUN_STEP_MAX ? names[step] : "?";
}

static int parse_item(const char *option, const char *name, struct fallback_config *cfg,
		      struct nsrun_error *err)
{
	for (size_t i = 0; i < FALLBACK_ITEMS; i++) {
		if (strcmp(name, item_names[i]) != 0)
			continue;
		for (size_t k = 0; k < cfg->n; k++)
			if (cfg->items[k] == i)
				return error_set(err, 0, "%s: '%s' given twice", option, name);
		cfg->items[cfg->n++] = (unsigned char)i;
		return 0;
	}
	return error_set(err, 0, "%s: unknown item '%s' (net, proc, userns or namespaces)", option,
			 name);
}

int fallback_parse(const char *option, const char *list, struct fallback_config *cfg,
		   struct nsrun_error *err)
{
	_cleanup_free_ char *copy = xstrdup(list);
	char *save = NULL;
	int r = 0;

	if (!*list)
		return error_set(err, 0, "%s: empty list", option);
	for (char *name = strtok_r(copy, ",", &save); name && r == 0;
	     name = strtok_r(NULL, ",", &save))
		r = parse_item(option, name, cfg, err);
	return r;
}

void fallback_rung(const struct plan *plan, unsigned gave_up, struct plan *out)
{
	*out = *plan;
	out->fallback.gave_up = gave_up;
	if (gave_up & 1u << FALLBACK_NET)
		out->ns.net = false;
	if (gave_up & 1u << FALLBACK_USERNS)
		out->ns.user = NS_NO;
	if (!(gave_up & 1u << FALLBACK_LANDLOCK))
		return;
	/* No namespace and no root: the command runs in place, bounded by Landlock alone;
	 * the last rung, with nothing left to give up. */
	out->landlock.only = true;
	out->fallback.n = 0;
	out->n_ops = 0;
	out->ns.user = out->ns.cgroup = NS_NO;
	out->ns.pid = out->ns.net = out->ns.ipc = out->ns.uts = out->ns.unshare_all = false;
}

/* Whether OP shows the host's own tree at its place: a bind of a path onto itself
 * (writable, for WRITABLE). */
static bool identity_bind(const struct op *op, bool writable)
{
	bool w = op->type == OP_BIND || op->type == OP_DEV_BIND;

	if (!w && (writable || op->type != OP_RO_BIND))
		return false;
	return op->source && strcmp(op->source, op->dest) == 0;
}

/* In place a Landlock path names the host's directory: the first of PATHS that names
 * something else in the sandbox (a --tmpfs, a bind from elsewhere, read-only where the
 * rule allows writes, an op below it), or NULL when each means the same on both. */
static const char *changes_meaning(const struct plan *plan, char *const *paths, bool writable)
{
	for (size_t k = 0; paths && paths[k]; k++) {
		const struct op *cover = NULL;

		for (size_t i = 0; i < plan->n_ops; i++) {
			const struct op *op = &plan->ops[i];

			if (!op->dest)
				continue;
			if (path_is_below(paths[k], op->dest))
				cover = op;
			else if (path_is_below(op->dest, paths[k]) && !identity_bind(op, writable))
				return paths[k];
		}
		if (!cover || !identity_bind(cover, writable))
			return paths[k];
	}
	return NULL;
}

/* No namespaces: what the sandbox confined must still be, and mean, the same. */
static bool keeps_in_place(const struct plan *plan, unsigned gave_up, bool root, char *why,
			   size_t len)
{
	struct nsrun_error e = { 0 };
	const char *path;
	struct plan rung;

	/* Capabilities asked for inside a user namespace would be the host's. */
	if (caps_requested(&plan->caps, 0))
		return snprintf(why, len, "namespaces: --cap-add would hold on the host"), false;
	path = changes_meaning(plan, plan->landlock.rw, true);
	if (!path)
		path = changes_meaning(plan, plan->landlock.exec, false);
	if (path)
		return snprintf(why, len,
				"namespaces: the Landlock path '%s' is not the host's own directory "
				"in the sandbox",
				path),
		       false;
	fallback_rung(plan, gave_up | 1u << FALLBACK_LANDLOCK, &rung);
	if (rules_check(&rung, &(struct rules_ctx){ .is_root = root }, &e) == 0)
		return true;
	snprintf(why, len, "namespaces: %s", e.msg);
	return false;
}

/* Whether giving ITEM up (on top of GAVE_UP) still keeps every boundary asked for; if
 * not, WHY says what it cannot keep. */
static bool keeps_boundaries(const struct plan *plan, unsigned gave_up, enum fallback_item item,
			     bool root, char *why, size_t len)
{
	switch (item) {
	case FALLBACK_USERNS:
		if (!root)
			return snprintf(why, len, "userns: only root can run without one"), false;
		if (plan->ns.has_uid || plan->ns.has_gid || plan->ns.disable_userns ||
		    plan->ns.assert_userns_disabled || caps_requested(&plan->caps, 0))
			return snprintf(why, len,
					"userns: --uid, --gid, --disable-userns and "
					"--cap-add need one"),
			       false;
		return true;
	case FALLBACK_PROC:
		/* The host's /proc reaches outside processes: only a user namespace of the
		 * sandbox's own keeps their ptrace-guarded files (environ, root, mem) shut,
		 * and the limits and the deadline want none reachable. */
		if (root && plan->ns.user != NS_YES)
			return snprintf(why, len, "proc: needs --unshare-user"), false;
		if (plan_has_limits(plan) || plan->sup.timeout_ms > 0)
			return snprintf(why, len,
					"proc: the limits and --timeout need a fresh "
					"/proc"),
			       false;
		return true;
	case FALLBACK_LANDLOCK:
		return keeps_in_place(plan, gave_up, root, why, len);
	case FALLBACK_NET:
		/* In the host's network the bridge would be one way out among others. */
		if (plan->n_bridges > 0)
			return snprintf(why, len,
					"net: --bridge needs the new network namespace, the "
					"bridge is to be its only way out"),
			       false;
		return true;
	case FALLBACK_ITEMS:
	default:
		return true;
	}
}

int fallback_answer(const struct plan *plan, unsigned gave_up, enum nsrun_step step, bool root,
		    char *why, size_t len)
{
	const struct fallback_config *cfg = &plan->fallback;

	snprintf(why, len, "no item it declares answers this step");
	for (size_t i = 0; i < cfg->n; i++) {
		enum fallback_item item = cfg->items[i];

		if ((gave_up & 1u << item) || !(answers[step] & 1u << item))
			continue;
		if (keeps_boundaries(plan, gave_up, item, root, why, len))
			return (int)item;
	}
	return -1;
}

void fallback_refusal_set(struct fallback_refusal *f, const struct nsrun_error *err)
{
	size_t n = strnlen(err->msg, sizeof(f->msg) - 1);

	/* The report keeps the start of a long message, cut between two characters. */
	if (err->msg[n])
		while (n > 0 && ((unsigned char)err->msg[n] & 0xc0) == 0x80)
			n--;
	f->step = err->refused;
	f->code = err->code;
	memcpy(f->msg, err->msg, n);
	f->msg[n] = '\0';
}

void fallback_add(struct fallback_report *rep, const struct fallback_refusal *f)
{
	if (rep->n_refused < FALLBACK_MAX_REFUSED)
		rep->refused[rep->n_refused++] = *f;
}

/* The items given up, joined by ", ": names quoted for JSON, or phrases. */
static char *gave_up_list(const struct fallback_report *rep, bool quoted)
{
	_cleanup_strv_free_ char **v = NULL;

	for (size_t i = 0; i < FALLBACK_ITEMS; i++) {
		_cleanup_free_ char *one = NULL;

		if (!(rep->gave_up & 1u << i))
			continue;
		one = quoted ? xasprintf("\"%s\"", item_names[i]) : xstrdup(item_phrases[i]);
		strv_push(&v, one);
	}
	return strv_join(v, ", ");
}

static char *refusal_json(const struct fallback_refusal *f)
{
	_cleanup_free_ char *msg = json_escape(f->msg);

	return xasprintf("{ \"step\": \"%s\", \"errno\": %d, \"error\": \"%s\", \"message\": "
			 "\"%s\" }",
			 fallback_step_name(f->step), f->code, f->code ? strerror(f->code) : "",
			 msg);
}

char *fallback_json_fields(const struct fallback_report *rep, const char *sep)
{
	_cleanup_free_ char *items = gave_up_list(rep, true);
	_cleanup_free_ char *refused = NULL;
	_cleanup_strv_free_ char **v = NULL;

	for (size_t i = 0; i < rep->n_refused; i++) {
		_cleanup_free_ char *one = refusal_json(&rep->refused[i]);

		strv_push(&v, one);
	}
	refused = strv_join(v, ", ");
	return xasprintf("%s\"fallback-gave-up\": [%s]%s\"fallback-refused\": [%s]", sep, items,
			 sep, refused);
}

char *fallback_line(const struct fallback_report *rep)
{
	_cleanup_free_ char *items = NULL, *why = NULL;
	_cleanup_strv_free_ char **v = NULL;

	if (!rep->gave_up)
		return NULL;
	items = gave_up_list(rep, false);
	for (size_t i = 0; i < rep->n_refused; i++)
		strv_push(&v, rep->refused[i].msg);
	why = strv_join(v, "; ");
	/* One line, whatever the paths in the messages hold. */
	for (char *c = why; *c; c++)
		if ((unsigned char)*c < 0x20)
			*c = '?';
	return xasprintf("--fallback: running without %s: %s", items, why);
}
