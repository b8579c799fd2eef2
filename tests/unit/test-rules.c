/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test-rules.c: the rules table (rules.c). Its rows are well formed; every rule fires,
 * alone, with its message word for word (the texts nsrun has always printed); plans that
 * break none pass, as root and as a user; the parse-time rules look only at the options
 * before. The walk's order and bwrap's wording are also checked by test-plan.c.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"
#include "rules.h"
#include "unit-parse.h"
#include "util.h"

static const char *const env0[] = { "PATH=/bin", NULL };

static void parse_ok(const char *const *args, struct plan *p)
{
	struct nsrun_error e;
	const struct cli_io io = { .envp = (char *const *)env0, .selinux_enabled = true };

	if (parse_args(&io, args, p, &e) < 0)
		fail_msg("parse failed: %s", e.msg);
}

static void test_rows(void **state)
{
	enum rule_stage last = RULE_PARSE;

	(void)state;
	assert_true(rules_count > 30);
	for (size_t i = 0; i < rules_count; i++) {
		const struct rule *r = &rules_table[i];
		const char *at = strchr(r->msg, '{');

		/* Parse rules first, then the mode rules, then the run rules. */
		assert_true(r->stage >= last);
		last = r->stage;
		assert_non_null(r->a);
		assert_true((r->kind == RULE_ONCE) == (r->b == NULL));
		/* One placeholder at most, and {b} only where B is there to name. */
		if (at) {
			assert_true(strncmp(at, "{a}", 3) == 0 || strncmp(at, "{b}", 3) == 0 ||
				    strncmp(at, "{limits}", 8) == 0);
			assert_null(strchr(at + 1, '{'));
			assert_false(at[1] == 'b' && r->kind == RULE_REQUIRES);
		}
		if (r->stage == RULE_PARSE) {
			assert_true(r->kind != RULE_REQUIRES);
			assert_null(r->has_a);
			assert_null(at);
			assert_non_null(cli_find_option(r->a));
			assert_true(!r->b || cli_find_option(r->b));
		} else {
			assert_true(r->kind != RULE_ONCE);
			assert_non_null(r->has_a);
			assert_non_null(r->has_b);
		}
	}
}

/* The row a plan breaks first, as the walk finds it; -1 for none. */
static int first_broken(const struct plan *p, const struct rules_ctx *ctx)
{
	for (size_t i = 0; i < rules_count; i++) {
		const struct rule *r = &rules_table[i];
		const char *b;

		if (r->stage == RULE_PARSE || !r->has_a(p, ctx))
			continue;
		b = r->has_b(p, ctx);
		if (r->kind == RULE_REQUIRES ? !b : b != NULL)
			return (int)i;
	}
	return -1;
}

#define LIMITS_PID                                                                               \
	" requires --unshare-pid (or --unshare-all), so that the command cannot reach nsrun or " \
	"the host's processes to undo its limits"

