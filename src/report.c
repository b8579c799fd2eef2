/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * report.c: --report-fd's lines (issue 36): each entry as JSON, identical ones counted,
 * the bound, and the status document's summary. The entries come from the observer
 * (report-observe.c), the kernel's audit records (report-audit.c) and the cgroup
 * limits' counters.
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

static void count_option(struct report *r, const char *option, uint64_t n)
{
	const char *name = option ? option : "";

	for (size_t i = 0; i < r->n_by_option; i++)
		if (strcmp(r->by_option[i].option, name) == 0) {
			r->by_option[i].n += n;
			return;
		}
	*(struct report_count *)xappend(&r->by_option, &r->n_by_option,
					sizeof(struct report_count)) =
		(struct report_count){ xstrdup(name), n };
}

/* Counts n refusals under key; its line's number, or 0 when it is only counted: the
 * key was written before, or the bound is reached. */
static uint64_t keep(struct report *r, char *key, const char *option, uint64_t n)
{
	r->entries += n;
	count_option(r, option, n);
	for (size_t i = 0; i < r->n_keys; i++)
		if (strcmp(r->keys[i], key) == 0) {
			free(key);
			return 0;
		}
	if (r->n_keys >= PLAN_MAX_REPORT_ENTRIES) {
		r->dropped += n;
		free(key);
		return 0;
	}
	*(char **)xappend(&r->keys, &r->n_keys, sizeof(char *)) = key;
	return r->n_keys;
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
	char *key = e->port >= 0 ? xasprintf("%s\n%s:%d\n%s", e->access, e->proto, e->port,
					     e->option ? e->option : "") :
				   xasprintf("%s\n%s\n%s", e->access, e->path ? e->path : "",
					     e->option ? e->option : "");
	uint64_t seq = keep(r, key, e->option, 1);

	return seq ? entry_json(seq, e) : NULL;
}

/* One limit of the sandbox's cgroup hit count times, as the kernel counted it: no pid
 * nor target, the counter does not say who. */
static void counter_entry(struct report *r, const char *access, const char *option,
			  const char *rule, const char *error, uint64_t count, const char *why)
{
	uint64_t seq = keep(r, xasprintf("%s\n\n%s", access, option), option, count);
	_cleanup_free_ char *w = json_escape(why), *line = NULL;

	if (!seq)
		return;
	line = xasprintf("{\"seq\":%" PRIu64 ",\"source\":\"counter\",\"access\":\"%s\","
			 "\"count\":%" PRIu64 ",\"layer\":\"cgroup\",\"option\":\"%s\","
			 "\"rule\":\"%s\",\"error\":\"%s\",\"why\":\"%s\"}\n",
			 seq, access, count, option, rule, error, w);
	(void)write_all(r->fd, line, strlen(line));
}

void report_counters(struct report *r, const struct cgroup_usage *u)
{
	const struct limits_config *l = &r->plan->limits;
	char rule[24], why[160];

	if (l->has_pids_max && u->has_pids_events && u->pids_max) {
		snprintf(rule, sizeof(rule), "%" PRIu64, l->pids_max);
		snprintf(why, sizeof(why),
			 "the sandbox reached --pids-max %s: fork and clone failed %" PRIu64
			 " times",
			 rule, u->pids_max);
		counter_entry(r, "fork", "--pids-max", rule, "EAGAIN", u->pids_max, why);
	}
	if (l->has_memory_max && u->has_events && u->oom_kills) {
		snprintf(rule, sizeof(rule), "%" PRIu64, l->memory_max);
		snprintf(why, sizeof(why),
			 "the sandbox reached --memory-max (%s bytes): the kernel's OOM killer "
			 "ended %" PRIu64 " processes",
			 rule, u->oom_kills);
		counter_entry(r, "memory", "--memory-max", rule, "SIGKILL", u->oom_kills, why);
	}
}

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

/* How each layer is seen: "sources", with why the kernel is not the Landlock layer's. */
static char *sources_json(const struct report *r)
{
	const struct plan *p = r->plan;
	_cleanup_free_ char *not_kernel = NULL;
	const char *parts[5];
	size_t n = 0;

	if (p->landlock.enabled)
		parts[n++] = r->audit_fd >= 0 ? "\"landlock\": \"kernel\"" :
						"\"landlock\": \"inferred\"";
	if (!p->landlock.only)
		parts[n++] = "\"mount\": \"inferred\", \"hide\": \"inferred\"";
	if (p->landlock.enabled && r->audit_fd < 0)
		parts[n++] = not_kernel =
			xasprintf("\"not-kernel\": \"%s\"", r->not_kernel ? r->not_kernel : "");
	if (plan_has_limits(p))
		parts[n++] = "\"cgroup\": \"counter\"";
	parts[n] = NULL;
	return strv_join((char *const *)parts, ", ");
}

char *report_summary_json(const struct report *r)
{
	_cleanup_free_ char *by = by_option_json(r), *unseen = unseen_json(r),
			    *sources = sources_json(r);

	return xasprintf("{\"entries\": %" PRIu64 ", \"distinct\": %zu, \"dropped\": %" PRIu64
			 ", \"by-option\": {%s}, \"sources\": {%s}, \"lost\": %" PRIu64
			 ", \"unseen\": %s}",
			 r->entries, r->n_keys, r->dropped, by, sources, r->lost, unseen);
}
