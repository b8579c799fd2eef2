/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rules.c: every rule between options, one row each, and the one walk that checks them.
 * The rows are checked in the table's order, which decides the message when several are
 * broken: bwrap's order for bwrap's rules, and nsrun's since its first release for its
 * own. A refusal is always exit status 1, before anything runs. Pure: no syscalls.
 */
#include "config.h"

#include "rules.h"

#include <stdio.h>
#include <string.h>

#include "caps.h"
#include "cli-options.h"
#include "util.h"

/* ---- conditions: what a side of a rule finds in the plan ---- */

static bool fallback_declares(const struct plan *p, enum fallback_item item)
{
	for (size_t i = 0; i < p->fallback.n; i++)
		if (p->fallback.items[i] == item)
			return true;
	return false;
}

static bool has_idmap_bind(const struct plan *p)
{
	for (size_t i = 0; i < p->n_ops; i++)
		if (p->ops[i].flags & OP_F_IDMAP)
			return true;
	return false;
}

/* clang-format off */
#define GIVEN(fn, test, name)                                                       \
	static const char *fn(const struct plan *p, const struct rules_ctx *ctx)   \
	{                                                                           \
		(void)ctx;                                                          \
		return (test) ? (name) : NULL;                                      \
	}

GIVEN(doctor, p->mode == PLAN_DOCTOR, "--doctor")
GIVEN(command, p->proc.argv, p->proc.argv[0])
/* Modes other than --doctor ignore every option, --json too (--help --json prints help). */
GIVEN(json_in_run, p->json && p->mode == PLAN_RUN, "--json")
GIVEN(landlock_only, p->landlock.only, "--landlock-only")
GIVEN(landlock_exec, p->landlock.exec, "--landlock-exec")
GIVEN(first_op, p->n_ops > 0, op_type_name(p->ops[0].type))
GIVEN(unshare_user, p->ns.user == NS_YES, "--unshare-user")
GIVEN(unshare_user_any, p->ns.user != NS_NO,
      p->ns.user == NS_YES ? "--unshare-user" : "--unshare-user-try")
GIVEN(userns, p->ns.userns_fd >= 0, "--userns")
GIVEN(some_userns, p->ns.user != NS_NO || p->ns.userns_fd >= 0,
      p->ns.user != NS_NO ? "--unshare-user" : "--userns")
GIVEN(userns_block_fd, p->sync.userns_block_fd >= 0, "--userns-block-fd")
GIVEN(disable_userns, p->ns.disable_userns, "--disable-userns")
GIVEN(info_fd, p->sync.info_fd >= 0, "--info-fd")
/* Without root nsrun always creates a user namespace (bwrap implies it too). */
GIVEN(uid_as_root, ctx->is_root && p->ns.has_uid && p->ns.uid != 0, "--uid")
GIVEN(gid_as_root, ctx->is_root && p->ns.has_gid && p->ns.gid != 0, "--gid")
GIVEN(hostname, p->ns.hostname, "--hostname")
GIVEN(unshare_uts, p->ns.uts, "--unshare-uts")
GIVEN(unshare_pid, p->ns.pid, "--unshare-pid")
GIVEN(unshare_net, p->ns.net, "--unshare-net")
GIVEN(pidns, p->ns.pidns_fd >= 0, "--pidns")
GIVEN(as_pid_1, p->proc.as_pid_1, "--as-pid-1")
GIVEN(lock_file, p->sync.lock_files, "--lock-file")
GIVEN(label, p->proc.exec_label || p->proc.file_label,
      p->proc.exec_label ? "--exec-label" : "--file-label")
GIVEN(hide, p->hide.hide || p->hide.allow, p->hide.hide ? "--overlay-hide" : "--overlay-allow")
GIVEN(forward_signals, p->sup.forward_signals, "--forward-signals")
/* Either status fd keeps nsrun as the command's parent (plan_in_place_child). */
GIVEN(ignore_keyboard_in_place,
      p->sup.ignore_keyboard_signals && p->sync.json_status_fd < 0 && p->sync.report_fd < 0,
      "--ignore-keyboard-signals without --json-status-fd or --report-fd (in place, nsrun is "
      "the command)")
GIVEN(unshare_time, p->ns.time, "--unshare-time")
GIVEN(monotonic, p->ns.has_monotonic, "--monotonic")
GIVEN(boottime, p->ns.has_boottime, "--boottime")
/* In place nsrun is the command; with either status fd it is the command's parent. */
GIVEN(forward_in_place,
      p->sup.forward_signals && p->sync.json_status_fd < 0 && p->sync.report_fd < 0,
      "--forward-signals without --json-status-fd or --report-fd (in place, nsrun is the "
      "command)")
