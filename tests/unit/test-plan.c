/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test-plan.c: the cross-option rules (rules.c) with bwrap's exact wording (checked
 * against /usr/bin/bwrap 0.8.0), nsrun's --landlock-only rules, the canonical text
 * (deterministic, one line per field), plan_to_argv() round trips, and the limits.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"
#include "plan-print.h"
#include "plan.h"
#include "rules.h"
#include "unit-parse.h"
#include "util.h"

static const char *const env0[] = { "PATH=/bin", "HOME=/h", NULL };

static int parse_a(struct plan *p, struct nsrun_error *e, const char *const *args)
{
	return parse_args(&(struct cli_io){ .envp = (char *const *)env0 }, args, p, e);
}

/* msg NULL: valid. */
static void check_v(bool is_root, const char *msg, const char *const *args)
{
	struct nsrun_error e;
	struct plan p;

	if (parse_a(&p, &e, args) < 0)
		fail_msg("parse failed: %s", e.msg);
	memset(&e, 0, sizeof(e));
	if (!msg) {
		if (rules_check(&p, &(struct rules_ctx){ .is_root = is_root }, &e) < 0)
			fail_msg("unexpected: %s", e.msg);
	} else {
		assert_int_equal(rules_check(&p, &(struct rules_ctx){ .is_root = is_root }, &e),
				 -EINVAL);
		assert_string_equal(e.msg, msg);
	}
	plan_free(&p);
}
#define ROOT(msg, ...) check_v(true, (msg), ARGS(__VA_ARGS__))
#define USER(msg, ...) check_v(false, (msg), ARGS(__VA_ARGS__))

static void test_validate_bwrap(void **state)
{
	(void)state;
	ROOT(NULL, "--ro-bind", "/", "/", "true");
	ROOT("--userns-block-fd requires --unshare-user", "--userns-block-fd", "5", "true");
	USER("--userns-block-fd requires --unshare-user", "--unshare-all", "--userns-block-fd", "5",
	     "true");
	ROOT("--userns-block-fd requires --info-fd", "--unshare-user", "--userns-block-fd", "5",
	     "true");
	ROOT(NULL, "--unshare-user", "--userns-block-fd", "5", "--info-fd", "6", "true");
	ROOT("--userns is not compatible with --unshare-user", "--unshare-user", "--userns", "5",
	     "true");
	ROOT("--userns is not compatible with --unshare-user", "--unshare-user-try",
	     "--unshare-user", "--userns", "5", "true");
	USER("--userns is not compatible with --unshare-user-try", "--userns", "5",
	     "--unshare-user-try", "true");
	USER("--userns is not compatible with --unshare-user-try", "--userns", "5", "--unshare-all",
	     "true");
	USER("--disable-userns requires --unshare-user", "--disable-userns", "true");
	USER("--disable-userns requires --unshare-user", "--unshare-all", "--disable-userns",
	     "true");
	ROOT("--disable-userns is not compatible with --userns-block-fd", "--unshare-user",
	     "--disable-userns", "--userns-block-fd", "5", "--info-fd", "6", "true");
	ROOT("Specifying --uid requires --unshare-user or --userns", "--uid", "5", "true");
	ROOT("Specifying --gid requires --unshare-user or --userns", "--gid", "5", "true");
	ROOT(NULL, "--uid", "0", "--gid", "0", "true");
	ROOT(NULL, "--unshare-user", "--uid", "5", "--gid", "5", "true");
	ROOT(NULL, "--unshare-user-try", "--uid", "5", "true");
	ROOT(NULL, "--userns", "3", "--uid", "5", "true");
	USER(NULL, "--uid", "5", "--gid", "7", "true"); /* unprivileged implies a userns */
	ROOT("Specifying --hostname requires --unshare-uts", "--hostname", "h", "true");
	USER(NULL, "--unshare-all", "--hostname", "h", "--share-net", "--unshare-user", "--uid",
	     "1", "true");
	ROOT("Specifying --as-pid-1 requires --unshare-pid", "--as-pid-1", "true");
	ROOT(NULL, "--as-pid-1", "--unshare-pid", "true");
	ROOT("Specifying --as-pid-1 and --lock-file is not permitted", "--as-pid-1",
	     "--unshare-pid", "--lock-file", "/x", "true");
}

