/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * plan-print.c: the plan's two printers, its canonical text and an argv that parses
 * back into it. The option table (cli-options.h) already names the field each plain
 * setter writes, so those options print themselves from one generic row per kind, the
 * typed values (ids, sizes, counts, fractions, durations) included; only what a setter
 * cannot express is written by hand: ops, the environment, capabilities, seccomp,
 * ports, debug switches, rlimits, the mode and the command.
 */
#include "config.h"

#include "plan-print.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cli-options.h"
#include "fallback.h"
#include "supervise-parse.h"
#include "util.h"

/* ---- the plain setters, from the option table ---- */

enum field_kind {
	K_NONE,	  /* written by hand */
	K_BOOL,	  /* ON, LL: the option when true */
	K_FD,	  /* FD: the option and the fd when >= 0 */
	K_STR,	  /* STR, LABEL: the option and the string when set */
	K_STRV,	  /* LIST, HIDE, LLPATH: the option once per entry */
	K_NS_YES, /* NS: the option when NS_YES; the text form says yes/try/no */
	K_NS_TRY, /* NSTRY: the option when NS_TRY; the text is NS_YES's row's */
	/* The typed values, when given (has): */
	K_ID,	    /* ID: uid_t in decimal */
	K_U64,	    /* SIZE, COUNT: uint64_t in decimal */
	K_FRACTION, /* FRACTION: the text the quota, the argv the fraction of one CPU */
	K_DURATION, /* DURATION: the text always, in ms; the argv in seconds */
};

struct field_row {
	const char *opt;
	enum field_kind kind;
	const char *key; /* the field's path in struct plan, as the text form names it */
	size_t off;
	size_t has; /* typed values: the bool saying the value was given, or OPTION_NO_HAS */
};

#define FIELD OPTION_FIELD
#define FN(h) K_NONE, NULL, 0
#define ON(f) K_BOOL, #f, FIELD(f, bool)
/* --share-net only takes back --unshare-all's ns.net, which --unshare-net expresses. */
#define OFF(f) K_NONE, NULL, 0
#define FD(f) K_FD, #f, FIELD(f, int)
#define STR(f) K_STR, #f, FIELD(f, char *)
#define LABEL(f) K_STR, #f, FIELD(f, char *)
#define LIST(f) K_STRV, #f, FIELD(f, char **)
#define HIDE(f) K_STRV, #f, FIELD(f, char **)
#define NS(f) K_NS_YES, #f, FIELD(f, enum ns_request)
#define NSTRY(f) K_NS_TRY, #f, FIELD(f, enum ns_request)
#define LL(f) K_BOOL, #f, FIELD(f, bool)
#define LLPATH(f) K_STRV, #f, FIELD(f, char **)
#define MODE(m) K_NONE, NULL, 0
#define SIZE(f, has, min) K_U64, #f, FIELD(f, uint64_t), FIELD(has, bool)
#define COUNT(f, has, lo, hi) K_U64, #f, FIELD(f, uint64_t), FIELD(has, bool)
#define FRACTION(f, has) K_FRACTION, #f, FIELD(f, uint64_t), FIELD(has, bool)
#define DURATION(...)                                                             \
	K_DURATION, KEY(__VA_ARGS__), FIELD(OPTION_VALUE(__VA_ARGS__), uint64_t), \
		OPTION_HAS(__VA_ARGS__)
#define KEY(f, ...) #f
#define ID(f, has) K_ID, #f, FIELD(f, uid_t), FIELD(has, bool)
static const struct field_row rows[] = {
#define PRINT_ROW(id, name, arity, group, flags, action, args, help) { name, action },
	NSRUN_OPTIONS(PRINT_ROW)
#undef PRINT_ROW
};
/* The action macros stay defined to the end of this file, which uses none of the names
 * again. */

/* The field ROW names in PLAN, read as a T. */
#define AT(plan, row, T) (*(const __typeof__(T) *)(const void *)((const char *)(plan) + (row)->off))

/* Whether ROW's typed value was given: its has field, or without one a value other than 0. */
static bool given(const struct plan *p, const struct field_row *r)
{
	if (r->has == OPTION_NO_HAS)
		return AT(p, r, uint64_t) != 0;
	return *(const bool *)(const void *)((const char *)p + r->has);
}

/* ---- canonical text ---- */

