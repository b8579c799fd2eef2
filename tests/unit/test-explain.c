/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test-explain.c: the answer before running (explain.c). Each case parses real options,
 * computes what Landlock would enforce at a given ABI, and checks which layer and option
 * decide, with the errno the command would see; the kernel's order between layers
 * (hide, mount, Landlock, network) is what several cases are about.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "explain.h"
#include "landlock.h"
#include "unit-parse.h"
#include "util.h"

static const char *const env0[] = { "PATH=/usr/bin:/bin", NULL };

struct expect {
	const char *decision; /* "allowed" / "refused" */
	const char *layer;
	const char *option; /* NULL: none */
	const char *rule;   /* NULL: none */
	const char *error;  /* NULL: none */
	const char *path;   /* NULL: not checked */
};

static void ask(const char *const *args, int abi, const char *question, const struct expect *x)
{
	const struct cli_io io = { .envp = (char *const *)env0 };
	struct nsrun_error e;
	struct explain_query q;
	struct explain_answer a;
	struct landlock_desc desc;
	struct plan p;

	if (parse_args(&io, args, &p, &e) < 0)
		fail_msg("parse failed: %s", e.msg);
	assert_int_equal(landlock_describe_abi(&p.landlock, abi, &desc, &e), 0);
	assert_int_equal(explain_parse(question, &q, &e), 0);
	assert_int_equal(explain_decide(&p, &desc, "/home/u", &q, &a, &e), 0);
	if (strcmp(x->decision, a.allowed ? "allowed" : "refused") != 0 ||
	    strcmp(x->layer, explain_layer_name(a.layer)) != 0)
		fail_msg("%s: %s by %s (%s), expected %s by %s", question,
			 a.allowed ? "allowed" : "refused", explain_layer_name(a.layer), a.why,
			 x->decision, x->layer);
	if (x->option)
		assert_string_equal(a.option, x->option);
	else
		assert_null(a.option);
	if (x->rule)
		assert_string_equal(a.rule, x->rule);
	if (x->error)
		assert_string_equal(a.error, x->error);
	else
		assert_null(a.error);
	if (x->path)
		assert_string_equal(a.path, x->path);
	assert_non_null(a.why);
	explain_answer_free(&a);
	explain_query_free(&q);
	plan_free(&p);
}

#define WS ARGS("--bind", "/", "/", "--landlock-rw", "/workspace", "true")

static void test_landlock_write(void **state)
{
	(void)state;
	/* The example: ".." is resolved before the rules are asked. */
	ask(WS, 7, "write:/workspace/../etc/passwd",
	    &(struct expect){ "refused", "landlock", "--landlock-rw", NULL, "EACCES",
			      "/etc/passwd" });
	ask(WS, 7, "write:/workspace/src/main.c",
	    &(struct expect){ "allowed", "landlock", "--landlock-rw", "/workspace", NULL, NULL });
	/* A new entry is the directory's access: /workspace itself cannot be made anew. */
	ask(WS, 7, "create:/workspace",
	    &(struct expect){ "refused", "landlock", "--landlock-rw", NULL, "EACCES", NULL });
	ask(WS, 7, "remove:/workspace/a",
	    &(struct expect){ "allowed", "landlock", "--landlock-rw", "/workspace", NULL, NULL });
	ask(WS, 7, "write:/dev/null",
	    &(struct expect){ "allowed", "landlock", NULL, "/dev/null", NULL, NULL });
	ask(WS, 7, "read:/etc/passwd",
	    &(struct expect){ "allowed", "mount", "--bind", "/ /", NULL, NULL });
	/* Before ABI 3 the seccomp guard refuses truncate(2) everywhere. */
	ask(WS, 2, "truncate:/workspace/a",
	    &(struct expect){ "refused", "seccomp", "--landlock-rw", NULL, "EACCES", NULL });
	ask(WS, 3, "truncate:/workspace/a",
	    &(struct expect){ "allowed", "landlock", "--landlock-rw", "/workspace", NULL, NULL });
}