static void test_validate_landlock_only(void **state)
{
	static const char *const bad[][4] = {
		{ "--bind", "/", "/" }, { "--unshare-user" },	    { "--unshare-all" },
		{ "--unshare-net" },	{ "--unshare-cgroup-try" }, { "--userns", "3" },
		{ "--pidns", "3" },	{ "--uid", "0" },	    { "--hostname", "h" },
		{ "--sync-fd", "3" },	{ "--lock-file", "/l" },    { "--info-fd", "3" },
		{ "--as-pid-1" },	{ "--overlay-hide", "x" },  { "--overlay-allow", "x" },
		{ "--disable-userns" }, { "--tmpfs", "/t" },
	};

	(void)state;
	USER(NULL, "--landlock-only", "--landlock-rw", "/tmp", "--chdir", "/", "--setenv", "A", "b",
	     "--argv0", "x", "--new-session", "--die-with-parent", "--clearenv", "true");
	ROOT(NULL, "--landlock-only", "true");
	/* A status fd or --report-fd is served in place, the command then being nsrun's
	 * child; so are forwarded signals, but only with one of them. */
	USER(NULL, "--landlock-only", "--json-status-fd", "3", "--forward-signals", "true");
	USER(NULL, "--landlock-only", "--report-fd", "3", "--forward-signals", "true");
	USER("--landlock-only cannot be combined with --forward-signals without --json-status-fd "
	     "or --report-fd (in place, nsrun is the command)",
	     "--landlock-only", "--forward-signals", "true");
	/* The shared launcher applies capabilities and seccomp in place too. */
	ROOT(NULL, "--landlock-only", "--cap-drop", "ALL", "--cap-add", "CAP_CHOWN", "true");
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		const char *args[8] = { "--landlock-only" };
		char want[128];
		size_t n = 1;

		for (size_t k = 0; k < 4 && bad[i][k]; k++)
			args[n++] = bad[i][k];
		args[n++] = "true";
		snprintf(want, sizeof(want), "--landlock-only cannot be combined with %s",
			 strcmp(bad[i][0], "--unshare-all") == 0 ? "--unshare-all" : bad[i][0]);
		check_v(false, want, args);
		check_v(true, want, args);
	}
}

static char *format_of(const char *const *args)
{
	struct nsrun_error e;
	struct plan p;
	char *t;

	if (parse_a(&p, &e, args) < 0)
		fail_msg("parse failed: %s", e.msg);
	t = plan_format(&p);
	plan_free(&p);
	return t;
}

static void test_format(void **state)
{
	const char *const *args = ARGS("--unshare-all", "--perms", "0700", "--tmpfs", "/t",
				       "--bind", "/a\nb", "/c\"d", "--setenv", "X", "\x01", "--",
				       "cmd", "arg");
	_cleanup_free_ char *a = format_of(args), *b = format_of(args);
	_cleanup_free_ char *c = format_of(ARGS("--bind", "/a", "/b", "--dir", "/x", "true"));
	_cleanup_free_ char *d = format_of(ARGS("--dir", "/x", "--bind", "/a", "/b", "true"));

	(void)state;
	assert_string_equal(a, b);
	assert_true(str_has_prefix(a, "mode=run\nlevel_prefix=0\n"));
	assert_non_null(strstr(a, "\nop[0]=--tmpfs perms=0700 dest=\"/t\"\n"));
	assert_non_null(strstr(a, "\nop[1]=--bind source=\"/a\\x0ab\" dest=\"/c\\\"d\"\n"));
	assert_non_null(strstr(a, "\nproc.env[2]=\"X=\\x01\"\n"));
	assert_non_null(strstr(a, "\nproc.argv[1]=\"arg\"\n"));
	assert_non_null(strstr(a, "\nns.user=try\n"));
	assert_string_not_equal(c, d); /* op order is part of the plan */
	/* One field per line: the number of lines does not depend on the strings. */
	for (const char *p = a; *p; p++)
		assert_true(*p == '\n' || (*p >= 0x20 && *p < 0x7f));
}