GIVEN(timeout, p->sup.timeout_ms > 0, "--timeout")
GIVEN(kill_after, p->sup.has_kill_after, "--kill-after")
GIVEN(netns, p->sup.netns_fd >= 0, "--netns")
GIVEN(mountns, p->ns.mountns_fd >= 0, "--mountns")
GIVEN(bridge, p->n_bridges > 0, "--bridge")
GIVEN(limit, plan_has_limits(p), plan_cgroup_option(p))
GIVEN(cgroup_option, true, plan_cgroup_option(p))
GIVEN(cgroup_parent, p->limits.cgroup_parent, "--cgroup-parent")
GIVEN(cap_add_exec_breakers, caps_requested(&p->caps, 0) & CAPS_EXEC_BOUNDARY_BREAKERS,
      "--cap-add")
GIVEN(fallback, p->fallback.n > 0, "--fallback")
GIVEN(fallback_landlock, fallback_declares(p, FALLBACK_LANDLOCK), "--fallback namespaces")
GIVEN(landlock_fs, p->landlock.rw || p->landlock.exec,
      p->landlock.rw ? "--landlock-rw" : "--landlock-exec")
GIVEN(userns2, p->ns.userns2_fd >= 0, "--userns2")
GIVEN(id_map, p->ns.uid_map.n || p->ns.gid_map.n,
      p->ns.uid_map.n ? "--uid-map" : "--gid-map")
GIVEN(idmap, has_idmap_bind(p), "--idmap")
GIVEN(cap_add_limit_breakers, caps_requested(&p->caps, 0) & CAPS_LIMIT_BREAKERS, "--cap-add")
#undef GIVEN
/* clang-format on */

