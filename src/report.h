/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * report.h: --report-fd (issue 36), what nsrun refused and why, as JSON lines. Each
 * call the observer (notify.c) reads is asked of the evaluator (explain.c) that
 * --explain uses; a refusal by nsrun's rules becomes an entry marked "inferred" (the
 * call's result is not seen). Identical entries (access, path, option) after the first
 * are only counted, and after PLAN_MAX_REPORT_ENTRIES lines everything is. The final
 * status document gets the summary.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "audit.h"
#include "cgroup.h"
#include "landlock.h"
#include "notify.h"
#include "plan.h"

struct report_count {
	char *option;
	uint64_t n;
};

struct report {
	int fd; /* --report-fd, or -1: off */
	const struct plan *plan;
	struct landlock_desc desc; /* all zero without Landlock */
	bool observed;		   /* the observer's listener reached the monitor */
	uint64_t entries;	   /* every refusal seen, counted or written */
	uint64_t dropped;	   /* new ones past the bound: counted only */
	char **keys;		   /* one per line written: access, path, option */
	size_t n_keys;
	struct report_count *by_option;
	size_t n_by_option;
	/* The Landlock layer's source: the kernel's audit records (audit_fd >= 0), else
	 * inferred for the reason not_kernel. */
	int audit_fd;
	const char *not_kernel;
	uint32_t lost_start;  /* AUDIT_GET's lost counter when the run started */
	uint64_t lost;	      /* its rise, and receive overruns */
	const pid_t *command; /* the command's pid as the monitor knows it (0: not yet) */
	struct audit_assembler audit;
	struct audit_event *pending; /* events before the command's pid was known */
	size_t n_pending;
	struct {
		uint64_t id;
		bool ours;
	} * domains; /* the Landlock domains seen allocated, and whether nsrun's */
	size_t n_domains;
};

/* One refusal. */
struct report_entry {
	pid_t pid;
	const char *comm;
	const char *access;  /* the words --explain takes: "write", "create", ... */
	const char *named;   /* as the command named it, or NULL */
	const char *path;    /* as resolved */
	const char *address; /* a connect or bind: the address (named stays NULL) */
	int port;	     /* and its port, or -1: a path */
	const char *proto;   /* "tcp" or "udp" */
	const char *layer, *option, *rule, *error, *why;
	const char *blockers; /* the kernel's entries: as logged; NULL: inferred */
};

void report_init(struct report *r, const struct plan *plan, const struct landlock_desc *desc,
		 int fd);
void report_free(struct report *r);

/* Counts e and returns its line (JSON and '\n', malloc'd), or NULL when it is only
 * counted: the same access, path and option were written before, or the bound is
 * reached. Pure. */
char *report_add(struct report *r, const struct report_entry *e);

/* The observer's callback (a notify_fn; arg is the struct report): asks the evaluator
 * and writes the line of a refusal by nsrun's rules. */
void report_event(void *arg, struct notify_event *ev);

/* The audit socket is readable: its records assembled and the Landlock denials of
 * nsrun's own domain written. < 0 when the socket is broken. */
int report_audit_serve(struct report *r, int fd);
/* At the end: what is still in flight, then the lost counter. */
void report_audit_drain(struct report *r);
/* One event: pure but for the write. */
void report_audit_event(struct report *r, const struct audit_event *ev);

/* The status document's "report" object (malloc'd). Pure. */
/* The cgroup limits hit, as the kernel counted them once the sandbox is empty: one
 * entry ("source":"counter") for --pids-max (forks refused) and one for --memory-max
 * (processes the OOM killer ended), written to the report. */
void report_counters(struct report *r, const struct cgroup_usage *u);

char *report_summary_json(const struct report *r);
