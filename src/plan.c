/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * plan.c: the plan's life cycle, its cross-option checks (bwrap's wording), its
 * canonical text form and its inverse, an equivalent argv. A plan owns every string
 * and array in it; plan_free() releases all of them. Everything here is pure.
 */
#include "config.h"

#include "plan.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "supervise-parse.h"
#include "util.h"

void plan_init(struct plan *plan, char *const *envp)
{
	memset(plan, 0, sizeof(*plan));
	plan->proc.envp = strv_copy(envp);
	plan->ns.userns_fd = plan->ns.userns2_fd = plan->ns.pidns_fd = -1;
	plan->sync.block_fd = plan->sync.userns_block_fd = -1;
	plan->sync.info_fd = plan->sync.json_status_fd = -1;
	plan->sup.netns_fd = -1;
	plan->sup.kill_after_ms = 5000;
}

void plan_free(struct plan *plan)
{
	for (size_t i = 0; i < plan->n_ops; i++) {
		free(plan->ops[i].source);
		free(plan->ops[i].dest);
		free(plan->ops[i].workdir);
		strv_free(plan->ops[i].layers);
	}
	free(plan->ops);
	free(plan->ns.hostname);
	strv_free(plan->proc.argv);
	free(plan->proc.argv0);
	free(plan->proc.chdir);
	strv_free(plan->proc.envp);
	free(plan->proc.exec_label);
	free(plan->proc.file_label);
	strv_free(plan->sync.lock_files);
	free(plan->sync.sync_fds);
	free(plan->caps.ops);
	for (size_t i = 0; i < plan->seccomp.n_progs; i++)
		free(plan->seccomp.progs[i].data);
	free(plan->seccomp.progs);
	strv_free(plan->landlock.rw);
	strv_free(plan->landlock.exec);
	for (int k = 0; k < LL_PORT_KINDS; k++)
		free(plan->landlock.ports[k].v);
	strv_free(plan->hide.hide);
	strv_free(plan->hide.allow);
	free(plan->sup.rlimits);
	free(plan->limits.cgroup_parent);
	strv_free(plan->warnings);
	memset(plan, 0, sizeof(*plan));
}

struct op *plan_add_op(struct plan *plan, enum op_type type)
{
	struct op *op;

	if (plan->n_ops >= PLAN_MAX_OPS)
		return NULL;
	op = xappend(&plan->ops, &plan->n_ops, sizeof(*op));
	op->type = type;
	op->fd = -1;
	return op;
}

static const struct op_desc op_descs[OP_MAX + 1] = {
	[OP_BIND] = { "--bind", OP_A_SOURCE | OP_A_TRY, 0, 0, false, false },
	[OP_RO_BIND] = { "--ro-bind", OP_A_SOURCE | OP_A_TRY, 0, 0, true, false },
	[OP_DEV_BIND] = { "--dev-bind", OP_A_SOURCE | OP_A_TRY, 0, 0, false, true },
	[OP_BIND_FD] = { "--bind-fd", OP_A_FD, 0, 0, false, false },
	[OP_RO_BIND_FD] = { "--ro-bind-fd", OP_A_FD, 0, 0, true, false },
	[OP_REMOUNT_RO] = { "--remount-ro", 0, 0, 0, true, false },
	[OP_PROC] = { "--proc", 0, 0, 0, false, false },
	[OP_DEV] = { "--dev", 0, 0, 0, false, true },
	[OP_TMPFS] = { "--tmpfs", 0, 0755, 0, false, false },
	[OP_MQUEUE] = { "--mqueue", 0, 0, 0, false, false },
	[OP_DIR] = { "--dir", 0, 0755, 0, false, false },
	[OP_FILE] = { "--file", OP_A_FD, 0666, 0, false, false },
	[OP_BIND_DATA] = { "--bind-data", OP_A_FD, 0600, 0, false, false },
	[OP_RO_BIND_DATA] = { "--ro-bind-data", OP_A_FD, 0600, 0, true, false },
	[OP_SYMLINK] = { "--symlink", OP_A_SOURCE, 0, 0, false, false },
	[OP_CHMOD] = { "--chmod", OP_A_MODE, 0, 0, false, false },
	[OP_OVERLAY] = { "--overlay", OP_A_SOURCE | OP_A_WORKDIR, 0, 1, false, false },
	[OP_TMP_OVERLAY] = { "--tmp-overlay", 0, 0, 1, false, false },
	[OP_RO_OVERLAY] = { "--ro-overlay", 0, 0, 2, true, false },
	[OP_MAX] = { "--unknown", 0, 0, 0, false, false },
};