static const struct {
	bool root;
	const char *msg;
	const char *args[10];
} broken[] = {
	{ true, "--doctor takes no COMMAND (got 'true')", { "--doctor", "true" } },
	{ true, "--json is only valid with --doctor", { "--json", "true" } },
	{ false, "--json is only valid with --doctor", { "--json" } },
	/* --explain keeps the rules of the run it answers for, with or without COMMAND. */
	{ false,
	  "--landlock-only cannot be combined with --bind",
	  { "--explain", "write:/x", "--landlock-only", "--bind", "/", "/" } },
	{ true,
	  "--landlock-only cannot be combined with --bind",
	  { "--landlock-only", "--bind", "/", "/", "true" } },
	{ false,
	  "--landlock-only cannot be combined with --unshare-net",
	  { "--landlock-only", "--unshare-net", "true" } },
	{ true,
	  "--landlock-only cannot be combined with --sync-fd",
	  { "--landlock-only", "--sync-fd", "3", "true" } },
	{ true,
	  "--landlock-only cannot be combined with --as-pid-1",
	  { "--landlock-only", "--as-pid-1", "true" } },
	{ true,
	  "--landlock-only cannot be combined with --exec-label",
	  { "--landlock-only", "--exec-label", "x", "true" } },
	{ true,
	  "--landlock-only cannot be combined with --overlay-allow",
	  { "--landlock-only", "--overlay-allow", "x", "true" } },
	{ false,
	  "--landlock-only cannot be combined with --forward-signals without --json-status-fd or "
	  "--report-fd (in place, nsrun is the command)",
	  { "--landlock-only", "--forward-signals", "true" } },
	{ false,
	  "--landlock-only cannot be combined with --ignore-keyboard-signals without "
	  "--json-status-fd or --report-fd (in place, nsrun is the command)",
	  { "--landlock-only", "--ignore-keyboard-signals", "true" } },
	{ true,
	  "--landlock-only cannot be combined with --unshare-time",
	  { "--landlock-only", "--unshare-time", "true" } },
	{ true,
	  "--landlock-only cannot be combined with --timeout",
	  { "--landlock-only", "--timeout", "3", "true" } },
	{ true,
	  "--landlock-only cannot be combined with --netns",
	  { "--landlock-only", "--netns", "3", "true" } },
	{ true,
	  "--landlock-only cannot be combined with --mountns",
	  { "--landlock-only", "--mountns", "3", "true" } },
	{ true,
	  "--landlock-only cannot be combined with --bridge",
	  { "--landlock-only", "--bridge", "80", "unix:/p", "true" } },
	{ true,
	  "--landlock-only cannot be combined with --pids-max",
	  { "--landlock-only", "--pids-max", "5", "true" } },
	{ true, "--userns-block-fd requires --unshare-user", { "--userns-block-fd", "5", "true" } },
	{ true,
	  "--userns-block-fd requires --info-fd",
	  { "--unshare-user", "--userns-block-fd", "5", "true" } },
	{ false,
	  "--userns is not compatible with --unshare-user-try",
	  { "--userns", "5", "--unshare-user-try", "true" } },
	{ false, "--disable-userns requires --unshare-user", { "--disable-userns", "true" } },
	{ true,
	  "--disable-userns is not compatible with --userns-block-fd",
	  { "--unshare-user", "--disable-userns", "--userns-block-fd", "5", "--info-fd", "6",
	    "true" } },
	{ true, "Specifying --uid requires --unshare-user or --userns", { "--uid", "5", "true" } },
	{ true, "Specifying --gid requires --unshare-user or --userns", { "--gid", "5", "true" } },
	{ false, "--uid-map requires --unshare-user", { "--uid-map", "0:1000:1", "true" } },
	{ false, "--gid-map requires --unshare-user", { "--gid-map", "0:1000:1", "true" } },
	{ false,
	  "--uid-map cannot be combined with --userns-block-fd (nsrun writes the maps itself)",
	  { "--unshare-user", "--uid-map", "0:1000:1", "--info-fd", "3", "--userns-block-fd", "4",
	    "true" } },
	{ false,
	  "--gid-map cannot be combined with --disable-userns (its nested namespace would map "
	  "one id only)",
	  { "--unshare-user", "--gid-map", "0:1000:1", "--disable-userns", "true" } },
	{ false,
	  "--idmap requires --unshare-user (the mapping is onto the sandbox's user namespace)",
	  { "--idmap", "--bind", "/a", "/b", "true" } },
	{ false, "Specifying --hostname requires --unshare-uts", { "--hostname", "h", "true" } },
	{ false, "Specifying --as-pid-1 requires --unshare-pid", { "--as-pid-1", "true" } },
	{ true,
	  "Specifying --as-pid-1 and --lock-file is not permitted",
	  { "--as-pid-1", "--unshare-pid", "--lock-file", "/l", "true" } },
	{ true,
	  "Specifying --forward-signals and --as-pid-1 is not permitted",
	  { "--forward-signals", "--as-pid-1", "--unshare-pid", "true" } },
	{ true, "--kill-after requires --timeout", { "--kill-after", "1", "true" } },
	{ false,
	  "--timeout requires --unshare-pid (or --unshare-all), so that no process of the sandbox "
	  "outlives the deadline and the command cannot signal nsrun",
	  { "--timeout", "1", "true" } },
	{ true, "--memory-max" LIMITS_PID, { "--memory-max", "100M", "true" } },
	{ true,
	  "--cpu-max cannot be combined with --pidns",
	  { "--cpu-max", "1", "--unshare-pid", "--pidns", "5", "true" } },
	{ true,
	  "--cgroup-parent requires a limit (--memory-max, --memory-swap-max, --pids-max or "
	  "--cpu-max)",
	  { "--cgroup-parent", "/x", "true" } },
	{ false,
	  "--netns cannot be combined with --unshare-net (with --unshare-all, add --share-net)",
	  { "--netns", "5", "--unshare-all", "true" } },
	{ false,
	  "--bridge cannot be combined with --netns",
	  { "--bridge", "80", "tcp:127.0.0.1:3128", "--netns", "5", "true" } },
	{ true,
	  "--bridge requires --unshare-net (or --unshare-all without --share-net): the bridge is "
	  "meant to be the only way out of a new network namespace",
	  { "--unshare-all", "--share-net", "--bridge", "80", "unix:/p", "true" } },
	{ false, "--monotonic requires --unshare-time", { "--monotonic", "5", "true" } },
	{ true,
	  "--boottime requires --unshare-time",
	  { "--boottime", "-5", "--unshare-all", "true" } },
	{ true,
	  "--landlock-exec cannot be combined with --cap-add of CAP_SYS_ADMIN, CAP_DAC_READ_SEARCH, "
	  "CAP_CHECKPOINT_RESTORE, CAP_SYS_MODULE, CAP_SYS_RAWIO or CAP_SYS_BOOT (or ALL): with "
	  "them the command could remount without noexec (mount_setattr, which Landlock does not "
	  "mediate), open what it wrote through another mount (open_by_handle_at) or map it from "
	  "/proc/self/map_files, or run code in the kernel",
	  { "--landlock-exec", "/usr", "--cap-add", "ALL", "true" } },
	{ true,
	  "The cgroup limits cannot be combined with --cap-add of CAP_SYS_ADMIN, CAP_SYS_NICE, "
	  "CAP_SYS_MODULE, CAP_SYS_RAWIO or CAP_SYS_BOOT (or ALL): with them the command could "
	  "uncover the cgroup tree or schedule itself in real time, past --cpu-max",
	  { "--pids-max", "5", "--unshare-pid", "--cap-add", "ALL", "true" } },
	{ false,
	  "--fallback cannot be combined with --landlock-only",
	  { "--fallback", "proc", "--landlock-only", "--landlock-rw", "/tmp", "true" } },
	{ false,
	  "--fallback cannot be combined with --userns",
	  { "--fallback", "proc", "--userns", "5", "true" } },
	{ false,
	  "--fallback cannot be combined with --userns2",
	  { "--fallback", "net", "--unshare-user", "--userns2", "5", "true" } },
	{ false,
	  "--fallback cannot be combined with --pidns",
	  { "--fallback", "proc", "--pidns", "5", "true" } },
	{ false,
	  "--fallback cannot be combined with --netns",
	  { "--fallback", "net", "--netns", "5", "true" } },
	{ false,
	  "--fallback cannot be combined with --mountns",
	  { "--fallback", "net", "--mountns", "5", "true" } },
	{ false,
	  "--fallback cannot be combined with --userns-block-fd",
	  { "--fallback", "userns", "--unshare-user", "--info-fd", "3", "--userns-block-fd", "4",
	    "true" } },
	{ false,
	  "--fallback namespaces requires --landlock-rw or --landlock-exec (without either the "
	  "command would run unconfined)",
	  { "--fallback", "proc,namespaces", "--unshare-all", "true" } },
};

