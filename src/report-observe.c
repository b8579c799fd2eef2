/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * report-observe.c: --report-fd's inferred entries (issue 36). The observer (notify.c)
 * reads a call before it goes on; the evaluator says which of nsrun's rules refuses it,
 * in the kernel's order. An entry is only written for what the kernel will refuse for
 * that rule: a name that is absent from the sandbox (ENOENT), or a new name that already
 * exists (EEXIST), fails for the kernel's own reason first and is not nsrun's to report;
 * a hidden name is absent because nsrun hid it, and is.
 */
#include "config.h"

#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "util.h"

static enum explain_access query_access(const struct notify_event *ev, unsigned i)
{
	switch (ev->access) {
	case NOTIFY_WRITE:
		return ev->creates && !ev->names[i].exists ? EXPLAIN_CREATE : EXPLAIN_WRITE;
	case NOTIFY_CREATE:
		return EXPLAIN_CREATE;
	case NOTIFY_REMOVE:
		return EXPLAIN_REMOVE;
	case NOTIFY_RENAME:
	case NOTIFY_LINK:
		return EXPLAIN_RENAME;
	case NOTIFY_TRUNCATE:
		return EXPLAIN_TRUNCATE;
	case NOTIFY_EXECUTE:
	case NOTIFY_CONNECT: /* (decided by port_event) */
	case NOTIFY_BIND:
	case NOTIFY_SEND:
	default:
		return EXPLAIN_EXECUTE;
	}
}

/* Whether the kernel gets as far as nsrun's rule: the name is there to be written,
 * removed or run, or absent to be created in a directory that is there. A name nsrun
 * hid is absent by the rule itself. */
static bool reaches_rule(const struct notify_event *ev, unsigned i, enum explain_access acc,
			 const struct explain_answer *a)
{
	const struct notify_name *n = &ev->names[i];

	if (a->allowed || !a->option || (ev->exclusive && n->exists))
		return false;
	if (a->layer == EXPLAIN_L_HIDE)
		return true;
	/* ERRNO outranks USER_NOTIF: a call a guard refuses never reaches the observer. */
	if (a->layer == EXPLAIN_L_SECCOMP)
		return false;
	if (acc == EXPLAIN_CREATE || (acc == EXPLAIN_RENAME && i == 1) || ev->access == NOTIFY_LINK)
		return n->parent_exists && (!n->exists || ev->access == NOTIFY_RENAME);
	return n->exists;
}

static void write_entry(struct report *r, const struct notify_event *ev, unsigned i,
			enum explain_access acc, const struct explain_answer *a)
{
	struct report_entry e = {
		.pid = ev->pid,
		.comm = ev->comm,
		.access = explain_access_name(acc),
		.named = ev->names[i].named,
		.path = a->path ? a->path : ev->names[i].path,
		.port = -1,
		.layer = explain_layer_name(a->layer),
		.option = a->option,
		.rule = a->rule,
		.error = a->error,
		.why = a->why,
	};
	_cleanup_free_ char *line = NULL;

	/* One source per layer: the kernel's records speak for Landlock. */
	if (r->audit_fd >= 0 && a->layer == EXPLAIN_L_LANDLOCK)
		return;
	line = report_add(r, &e);
	if (line)
		(void)write_all(r->fd, line, strlen(line));
}

/* Whether the rules refuse any name of ev for any access the call may be (a write or a
 * create, before it is known whether the name exists): most calls are allowed, and
 * only a refused one is worth looking up in the sandbox. */
static bool any_refused(const struct report *r, const struct notify_event *ev)
{
	for (unsigned i = 0; i < ev->n_names; i++)
		for (int k = 0; k < (ev->access == NOTIFY_WRITE && ev->creates ? 2 : 1); k++) {
			enum explain_access acc = ev->access == NOTIFY_WRITE ? EXPLAIN_WRITE :
									       query_access(ev, i);
			struct explain_query q = { .access = k ? EXPLAIN_CREATE : acc,
						   .kind = EXPLAIN_T_PATH,
						   .target = (char *)ev->names[i].named,
						   .path = (char *)ev->names[i].path };
			struct explain_answer a = { 0 };
			struct nsrun_error err;
			bool refused = explain_decide(r->plan, &r->desc, "/", &q, &a, &err) == 0 &&
				       !a.allowed && a.option;

			explain_answer_free(&a);
			if (refused)
				return true;
		}
	return false;
}

/* A connect or bind: the rules decide by port and by loopback alone, and the kernel
 * asks them before anything else (Landlock's hook comes before the route lookup). */
static void port_event(struct report *r, struct notify_event *ev)
{
	const struct notify_peer *p = &ev->peer;
	enum explain_access acc = ev->access == NOTIFY_BIND ? EXPLAIN_BIND :
				  ev->access == NOTIFY_SEND ? EXPLAIN_SEND :
							      EXPLAIN_CONNECT;
	struct explain_query q = { .access = acc,
				   .kind = EXPLAIN_T_PORT,
				   .port = (uint16_t)p->port,
				   .udp = p->udp,
				   .loopback = p->loopback };
	struct explain_answer a = { 0 };
	struct nsrun_error err;

	if (explain_decide(r->plan, &r->desc, "/", &q, &a, &err) == 0 && !a.allowed && a.option &&
	    !(r->audit_fd >= 0 && a.layer == EXPLAIN_L_LANDLOCK)) {
		struct report_entry e = { .pid = ev->pid,
					  .comm = ev->comm,
					  .access = explain_access_name(acc),
					  .address = p->address,
					  .port = (int)p->port,
					  .proto = p->udp ? "udp" : "tcp",
					  .layer = explain_layer_name(a.layer),
					  .option = a.option,
					  .rule = a.rule,
					  .error = a.error,
					  .why = a.why };
		_cleanup_free_ char *line = NULL;

		notify_find(ev);
		line = report_add(r, &e);
		if (line)
			(void)write_all(r->fd, line, strlen(line));
	}
	explain_answer_free(&a);
}

void report_event(void *arg, struct notify_event *ev)
{
	struct report *r = arg;
	struct nsrun_error err;

	if (ev->access == NOTIFY_CONNECT || ev->access == NOTIFY_BIND ||
	    ev->access == NOTIFY_SEND) {
		port_event(r, ev);
		return;
	}
	if (!any_refused(r, ev))
		return;
	notify_find(ev);

	for (unsigned i = 0; i < ev->n_names; i++) {
		enum explain_access acc = query_access(ev, i);
		struct explain_query q = { .access = acc,
					   .kind = EXPLAIN_T_PATH,
					   .target = (char *)ev->names[i].named,
					   .path = (char *)ev->names[i].path };
		struct explain_answer a = { 0 };
		bool refused;

		if (explain_decide(r->plan, &r->desc, "/", &q, &a, &err) < 0)
			continue;
		refused = reaches_rule(ev, i, acc, &a);
		if (refused)
			write_entry(r, ev, i, acc, &a);
		explain_answer_free(&a);
		/* the first name refused is the call's refusal */
		if (refused)
			return;
	}
}

/* ---- the kernel's records (Landlock audit) ---- */