static void round_trip(const char *const *args)
{
	struct nsrun_error e;
	struct plan p1, p2;
	struct cli_io io = { .envp = (char *const *)env0 };
	_cleanup_free_ char *t1 = NULL, *t2 = NULL;
	_cleanup_strv_free_ char **argv2 = NULL;

	if (parse_a(&p1, &e, args) < 0)
		fail_msg("parse failed: %s", e.msg);
	t1 = plan_format(&p1);
	argv2 = plan_to_argv(&p1);
	if (cli_parse((int)strv_length(argv2), argv2, &io, &p2, &e) < 0)
		fail_msg("re-parse failed: %s", e.msg);
	t2 = plan_format(&p2);
	assert_string_equal(t1, t2);
	plan_free(&p1);
	plan_free(&p2);
}

static void test_to_argv(void **state)
{
	(void)state;
	round_trip(ARGS("true"));
	round_trip(ARGS("--unshare-time", "--monotonic", "-4611686018", "--boottime", "86400",
			"--ignore-keyboard-signals", "true"));
	round_trip(ARGS("--unshare-all", "--share-net", "--unshare-user", "--unshare-cgroup",
			"--hostname", "h", "--uid", "0", "--gid", "5", "--userns2", "4", "--pidns",
			"0", "--disable-userns", "--assert-userns-disabled", "true"));
	round_trip(ARGS("--overlay-src", "/a", "--overlay-src", "/b", "--overlay", "/rw", "/w",
			"/d", "--overlay-src", "/x", "--tmp-overlay", "/t", "--overlay-src", "/1",
			"--overlay-src", "/2", "--ro-overlay", "/r", "--perms", "0", "--size",
			"0x10", "--tmpfs", "/t", "--chmod", "0", "/t", "--chmod", "4755", "/u",
			"--file", "3", "/f", "--perms", "0644", "--ro-bind-data", "4", "/g",
			"--bind-fd", "5", "/h", "--ro-bind-try", "/s", "/d", "--dev-bind-try", "/a",
			"/b", "--symlink", "-x", "/l", "--", "-cmd", "--bind"));
	round_trip(ARGS("--clearenv", "--setenv", "A", "x=y", "--argv0", "a0", "--chdir", "/c",
			"--die-with-parent", "--new-session", "--as-pid-1", "--unshare-pid",
			"--sync-fd", "3", "--block-fd", "4", "--userns-block-fd", "5", "--info-fd",
			"6", "--json-status-fd", "7", "--lock-file", "/l", "--cap-add", "ALL",
			"--cap-drop", "cap_net_raw", "--level-prefix", "x"));
	round_trip(ARGS("--landlock-rw", "/a", "--landlock-exec", "/b", "--landlock-connect-tcp",
			"1", "--landlock-bind-tcp", "0", "--landlock-scope", "--landlock-only",
			"--landlock-deny-unix", "--overlay-hide", "x", "--overlay-allow", "/y",
			"z"));
	round_trip(ARGS("--unshare-net", "--bridge", "80", "unix:/run/p.sock", "--bridge", "443",
			"tcp:[::1]:3128", "--bridge", "1", "tcp:localhost:1", "true"));
	round_trip(ARGS("--unshare-ipc", "--help"));
	round_trip(ARGS("--version"));
	round_trip(ARGS("--debug-opt=print-assumed-kernel"));
	round_trip(ARGS("--not-a-security-boundary", "--debug-opt=force-mount-setattr-fallback",
			"--debug-opt=force-openat-fallback", "--bind", "/a", "/b", "true"));
	round_trip(ARGS("--unshare-net", "--tmpfs", "/run", "--sys", "/run/sys", "--sys", "/sys",
			"true"));
	round_trip(ARGS("--landlock-abi"));
	round_trip(ARGS("--doctor", "--json"));
}

