/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test-supervise.c: the supervision options' parsers (DURATION, --rlimit
 * NAME=SOFT[:HARD]), their command-line rules and round trip, and the status
 * documents they add.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli.h"
#include "plan-print.h"
#include "reaper.h"
#include "rules.h"
#include "status.h"
#include "supervise-parse.h"
#include "syscall.h"
#include "unit-parse.h"
#include "util.h"

static void test_duration_good(void **state)
{
	static const struct {
		const char *s;
		uint64_t ms;
	} good[] = {
		{ "10", 10000 },
		{ "1.5", 1500 },
		{ "2m", 120000 },
		{ "1h", 3600000 },
		{ "1d", 86400000 },
		{ "0.25s", 250 },
		{ "0", 0 },
		{ ".5", 500 },
		{ "0.0001", 1 },
		{ "1.0009", 1001 },
		{ "007", 7000 },
		{ "1.5m", 90000 },
		{ "1000d", 86400000000ull },
	};
	uint64_t ms;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		ms = 12345;
		assert_int_equal(supervise_parse_duration(good[i].s, &ms), 0);
		assert_int_equal(ms, good[i].ms);
	}
}

static void test_duration_bad(void **state)
{
	static const char *const bad[] = { "",
					   "-1",
					   "+1",
					   "1.",
					   ".",
					   "1x",
					   "1ms",
					   "1 s",
					   " 1",
					   "1s ",
					   "s",
					   "1..2",
					   "1.2.3",
					   "0x10",
					   "1e3",
					   "1001d",
					   "99999999999999999999999",
					   "1ss" };
	uint64_t ms = 77;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_true(supervise_parse_duration(bad[i], &ms) < 0);
		assert_int_equal(ms, 77);
	}
	assert_true(supervise_parse_duration(NULL, &ms) < 0);
}

static void test_rlimit_good(void **state)
{
	struct nsrun_error err = { 0 };
	struct plan_rlimit rl;

	(void)state;
	assert_int_equal(supervise_parse_rlimit("nofile=16", &rl, &err), 0);
	assert_int_equal(rl.resource, RLIMIT_NOFILE);
	assert_true(rl.has_soft && rl.has_hard);
	assert_int_equal(rl.soft, 16);
	assert_int_equal(rl.hard, 16);
	assert_int_equal(supervise_parse_rlimit("as=1G:unlimited", &rl, &err), 0);
	assert_int_equal(rl.resource, RLIMIT_AS);
	assert_int_equal(rl.soft, 1ull << 30);
	assert_int_equal(rl.hard, RLIM_INFINITY);
	assert_int_equal(supervise_parse_rlimit("nproc=10:", &rl, &err), 0);
	assert_true(rl.has_soft && !rl.has_hard);
	assert_int_equal(rl.soft, 10);
	assert_int_equal(supervise_parse_rlimit("core=:0", &rl, &err), 0);
	assert_true(!rl.has_soft && rl.has_hard);
	assert_int_equal(rl.hard, 0);
	assert_int_equal(supervise_parse_rlimit("stack=8M:infinity", &rl, &err), 0);
	assert_int_equal(rl.soft, 8ull << 20);
	assert_int_equal(supervise_parse_rlimit("fsize=2K", &rl, &err), 0);
	assert_int_equal(rl.soft, 2048);
	assert_int_equal(supervise_parse_rlimit("memlock=1T", &rl, &err), 0);
	assert_int_equal(rl.soft, 1ull << 40);
	assert_string_equal(supervise_parse_rlimit_name(RLIMIT_NPROC), "nproc");
	assert_string_equal(supervise_parse_rlimit_name(RLIMIT_SIGPENDING), "sigpending");
}

static void test_rlimit_bad(void **state)
{
	static const char *const bad[] = {
		"nofile",	   "nofile=",	   "=5",
		"files=5",	   "NOFILE=5",	   "nofile=5:4",
		"nofile=:",	   "nofile=x",	   "nofile=-1",
		"nofile=1:x",	   "nofile=5k",	   "nofile=1KB",
		"nofile= 5",	   "nofile=5:4:3", "as=18446744073709551615",
		"as=17179869184G",
	};
	struct nsrun_error err = { 0 };
	struct plan_rlimit rl;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		memset(&err, 0, sizeof(err));
		assert_int_equal(supervise_parse_rlimit(bad[i], &rl, &err), -EINVAL);
		assert_true(strstr(err.msg, "--rlimit") != NULL);
		assert_null(strchr(err.msg, '\n'));
	}
}

