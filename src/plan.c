/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * plan.c: the plan's life cycle, the tables of filesystem ops and cgroup limits, and its
 * cross-option checks (bwrap's wording); its printers are plan-print.c's. A plan owns
 * every string and array in it; plan_free() releases all of them. Everything here is pure.
 */
#include "config.h"

#include "plan.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

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

/* The field F of struct limits_config, which must have type T. */
#define LIMIT_FIELD(f, T) \
	_Generic(((struct limits_config *)0)->f, T : offsetof(struct limits_config, f))
#define LIMIT(f) LIMIT_FIELD(f, uint64_t), LIMIT_FIELD(has_##f, bool)

/* In the order cgroup.c writes them, the status reports them and the messages name the
 * first one given. */
const struct plan_limit plan_limits[] = {
	{ "--memory-max", "memory.max", LIMIT(memory_max), PLAN_LIMIT_NONE, 0 },
	/* --memory-max means memory: a command that may swap out is not stopped at it. */
	{ "--memory-swap-max", "memory.swap.max", LIMIT(memory_swap_max),
	  LIMIT_FIELD(has_memory_max, bool), 0 },
	{ "--pids-max", "pids.max", LIMIT(pids_max), PLAN_LIMIT_NONE, 0 },
	{ "--cpu-max", "cpu.max", LIMIT_FIELD(cpu_quota_us, uint64_t),
	  LIMIT_FIELD(has_cpu_max, bool), PLAN_LIMIT_NONE, LIMITS_CPU_PERIOD_US },
};
const size_t plan_n_limits = ARRAY_SIZE(plan_limits);

static bool limit_flag(const struct limits_config *l, size_t off)
{
	return *(const bool *)(const void *)((const char *)l + off);
}

enum plan_limit_state plan_limit_value(const struct plan_limit *limit,
				       const struct limits_config *l, uint64_t *value)
{
	*value = 0;
	if (limit_flag(l, limit->has)) {
		*value = *(const uint64_t *)(const void *)((const char *)l + limit->value);
		return PLAN_LIMIT_GIVEN;
	}
	if (limit->zero_with != PLAN_LIMIT_NONE && limit_flag(l, limit->zero_with))
		return PLAN_LIMIT_IMPLIED;
	return PLAN_LIMIT_UNSET;
}

void plan_limit_text(const struct plan_limit *limit, uint64_t value, char *buf, size_t size)
{
	if (limit->period)
		snprintf(buf, size, "%" PRIu64 " %u", value, limit->period);
	else
		snprintf(buf, size, "%" PRIu64, value);
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
	for (size_t i = 0; i < plan_n_limits; i++)
		if (limit_flag(l, plan_limits[i].has))
			return plan_limits[i].option;
	return l->cgroup_parent ? "--cgroup-parent" : NULL;
}

bool plan_has_limits(const struct plan *p)
{
	for (size_t i = 0; i < plan_n_limits; i++)
		if (limit_flag(&p->limits, plan_limits[i].has))
			return true;
	return false;
}

/* --landlock-only execs in place: everything that needs a sandbox process is refused
 * rather than silently ignored. The launcher's steps (environment, --chdir, --argv0,
 * --new-session, --die-with-parent, capabilities, seccomp) still apply. Returns what
 * the refusal names: the option, and why where the option alone would mislead. */
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
		return "--forward-signals without --json-status-fd (in place, nsrun is the command)";
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
		return error_set(err, 0, "--landlock-only cannot be combined with %s", c);
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