const struct op_desc *op_desc(enum op_type type)
{
	return &op_descs[(unsigned)type < OP_MAX ? type : OP_MAX];
}

bool op_lookup(const char *name, enum op_type *type, bool *try)
{
	for (unsigned t = 0; t < OP_MAX; t++) {
		const struct op_desc *d = &op_descs[t];
		size_t n = strlen(d->name);

		if (strncmp(name, d->name, n) != 0)
			continue;
		*try = strcmp(name + n, "-try") == 0 && (d->args & OP_A_TRY);
		if (name[n] && !*try)
			continue;
		*type = (enum op_type)t;
		return true;
	}
	return false;
}

const char *op_type_name(enum op_type type)
{
	return op_desc(type)->name;
}

const char *plan_landlock_port_option(enum landlock_port_kind kind)
{
	static const char *const names[LL_PORT_KINDS] = {
		[LL_PORT_CONNECT_TCP] = "--landlock-connect-tcp",
		[LL_PORT_BIND_TCP] = "--landlock-bind-tcp",
		[LL_PORT_CONNECT_UDP] = "--landlock-connect-udp",
		[LL_PORT_BIND_UDP] = "--landlock-bind-udp",
	};

	return (unsigned)kind < LL_PORT_KINDS ? names[kind] : "--landlock-?";
}

/* ---- validation ---- */

static const char *ns_conflict(const struct ns_config *ns)
{
	if (ns->unshare_all)
		return "--unshare-all";
	if (ns->user != NS_NO)
		return ns->user == NS_YES ? "--unshare-user" : "--unshare-user-try";
	if (ns->cgroup != NS_NO)
		return ns->cgroup == NS_YES ? "--unshare-cgroup" : "--unshare-cgroup-try";
	if (ns->ipc || ns->pid || ns->net || ns->uts)
		return ns->ipc ? "--unshare-ipc" :
		       ns->pid ? "--unshare-pid" :
		       ns->net ? "--unshare-net" :
				 "--unshare-uts";
	if (ns->userns_fd >= 0 || ns->userns2_fd >= 0 || ns->pidns_fd >= 0)
		return ns->userns_fd >= 0  ? "--userns" :
		       ns->userns2_fd >= 0 ? "--userns2" :
					     "--pidns";
	if (ns->disable_userns || ns->assert_userns_disabled)
		return ns->disable_userns ? "--disable-userns" : "--assert-userns-disabled";
	if (ns->has_uid || ns->has_gid)
		return ns->has_uid ? "--uid" : "--gid";
	return ns->hostname ? "--hostname" : NULL;
}

/* The sync options --landlock-only cannot serve; --json-status-fd it can, with the
 * command as nsrun's child. */
static const char *sync_conflict(const struct sync_config *s)
{
	if (s->n_sync_fds)
		return "--sync-fd";
	if (s->block_fd >= 0)
		return "--block-fd";
	if (s->userns_block_fd >= 0)
		return "--userns-block-fd";
	if (s->info_fd >= 0)
		return "--info-fd";
	return s->lock_files ? "--lock-file" : NULL;
}

/* The first cgroup option given, or NULL. */
static const char *limits_conflict(const struct limits_config *l)
{
	if (l->has_memory_max || l->has_memory_swap_max)
		return l->has_memory_max ? "--memory-max" : "--memory-swap-max";
	if (l->has_pids_max || l->has_cpu_max)
		return l->has_pids_max ? "--pids-max" : "--cpu-max";
	return l->cgroup_parent ? "--cgroup-parent" : NULL;
}

bool plan_has_limits(const struct plan *p)
{
	const struct limits_config *l = &p->limits;

	return l->has_memory_max || l->has_memory_swap_max || l->has_pids_max || l->has_cpu_max;
}