static int parse(const char *const *args, struct plan *plan, struct nsrun_error *err)
{
	return parse_args(&(struct cli_io){ 0 }, args, plan, err);
}

static void test_limits_values(void **state)
{
	static const struct {
		const char *s;
		uint64_t v;
	} sizes[] = { { "1", 1 }, { "512M", 512ull << 20 }, { "2G", 2ull << 30 }, { "3K", 3072 } },
	  cpus[] = { { "0.5", 50000 },
		     { "2", 200000 },
		     { "0.01", 1000 },
		     { "1.25", 125000 },
		     { "0.00001e", 0 } /* bad */ };
	static const char *const bad_sizes[] = { "", "1.5G", "-1", "1X", "unlimited", "max", "1GB" };
	static const char *const bad_cpus[] = { "",   "0",    "0.009", "-1",
						"1.", "4097", "0.5s",  "0.000001" };
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		assert_int_equal(supervise_parse_size(sizes[i].s, &v), 0);
		assert_int_equal(v, sizes[i].v);
	}
	for (size_t i = 0; i + 1 < ARRAY_SIZE(cpus); i++) {
		assert_int_equal(supervise_parse_cpu(cpus[i].s, &v), 0);
		assert_int_equal(v, cpus[i].v);
	}
	assert_true(supervise_parse_cpu(cpus[ARRAY_SIZE(cpus) - 1].s, &v) < 0);
	for (size_t i = 0; i < ARRAY_SIZE(bad_sizes); i++)
		assert_true(supervise_parse_size(bad_sizes[i], &v) < 0);
	for (size_t i = 0; i < ARRAY_SIZE(bad_cpus); i++)
		assert_true(supervise_parse_cpu(bad_cpus[i], &v) < 0);
}

static void set_limit(struct limits_config *l, const struct plan_limit *lim, uint64_t v)
{
	*(bool *)((char *)l + lim->has) = true;
	*(uint64_t *)((char *)l + lim->value) = v;
}

/* plan_limits[]: each row a one-argument option and a file of a controller cgroup.c knows;
 * given alone, its limit is the plan's only one (but for what it implies, as 0) and the
 * one messages name. */
static void test_limit_table(void **state)
{
	static const char *const controllers[] = { "memory.", "pids.", "cpu." };

	(void)state;
	for (size_t i = 0; i < plan_n_limits; i++) {
		const struct plan_limit *lim = &plan_limits[i];
		const struct cli_option *opt = cli_find_option(lim->option);
		struct nsrun_error err = { 0 };
		struct plan p;
		char text[64], want[64];
		size_t c = 0;
		uint64_t v;

		assert_non_null(opt);
		assert_int_equal(opt->arity, 1);
		while (c < ARRAY_SIZE(controllers) && !str_has_prefix(lim->file, controllers[c]))
			c++;
		assert_true(c < ARRAY_SIZE(controllers));
		plan_init(&p, NULL);
		set_limit(&p.limits, lim, 7);
		assert_true(plan_has_limits(&p));
		for (size_t j = 0; j < plan_n_limits; j++) {
			enum plan_limit_state st = plan_limit_value(&plan_limits[j], &p.limits, &v);

			assert_int_equal(st, j == i ? PLAN_LIMIT_GIVEN :
					     plan_limits[j].zero_with == lim->has ?
						      PLAN_LIMIT_IMPLIED :
						      PLAN_LIMIT_UNSET);
			assert_int_equal(v, j == i ? 7 : 0);
		}
		plan_limit_text(lim, 7, text, sizeof(text));
		assert_string_equal(text, lim->period ? "7 100000" : "7");
		strv_push(&p.proc.argv, "true"); /* the run rules apply to a command */
		assert_int_equal(rules_check(&p, &(struct rules_ctx){ .is_root = true }, &err),
				 -EINVAL);
		snprintf(want, sizeof(want), "%s requires --unshare-pid", lim->option);
		assert_true(str_has_prefix(err.msg, want));
		plan_free(&p);
	}
}