/* Each case breaks one rule; together they break every rule checked after parsing. */
static void test_each_rule_fires(void **state)
{
	bool covered[64] = { false };

	(void)state;
	assert_true(rules_count <= ARRAY_SIZE(covered));
	for (size_t i = 0; i < ARRAY_SIZE(broken); i++) {
		const struct rules_ctx ctx = { .is_root = broken[i].root };
		struct nsrun_error e = { 0 };
		struct plan p;
		int row;

		parse_ok(broken[i].args, &p);
		assert_int_equal(rules_check(&p, &ctx, &e), -EINVAL);
		assert_string_equal(e.msg, broken[i].msg);
		row = first_broken(&p, &ctx);
		assert_true(row >= 0);
		covered[row] = true;
		plan_free(&p);
	}
	for (size_t i = 0; i < rules_count; i++)
		if (rules_table[i].stage != RULE_PARSE && !covered[i])
			fail_msg("no case breaks rule %zu (%s %s %s)", i, rules_table[i].a,
				 rules_kind_name(rules_table[i].kind), rules_table[i].b);
}

static const char *const *const fine[] = {
	ARGS("--ro-bind", "/", "/", "true"),
	ARGS("--unshare-all", "--hostname", "h", "--as-pid-1", "--uid", "5", "--gid", "5",
	     "--timeout", "3", "--kill-after", "1", "--memory-max", "100M", "--memory-swap-max",
	     "1M", "--pids-max", "9", "--cpu-max", "1", "--cgroup-parent", "/x", "--landlock-exec",
	     "/usr", "--cap-drop", "ALL", "true"),
	ARGS("--unshare-user", "--userns-block-fd", "5", "--info-fd", "6", "--lock-file", "/l",
	     "--forward-signals", "true"),
	ARGS("--unshare-user", "--disable-userns", "--uid", "0", "true"),
	ARGS("--userns", "3", "--uid", "5", "--netns", "4", "true"),
	ARGS("--netns", "5", "--unshare-all", "--share-net", "true"),
	ARGS("--userns", "3", "--mountns", "4", "true"),
	ARGS("--mountns", "4", "--unshare-user", "true"),
	ARGS("--unshare-all", "--bridge", "80", "unix:/p", "--bridge", "81", "tcp:[::1]:3128",
	     "--fallback", "proc,userns", "true"),
	ARGS("--unshare-net", "--bridge", "65535", "tcp:localhost:1", "true"),
	ARGS("--unshare-time", "--monotonic", "-5", "--boottime", "+7", "--ignore-keyboard-signals",
	     "--forward-signals", "--unshare-pid", "true"),
	ARGS("--landlock-only", "--json-status-fd", "3", "--ignore-keyboard-signals", "true"),
	ARGS("--landlock-only", "--report-fd", "3", "--ignore-keyboard-signals", "true"),
	ARGS("--fallback", "net,proc", "--fallback", "userns,namespaces", "--unshare-all", "--proc",
	     "/proc", "--landlock-rw", "/tmp", "--json-status-fd", "3", "true"),
	ARGS("--landlock-only", "--json-status-fd", "3", "--forward-signals", "--landlock-rw",
	     "/tmp", "--chdir", "/", "--argv0", "x", "--rlimit", "nofile=10", "--cap-add", "ALL",
	     "true"),
	/* Modes other than running a command check the mode rules only. */
	ARGS("--doctor", "--json"),
	ARGS("--hostname", "h", "--json", "--help"),
	ARGS("--as-pid-1", "--version", "true"),
	/* Without a command nsrun prints its usage (exit 1), whatever the options. */
	ARGS("--hostname", "h"),
};