static void test_mount_before_landlock(void **state)
{
	(void)state;
	/* A read-only mount refuses (EROFS) before Landlock is asked. */
	ask(ARGS("--ro-bind", "/", "/", "--bind", "/src", "/workspace", "--landlock-rw",
		 "/workspace", "true"),
	    7, "write:/workspace/../etc/passwd",
	    &(struct expect){ "refused", "mount", "--ro-bind", "/ /", "EROFS", NULL });
	ask(ARGS("--bind", "/", "/", "--remount-ro", "/usr", "true"), 7, "create:/usr/x",
	    &(struct expect){ "refused", "mount", "--remount-ro", "/usr", "EROFS", NULL });
	/* --remount-ro changes the one mount at DEST: a mount beneath it made before stays
	 * writable (checked against the kernel by t-explain.sh), one made after is its own. */
	ask(ARGS("--bind", "/", "/", "--bind", "/w", "/w", "--bind", "/w/in", "/w/in",
		 "--remount-ro", "/w", "--tmpfs", "/w/t", "true"),
	    7, "write:/w/in/f",
	    &(struct expect){ "allowed", "mount", "--bind", "/w/in /w/in", NULL, NULL });
	ask(ARGS("--bind", "/", "/", "--bind", "/w", "/w", "--bind", "/w/in", "/w/in",
		 "--remount-ro", "/w", "--tmpfs", "/w/t", "true"),
	    7, "write:/w/f",
	    &(struct expect){ "refused", "mount", "--remount-ro", "/w", "EROFS", NULL });
	ask(ARGS("--bind", "/", "/", "--bind", "/w", "/w", "--bind", "/w/in", "/w/in",
		 "--remount-ro", "/w", "--tmpfs", "/w/t", "true"),
	    7, "create:/w/t/x",
	    &(struct expect){ "allowed", "mount", "--tmpfs", "/w/t", NULL, NULL });
	/* Only what an option puts there exists on the sandbox's empty root. */
	ask(ARGS("--ro-bind", "/usr", "/usr", "true"), 7, "read:/etc/passwd",
	    &(struct expect){ "refused", "mount", NULL, NULL, "ENOENT", NULL });
	ask(ARGS("--ro-bind", "/usr", "/usr", "true"), 7, "create:/x",
	    &(struct expect){ "allowed", "none", NULL, NULL, NULL, NULL });
	ask(ARGS("--ro-bind", "/", "/", "--tmpfs", "/tmp", "true"), 7, "create:/tmp/x",
	    &(struct expect){ "allowed", "mount", "--tmpfs", "/tmp", NULL, NULL });
	ask(ARGS("--ro-bind", "/", "/", "--tmpfs", "/tmp", "true"), 7, "write:/tmp/x",
	    &(struct expect){ "refused", "mount", NULL, NULL, "ENOENT", NULL });
}

/* --sys: read-only, and what it masks is absent below the mask. */
static void test_sys(void **state)
{
	(void)state;
#define SYS ARGS("--ro-bind", "/", "/", "--unshare-net", "--sys", "/sys", "true")
	ask(SYS, 7, "read:/sys/devices/system/cpu/online",
	    &(struct expect){ "allowed", "mount", "--sys", "/sys", NULL, NULL });
	ask(SYS, 7, "write:/sys/kernel/mm/transparent_hugepage/enabled",
	    &(struct expect){ "refused", "mount", "--sys", "/sys", "EROFS", NULL });
	ask(SYS, 7, "read:/sys/firmware/acpi/tables/DSDT",
	    &(struct expect){ "refused", "mount", "--sys", "/sys", "ENOENT", NULL });
	ask(SYS, 7, "read:/sys/devices/virtual/powercap/intel-rapl/intel-rapl:0/energy_uj",
	    &(struct expect){ "refused", "mount", "--sys", "/sys", "ENOENT", NULL });
	ask(SYS, 7, "read:/sys/devices/system/cpu/cpu12/thermal_throttle/core_throttle_count",
	    &(struct expect){ "refused", "mount", "--sys", "/sys", "ENOENT", NULL });
	ask(SYS, 7, "read:/sys/firmware",
	    &(struct expect){ "allowed", "mount", "--sys", "/sys", NULL, NULL });
	ask(SYS, 7, "read:/sys/firmwarex/a",
	    &(struct expect){ "allowed", "mount", "--sys", "/sys", NULL, NULL });
#undef SYS
}