/* --landlock-only execs in place: everything that needs a sandbox process is refused
 * rather than silently ignored. The launcher's steps (environment, --chdir, --argv0,
 * --new-session, --die-with-parent, capabilities, seccomp) still apply. */
static const char *landlock_only_conflict(const struct plan *p)
{
	const char *c;

	if (p->n_ops > 0)
		return op_type_name(p->ops[0].type);
	c = ns_conflict(&p->ns);
	if (!c)
		c = sync_conflict(&p->sync);
	if (c)
		return c;
	if (p->proc.as_pid_1)
		return "--as-pid-1";
	if (p->proc.exec_label || p->proc.file_label)
		return p->proc.exec_label ? "--exec-label" : "--file-label";
	if (p->hide.hide || p->hide.allow)
		return p->hide.hide ? "--overlay-hide" : "--overlay-allow";
	/* These need a monitor; --rlimit is the launcher's and applies in place too. */
	if (p->sup.forward_signals && p->sync.json_status_fd < 0)
		return "--forward-signals";
	if (p->sup.timeout_ms > 0)
		return "--timeout";
	if (p->sup.netns_fd >= 0)
		return "--netns";
	/* A cgroup needs someone outside it to remove it when the command is done. */
	return limits_conflict(&p->limits);
}

static int validate_userns(const struct plan *p, struct nsrun_error *err)
{
	const struct ns_config *ns = &p->ns;
	int ubfd = p->sync.userns_block_fd;

	if (ubfd >= 0 && ns->user != NS_YES)
		return error_set(err, 0, "--userns-block-fd requires --unshare-user");
	if (ubfd >= 0 && p->sync.info_fd < 0)
		return error_set(err, 0, "--userns-block-fd requires --info-fd");
	if (ns->userns_fd >= 0 && ns->user == NS_YES)
		return error_set(err, 0, "--userns is not compatible with --unshare-user");
	if (ns->userns_fd >= 0 && ns->user == NS_TRY)
		return error_set(err, 0, "--userns is not compatible with --unshare-user-try");
	if (ns->disable_userns && ns->user != NS_YES)
		return error_set(err, 0, "--disable-userns requires --unshare-user");
	if (ns->disable_userns && ubfd >= 0)
		return error_set(err, 0,
				 "--disable-userns is not compatible with --userns-block-fd");
	return 0;
}

static int validate_supervise(const struct plan *p, struct nsrun_error *err)
{
	const struct supervise_config *c = &p->sup;

	if (c->forward_signals && p->proc.as_pid_1)
		return error_set(err, 0,
				 "Specifying --forward-signals and --as-pid-1 is not permitted");
	if (c->has_kill_after && c->timeout_ms == 0)
		return error_set(err, 0, "--kill-after requires --timeout");
	/* Only a pid namespace makes the deadline exact: its pid 1 takes every process
	 * with it, where a sweep through /proc can be outrun by a process that forks a
	 * successor and exits; and the command cannot see nsrun to stop or kill it. */
	if (c->timeout_ms > 0 && !p->ns.pid)
		return error_set(
			err, 0,
			"--timeout requires --unshare-pid (or --unshare-all), so that no "
			"process of the sandbox outlives the deadline and the command cannot "
			"signal nsrun");
	/* As for the deadline: without a pid namespace the command can signal nsrun's guard
	 * and reach the host's processes (/proc/PID/root) and through them the cgroup's
	 * parent, where a user's sandbox could turn its own limits off. */
	if (plan_has_limits(p) && !p->ns.pid)
		return error_set(err, 0,
				 "%s requires --unshare-pid (or --unshare-all), so that the command "
				 "cannot reach nsrun or the host's processes to undo its limits",
				 limits_conflict(&p->limits));
	/* Joined, the pid namespace may be one whose /proc shows the user's processes. */
	if (plan_has_limits(p) && p->ns.pidns_fd >= 0)
		return error_set(err, 0, "%s cannot be combined with --pidns",
				 limits_conflict(&p->limits));
	if (p->limits.cgroup_parent && !plan_has_limits(p))
		return error_set(err, 0,
				 "--cgroup-parent requires a limit (--memory-max, --memory-swap-max, "
				 "--pids-max or --cpu-max)");
	if (c->netns_fd >= 0 && p->ns.net)
		return error_set(err, 0,
				 "--netns cannot be combined with --unshare-net "
				 "(with --unshare-all, add --share-net)");
	return 0;
}

