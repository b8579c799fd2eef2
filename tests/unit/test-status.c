/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test-status.c: --info-fd and --json-status-fd text, byte for byte as bwrap
 * writes it (key names, order, spacing), plus nsrun's Landlock keys, and the
 * writers through a real pipe.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>

#include <cmocka.h>

#include "status.h"
#include "util.h"

static struct status_info sample(void)
{
	struct status_info info = {
		.child_pid = 7699,
		.ns = {
			{ "cgroup", 4026532181u }, { "ipc", 4026532179u }, { "mnt", 4026532177u },
			{ "net", 4026532182u },	   { "pid", 4026532180u }, { "uts", 4026532178u },
		},
		.n_ns = 6,
	};
	return info;
}

static void test_info_pretty(void **state)
{
	struct status_info info = sample();
	char *s = status_format_info(&info);

	(void)state;
	assert_string_equal(s, "{\n"
			       "    \"child-pid\": 7699,\n"
			       "    \"cgroup-namespace\": 4026532181,\n"
			       "    \"ipc-namespace\": 4026532179,\n"
			       "    \"mnt-namespace\": 4026532177,\n"
			       "    \"net-namespace\": 4026532182,\n"
			       "    \"pid-namespace\": 4026532180,\n"
			       "    \"uts-namespace\": 4026532178\n"
			       "}\n");
	free(s);
}

static void test_json_line(void **state)
{
	struct status_info info = sample();
	char *s;

	(void)state;
	info.ns[0] = (struct status_ns){ "mnt", 4026532178u };
	info.n_ns = 1;
	info.child_pid = 7712;
	s = status_format_json(&info);
	assert_string_equal(s, "{ \"child-pid\": 7712, \"mnt-namespace\": 4026532178 }\n");
	free(s);
	s = status_format_exit(42);
	assert_string_equal(s, "{ \"exit-code\": 42 }\n");
	free(s);
}

static void test_landlock_keys(void **state)
{
	struct landlock_desc ll = { .abi = 7, .handled_fs = 0xffff, .handled_net = 3, .scoped = 3 };
	struct status_info info = sample();
	char *s;

	(void)state;
	info.n_ns = 1;
	info.landlock = &ll;
	s = status_format_json(&info);
	assert_string_equal(
		s, "{ \"child-pid\": 7699, \"cgroup-namespace\": 4026532181, "
		   "\"landlock-abi\": 7, \"landlock-handled-fs\": 65535, "
		   "\"landlock-handled-net\": 3, \"landlock-scoped\": 3, "
		   "\"landlock-unix-connect\": \"unrestricted\", "
		   "\"landlock-truncate\": \"landlock\", \"landlock-threads\": \"calling\" }\n");
	free(s);
	s = status_format_info(&info);
	assert_non_null(strstr(s, ",\n    \"landlock-abi\": 7,\n"));
	assert_non_null(strstr(s, ",\n    \"landlock-scoped\": 3,\n"));
	assert_non_null(strstr(s, "\n    \"landlock-unix-connect\": \"unrestricted\",\n"));
	assert_non_null(strstr(s, "\n    \"landlock-threads\": \"calling\"\n}\n"));
	free(s);
	/* who stops pathname UNIX connects: Landlock itself (ABI 9) or the seccomp fallback */
	ll.unix_connect = LANDLOCK_UNIX_LANDLOCK;
	s = status_format_json(&info);
	assert_non_null(strstr(s, ", \"landlock-unix-connect\": \"landlock\", "));
	free(s);
	ll.unix_connect = LANDLOCK_UNIX_SECCOMP;
	s = status_format_json(&info);
	assert_non_null(strstr(s, ", \"landlock-unix-connect\": \"seccomp\", "));
	free(s);
	/* truncation by the seccomp guard below ABI 3; TSYNC on every thread from ABI 8 */
	ll = (struct landlock_desc){ .abi = 2, .handled_fs = 0x3ff2 };
	s = status_format_json(&info);
	assert_non_null(strstr(s, ", \"landlock-truncate\": \"seccomp\", "));
	free(s);
	ll = (struct landlock_desc){ .abi = 8, .handled_fs = 0x7ff2 };
	s = status_format_json(&info);
	assert_non_null(
		strstr(s, "\"landlock-truncate\": \"landlock\", \"landlock-threads\": \"all\" }"));
	free(s);
}

/* The limits as the cgroup's files hold them; swap is bounded to 0 under --memory-max. */
static void test_limit_keys(void **state)
{
	struct limits_config l = { .memory_max = 64 << 20, .has_memory_max = true };
	struct status_info info = sample();
	char *s;

	(void)state;
	info.n_ns = 0;
	info.cgroup = "/sys/fs/cgroup/nsrun/a\"b";
	info.limits = &l;
	s = status_format_json(&info);
	assert_string_equal(s,
			    "{ \"child-pid\": 7699, \"cgroup\": \"/sys/fs/cgroup/nsrun/a\\\"b\", "
			    "\"memory-max\": 67108864, \"memory-swap-max\": 0 }\n");
	free(s);
	l = (struct limits_config){ .memory_swap_max = 1024,
				    .has_memory_swap_max = true,
				    .pids_max = 64,
				    .has_pids_max = true,
				    .cpu_quota_us = 33333,
				    .has_cpu_max = true };
	s = status_format_json(&info);
	assert_string_equal(s,
			    "{ \"child-pid\": 7699, \"cgroup\": \"/sys/fs/cgroup/nsrun/a\\\"b\", "
			    "\"memory-swap-max\": 1024, \"pids-max\": 64, "
			    "\"cpu-max\": \"33333 100000\" }\n");
	free(s);
	info.cgroup = NULL; /* no cgroup: no limits either */
	s = status_format_json(&info);
	assert_string_equal(s, "{ \"child-pid\": 7699 }\n");
	free(s);
}

static void test_write_pipe(void **state)
{
	struct status_info info = sample();
	struct nsrun_error err = { 0 };
	char *got = NULL;
	size_t len;
	int p[2];

	(void)state;
	info.n_ns = 0;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(status_write_json(p[1], &info, &err), 0);
	assert_int_equal(status_write_exit(p[1], 143, &err), 0);
	close(p[1]);
	assert_int_equal(read_all(p[0], 4096, &got, &len), 0);
	close(p[0]);
	assert_string_equal(got, "{ \"child-pid\": 7699 }\n{ \"exit-code\": 143 }\n");
	free(got);
}

static void test_write_error(void **state)
{
	struct status_info info = sample();
	struct nsrun_error err = { 0 };
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	assert_int_equal(status_write_info(p[1], &info, &err), -EPIPE);
	assert_non_null(strstr(err.msg, "info_fd"));
	close(p[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_info_pretty),   cmocka_unit_test(test_json_line),
		cmocka_unit_test(test_landlock_keys), cmocka_unit_test(test_write_pipe),
		cmocka_unit_test(test_write_error),   cmocka_unit_test(test_limit_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