static void test_cli_rules(void **state)
{
	static const struct {
		const char *args[8];
		const char *msg; /* NULL: valid */
	} cases[] = {
		{ { "--timeout", "2m", "--kill-after", "0.5", "--unshare-pid", "true" }, NULL },
		{ { "--timeout", "1", "--landlock-scope", "true" },
		  "--timeout requires --unshare-pid (or --unshare-all)" },
		{ { "--timeout", "1", "true" },
		  "--timeout requires --unshare-pid (or --unshare-all)" },
		{ { "--kill-after", "1", "true" }, "--kill-after requires --timeout" },
		{ { "--forward-signals", "--unshare-pid", "--as-pid-1", "true" },
		  "Specifying --forward-signals and --as-pid-1 is not permitted" },
		{ { "--netns", "3", "--unshare-net", "true" },
		  "--netns cannot be combined with --unshare-net" },
		{ { "--netns", "3", "--unshare-all", "--share-net", "true" }, NULL },
		{ { "--landlock-only", "--timeout", "1", "true" },
		  "--landlock-only cannot be combined with --timeout" },
		{ { "--landlock-only", "--rlimit", "nofile=10", "true" }, NULL },
		{ { "--landlock-only", "--memory-max", "1G", "true" },
		  "--landlock-only cannot be combined with --memory-max" },
		{ { "--cgroup-parent", "/sys/fs/cgroup/x", "true" },
		  "--cgroup-parent requires a limit" },
		{ { "--cgroup-parent", "/sys/fs/cgroup/x", "--pids-max", "9", "--unshare-pid",
		    "true" },
		  NULL },
		{ { "--memory-max", "1G", "true" }, "--memory-max requires --unshare-pid" },
		{ { "--cpu-max", "1", "--unshare-pid", "--pidns", "5", "true" },
		  "--cpu-max cannot be combined with --pidns" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct nsrun_error err = { 0 };
		struct plan plan;
		int r = parse(cases[i].args, &plan, &err);

		assert_int_equal(r, 0);
		r = rules_check(&plan, &(struct rules_ctx){ .is_root = true }, &err);
		if (cases[i].msg) {
			assert_int_equal(r, -EINVAL);
			assert_true(strstr(err.msg, cases[i].msg) == err.msg);
		} else {
			assert_int_equal(r, 0);
		}
		plan_free(&plan);
	}
}

static void test_cli_errors(void **state)
{
	static const char *const bad[][4] = {
		{ "--timeout", "soon", "true" },       { "--kill-after", "-1", "true" },
		{ "--rlimit", "nofile=lots", "true" }, { "--netns", "x", "true" },
		{ "--memory-max", "512", "true" },     { "--memory-max", "lots", "true" },
		{ "--pids-max", "1", "true" },	       { "--cpu-max", "0", "true" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct nsrun_error err = { 0 };
		struct plan plan;

		assert_true(parse(bad[i], &plan, &err) < 0);
		assert_true(err.msg[0] != '\0');
		plan_free(&plan);
	}
}

/* plan_to_argv gives back the same plan, durations and partial limits included. */
/* PLAN_MAX_RLIMITS --rlimit options parse; one more is a usage error naming the cap. */
static void test_rlimit_cap(void **state)
{
	const char *args[2 * PLAN_MAX_RLIMITS + 4];
	struct nsrun_error err;
	struct plan plan;
	size_t n = 0;

	(void)state;
	for (size_t i = 0; i < PLAN_MAX_RLIMITS; i++) {
		args[n++] = "--rlimit";
		args[n++] = "nofile=100";
	}
	args[n++] = "true";
	args[n] = NULL;
	assert_int_equal(parse_args(&(struct cli_io){ 0 }, args, &plan, &err), 0);
	assert_int_equal(plan.sup.n_rlimits, PLAN_MAX_RLIMITS);
	plan_free(&plan);
	args[n - 1] = "--rlimit";
	args[n++] = "nofile=100";
	args[n++] = "true";
	args[n] = NULL;
	assert_true(parse_args(&(struct cli_io){ 0 }, args, &plan, &err) < 0);
	assert_string_equal(err.msg, "Too many --rlimit options (at most 32)");
	plan_free(&plan);
}

static void test_round_trip(void **state)
{
	static const char *const args[] = { "--forward-signals",
					    "--timeout",
					    "1.0005",
					    "--kill-after",
					    "0",
					    "--rlimit",
					    "nofile=16",
					    "--rlimit",
					    "as=:unlimited",
					    "--rlimit",
					    "nproc=5:",
					    "--netns",
					    "9",
					    "--memory-max",
					    "1G",
					    "--memory-swap-max",
					    "0",
					    "--pids-max",
					    "64",
					    "--cpu-max",
					    "0.33333",
					    "--cgroup-parent",
					    "/sys/fs/cgroup/a b",
					    "true",
					    NULL };
	struct nsrun_error err = { 0 };
	struct plan a, b;
	char **argv;
	char *fa, *fb;

	(void)state;
	assert_int_equal(parse(args, &a, &err), 0);
	argv = plan_to_argv(&a);
	assert_int_equal(cli_parse((int)strv_length(argv), argv, &(struct cli_io){ 0 }, &b, &err),
			 0);
	fa = plan_format(&a);
	fb = plan_format(&b);
	assert_string_equal(fa, fb);
	assert_non_null(strstr(fa, "sup.timeout_ms=1001\n"));
	assert_non_null(strstr(fa, "sup.kill_after_ms=0\n"));
	assert_non_null(strstr(fa, "sup.rlimit[2]=nproc soft=5\n"));
	assert_non_null(strstr(fa, "limits.memory_swap_max=0\n"));
	assert_non_null(strstr(fa, "limits.cpu_quota_us=33333\n"));
	free(fa);
	free(fb);
	strv_free(argv);
	plan_free(&a);
	plan_free(&b);
}

static void test_status_documents(void **state)
{
	struct cgroup_usage oom = {
		.has_peak = true, .memory_peak = 4096, .has_events = true, .oom_kills = 1
	};
	char *s;

	(void)state;
	s = status_format_command(4242);
	assert_string_equal(s, "{ \"command-pid\": 4242 }\n");
	free(s);
	s = status_format_end(124, SIGKILL, true, NULL); /* a wait status: killed by SIGKILL */
	assert_string_equal(s, "{ \"exit-code\": 124, \"exit-signal\": 9, \"timed-out\": true }\n");
	free(s);
	s = status_format_end(3, 3 << 8, false, NULL);
	assert_string_equal(s, "{ \"exit-code\": 3, \"exit-status\": 3, \"timed-out\": false }\n");
	free(s);
	/* Killed while the cgroup counted an OOM kill: for memory; by the deadline: not. */
	s = status_format_end(137, SIGKILL, false, &oom);
	assert_string_equal(s, "{ \"exit-code\": 137, \"exit-signal\": 9, \"timed-out\": false, "
			       "\"oom-kills\": 1, \"oom-killed\": true, \"memory-peak\": 4096 }\n");
	free(s);
	s = status_format_end(124, SIGKILL, true, &oom);
	assert_non_null(strstr(s, "\"oom-killed\": false"));
	free(s);
	oom.has_events = oom.has_peak = false; /* no memory controller (--pids-max alone) */
	s = status_format_end(0, 0, false, &oom);
	assert_string_equal(s, "{ \"exit-code\": 0, \"exit-status\": 0, \"timed-out\": false }\n");
	free(s);
}

/* A child the kernel reaps itself (SIGCHLD ignored: the exit path CLONE_AUTOREAP takes),
 * waited for through its pidfd, ending with CODE (or killed by -CODE); TRACED: a tracer
 * holds it at its exit, so that its status comes only when the tracer lets it go. */
static int wait_autoreaped(int code, bool traced)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	pid_t pid, tracer = -1;
	int pidfd, st;

	sigaction(SIGCHLD, &ign, &old);
	pid = fork();
	if (pid == 0) {
		usleep(200000);
		if (code < 0)
			raise(-code);
		_exit(code);
	}
	pidfd = sys_pidfd_open(pid, 0);
	if (traced && (tracer = fork()) == 0) {
		/* Refused without the right to trace a sibling (Yama): then untraced. */
		(void)ptrace(PTRACE_SEIZE, pid, 0, 0);
		usleep(600000);
		_exit(0);
	}
	st = pidfd >= 0 ? reaper_wait_pidfd(pidfd) : -errno;
	if (tracer > 0)
		(void)waitpid(tracer, NULL, 0);
	sigaction(SIGCHLD, &old, NULL);
	if (pidfd >= 0)
		close(pidfd);
	return st;
}

static void test_wait_pidfd(void **state)
{
	int st = wait_autoreaped(3, false);

	(void)state;
	/* PIDFD_INFO_EXIT is Linux 6.15's, pidfd_open 5.3's. */
	if (st == -ENOTTY || st == -EINVAL || st == -ENOSYS)
		skip();
	assert_int_equal(st, 3 << 8);
	assert_int_equal(wait_autoreaped(-SIGTERM, false), SIGTERM);
	assert_int_equal(wait_autoreaped(42, true), 42 << 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_duration_good),	 cmocka_unit_test(test_duration_bad),
		cmocka_unit_test(test_rlimit_good),	 cmocka_unit_test(test_rlimit_bad),
		cmocka_unit_test(test_rlimit_cap),	 cmocka_unit_test(test_limits_values),
		cmocka_unit_test(test_limit_table),	 cmocka_unit_test(test_cli_rules),
		cmocka_unit_test(test_cli_errors),	 cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_status_documents), cmocka_unit_test(test_wait_pidfd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