static void test_symlinks_and_relative(void **state)
{
	(void)state;
	ask(ARGS("--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin", "true"), 7,
	    "execute:/bin/sh",
	    &(struct expect){ "allowed", "mount", "--ro-bind", "/usr /usr", NULL, "/usr/bin/sh" });
	ask(ARGS("--bind", "/", "/", "--chdir", "/workspace", "--landlock-rw", "/workspace",
		 "true"),
	    7, "write:../etc/x",
	    &(struct expect){ "refused", "landlock", "--landlock-rw", NULL, "EACCES", "/etc/x" });
	/* Without --chdir a relative path starts where the caller is. */
	ask(ARGS("--landlock-only", "--landlock-rw", "/home/u", "true"), 7, "write:f",
	    &(struct expect){ "allowed", "landlock", "--landlock-rw", "/home/u", NULL,
			      "/home/u/f" });
}

static void test_exec(void **state)
{
	const char *const *ll =
		ARGS("--landlock-only", "--landlock-rw", "/tmp", "--landlock-exec", "/usr", "true");

	(void)state;
	ask(ll, 7, "execute:/tmp/x",
	    &(struct expect){ "refused", "landlock", "--landlock-exec", NULL, "EACCES", NULL });
	ask(ll, 7, "exec:/usr/bin/true",
	    &(struct expect){ "allowed", "landlock", "--landlock-exec", "/usr", NULL, NULL });
	ask(ARGS("--landlock-only", "--landlock-rw", "/tmp", "true"), 7, "execute:/tmp/x",
	    &(struct expect){ "allowed", "none", NULL, NULL, NULL, NULL });
}

static void test_hide(void **state)
{
	(void)state;
	ask(ARGS("--ro-bind", "/", "/", "--overlay-hide", "rm", "true"), 7, "execute:/usr/bin/rm",
	    &(struct expect){ "refused", "hide", "--overlay-hide", "rm", "ENOENT", NULL });
	ask(ARGS("--ro-bind", "/", "/", "--overlay-hide", "/home/*", "true"), 7,
	    "read:/home/u/.ssh/id_ed25519",
	    &(struct expect){ "refused", "hide", "--overlay-hide", "/home/*", "ENOENT", NULL });
	ask(ARGS("--ro-bind", "/", "/", "--overlay-allow", "sh", "true"), 7, "execute:/usr/bin/ls",
	    &(struct expect){ "refused", "hide", "--overlay-allow", "sh", "ENOENT", NULL });
	ask(ARGS("--ro-bind", "/", "/", "--overlay-allow", "sh", "--overlay-hide", "sh", "true"), 7,
	    "execute:/usr/bin/sh",
	    &(struct expect){ "allowed", "mount", "--ro-bind", "/ /", NULL, NULL });
}

static void test_network(void **state)
{
	(void)state;
	ask(ARGS("--dev-bind", "/", "/", "--unshare-net", "true"), 7, "connect:443",
	    &(struct expect){ "refused", "network-namespace", "--unshare-net", NULL, "ENETUNREACH",
			      NULL });
	/* Landlock's hook comes before the route lookup. */
	ask(ARGS("--dev-bind", "/", "/", "--unshare-net", "--landlock-connect-tcp", "80", "true"),
	    7, "connect:tcp:443",
	    &(struct expect){ "refused", "landlock", "--landlock-connect-tcp", NULL, "EACCES",
			      NULL });
	ask(ARGS("--dev-bind", "/", "/", "--unshare-net", "--landlock-connect-tcp", "80", "true"),
	    7, "connect:localhost:80",
	    &(struct expect){ "allowed", "landlock", "--landlock-connect-tcp", "80", NULL, NULL });
	ask(ARGS("--landlock-only", "--landlock-bind-tcp", "8080", "true"), 7, "bind:8080",
	    &(struct expect){ "allowed", "landlock", "--landlock-bind-tcp", "8080", NULL, NULL });
	ask(ARGS("--landlock-only", "--landlock-bind-tcp", "8080", "true"), 7, "bind:udp:53",
	    &(struct expect){ "allowed", "none", NULL, NULL, NULL, NULL });
}

