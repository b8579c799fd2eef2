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
#include <poll.h>
#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "util.h"

void report_init(struct report *r, const struct plan *plan, const struct landlock_desc *desc,
		 int fd)
{
	*r = (struct report){ .fd = fd, .plan = plan, .audit_fd = -1 };
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
	free(r->pending);
	free(r->domains);
	r->pending = NULL;
	r->domains = NULL;
	r->n_pending = r->n_domains = 0;
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

/* ,"blockers":["fs.write_file",...] from the logged list. */
static char *blockers_json(const char *list)
{
	char *s = xstrdup(",\"blockers\":[");
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, ",");
		_cleanup_free_ char *one = xasprintf("%.*s", (int)n, p), *q = json_str(one);
		char *next = xasprintf("%s%s%s", s, p == list ? "" : ",", q);

		free(s);
		s = next;
		p += n + (p[n] == ',');
	}
	p = xconcat(s, "]");
	free(s);
	return (char *)p;
}

static char *entry_json(uint64_t seq, const struct report_entry *e)
{
	_cleanup_free_ char *comm = json_str(e->comm), *target = target_json(e),
			    *option = json_str(e->option), *rule = json_str(e->rule),
			    *error = json_str(e->error), *why = json_str(e->why),
			    *blockers = e->blockers ? blockers_json(e->blockers) : xstrdup("");

	return xasprintf("{\"seq\":%" PRIu64 ",\"source\":\"%s\"%s,\"pid\":%d,\"comm\":%s,"
			 "\"access\":\"%s\",\"target\":%s,"
			 "\"layer\":\"%s\",\"option\":%s,\"rule\":%s,\"error\":%s,\"why\":%s}\n",
			 seq, e->blockers ? "kernel" : "inferred", blockers, (int)e->pid, comm,
			 e->access, target, e->layer, option, rule, error, why);
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

/* ---- the kernel's records (Landlock audit) ---- */

/* The access word for the first blocker logged. */
static enum explain_access blocker_access(const char *b, bool *unix_sock)
{
	*unix_sock = strncmp(b, "fs.resolve_unix", 15) == 0 ||
		     strncmp(b, "scope.abstract_unix_socket", 26) == 0;
	if (*unix_sock || strncmp(b, "net.connect", 11) == 0)
		return EXPLAIN_CONNECT;
	if (strncmp(b, "net.bind", 8) == 0)
		return EXPLAIN_BIND;
	if (strncmp(b, "scope.signal", 12) == 0)
		return EXPLAIN_SIGNAL;
	if (strncmp(b, "fs.truncate", 11) == 0)
		return EXPLAIN_TRUNCATE;
	if (strncmp(b, "fs.remove_", 10) == 0)
		return EXPLAIN_REMOVE;
	if (strncmp(b, "fs.make_", 8) == 0)
		return EXPLAIN_CREATE;
	if (strncmp(b, "fs.refer", 8) == 0)
		return EXPLAIN_RENAME;
	if (strncmp(b, "fs.execute", 10) == 0)
		return EXPLAIN_EXECUTE;
	return EXPLAIN_WRITE;
}

/* The evaluator's question for a refusal: a new name is logged as its directory. */
static void kernel_query(const struct audit_event *ev, enum explain_access acc, bool unix_sock,
			 char *buf, size_t size, struct explain_query *q)
{
	*q = (struct explain_query){ .access = acc, .kind = EXPLAIN_T_PATH, .path = buf };
	snprintf(buf, size, acc == EXPLAIN_CREATE ? "%s/?" : "%s", ev->path);
	q->target = buf;
	if (acc == EXPLAIN_SIGNAL) {
		q->kind = EXPLAIN_T_PROCESS;
		q->outside = true;
	} else if (unix_sock) {
		q->kind = EXPLAIN_T_UNIX;
	} else if (acc == EXPLAIN_CONNECT || acc == EXPLAIN_BIND) {
		q->kind = EXPLAIN_T_PORT;
		q->port = (uint16_t)(acc == EXPLAIN_BIND ? ev->src : ev->dest);
		q->loopback = strncmp(ev->daddr, "127.", 4) == 0 || strcmp(ev->daddr, "::1") == 0;
	}
}

static const char *errno_name(long e)
{
	return e == -EACCES ? "EACCES" : e == -EPERM ? "EPERM" : e == -EXDEV ? "EXDEV" : NULL;
}

/* One denial of nsrun's domain: the kernel's fact, the rules' option and why. */
static void kernel_entry(struct report *r, const struct audit_event *ev)
{
	bool unix_sock;
	enum explain_access acc = blocker_access(ev->blockers, &unix_sock);
	char buf[PATH_MAX + 3], port_addr[64];
	struct explain_query q;
	struct explain_answer a = { 0 };
	struct nsrun_error err;
	bool agrees;
	_cleanup_free_ char *why = NULL, *line = NULL;
	struct report_entry e = { .pid = ev->pid,
				  .comm = ev->comm,
				  .access = access_word(acc),
				  .path = ev->path,
				  .port = -1,
				  .layer = "landlock",
				  .blockers = ev->blockers,
				  .error = "EACCES" };

	kernel_query(ev, acc, unix_sock, buf, sizeof(buf), &q);
	agrees = explain_decide(r->plan, &r->desc, "/", &q, &a, &err) == 0 && !a.allowed &&
		 a.layer == EXPLAIN_L_LANDLOCK;
	if (ev->has_exit && errno_name(ev->exit))
		e.error = errno_name(ev->exit);
	if (q.kind == EXPLAIN_T_PORT) {
		snprintf(port_addr, sizeof(port_addr), "%s",
			 acc == EXPLAIN_BIND ? ev->saddr : ev->daddr);
		e.address = port_addr;
		e.port = q.port;
		e.proto = strstr(ev->blockers, "udp") ? "udp" : "tcp";
		if (!port_addr[0])
			e.address = NULL; /* a bind to any address logs none */
	} else if (unix_sock) {
		e.access = "connect unix";
	} else if (acc == EXPLAIN_SIGNAL) {
		e.access = "signal"; /* to a process outside the domain: no path */
		e.path = NULL;
	}
	if (agrees) {
		e.option = a.option;
		e.rule = a.rule;
		e.why = a.why;
	} else {
		why = xasprintf("Landlock refused it (the kernel's record); the rules alone say: %s",
				a.why ? a.why : "nothing");
		e.why = why;
	}
	line = report_add(r, &e);
	if (line)
		(void)write_all(r->fd, line, strlen(line));
	explain_answer_free(&a);
}

/* One event, once the command's pid is known: the domains it allocated, and the
 * denials of those. */
static void audit_event_now(struct report *r, const struct audit_event *ev)
{
	for (size_t i = 0; i < ev->n_domains; i++) {
		size_t k = r->n_domains;

		if (!ev->domains[i].allocated)
			continue;
		xappend(&r->domains, &r->n_domains, sizeof(*r->domains));
		r->domains[k].id = ev->domains[i].id;
		r->domains[k].ours = ev->domains[i].pid == *r->command;
	}
	for (size_t i = 0; ev->denial && i < r->n_domains; i++)
		if (r->domains[i].id == ev->domain && r->domains[i].ours)
			kernel_entry(r, ev);
}

/* The events that came before the command's pid was known. */
static void audit_pending(struct report *r)
{
	struct audit_event *p = r->pending;
	size_t n = r->n_pending;

	if (!r->command || !*r->command || !n)
		return;
	r->pending = NULL;
	r->n_pending = 0;
	for (size_t i = 0; i < n; i++)
		audit_event_now(r, &p[i]);
	free(p);
}

void report_audit_event(struct report *r, const struct audit_event *ev)
{
	if (!r->command || !*r->command) {
		*(struct audit_event *)xappend(&r->pending, &r->n_pending, sizeof(*ev)) = *ev;
		return;
	}
	audit_pending(r);
	audit_event_now(r, ev);
}

int report_audit_serve(struct report *r, int fd)
{
	static char buf[1 << 16];
	struct audit_event ev;
	int type;
	ssize_t n;

	audit_pending(r);
	while ((n = audit_recv(fd, &type, buf, sizeof(buf))) != 0) {
		if (n == -ENOBUFS) {
			r->lost++;
			continue;
		}
		if (n < 0)
			return (int)n;
		if (audit_feed(&r->audit, type, buf, (size_t)n, &ev))
			report_audit_event(r, &ev);
	}
	return 0;
}

void report_audit_drain(struct report *r)
{
	struct audit_event ev;
	bool enabled;
	uint32_t lost;

	if (r->audit_fd < 0)
		return;
	/* kauditd sends asynchronously: what the command's last calls logged arrives after
	 * it ended. Read until the socket stays quiet for a moment. */
	for (int quiet = 0; quiet < 3;) {
		struct pollfd p = { .fd = r->audit_fd, .events = POLLIN };

		if (poll(&p, 1, 20) > 0)
			(void)report_audit_serve(r, r->audit_fd);
		else
			quiet++;
	}
	if (audit_flush(&r->audit, &ev))
		report_audit_event(r, &ev);
	audit_pending(r);
	if (audit_status(&enabled, &lost) == 0 && lost > r->lost_start)
		r->lost += lost - r->lost_start;
}

/* What this run's report cannot hold, one fixed phrase each. */
static char *unseen_json(const struct report *r)
{
	const char *phrases[8];
	size_t n = 0;
	_cleanup_free_ char *list = NULL;

	/* With the kernel for every layer of --landlock-only there is no observer. */
	if (!r->observed && !(r->audit_fd >= 0 && r->plan->landlock.only))
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

	_cleanup_free_ char *not_kernel =
		p->landlock.enabled && r->audit_fd < 0 ?
			xasprintf(", \"not-kernel\": \"%s\"", r->not_kernel ? r->not_kernel : "") :
			xstrdup("");

	return xasprintf("{\"entries\": %" PRIu64 ", \"distinct\": %zu, \"dropped\": %" PRIu64
			 ", \"by-option\": {%s}, \"sources\": {%s%s%s%s}, \"lost\": %" PRIu64
			 ", \"unseen\": %s}",
			 r->entries, r->n_keys, r->dropped, by,
			 !p->landlock.enabled ? "" :
			 r->audit_fd >= 0     ? "\"landlock\": \"kernel\"" :
						"\"landlock\": \"inferred\"",
			 p->landlock.enabled && ns ? ", " : "",
			 ns ? "\"mount\": \"inferred\", \"hide\": \"inferred\"" : "", not_kernel,
			 r->lost, unseen);
}