int plan_validate(const struct plan *plan, bool is_root, struct nsrun_error *err)
{
	const struct ns_config *ns = &plan->ns;
	/* Without root nsrun always creates a user namespace (bwrap implies it too). */
	bool no_userns = is_root && ns->user == NS_NO && ns->userns_fd < 0;
	const char *c;
	int r;

	if (plan->landlock.only && (c = landlock_only_conflict(plan)))
		return error_set(
			err, 0, "--landlock-only cannot be combined with %s%s", c,
			strcmp(c, "--forward-signals") == 0 ?
				" without --json-status-fd (in place, nsrun is the command)" :
				"");
	r = validate_userns(plan, err);
	if (r < 0)
		return r;
	if (no_userns && ns->has_uid && ns->uid != 0)
		return error_set(err, 0, "Specifying --uid requires --unshare-user or --userns");
	if (no_userns && ns->has_gid && ns->gid != 0)
		return error_set(err, 0, "Specifying --gid requires --unshare-user or --userns");
	if (ns->hostname && !ns->uts)
		return error_set(err, 0, "Specifying --hostname requires --unshare-uts");
	if (plan->proc.as_pid_1 && !ns->pid)
		return error_set(err, 0, "Specifying --as-pid-1 requires --unshare-pid");
	if (plan->proc.as_pid_1 && plan->sync.lock_files)
		return error_set(err, 0, "Specifying --as-pid-1 and --lock-file is not permitted");
	return validate_supervise(plan, err);
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
	fputs(" dest=", f);
	put_str(f, op->dest);
	fputc('\n', f);
}

static void format_ns(FILE *f, const struct ns_config *ns)
{
	fprintf(f, "ns.user=%s\nns.cgroup=%s\n", ns_request_name(ns->user),
		ns_request_name(ns->cgroup));
	fprintf(f, "ns.ipc=%d\nns.pid=%d\nns.net=%d\nns.uts=%d\n", ns->ipc, ns->pid, ns->net,
		ns->uts);
	fprintf(f, "ns.userns_fd=%d\nns.userns2_fd=%d\nns.pidns_fd=%d\n", ns->userns_fd,
		ns->userns2_fd, ns->pidns_fd);
	fprintf(f, "ns.disable_userns=%d\nns.assert_userns_disabled=%d\n", ns->disable_userns,
		ns->assert_userns_disabled);
	if (ns->has_uid)
		fprintf(f, "ns.uid=%u\n", (unsigned)ns->uid);
	if (ns->has_gid)
		fprintf(f, "ns.gid=%u\n", (unsigned)ns->gid);
	fputs("ns.hostname=", f);
	put_str(f, ns->hostname);
	fputc('\n', f);
}

static void format_proc(FILE *f, const struct proc_config *pc)
{
	put_strv(f, "proc.argv", pc->argv);
	fputs("proc.argv0=", f);
	put_str(f, pc->argv0);
	fputs("\nproc.chdir=", f);
	put_str(f, pc->chdir);
	fputs("\nproc.exec_label=", f);
	put_str(f, pc->exec_label);
	fputs("\nproc.file_label=", f);
	put_str(f, pc->file_label);
	fprintf(f, "\nproc.die_with_parent=%d\nproc.new_session=%d\nproc.as_pid_1=%d\n",
		pc->die_with_parent, pc->new_session, pc->as_pid_1);
	put_strv(f, "proc.env", pc->envp);
}

static void format_sync(FILE *f, const struct sync_config *s)
{
	for (size_t i = 0; i < s->n_sync_fds; i++)
		fprintf(f, "sync.sync_fd[%zu]=%d\n", i, s->sync_fds[i]);
	fprintf(f, "sync.block_fd=%d\nsync.userns_block_fd=%d\n", s->block_fd, s->userns_block_fd);
	fprintf(f, "sync.info_fd=%d\nsync.json_status_fd=%d\n", s->info_fd, s->json_status_fd);
	put_strv(f, "sync.lock_file", s->lock_files);
}