static void test_unix_and_signal(void **state)
{
	const char *const *deny =
		ARGS("--landlock-only", "--landlock-rw", "/tmp", "--landlock-deny-unix", "true");

	(void)state;
	ask(deny, 7, "connect:unix:/tmp/s",
	    &(struct expect){ "refused", "seccomp", "--landlock-deny-unix", NULL, "EACCES", NULL });
	ask(deny, 9, "connect:unix:/tmp/s",
	    &(struct expect){ "allowed", "landlock", "--landlock-rw", "/tmp", NULL, NULL });
	ask(deny, 9, "connect:unix:/run/dbus/system_bus_socket",
	    &(struct expect){ "refused", "landlock", "--landlock-rw", NULL, "EACCES", NULL });
	ask(ARGS("--landlock-only", "--landlock-rw", "/tmp", "true"), 7, "connect:unix:/run/x",
	    &(struct expect){ "allowed", "none", NULL, NULL, NULL, NULL });
	ask(ARGS("--dev-bind", "/", "/", "--unshare-pid", "--landlock-scope", "--landlock-rw",
		 "/tmp", "true"),
	    7, "signal:outside",
	    &(struct expect){ "refused", "pid-namespace", "--unshare-pid", NULL, "ESRCH", NULL });
	ask(ARGS("--landlock-only", "--landlock-scope", "--landlock-rw", "/tmp", "true"), 7,
	    "signal:outside",
	    &(struct expect){ "refused", "landlock", "--landlock-scope", NULL, "EPERM", NULL });
	ask(ARGS("--landlock-only", "--landlock-scope", "--landlock-rw", "/tmp", "true"), 7,
	    "signal:inside", &(struct expect){ "allowed", "none", NULL, NULL, NULL, NULL });
}

static void test_bad_input(void **state)
{
	static const char *const bad[] = {
		"frobnicate:/x", "write",	"write:", "connect:http", "connect:70000",
		"connect:0",	 "signal:mars", ":x",	  "connect:unix:"
	};
	struct explain_query q;
	struct explain_answer a;
	struct nsrun_error e = { 0 };
	struct plan p;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_int_equal(explain_parse(bad[i], &q, &e), -EINVAL);
		assert_non_null(strstr(e.msg, "--explain: "));
	}
	assert_int_equal(explain_parse("read:etc/passwd", &q, &e), 0);
	plan_init(&p, NULL);
	assert_int_equal(explain_decide(&p, &(struct landlock_desc){ 0 }, NULL, &q, &a, &e),
			 -EINVAL);
	assert_string_equal(e.msg, "--explain: the relative path 'etc/passwd' needs --chdir");
	explain_query_free(&q);
	plan_free(&p);
}

static void test_json(void **state)
{
	const struct cli_io io = { .envp = (char *const *)env0 };
	struct nsrun_error e;
	struct explain_query q;
	struct explain_answer a;
	struct landlock_desc desc;
	_cleanup_free_ char *json = NULL;
	struct plan p;

	(void)state;
	assert_int_equal(parse_args(&io, WS, &p, &e), 0);
	assert_int_equal(landlock_describe_abi(&p.landlock, 7, &desc, &e), 0);
	assert_int_equal(explain_parse("write:/workspace/../etc/\"q\"", &q, &e), 0);
	assert_int_equal(explain_decide(&p, &desc, NULL, &q, &a, &e), 0);
	json = explain_json(&q, &a);
	assert_string_equal(json,
			    "{\"access\":\"write\",\"target\":\"/workspace/../etc/\\\"q\\\"\","
			    "\"path\":\"/etc/\\\"q\\\"\",\"decision\":\"refused\","
			    "\"layer\":\"landlock\",\"option\":\"--landlock-rw\",\"rule\":null,"
			    "\"error\":\"EACCES\",\"why\":\"'/etc/\\\"q\\\"' is not beneath a "
			    "--landlock-rw path\",\"source\":\"rules\"}");
	explain_answer_free(&a);
	explain_query_free(&q);
	plan_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_landlock_write),
		cmocka_unit_test(test_mount_before_landlock),
		cmocka_unit_test(test_sys),
		cmocka_unit_test(test_symlinks_and_relative),
		cmocka_unit_test(test_exec),
		cmocka_unit_test(test_hide),
		cmocka_unit_test(test_network),
		cmocka_unit_test(test_unix_and_signal),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