static void test_none_broken(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(fine); i++) {
		for (int root = 0; root <= 1; root++) {
			const struct rules_ctx ctx = { .is_root = root };
			struct nsrun_error e = { 0 };
			struct plan p;

			parse_ok(fine[i], &p);
			if (rules_check(&p, &ctx, &e) < 0)
				fail_msg("case %zu (%s): %s", i, root ? "root" : "user", e.msg);
			plan_free(&p);
		}
	}
}

/* A parse rule fires only once B (A, for "once") came before. */
static void test_parse_rules(void **state)
{
	(void)state;
	for (size_t i = 0; i < rules_count; i++) {
		const struct rule *r = &rules_table[i];
		const struct cli_option *opt;
		bool seen[OPT_MAX] = { false };
		struct nsrun_error e = { 0 };

		if (r->stage != RULE_PARSE)
			continue;
		opt = cli_find_option(r->a);
		assert_int_equal(rules_check_parsed(opt, seen, &e), 0);
		seen[cli_find_option(r->b ? r->b : r->a)->id] = true;
		assert_int_equal(rules_check_parsed(opt, seen, &e), -EINVAL);
		assert_string_equal(e.msg, r->msg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_each_rule_fires),
		cmocka_unit_test(test_none_broken),
		cmocka_unit_test(test_parse_rules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