/* The first namespace option given. */
static const char *ns_option(const struct plan *p, const struct rules_ctx *ctx)
{
	const struct ns_config *ns = &p->ns;

	(void)ctx;
	if (ns->unshare_all)
		return "--unshare-all";
	if (ns->user != NS_NO)
		return ns->user == NS_YES ? "--unshare-user" : "--unshare-user-try";
	if (ns->cgroup != NS_NO)
		return ns->cgroup == NS_YES ? "--unshare-cgroup" : "--unshare-cgroup-try";
	if (ns->time)
		return "--unshare-time";
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
static const char *sync_option(const struct plan *p, const struct rules_ctx *ctx)
{
	const struct sync_config *s = &p->sync;

	(void)ctx;
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

/* ---- the table ---- */

#define LL_ONLY "--landlock-only cannot be combined with {b}"
#define FALLBACK_WITH "--fallback cannot be combined with {b}"

/* clang-format off */
const struct rule rules_table[] = {
	/* stage, A, kind, B, has_a, has_b, message */

	/* bwrap refuses these as it reads them, so that they come before the errors of
	 * later options; the option given second is refused. */
	{ RULE_PARSE, "--add-seccomp-fd", RULE_EXCLUDES, "--seccomp", NULL, NULL,
	  "--add-seccomp-fd cannot be combined with --seccomp" },
	{ RULE_PARSE, "--argv0", RULE_ONCE, NULL, NULL, NULL,
	  "--argv0 used multiple times" },
	/* Two modes: the second would silently win. */
	{ RULE_PARSE, "--doctor", RULE_EXCLUDES, "--explain", NULL, NULL,
	  "--doctor cannot be combined with --explain" },
	{ RULE_PARSE, "--explain", RULE_EXCLUDES, "--doctor", NULL, NULL,
	  "--explain cannot be combined with --doctor" },
	{ RULE_PARSE, "--seccomp", RULE_EXCLUDES, "--add-seccomp-fd", NULL, NULL,
	  "--seccomp cannot be combined with --add-seccomp-fd" },

	/* A word after --doctor is a mistake, not a command to check or run. */
	{ RULE_MODE, "--doctor", RULE_EXCLUDES, "a command", doctor, command,
	  "--doctor takes no COMMAND (got '{b}')" },
	{ RULE_MODE, "--json", RULE_REQUIRES, "--doctor", json_in_run, doctor,
	  "--json is only valid with --doctor" },

	/* --landlock-only execs in place: everything that needs a sandbox process is
	 * refused rather than silently ignored. The launcher's steps (environment, --chdir,
	 * --argv0, --new-session, --die-with-parent, capabilities, seccomp, --rlimit) still
	 * apply. The message names the first option given, and why where the option alone
	 * would mislead. */
	{ RULE_RUN, "--landlock-only", RULE_EXCLUDES, "a file system option", landlock_only, first_op, LL_ONLY },
	{ RULE_RUN, "--landlock-only", RULE_EXCLUDES, "a namespace", landlock_only, ns_option, LL_ONLY },
	{ RULE_RUN, "--landlock-only", RULE_EXCLUDES, "a synchronisation fd", landlock_only, sync_option, LL_ONLY },
	{ RULE_RUN, "--landlock-only", RULE_EXCLUDES, "--as-pid-1", landlock_only, as_pid_1, LL_ONLY },
	{ RULE_RUN, "--landlock-only", RULE_EXCLUDES, "SELinux labels", landlock_only, label, LL_ONLY },
	{ RULE_RUN, "--landlock-only", RULE_EXCLUDES, "overlay-hide", landlock_only, hide, LL_ONLY },
	/* These need a monitor. */
	{ RULE_RUN, "--landlock-only", RULE_EXCLUDES, "--forward-signals", landlock_only, forward_in_place, LL_ONLY },
	{ RULE_RUN, "--landlock-only", RULE_EXCLUDES, "--ignore-keyboard-signals", landlock_only, ignore_keyboard_in_place, LL_ONLY },
	{ RULE_RUN, "--landlock-only", RULE_EXCLUDES, "--timeout", landlock_only, timeout, LL_ONLY },
	{ RULE_RUN, "--landlock-only", RULE_EXCLUDES, "--netns", landlock_only, netns, LL_ONLY },
	{ RULE_RUN, "--landlock-only", RULE_EXCLUDES, "--mountns", landlock_only, mountns, LL_ONLY },
	{ RULE_RUN, "--landlock-only", RULE_EXCLUDES, "--bridge", landlock_only, bridge, LL_ONLY },
	/* A cgroup needs someone outside it to remove it when the command is done. */
	{ RULE_RUN, "--landlock-only", RULE_EXCLUDES, "the resource limits", landlock_only, cgroup_option, LL_ONLY },

	/* --fallback may start the sandbox more than once: what joins a namespace by fd,
	 * or hands the caller the child's pid before its setup, cannot be done twice. */
	{ RULE_RUN, "--fallback", RULE_EXCLUDES, "--landlock-only", fallback, landlock_only, FALLBACK_WITH },
	{ RULE_RUN, "--fallback", RULE_EXCLUDES, "--userns", fallback, userns, FALLBACK_WITH },
	{ RULE_RUN, "--fallback", RULE_EXCLUDES, "--userns2", fallback, userns2, FALLBACK_WITH },
	{ RULE_RUN, "--fallback", RULE_EXCLUDES, "--pidns", fallback, pidns, FALLBACK_WITH },
	{ RULE_RUN, "--fallback", RULE_EXCLUDES, "--netns", fallback, netns, FALLBACK_WITH },
	{ RULE_RUN, "--fallback", RULE_EXCLUDES, "--mountns", fallback, mountns, FALLBACK_WITH },
	{ RULE_RUN, "--fallback", RULE_EXCLUDES, "--userns-block-fd", fallback, userns_block_fd, FALLBACK_WITH },
	/* Without a Landlock file boundary, namespaces given up would leave no sandbox at all. */
	{ RULE_RUN, "--fallback", RULE_REQUIRES, "--landlock-rw", fallback_landlock, landlock_fs,
	  "--fallback namespaces requires --landlock-rw or --landlock-exec (without either the command would run unconfined)" },

	{ RULE_RUN, "--userns-block-fd", RULE_REQUIRES, "--unshare-user", userns_block_fd, unshare_user,
	  "--userns-block-fd requires --unshare-user" },
	{ RULE_RUN, "--userns-block-fd", RULE_REQUIRES, "--info-fd", userns_block_fd, info_fd,
	  "--userns-block-fd requires --info-fd" },
	{ RULE_RUN, "--userns", RULE_EXCLUDES, "--unshare-user", userns, unshare_user_any,
	  "--userns is not compatible with {b}" },
	{ RULE_RUN, "--disable-userns", RULE_REQUIRES, "--unshare-user", disable_userns, unshare_user,
	  "--disable-userns requires --unshare-user" },
	{ RULE_RUN, "--disable-userns", RULE_EXCLUDES, "--userns-block-fd", disable_userns, userns_block_fd,
	  "--disable-userns is not compatible with --userns-block-fd" },
	{ RULE_RUN, "--uid", RULE_REQUIRES, "--unshare-user", uid_as_root, some_userns,
	  "Specifying --uid requires --unshare-user or --userns" },
	{ RULE_RUN, "--gid", RULE_REQUIRES, "--unshare-user", gid_as_root, some_userns,
	  "Specifying --gid requires --unshare-user or --userns" },
	/* nsrun's ID maps (issue 39): they are the new user namespace's, written once by
	 * nsrun; the nested namespace --disable-userns needs could map one id only. */
	{ RULE_RUN, "--uid-map", RULE_REQUIRES, "--unshare-user", id_map, unshare_user,
	  "{a} requires --unshare-user" },
	{ RULE_RUN, "--uid-map", RULE_EXCLUDES, "--userns-block-fd", id_map, userns_block_fd,
	  "{a} cannot be combined with --userns-block-fd (nsrun writes the maps itself)" },
	{ RULE_RUN, "--uid-map", RULE_EXCLUDES, "--disable-userns", id_map, disable_userns,
	  "{a} cannot be combined with --disable-userns (its nested namespace would map one id only)" },
	{ RULE_RUN, "--idmap", RULE_REQUIRES, "--unshare-user", idmap, unshare_user,
	  "--idmap requires --unshare-user (the mapping is onto the sandbox's user namespace)" },
	{ RULE_RUN, "--hostname", RULE_REQUIRES, "--unshare-uts", hostname, unshare_uts,
	  "Specifying --hostname requires --unshare-uts" },
	{ RULE_RUN, "--as-pid-1", RULE_REQUIRES, "--unshare-pid", as_pid_1, unshare_pid,
	  "Specifying --as-pid-1 requires --unshare-pid" },
	{ RULE_RUN, "--as-pid-1", RULE_EXCLUDES, "--lock-file", as_pid_1, lock_file,
	  "Specifying --as-pid-1 and --lock-file is not permitted" },

	{ RULE_RUN, "--forward-signals", RULE_EXCLUDES, "--as-pid-1", forward_signals, as_pid_1,
	  "Specifying --forward-signals and --as-pid-1 is not permitted" },
	{ RULE_RUN, "--kill-after", RULE_REQUIRES, "--timeout", kill_after, timeout,
	  "--kill-after requires --timeout" },
	/* Only a pid namespace makes the deadline exact: its pid 1 takes every process with
	 * it, where a sweep through /proc can be outrun by a process that forks a successor
	 * and exits; and the command cannot see nsrun to stop or kill it. */
	{ RULE_RUN, "--timeout", RULE_REQUIRES, "--unshare-pid", timeout, unshare_pid,
	  "--timeout requires --unshare-pid (or --unshare-all), so that no process of the "
	  "sandbox outlives the deadline and the command cannot signal nsrun" },
	/* As for the deadline: without a pid namespace the command can signal nsrun's guard
	 * and reach the host's processes (/proc/PID/root) and through them the cgroup's
	 * parent, where a user's sandbox could turn its own limits off. */
	{ RULE_RUN, "Resource limits", RULE_REQUIRES, "--unshare-pid", limit, unshare_pid,
	  "{a} requires --unshare-pid (or --unshare-all), so that the command cannot reach "
	  "nsrun or the host's processes to undo its limits" },
	/* Joined, the pid namespace may be one whose /proc shows the user's processes. */
	{ RULE_RUN, "Resource limits", RULE_EXCLUDES, "--pidns", limit, pidns,
	  "{a} cannot be combined with --pidns" },
	{ RULE_RUN, "--cgroup-parent", RULE_REQUIRES, "one of the limits", cgroup_parent, limit,
	  "--cgroup-parent requires a limit ({limits})" },
	{ RULE_RUN, "--netns", RULE_EXCLUDES, "--unshare-net", netns, unshare_net,
	  "--netns cannot be combined with --unshare-net (with --unshare-all, add --share-net)" },
	/* The bridge is the only way out of a network namespace of the sandbox's own: in the
	 * host's, or one the caller made, it would be one more way among others. */
	{ RULE_RUN, "--bridge", RULE_EXCLUDES, "--netns", bridge, netns,
	  "--bridge cannot be combined with --netns" },
	{ RULE_RUN, "--bridge", RULE_REQUIRES, "--unshare-net", bridge, unshare_net,
	  "--bridge requires --unshare-net (or --unshare-all without --share-net): the bridge "
	  "is meant to be the only way out of a new network namespace" },
	/* As util-linux unshare: an offset is no request for a namespace of its own. */
	{ RULE_RUN, "--monotonic", RULE_REQUIRES, "--unshare-time", monotonic, unshare_time,
	  "--monotonic requires --unshare-time" },
	{ RULE_RUN, "--boottime", RULE_REQUIRES, "--unshare-time", boottime, unshare_time,
	  "--boottime requires --unshare-time" },

	/* A boundary holds only while the command cannot undo it: --landlock-exec
	 * (remounting without noexec) and the cgroup limits (uncovering the cgroup tree,
	 * real-time scheduling). Asking for what would undo them is refused; sandbox.c takes
	 * the same capabilities from root's own set. */
	{ RULE_RUN, "--landlock-exec", RULE_EXCLUDES, "--cap-add", landlock_exec, cap_add_exec_breakers,
	  "--landlock-exec cannot be combined with --cap-add of CAP_SYS_ADMIN, "
	  "CAP_DAC_READ_SEARCH, CAP_CHECKPOINT_RESTORE, CAP_SYS_MODULE, CAP_SYS_RAWIO or "
	  "CAP_SYS_BOOT (or ALL): with them the command could remount without noexec "
	  "(mount_setattr, which Landlock does not mediate), open what it wrote through "
	  "another mount (open_by_handle_at) or map it from /proc/self/map_files, or run code "
	  "in the kernel" },
	{ RULE_RUN, "Resource limits", RULE_EXCLUDES, "--cap-add", limit, cap_add_limit_breakers,
	  "The cgroup limits cannot be combined with --cap-add of CAP_SYS_ADMIN, CAP_SYS_NICE, "
	  "CAP_SYS_MODULE, CAP_SYS_RAWIO or CAP_SYS_BOOT (or ALL): with them the command could "
	  "uncover the cgroup tree or schedule itself in real time, past --cpu-max" },
};
/* clang-format on */

const size_t rules_count = ARRAY_SIZE(rules_table);

const char *rules_kind_name(enum rule_kind kind)
{
	static const char *const names[RULE_KIND_MAX] = {
		[RULE_REQUIRES] = "requires",
		[RULE_EXCLUDES] = "excludes",
		[RULE_ONCE] = "once",
	};

	return (unsigned)kind < RULE_KIND_MAX ? names[kind] : "?";
}

const char *rules_stage_name(enum rule_stage stage)
{
	static const char *const names[RULE_STAGE_MAX] = {
		[RULE_PARSE] = "parse",
		[RULE_MODE] = "mode",
		[RULE_RUN] = "run",
	};

	return (unsigned)stage < RULE_STAGE_MAX ? names[stage] : "?";
}

/* "--memory-max, --memory-swap-max, --pids-max or --cpu-max": from the limits table, so
 * that a new limit is named without a change here. */
static const char *limit_options(char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < plan_n_limits && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s",
				      i == 0		     ? "" :
				      i + 1 == plan_n_limits ? " or " :
							       ", ",
				      plan_limits[i].option);
	return buf;
}

/* The message, with its one placeholder filled: {a} or {b}, the option found on that
 * side, or {limits}, every cgroup limit's option. */
static int refuse(const struct rule *r, const char *a, const char *b, struct nsrun_error *err)
{
	const char *at = strchr(r->msg, '{'), *end;
	char limits[256];

	if (!at)
		return error_set(err, 0, "%s", r->msg);
	end = strchr(at, '}') + 1;
	return error_set(err, 0, "%.*s%s%s", (int)(at - r->msg), r->msg,
			 at[1] == 'a' ? a :
			 at[1] == 'b' ? b :
					limit_options(limits, sizeof(limits)),
			 end);
}

int rules_check_parsed(const struct cli_option *opt, const bool *seen, struct nsrun_error *err)
{
	for (size_t i = 0; i < rules_count; i++) {
		const struct rule *r = &rules_table[i];

		if (r->stage != RULE_PARSE || strcmp(r->a, opt->name) != 0)
			continue;
		if (r->kind == RULE_ONCE ? seen[opt->id] : seen[cli_find_option(r->b)->id])
			return refuse(r, r->a, r->b, err);
	}
	return 0;
}

int rules_check(const struct plan *plan, const struct rules_ctx *ctx, struct nsrun_error *err)
{
	/* --explain answers for the plan a run would have, so it keeps the run's rules. */
	bool runs = (plan->mode == PLAN_RUN && plan->proc.argv) || plan->mode == PLAN_EXPLAIN;

	for (size_t i = 0; i < rules_count; i++) {
		const struct rule *r = &rules_table[i];
		const char *a, *b;

		if (r->stage == RULE_PARSE || (r->stage == RULE_RUN && !runs))
			continue;
		a = r->has_a(plan, ctx);
		if (!a)
			continue;
		b = r->has_b(plan, ctx);
		if (r->kind == RULE_REQUIRES ? !b : b != NULL)
			return refuse(r, a, b, err);
	}
	return 0;
}