/* FNV-1a: enough to tell programs apart in a dump without printing them. */
static uint64_t fnv1a(const unsigned char *d, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ d[i]) * 0x100000001b3ull;
	return h;
}

static void format_security(FILE *f, const struct plan *p)
{
	for (size_t i = 0; i < p->caps.n_ops; i++) {
		const struct cap_op *c = &p->caps.ops[i];

		if (c->cap == CAP_OP_ALL)
			fprintf(f, "caps[%zu]=%s ALL\n", i, c->add ? "add" : "drop");
		else
			fprintf(f, "caps[%zu]=%s %d\n", i, c->add ? "add" : "drop", c->cap);
	}
	fprintf(f, "seccomp.from_seccomp_opt=%d\n", p->seccomp.from_seccomp_opt);
	for (size_t i = 0; i < p->seccomp.n_progs; i++)
		fprintf(f, "seccomp[%zu]=len=%zu fnv1a=%016llx\n", i, p->seccomp.progs[i].len,
			(unsigned long long)fnv1a(p->seccomp.progs[i].data,
						  p->seccomp.progs[i].len));
}

static void format_landlock(FILE *f, const struct landlock_config *l)
{
	fprintf(f, "landlock.enabled=%d\nlandlock.only=%d\nlandlock.scope=%d\n", l->enabled,
		l->only, l->scope);
	put_strv(f, "landlock.rw", l->rw);
	put_strv(f, "landlock.exec", l->exec);
	for (int k = 0; k < LL_PORT_KINDS; k++) {
		const char *key = plan_landlock_port_option(k) + strlen("--landlock-");

		fprintf(f, "landlock.%s=%d\n", key, l->ports[k].has);
		for (size_t i = 0; i < l->ports[k].n; i++)
			fprintf(f, "landlock.%s[%zu]=%u\n", key, i, l->ports[k].v[i]);
	}
	fprintf(f, "landlock.deny_unix=%d\n", l->deny_unix);
}

static void format_supervise(FILE *f, const struct supervise_config *c)
{
	fprintf(f, "sup.forward_signals=%d\nsup.timeout_ms=%llu\nsup.kill_after_ms=%llu%s\n",
		c->forward_signals, (unsigned long long)c->timeout_ms,
		(unsigned long long)c->kill_after_ms, c->has_kill_after ? "" : "(default)");
	for (size_t i = 0; i < c->n_rlimits; i++) {
		const struct plan_rlimit *rl = &c->rlimits[i];

		fprintf(f, "sup.rlimit[%zu]=%s", i, supervise_parse_rlimit_name(rl->resource));
		if (rl->has_soft)
			fprintf(f, " soft=%llu", (unsigned long long)rl->soft);
		if (rl->has_hard)
			fprintf(f, " hard=%llu", (unsigned long long)rl->hard);
		fputc('\n', f);
	}
	fprintf(f, "sup.netns_fd=%d\n", c->netns_fd);
}

static void format_limits(FILE *f, const struct limits_config *l)
{
	if (l->has_memory_max)
		fprintf(f, "limits.memory_max=%llu\n", (unsigned long long)l->memory_max);
	if (l->has_memory_swap_max)
		fprintf(f, "limits.memory_swap_max=%llu\n", (unsigned long long)l->memory_swap_max);
	if (l->has_pids_max)
		fprintf(f, "limits.pids_max=%llu\n", (unsigned long long)l->pids_max);
	if (l->has_cpu_max)
		fprintf(f, "limits.cpu_quota_us=%llu\n", (unsigned long long)l->cpu_quota_us);
	fputs("limits.cgroup_parent=", f);
	put_str(f, l->cgroup_parent);
	fputc('\n', f);
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
	};
	/* clang-format on */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort(); /* only ENOMEM; xmalloc's policy */
	fprintf(f, "mode=%s\nlevel_prefix=%d\n",
		(unsigned)plan->mode < PLAN_MODE_MAX ? modes[plan->mode] : "?", plan->level_prefix);
	if (plan->json)
		fprintf(f, "json=1\n");
	for (size_t i = 0; i < plan->n_ops; i++)
		format_op(f, i, &plan->ops[i]);
	format_ns(f, &plan->ns);
	format_proc(f, &plan->proc);
	format_sync(f, &plan->sync);
	format_security(f, plan);
	format_landlock(f, &plan->landlock);
	put_strv(f, "hide.hide", plan->hide.hide);
	put_strv(f, "hide.allow", plan->hide.allow);
	fprintf(f,
		"debug.force_mount_fallback=%d\ndebug.force_openat_fallback=%d\n"
		"debug.not_a_security_boundary=%d\n",
		plan->debug.force_mount_fallback, plan->debug.force_openat_fallback,
		plan->debug.not_a_security_boundary);
	format_supervise(f, &plan->sup);
	format_limits(f, &plan->limits);
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

