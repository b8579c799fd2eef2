/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * plan.c: the plan's life cycle and the tables of filesystem ops and cgroup limits; its
 * printers are plan-print.c's, the rules between its options rules.c's. A plan owns every
 * string and array in it; plan_free() releases all of them. Everything here is pure.
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
	plan->ns.userns_fd = plan->ns.userns2_fd = plan->ns.pidns_fd = plan->ns.mountns_fd = -1;
	plan->sync.block_fd = plan->sync.userns_block_fd = -1;
	plan->sync.info_fd = plan->sync.json_status_fd = plan->sync.report_fd = -1;
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
	free(plan->ns.uid_map.v);
	free(plan->ns.gid_map.v);
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
	free(plan->landlock.bridge.v);
	for (size_t i = 0; i < plan->n_bridges; i++) {
		free(plan->bridges[i].target);
		free(plan->bridges[i].path);
		free(plan->bridges[i].host);
	}
	free(plan->bridges);
	strv_free(plan->explain);
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
	[OP_BIND] = { "--bind", OP_A_SOURCE | OP_A_TRY | OP_A_IDMAP, 0, 0, false, false },
	[OP_RO_BIND] = { "--ro-bind", OP_A_SOURCE | OP_A_TRY | OP_A_IDMAP, 0, 0, true, false },
	[OP_DEV_BIND] = { "--dev-bind", OP_A_SOURCE | OP_A_TRY | OP_A_IDMAP, 0, 0, false, true },
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
	[OP_SYS] = { "--sys", 0, 0, 0, true, false },
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

bool plan_in_place_child(const struct plan *p)
{
	return p->landlock.only && (p->sync.json_status_fd >= 0 || p->sync.report_fd >= 0);
}

/* ---- the cgroup options ---- */

bool plan_has_limits(const struct plan *p)
{
	for (size_t i = 0; i < plan_n_limits; i++)
		if (limit_flag(&p->limits, plan_limits[i].has))
			return true;
	return false;
}

const char *plan_cgroup_option(const struct plan *p)
{
	for (size_t i = 0; i < plan_n_limits; i++)
		if (limit_flag(&p->limits, plan_limits[i].has))
			return plan_limits[i].option;
	return p->limits.cgroup_parent ? "--cgroup-parent" : NULL;
}