/* Quoted, with C escapes, so every field stays on one line whatever it contains. */
static void put_str(FILE *f, const char *s)
{
	if (!s) {
		fputs("(null)", f);
		return;
	}
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(f, "\\x%02x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void put_strv(FILE *f, const char *key, char *const *v)
{
	for (size_t i = 0; v && v[i]; i++) {
		fprintf(f, "%s[%zu]=", key, i);
		put_str(f, v[i]);
		fputc('\n', f);
	}
}

static const char *ns_request_name(enum ns_request r)
{
	return r == NS_YES ? "yes" : r == NS_TRY ? "try" : "no";
}

static void format_row(FILE *f, const struct plan *p, const struct field_row *r)
{
	switch (r->kind) {
	case K_BOOL:
		fprintf(f, "%s=%d\n", r->key, AT(p, r, bool));
		break;
	case K_FD:
		fprintf(f, "%s=%d\n", r->key, AT(p, r, int));
		break;
	case K_STR:
		fprintf(f, "%s=", r->key);
		put_str(f, AT(p, r, char *));
		fputc('\n', f);
		break;
	case K_STRV:
		put_strv(f, r->key, AT(p, r, char **));
		break;
	case K_NS_YES:
		fprintf(f, "%s=%s\n", r->key, ns_request_name(AT(p, r, enum ns_request)));
		break;
	case K_ID:
		if (given(p, r))
			fprintf(f, "%s=%u\n", r->key, (unsigned)AT(p, r, uid_t));
		break;
	case K_U64:
	case K_FRACTION:
		if (given(p, r))
			fprintf(f, "%s=%llu\n", r->key, (unsigned long long)AT(p, r, uint64_t));
		break;
	case K_DURATION:
		fprintf(f, "%s=%llu%s\n", r->key, (unsigned long long)AT(p, r, uint64_t),
			r->has == OPTION_NO_HAS || given(p, r) ? "" : "(default)");
		break;
	case K_NS_TRY:
	case K_NONE:
	default:
		break;
	}
}

static void format_op(FILE *f, size_t i, const struct op *op)
{
	fprintf(f, "op[%zu]=%s%s", i, op_type_name(op->type), op->flags & OP_F_TRY ? "-try" : "");
	if (op->source) {
		fputs(" source=", f);
		put_str(f, op->source);
	}
	if (op->workdir) {
		fputs(" workdir=", f);
		put_str(f, op->workdir);
	}
	for (size_t j = 0; op->layers && op->layers[j]; j++) {
		fputs(" layer=", f);
		put_str(f, op->layers[j]);
	}
	if (op->fd >= 0)
		fprintf(f, " fd=%d", op->fd);
	if (op->perms || (op->flags & OP_F_HAS_PERMS))
		fprintf(f, " perms=%04o%s", (unsigned)op->perms,
			op->flags & OP_F_HAS_PERMS ? "" : "(default)");
	if (op->flags & OP_F_HAS_SIZE)
		fprintf(f, " size=%llu", (unsigned long long)op->size);
	if (op->flags & OP_F_IDMAP)
		fputs(" idmap", f);
	fputs(" dest=", f);
	put_str(f, op->dest);
	fputc('\n', f);
}

/* FNV-1a: enough to tell programs apart in a dump without printing them. */
static uint64_t fnv1a(const unsigned char *d, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ d[i]) * 0x100000001b3ull;
	return h;
}

/* What the setters do not say: the fields set by handlers, or derived. */
static void format_by_hand(FILE *f, const struct plan *p)
{
	const struct supervise_config *c = &p->sup;

	put_strv(f, "proc.argv", p->proc.argv);
	fputs("proc.argv0=", f);
	put_str(f, p->proc.argv0);
	fputc('\n', f);
	put_strv(f, "proc.env", p->proc.envp);
	for (size_t i = 0; i < p->sync.n_sync_fds; i++)
		fprintf(f, "sync.sync_fd[%zu]=%d\n", i, p->sync.sync_fds[i]);
	for (int k = 0; k < 2; k++) {
		const struct id_map *m = k ? &p->ns.gid_map : &p->ns.uid_map;

		for (size_t i = 0; i < m->n; i++)
			fprintf(f, "ns.%s_map[%zu]=%u:%u:%u\n", k ? "gid" : "uid", i,
				m->v[i].inside, m->v[i].outside, m->v[i].count);
	}
	for (size_t i = 0; i < p->caps.n_ops; i++) {
		const struct cap_op *cap = &p->caps.ops[i];

		if (cap->cap == CAP_OP_ALL)
			fprintf(f, "caps[%zu]=%s ALL\n", i, cap->add ? "add" : "drop");
		else
			fprintf(f, "caps[%zu]=%s %d\n", i, cap->add ? "add" : "drop", cap->cap);
	}
	fprintf(f, "seccomp.from_seccomp_opt=%d\n", p->seccomp.from_seccomp_opt);
	for (size_t i = 0; i < p->seccomp.n_progs; i++)
		fprintf(f, "seccomp[%zu]=len=%zu fnv1a=%016llx\n", i, p->seccomp.progs[i].len,
			(unsigned long long)fnv1a(p->seccomp.progs[i].data,
						  p->seccomp.progs[i].len));
	fprintf(f, "landlock.enabled=%d\n", p->landlock.enabled);
	for (int k = 0; k < LL_PORT_KINDS; k++) {
		const char *key = plan_landlock_port_option(k) + strlen("--landlock-");

		fprintf(f, "landlock.%s=%d\n", key, p->landlock.ports[k].has);
		for (size_t i = 0; i < p->landlock.ports[k].n; i++)
			fprintf(f, "landlock.%s[%zu]=%u\n", key, i, p->landlock.ports[k].v[i]);
	}
	fprintf(f, "debug.force_mount_fallback=%d\ndebug.force_openat_fallback=%d\n",
		p->debug.force_mount_fallback, p->debug.force_openat_fallback);
	for (size_t i = 0; i < p->fallback.n; i++)
		fprintf(f, "fallback[%zu]=%s\n", i, fallback_item_name(p->fallback.items[i]));
	for (size_t i = 0; p->explain && p->explain[i]; i++)
		fprintf(f, "explain[%zu]=%s\n", i, p->explain[i]);
	for (size_t i = 0; i < p->n_bridges; i++)
		fprintf(f, "bridge[%zu]=%u %s\n", i, (unsigned)p->bridges[i].port,
			p->bridges[i].target);
	if (p->ns.has_monotonic)
		fprintf(f, "ns.monotonic=%lld\n", p->ns.monotonic);
	if (p->ns.has_boottime)
		fprintf(f, "ns.boottime=%lld\n", p->ns.boottime);
	for (size_t i = 0; i < c->n_rlimits; i++) {
		const struct plan_rlimit *rl = &c->rlimits[i];

		fprintf(f, "sup.rlimit[%zu]=%s", i, supervise_parse_rlimit_name(rl->resource));
		if (rl->has_soft)
			fprintf(f, " soft=%llu", (unsigned long long)rl->soft);
		if (rl->has_hard)
			fprintf(f, " hard=%llu", (unsigned long long)rl->hard);
		fputc('\n', f);
	}
}

char *plan_format(const struct plan *plan)
{
	/* clang-format off */
	static const char *const modes[PLAN_MODE_MAX] = {
		[PLAN_RUN] = "run",
		[PLAN_HELP] = "help",
		[PLAN_VERSION] = "version",
		[PLAN_LANDLOCK_ABI] = "landlock-abi",
		[PLAN_ASSUMED_KERNEL] = "assumed-kernel",
		[PLAN_DOCTOR] = "doctor",
		[PLAN_EXPLAIN] = "explain",
	};
	/* clang-format on */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort(); /* only ENOMEM; xmalloc's policy */
	fprintf(f, "mode=%s\nlevel_prefix=%d\n",
		(unsigned)plan->mode < PLAN_MODE_MAX ? modes[plan->mode] : "?", plan->level_prefix);
	for (size_t i = 0; i < plan->n_ops; i++)
		format_op(f, i, &plan->ops[i]);
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
		format_row(f, plan, &rows[i]);
	format_by_hand(f, plan);
	if (fclose(f) != 0)
		abort();
	return buf;
}

/* ---- the equivalent argv ---- */

static void push(char ***v, const char *s)
{
	strv_push(v, s);
}

/* Pushes [opt] n, in decimal or (for modes) octal with a leading 0. */
static void push_num(char ***v, const char *opt, long long n, bool octal)
{
	char *s = octal ? xasprintf("0%llo", (unsigned long long)n) : xasprintf("%lld", n);

	if (opt)
		push(v, opt);
	push(v, s);
	free(s);
}

static void push_fd(char ***v, const char *opt, int fd)
{
	if (fd >= 0)
		push_num(v, opt, fd, false);
}

static void push_opt_str(char ***v, const char *opt, const char *s)
{
	if (s) {
		push(v, opt);
		push(v, s);
	}
}

/* DURATION and FRACTION in the decimal form their parsers read back exactly. */
static void push_fixed(char ***v, const char *opt, uint64_t n, unsigned scale, int digits)
{
	char *s = xasprintf("%llu.%0*llu", (unsigned long long)(n / scale), digits,
			    (unsigned long long)(n % scale));

	push_opt_str(v, opt, s);
	free(s);
}

/* A typed value, when given. */
static void typed_to_argv(char ***v, const struct plan *p, const struct field_row *r)
{
	uint64_t n = r->kind == K_ID ? AT(p, r, uid_t) : AT(p, r, uint64_t);
	char buf[NUM_BUF_SIZE];

	if (!given(p, r))
		return;
	if (r->kind == K_FRACTION)
		push_fixed(v, r->opt, n, LIMITS_CPU_PERIOD_US, 5);
	else if (r->kind == K_DURATION)
		push_fixed(v, r->opt, n, 1000, 3);
	else
		push_opt_str(v, r->opt, num_str(buf, n, 10));
}

static void row_to_argv(char ***v, const struct plan *p, const struct field_row *r)
{
	char *const *sv;

	switch (r->kind) {
	case K_BOOL:
		if (AT(p, r, bool))
			push(v, r->opt);
		break;
	case K_FD:
		push_fd(v, r->opt, AT(p, r, int));
		break;
	case K_STR:
		push_opt_str(v, r->opt, AT(p, r, char *));
		break;
	case K_STRV:
		sv = AT(p, r, char **);
		for (size_t i = 0; sv && sv[i]; i++)
			push_opt_str(v, r->opt, sv[i]);
		break;
	case K_NS_YES:
	case K_NS_TRY:
		if (AT(p, r, enum ns_request) == (r->kind == K_NS_YES ? NS_YES : NS_TRY))
			push(v, r->opt);
		break;
	case K_ID:
	case K_U64:
	case K_FRACTION:
	case K_DURATION:
		typed_to_argv(v, p, r);
		break;
	case K_NONE:
	default:
		break;
	}
}

static void op_to_argv(char ***v, const struct op *op)
{
	const char *name = op_type_name(op->type);
	char *try_name = NULL;

	for (size_t i = 0; op->layers && op->layers[i]; i++) {
		push(v, "--overlay-src");
		push(v, op->layers[i]);
	}
	if (op->flags & OP_F_HAS_PERMS)
		push_num(v, "--perms", op->perms, true);
	if (op->flags & OP_F_HAS_SIZE)
		push_num(v, "--size", (long long)op->size, false);
	if (op->flags & OP_F_IDMAP)
		push(v, "--idmap");
	if (op->flags & OP_F_TRY)
		name = try_name = xasprintf("%s-try", name);
	push(v, name);
	free(try_name);
	if (op_desc(op->type)->args & OP_A_MODE)
		push_num(v, NULL, op->perms, true);
	else if (op->fd >= 0)
		push_fd(v, NULL, op->fd);
	else if (op->source)
		push(v, op->source);
	if (op->workdir)
		push(v, op->workdir);
	push(v, op->dest ? op->dest : "");
}

static void env_to_argv(char ***v, const struct plan *p)
{
	push_opt_str(v, "--argv0", p->proc.argv0);
	push(v, "--clearenv");
	for (size_t i = 0; p->proc.envp && p->proc.envp[i]; i++) {
		const char *eq = strchr(p->proc.envp[i], '=');
		char *name;

		if (!eq)
			continue; /* cannot be expressed with --setenv */
		name = xasprintf("%.*s", (int)(eq - p->proc.envp[i]), p->proc.envp[i]);
		push(v, "--setenv");
		push(v, name);
		push(v, eq + 1);
		free(name);
	}
}

static void security_to_argv(char ***v, const struct plan *p)
{
	for (size_t i = 0; p->caps.n_ops > i; i++) {
		const struct cap_op *c = &p->caps.ops[i];

		if (c->cap == CAP_OP_ALL)
			push_opt_str(v, c->add ? "--cap-add" : "--cap-drop", "ALL");
		else
			push_num(v, c->add ? "--cap-add" : "--cap-drop", c->cap, false);
	}
	for (size_t i = 0; i < p->seccomp.n_progs; i++)
		push_fd(v, p->seccomp.from_seccomp_opt ? "--seccomp" : "--add-seccomp-fd",
			PLAN_TO_ARGV_SECCOMP_FD_BASE + (int)i);
	for (size_t i = 0; i < p->sync.n_sync_fds; i++)
		push_fd(v, "--sync-fd", p->sync.sync_fds[i]);
	for (int k = 0; k < 2; k++) {
		const struct id_map *m = k ? &p->ns.gid_map : &p->ns.uid_map;

		for (size_t i = 0; i < m->n; i++) {
			_cleanup_free_ char *s = xasprintf("%u:%u:%u", m->v[i].inside,
							   m->v[i].outside, m->v[i].count);

			push_opt_str(v, k ? "--gid-map" : "--uid-map", s);
		}
	}
	for (int k = 0; k < LL_PORT_KINDS; k++)
		for (size_t i = 0; i < p->landlock.ports[k].n; i++)
			push_num(v, plan_landlock_port_option(k), p->landlock.ports[k].v[i], false);
	if (p->debug.force_mount_fallback)
		push(v, "--debug-opt=force-mount-setattr-fallback");
	if (p->debug.force_openat_fallback)
		push(v, "--debug-opt=force-openat-fallback");
}

static char *rlimit_value_text(uint64_t v)
{
	return v == RLIM_INFINITY ? xstrdup("unlimited") : xasprintf("%llu", (unsigned long long)v);
}

static void supervise_to_argv(char ***v, const struct plan *p)
{
	const struct supervise_config *c = &p->sup;

	for (size_t i = 0; i < c->n_rlimits; i++) {
		const struct plan_rlimit *rl = &c->rlimits[i];
		_cleanup_free_ char *soft = rl->has_soft ? rlimit_value_text(rl->soft) :
							   xstrdup("");
		_cleanup_free_ char *hard = rl->has_hard ? rlimit_value_text(rl->hard) :
							   xstrdup("");
		_cleanup_free_ char *s = xasprintf("%s=%s:%s",
						   supervise_parse_rlimit_name(rl->resource), soft,
						   hard);

		push_opt_str(v, "--rlimit", s);
	}
	for (size_t i = 0; i < p->fallback.n; i++)
		push_opt_str(v, "--fallback", fallback_item_name(p->fallback.items[i]));
	for (size_t i = 0; i < p->n_bridges; i++) {
		push_num(v, "--bridge", p->bridges[i].port, false);
		push(v, p->bridges[i].target);
	}
	if (p->ns.has_monotonic)
		push_num(v, "--monotonic", p->ns.monotonic, false);
	if (p->ns.has_boottime)
		push_num(v, "--boottime", p->ns.boottime, false);
}

char **plan_to_argv(const struct plan *plan)
{
	char **v = NULL;

	push(&v, "nsrun");
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
		row_to_argv(&v, plan, &rows[i]);
	for (size_t i = 0; i < plan->n_ops; i++)
		op_to_argv(&v, &plan->ops[i]);
	env_to_argv(&v, plan);
	security_to_argv(&v, plan);
	supervise_to_argv(&v, plan);
	for (size_t i = 0; plan->explain && plan->explain[i]; i++)
		push_opt_str(&v, "--explain", plan->explain[i]);
	if (plan->mode == PLAN_DOCTOR)
		push(&v, "--doctor");
	else if (plan->mode != PLAN_RUN && plan->mode != PLAN_EXPLAIN)
		push(&v, plan->mode == PLAN_HELP	   ? "--help" :
			 plan->mode == PLAN_VERSION	   ? "--version" :
			 plan->mode == PLAN_ASSUMED_KERNEL ? "--debug-opt=print-assumed-kernel" :
							     "--landlock-abi");
	if (plan->proc.argv) {
		push(&v, "--");
		for (size_t i = 0; plan->proc.argv[i]; i++)
			push(&v, plan->proc.argv[i]);
	}
	return v;
}