static void ns_to_argv(char ***v, const struct ns_config *ns)
{
	if (ns->user != NS_NO)
		push(v, ns->user == NS_YES ? "--unshare-user" : "--unshare-user-try");
	if (ns->cgroup != NS_NO)
		push(v, ns->cgroup == NS_YES ? "--unshare-cgroup" : "--unshare-cgroup-try");
	if (ns->ipc)
		push(v, "--unshare-ipc");
	if (ns->pid)
		push(v, "--unshare-pid");
	if (ns->net)
		push(v, "--unshare-net");
	if (ns->uts)
		push(v, "--unshare-uts");
	push_fd(v, "--userns", ns->userns_fd);
	push_fd(v, "--userns2", ns->userns2_fd);
	push_fd(v, "--pidns", ns->pidns_fd);
	if (ns->disable_userns)
		push(v, "--disable-userns");
	if (ns->assert_userns_disabled)
		push(v, "--assert-userns-disabled");
	if (ns->has_uid)
		push_num(v, "--uid", ns->uid, false);
	if (ns->has_gid)
		push_num(v, "--gid", ns->gid, false);
	if (ns->hostname) {
		push(v, "--hostname");
		push(v, ns->hostname);
	}
}

static void push_opt_str(char ***v, const char *opt, const char *s)
{
	if (s) {
		push(v, opt);
		push(v, s);
	}
}

static void proc_to_argv(char ***v, const struct proc_config *pc)
{
	push_opt_str(v, "--argv0", pc->argv0);
	push_opt_str(v, "--chdir", pc->chdir);
	push_opt_str(v, "--exec-label", pc->exec_label);
	push_opt_str(v, "--file-label", pc->file_label);
	if (pc->die_with_parent)
		push(v, "--die-with-parent");
	if (pc->new_session)
		push(v, "--new-session");
	if (pc->as_pid_1)
		push(v, "--as-pid-1");
	push(v, "--clearenv");
	for (size_t i = 0; pc->envp && pc->envp[i]; i++) {
		const char *eq = strchr(pc->envp[i], '=');
		char *name;

		if (!eq)
			continue; /* cannot be expressed with --setenv */
		name = xasprintf("%.*s", (int)(eq - pc->envp[i]), pc->envp[i]);
		push(v, "--setenv");
		push(v, name);
		push(v, eq + 1);
		free(name);
	}
}

static void rest_to_argv(char ***v, const struct plan *p)
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
	push_fd(v, "--block-fd", p->sync.block_fd);
	push_fd(v, "--userns-block-fd", p->sync.userns_block_fd);
	push_fd(v, "--info-fd", p->sync.info_fd);
	push_fd(v, "--json-status-fd", p->sync.json_status_fd);
	for (size_t i = 0; p->sync.lock_files && p->sync.lock_files[i]; i++)
		push_opt_str(v, "--lock-file", p->sync.lock_files[i]);
	for (size_t i = 0; p->landlock.rw && p->landlock.rw[i]; i++)
		push_opt_str(v, "--landlock-rw", p->landlock.rw[i]);
	for (size_t i = 0; p->landlock.exec && p->landlock.exec[i]; i++)
		push_opt_str(v, "--landlock-exec", p->landlock.exec[i]);
	for (int k = 0; k < LL_PORT_KINDS; k++)
		for (size_t i = 0; i < p->landlock.ports[k].n; i++)
			push_num(v, plan_landlock_port_option(k), p->landlock.ports[k].v[i], false);
	if (p->landlock.scope)
		push(v, "--landlock-scope");
	if (p->landlock.deny_unix)
		push(v, "--landlock-deny-unix");
	if (p->landlock.only)
		push(v, "--landlock-only");
	for (size_t i = 0; p->hide.hide && p->hide.hide[i]; i++)
		push_opt_str(v, "--overlay-hide", p->hide.hide[i]);
	for (size_t i = 0; p->hide.allow && p->hide.allow[i]; i++)
		push_opt_str(v, "--overlay-allow", p->hide.allow[i]);
	if (p->level_prefix)
		push(v, "--level-prefix");
	if (p->debug.not_a_security_boundary)
		push(v, "--not-a-security-boundary");
	if (p->debug.force_mount_fallback)
		push(v, "--debug-opt=force-mount-setattr-fallback");
	if (p->debug.force_openat_fallback)
		push(v, "--debug-opt=force-openat-fallback");
	if (p->json)
		push(v, "--json");
}