static void test_limits(void **state)
{
	struct plan p;

	(void)state;
	assert_int_equal(PLAN_MAX_ARGS, 9000);
	assert_int_equal(PLAN_MAX_FILE_ARGS, 1000000);
	assert_true(PLAN_MAX_ARGS_BYTES >= 1u << 20);
	/* Every op takes two arguments at least: the cap can be reached, and not before. */
	assert_true(PLAN_MAX_OPS >= PLAN_MAX_ARGS / 2);
	assert_true(PLAN_MAX_OPS < (PLAN_MAX_ARGS + PLAN_MAX_FILE_ARGS) / 2);
	assert_true(PLAN_MAX_SECCOMP_BYTES % 8 == 0);
	assert_true(PLAN_MAX_LANDLOCK_RULES > 0 && PLAN_MAX_HIDE > 0 && PLAN_MAX_FILE_DATA > 0);
	plan_init(&p, NULL);
	assert_non_null(p.proc.envp);
	assert_null(p.proc.envp[0]);
	assert_int_equal(p.ns.userns_fd, -1);
	assert_int_equal(p.sync.json_status_fd, -1);
	for (size_t i = 0; i < PLAN_MAX_OPS; i++) {
		struct op *op = plan_add_op(&p, OP_DIR);

		assert_non_null(op);
		assert_int_equal(op->fd, -1);
		assert_int_equal(op->type, OP_DIR);
	}
	assert_null(plan_add_op(&p, OP_DIR));
	assert_int_equal(p.n_ops, PLAN_MAX_OPS);
	plan_free(&p);
	assert_int_equal(p.n_ops, 0);
	assert_null(p.ops);

	/* The Landlock rule cap is enforced by the parser. */
	{
		const char *argv[2 * PLAN_MAX_LANDLOCK_RULES + 4] = { "nsrun" };
		struct cli_io io = { 0 };
		struct nsrun_error e;
		int argc = 1;

		for (int i = 0; i < PLAN_MAX_LANDLOCK_RULES + 1; i++) {
			argv[argc++] = "--landlock-bind-tcp";
			argv[argc++] = "80";
		}
		assert_true(cli_parse(argc, (char *const *)argv, &io, &p, &e) < 0);
		assert_string_equal(e.msg, "Too many --landlock-* rules (at most 4096)");
		assert_int_equal(p.landlock.ports[LL_PORT_BIND_TCP].n, PLAN_MAX_LANDLOCK_RULES);
		plan_free(&p);
	}
}

static void test_op_type_name(void **state)
{
	(void)state;
	for (int t = 0; t < OP_MAX; t++) {
		const char *name = op_type_name((enum op_type)t);
		const struct cli_option *o = cli_find_option(name);

		assert_non_null(o); /* every op type has an option of that name */
		assert_int_equal(o->group, OPTG_FILESYSTEM);
	}
	assert_string_equal(op_type_name(OP_RO_BIND), "--ro-bind");
	assert_string_equal(op_type_name(OP_MAX), "--unknown");
}

/* The op table and the option table agree: each op's option (and its -try variant, when
 * the op has one) takes exactly the arguments the descriptor says, and maps back. */
static void test_op_table(void **state)
{
	(void)state;
	for (int t = 0; t < OP_MAX; t++) {
		const struct op_desc *d = op_desc((enum op_type)t);
		unsigned want = 1 + !!(d->args & (OP_A_SOURCE | OP_A_FD | OP_A_MODE)) +
				!!(d->args & OP_A_WORKDIR);
		char try_name[64];
		const struct cli_option *o = cli_find_option(d->name), *ot;
		enum op_type back;
		bool try;

		snprintf(try_name, sizeof(try_name), "%s-try", d->name);
		ot = cli_find_option(try_name);
		assert_int_equal(o->arity, want);
		assert_true(op_lookup(d->name, &back, &try) && (int)back == t && !try);
		assert_int_equal(ot != NULL, !!(d->args & OP_A_TRY));
		if (ot) {
			assert_int_equal(ot->arity, want);
			assert_true(op_lookup(try_name, &back, &try) && (int)back == t && try);
		}
	}
	{
		enum op_type t;
		bool try;

		assert_false(op_lookup("--overlay-src", &t, &try));
		assert_false(op_lookup("--dir-try", &t, &try));
		assert_false(op_lookup("--perms", &t, &try));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_validate_bwrap),
		cmocka_unit_test(test_validate_landlock_only),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_to_argv),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_op_type_name),
		cmocka_unit_test(test_op_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
