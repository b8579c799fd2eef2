/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * report-audit.c: --report-fd's kernel entries (issue 36): Landlock's audit records of
 * the command's domain (audit.c reads and assembles them), each given the option and
 * why by the evaluator, the kernel's fact kept where the two disagree.
 */
#include "config.h"

#include "report.h"

#include <errno.h>
#include <poll.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "util.h"

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
				  .access = explain_access_name(acc),
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