static char *rlimit_value_text(uint64_t v)
{
	return v == RLIM_INFINITY ? xstrdup("unlimited") : xasprintf("%llu", (unsigned long long)v);
}

static void supervise_to_argv(char ***v, const struct supervise_config *c)
{
	char *s;

	if (c->forward_signals)
		push(v, "--forward-signals");
	if (c->timeout_ms > 0) {
		s = xasprintf("%llu.%03llu", (unsigned long long)(c->timeout_ms / 1000),
			      (unsigned long long)(c->timeout_ms % 1000));
		push_opt_str(v, "--timeout", s);
		free(s);
	}
	if (c->has_kill_after) {
		s = xasprintf("%llu.%03llu", (unsigned long long)(c->kill_after_ms / 1000),
			      (unsigned long long)(c->kill_after_ms % 1000));
		push_opt_str(v, "--kill-after", s);
		free(s);
	}
	for (size_t i = 0; i < c->n_rlimits; i++) {
		const struct plan_rlimit *rl = &c->rlimits[i];
		_cleanup_free_ char *soft = rl->has_soft ? rlimit_value_text(rl->soft) :
							   xstrdup("");
		_cleanup_free_ char *hard = rl->has_hard ? rlimit_value_text(rl->hard) :
							   xstrdup("");

		s = xasprintf("%s=%s:%s", supervise_parse_rlimit_name(rl->resource), soft, hard);
		push_opt_str(v, "--rlimit", s);
		free(s);
	}
	push_fd(v, "--netns", c->netns_fd);
}

static void push_u64(char ***v, const char *opt, bool has, uint64_t n)
{
	char buf[NUM_BUF_SIZE];

	if (has)
		push_opt_str(v, opt, num_str(buf, n, 10));
}

static void limits_to_argv(char ***v, const struct limits_config *l)
{
	char *s;

	push_u64(v, "--memory-max", l->has_memory_max, l->memory_max);
	push_u64(v, "--memory-swap-max", l->has_memory_swap_max, l->memory_swap_max);
	push_u64(v, "--pids-max", l->has_pids_max, l->pids_max);
	if (l->has_cpu_max) {
		s = xasprintf("%llu.%05llu",
			      (unsigned long long)(l->cpu_quota_us / LIMITS_CPU_PERIOD_US),
			      (unsigned long long)(l->cpu_quota_us % LIMITS_CPU_PERIOD_US));
		push_opt_str(v, "--cpu-max", s);
		free(s);
	}
	if (l->cgroup_parent)
		push_opt_str(v, "--cgroup-parent", l->cgroup_parent);
}

char **plan_to_argv(const struct plan *plan)
{
	char **v = NULL;

	push(&v, "nsrun");
	ns_to_argv(&v, &plan->ns);
	for (size_t i = 0; i < plan->n_ops; i++)
		op_to_argv(&v, &plan->ops[i]);
	proc_to_argv(&v, &plan->proc);
	rest_to_argv(&v, plan);
	supervise_to_argv(&v, &plan->sup);
	limits_to_argv(&v, &plan->limits);
	if (plan->mode == PLAN_DOCTOR)
		push(&v, "--doctor");
	else if (plan->mode != PLAN_RUN)
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
