/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * report.c: --report-fd's entries (issue 36). The observer reads a call before it goes
 * on; the evaluator says which of nsrun's rules refuses it, in the kernel's order. An
 * entry is only written for what the kernel will refuse for that rule: a name that is
 * absent from the sandbox (ENOENT), or a new name that already exists (EEXIST), fails
 * for the kernel's own reason first and is not nsrun's to report; a hidden name is
 * absent because nsrun hid it, and is.
 */
#include "config.h"

#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "util.h"

void report_init(struct report *r, const struct plan *plan, const struct landlock_desc *desc,
		 int fd)
{
	*r = (struct report){ .fd = fd, .plan = plan };
	if (desc)
		r->desc = *desc;
}

void report_free(struct report *r)
{
	for (size_t i = 0; i < r->n_keys; i++)
		free(r->keys[i]);
	free(r->keys);
	for (size_t i = 0; i < r->n_by_option; i++)
		free(r->by_option[i].option);
	free(r->by_option);
	r->keys = NULL;
	r->by_option = NULL;
	r->n_keys = r->n_by_option = 0;
}

/* "null", or the string quoted and escaped (malloc'd). */
static char *json_str(const char *s)
{
	_cleanup_free_ char *e = s ? json_escape(s) : NULL;

	return e ? xconcat("\"", e, "\"") : xstrdup("null");
}

static void count_option(struct report *r, const char *option)
{
	const char *name = option ? option : "";

	for (size_t i = 0; i < r->n_by_option; i++)
		if (strcmp(r->by_option[i].option, name) == 0) {
			r->by_option[i].n++;
			return;
		}
	*(struct report_count *)xappend(&r->by_option, &r->n_by_option,
					sizeof(struct report_count)) =
		(struct report_count){ xstrdup(name), 1 };
}

/* {"named":..., "path":...}, or for a port {"address":..., "port":N, "proto":...} */
static char *target_json(const struct report_entry *e)
{
	_cleanup_free_ char *a = NULL, *b = NULL;

	if (e->port >= 0) {
		a = json_str(e->address);
		b = json_str(e->proto);
		return xasprintf("{\"address\":%s,\"port\":%d,\"proto\":%s}", a, e->port, b);
	}
	a = json_str(e->named);
	b = json_str(e->path);
	return xasprintf("{\"named\":%s,\"path\":%s}", a, b);
}

static char *entry_json(uint64_t seq, const struct report_entry *e)
{
	_cleanup_free_ char *comm = json_str(e->comm), *target = target_json(e),
			    *option = json_str(e->option), *rule = json_str(e->rule),
			    *error = json_str(e->error), *why = json_str(e->why);

	return xasprintf("{\"seq\":%" PRIu64 ",\"source\":\"inferred\",\"pid\":%d,\"comm\":%s,"
			 "\"access\":\"%s\",\"target\":%s,"
			 "\"layer\":\"%s\",\"option\":%s,\"rule\":%s,\"error\":%s,\"why\":%s}\n",
			 seq, (int)e->pid, comm, e->access, target, e->layer, option, rule, error,
			 why);
}

char *report_add(struct report *r, const struct report_entry *e)
{
	_cleanup_free_ char *key = e->port >= 0 ? xasprintf("%s\n%s:%d\n%s", e->access, e->proto,
							    e->port, e->option ? e->option : "") :
						  xasprintf("%s\n%s\n%s", e->access,
							    e->path ? e->path : "",
							    e->option ? e->option : "");

	r->entries++;
	count_option(r, e->option);
	for (size_t i = 0; i < r->n_keys; i++)
		if (strcmp(r->keys[i], key) == 0)
			return NULL;
	if (r->n_keys >= PLAN_MAX_REPORT_ENTRIES) {
		r->dropped++;
		return NULL;
	}
	*(char **)xappend(&r->keys, &r->n_keys, sizeof(char *)) = TAKE_PTR(key);
	return entry_json(r->n_keys, e);
}

/* The evaluator's word for what the call does to name i. */
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

static const char *access_word(enum explain_access a)
{
	static const char *const words[] = {
		[EXPLAIN_WRITE] = "write",	 [EXPLAIN_CREATE] = "create",
		[EXPLAIN_REMOVE] = "remove",	 [EXPLAIN_RENAME] = "rename",
		[EXPLAIN_TRUNCATE] = "truncate", [EXPLAIN_EXECUTE] = "execute",
		[EXPLAIN_CONNECT] = "connect",	 [EXPLAIN_BIND] = "bind",
		[EXPLAIN_SEND] = "send",
	};

	return a < ARRAY_SIZE(words) && words[a] ? words[a] : "read";
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
		.access = access_word(acc),
		.named = ev->names[i].named,
		.path = a->path ? a->path : ev->names[i].path,
		.port = -1,
		.layer = explain_layer_name(a->layer),
		.option = a->option,
		.rule = a->rule,
		.error = a->error,
		.why = a->why,
	};
	_cleanup_free_ char *line = report_add(r, &e);

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

	if (explain_decide(r->plan, &r->desc, "/", &q, &a, &err) == 0 && !a.allowed && a.option) {
		struct report_entry e = { .pid = ev->pid,
					  .comm = ev->comm,
					  .access = access_word(acc),
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

/* What this run's report cannot hold, one fixed phrase each. */
static char *unseen_json(const struct report *r)
{
	const char *phrases[8];
	size_t n = 0;
	_cleanup_free_ char *list = NULL;

	if (!r->observed)
		phrases[n++] = "every refusal: the observer could not be installed";
	phrases[n++] = "results of inferred entries";
	phrases[n++] = "reads of hidden names other than by exec";
	phrases[n++] = "sendmsg and sendmmsg, UNIX socket connects and signals";
	phrases[n++] = "the seccomp guards' refusals";
	phrases[n++] = "--seccomp programs";
	phrases[n++] = "calls of another ABI";
	phrases[n++] = "refusals for reasons of the kernel's own";
	for (size_t i = 0; i < n; i++) {
		char *next =
			xasprintf("%s%s\"%s\"", list ? list : "", list ? ", " : "", phrases[i]);

		free(list);
		list = next;
	}
	return xasprintf("[%s]", list);
}

static char *by_option_json(const struct report *r)
{
	char *s = xstrdup("");

	for (size_t i = 0; i < r->n_by_option; i++) {
		_cleanup_free_ char *name = json_str(r->by_option[i].option);
		char *next =
			xasprintf("%s%s%s: %" PRIu64, s, i ? ", " : "", name, r->by_option[i].n);

		free(s);
		s = next;
	}
	return s;
}

char *report_summary_json(const struct report *r)
{
	const struct plan *p = r->plan;
	_cleanup_free_ char *by = by_option_json(r), *unseen = unseen_json(r);
	bool ns = !p->landlock.only;

	return xasprintf("{\"entries\": %" PRIu64 ", \"distinct\": %zu, \"dropped\": %" PRIu64
			 ", \"by-option\": {%s}, \"sources\": {%s%s%s}, \"unseen\": %s}",
			 r->entries, r->n_keys, r->dropped, by,
			 p->landlock.enabled ? "\"landlock\": \"inferred\"" : "",
			 p->landlock.enabled && ns ? ", " : "",
			 ns ? "\"mount\": \"inferred\", \"hide\": \"inferred\"" : "", unseen);
}
