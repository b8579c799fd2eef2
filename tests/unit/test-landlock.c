/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test-landlock: the pure part of the Landlock module: rights per ABI, the
 * file-rights-subset invariant (a violation makes landlock_add_rule fail with
 * EINVAL), and requested-versus-supported decisions with a fake ABI.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "landlock.h"
#include "syscall.h"

#define ABI_MAX_TESTED 12

#define MAKE_ALL                                                                  \
	(NSRUN_LL_FS_MAKE_CHAR | NSRUN_LL_FS_MAKE_DIR | NSRUN_LL_FS_MAKE_REG |    \
	 NSRUN_LL_FS_MAKE_SOCK | NSRUN_LL_FS_MAKE_FIFO | NSRUN_LL_FS_MAKE_BLOCK | \
	 NSRUN_LL_FS_MAKE_SYM)
#define ABI1_WRITE \
	(NSRUN_LL_FS_WRITE_FILE | NSRUN_LL_FS_REMOVE_DIR | NSRUN_LL_FS_REMOVE_FILE | MAKE_ALL)
#define ABI1_ALL (ABI1_WRITE | NSRUN_LL_FS_EXECUTE | NSRUN_LL_FS_READ_FILE | NSRUN_LL_FS_READ_DIR)
/* What the kernel accepts on a rule for a non-directory (LANDLOCK_ACCESS_FILE). */
#define KERNEL_FILE_ACCESS                                                      \
	(NSRUN_LL_FS_EXECUTE | NSRUN_LL_FS_WRITE_FILE | NSRUN_LL_FS_READ_FILE | \
	 NSRUN_LL_FS_TRUNCATE | NSRUN_LL_FS_IOCTL_DEV)

static void test_write_rights_per_abi(void **state)
{
	(void)state;
	assert_int_equal(landlock_fs_write_rights(-1), 0);
	assert_int_equal(landlock_fs_write_rights(0), 0);
	assert_int_equal(landlock_fs_write_rights(1), ABI1_WRITE);
	assert_int_equal(landlock_fs_write_rights(2), ABI1_WRITE | NSRUN_LL_FS_REFER);
	for (int abi = 3; abi <= 8; abi++)
		assert_int_equal(landlock_fs_write_rights(abi),
				 ABI1_WRITE | NSRUN_LL_FS_REFER | NSRUN_LL_FS_TRUNCATE);
	/* unknown future ABIs behave as the highest known one */
	assert_int_equal(landlock_fs_write_rights(9), landlock_fs_write_rights(8));
	assert_int_equal(landlock_fs_write_rights(1000), landlock_fs_write_rights(8));
}

static void test_write_rights_never_read_or_exec(void **state)
{
	(void)state;
	for (int abi = 1; abi <= ABI_MAX_TESTED; abi++) {
		uint64_t w = landlock_fs_write_rights(abi);

		assert_int_equal(w & (NSRUN_LL_FS_READ_FILE | NSRUN_LL_FS_READ_DIR |
				      NSRUN_LL_FS_EXECUTE | NSRUN_LL_FS_IOCTL_DEV),
				 0);
	}
}

static void test_file_rights_per_abi(void **state)
{
	(void)state;
	assert_int_equal(landlock_fs_file_rights(0), 0);
	assert_int_equal(landlock_fs_file_rights(1), NSRUN_LL_FS_WRITE_FILE);
	assert_int_equal(landlock_fs_file_rights(2), NSRUN_LL_FS_WRITE_FILE);
	for (int abi = 3; abi <= ABI_MAX_TESTED; abi++)
		assert_int_equal(landlock_fs_file_rights(abi),
				 NSRUN_LL_FS_WRITE_FILE | NSRUN_LL_FS_TRUNCATE);
}

static void test_file_rights_subset_of_handled(void **state)
{
	(void)state;
	for (int abi = 1; abi <= ABI_MAX_TESTED; abi++) {
		uint64_t file = landlock_fs_file_rights(abi);
		uint64_t handled = landlock_fs_write_rights(abi);

		assert_int_equal(file & ~handled, 0);
		assert_int_equal(file & ~KERNEL_FILE_ACCESS, 0);
		assert_int_equal(handled & ~landlock_fs_all_rights(abi), 0);
		/* with --landlock-exec the handled set grows, the file set stays valid */
		assert_int_equal(NSRUN_LL_FS_EXECUTE & ~landlock_fs_all_rights(abi), 0);
		assert_true(file != 0);
	}
}

static void test_all_rights_per_abi(void **state)
{
	(void)state;
	assert_int_equal(landlock_fs_all_rights(0), 0);
	assert_int_equal(landlock_fs_all_rights(1), ABI1_ALL);
	assert_int_equal(landlock_fs_all_rights(2), ABI1_ALL | NSRUN_LL_FS_REFER);
	assert_int_equal(landlock_fs_all_rights(3),
			 ABI1_ALL | NSRUN_LL_FS_REFER | NSRUN_LL_FS_TRUNCATE);
	assert_int_equal(landlock_fs_all_rights(4), landlock_fs_all_rights(3));
	for (int abi = 5; abi <= ABI_MAX_TESTED; abi++)
		assert_int_equal(landlock_fs_all_rights(abi),
				 landlock_fs_all_rights(3) | NSRUN_LL_FS_IOCTL_DEV);
	assert_int_equal(landlock_fs_all_rights(8), 0xffff);
}

static void test_net_and_scope_per_abi(void **state)
{
	(void)state;
	for (int abi = 0; abi <= 3; abi++)
		assert_int_equal(landlock_net_rights(abi), 0);
	for (int abi = 4; abi <= ABI_MAX_TESTED; abi++)
		assert_int_equal(landlock_net_rights(abi),
				 NSRUN_LL_NET_BIND_TCP | NSRUN_LL_NET_CONNECT_TCP);
	for (int abi = 0; abi <= 5; abi++)
		assert_int_equal(landlock_scope_rights(abi), 0);
	for (int abi = 6; abi <= ABI_MAX_TESTED; abi++)
		assert_int_equal(landlock_scope_rights(abi),
				 NSRUN_LL_SCOPE_ABSTRACT_UNIX_SOCKET | NSRUN_LL_SCOPE_SIGNAL);
}

static void test_ruleset_attr_size(void **state)
{
	(void)state;
	for (int abi = 1; abi <= 3; abi++)
		assert_int_equal(landlock_ruleset_attr_size(abi), 8);
	assert_int_equal(landlock_ruleset_attr_size(4), 16);
	assert_int_equal(landlock_ruleset_attr_size(5), 16);
	for (int abi = 6; abi <= ABI_MAX_TESTED; abi++)
		assert_int_equal(landlock_ruleset_attr_size(abi), 24);
}

/* ---- describe with a fake ABI ---- */

static char *no_paths[] = { NULL };
static char usr_bin[] = "/usr/bin";
static char *some_exec[] = { usr_bin, NULL };
static uint16_t port_80 = 80;

static struct landlock_config base_cfg(void)
{
	return (struct landlock_config){ .enabled = true, .rw = no_paths, .exec = no_paths };
}

static void test_describe_disabled_is_noop(void **state)
{
	struct landlock_config cfg = { .enabled = false };
	struct landlock_desc d = { .abi = 42 };
	struct nsrun_error err = { 0 };

	(void)state;
	/* even an unavailable Landlock is fine when nothing was asked */
	assert_int_equal(landlock_describe_abi(&cfg, -ENOSYS, &d, &err), 0);
	assert_int_equal(d.abi, 0);
	assert_int_equal(err.status, 0);
}

static void test_describe_rw_only(void **state)
{
	struct landlock_config cfg = base_cfg();
	struct landlock_desc d;
	struct nsrun_error err = { 0 };

	(void)state;
	for (int abi = 1; abi <= ABI_MAX_TESTED; abi++) {
		assert_int_equal(landlock_describe_abi(&cfg, abi, &d, &err), 0);
		assert_int_equal(d.abi, abi);
		assert_int_equal(d.handled_fs, landlock_fs_write_rights(abi));
		assert_int_equal(d.handled_net, 0);
		assert_int_equal(d.scoped, 0);
	}
}

static void test_describe_exec_adds_execute(void **state)
{
	struct landlock_config cfg = base_cfg();
	struct landlock_desc d;
	struct nsrun_error err = { 0 };

	(void)state;
	cfg.exec = some_exec;
	for (int abi = 1; abi <= ABI_MAX_TESTED; abi++) {
		assert_int_equal(landlock_describe_abi(&cfg, abi, &d, &err), 0);
		assert_int_equal(d.handled_fs, landlock_fs_write_rights(abi) | NSRUN_LL_FS_EXECUTE);
		assert_int_equal(landlock_fs_file_rights(abi) & ~d.handled_fs, 0);
	}
}

static void expect_fail(const struct landlock_config *cfg, int abi, const char *needle)
{
	struct landlock_desc d;
	struct nsrun_error err = { 0 };

	assert_true(landlock_describe_abi(cfg, abi, &d, &err) < 0);
	assert_int_equal(err.status, LANDLOCK_EXIT_STATUS);
	if (!strstr(err.msg, needle))
		fail_msg("message '%s' lacks '%s'", err.msg, needle);
	assert_non_null(strstr(err.msg, "refusing to run"));
}

static void test_describe_unavailable(void **state)
{
	struct landlock_config cfg = base_cfg();

	(void)state;
	expect_fail(&cfg, -ENOSYS, "not supported by this kernel (ENOSYS)");
	expect_fail(&cfg, -ENOSYS, "5.13");
	expect_fail(&cfg, -EOPNOTSUPP, "lsm=");
	expect_fail(&cfg, -EOPNOTSUPP, "disabled");
	expect_fail(&cfg, -EPROTONOSUPPORT, "--disable-landlock");
	expect_fail(&cfg, -EPERM, "Operation not permitted");
	expect_fail(&cfg, 0, "ABI 0");
}

static void test_describe_tcp(void **state)
{
	struct landlock_config cfg = base_cfg();
	struct landlock_desc d;
	struct nsrun_error err = { 0 };

	(void)state;
	cfg.connect_tcp = &port_80;
	cfg.n_connect_tcp = 1;
	cfg.has_connect_tcp = true;
	for (int abi = 1; abi <= 3; abi++)
		expect_fail(&cfg, abi, "--landlock-connect-tcp needs Landlock ABI 4");
	assert_int_equal(landlock_describe_abi(&cfg, 4, &d, &err), 0);
	assert_int_equal(d.handled_net, NSRUN_LL_NET_CONNECT_TCP);

	cfg = base_cfg();
	cfg.has_bind_tcp = true; /* no port at all: binding is denied everywhere */
	expect_fail(&cfg, 3, "--landlock-bind-tcp needs Landlock ABI 4");
	assert_int_equal(landlock_describe_abi(&cfg, 7, &d, &err), 0);
	assert_int_equal(d.handled_net, NSRUN_LL_NET_BIND_TCP);

	cfg.has_connect_tcp = true;
	assert_int_equal(landlock_describe_abi(&cfg, 4, &d, &err), 0);
	assert_int_equal(d.handled_net, NSRUN_LL_NET_BIND_TCP | NSRUN_LL_NET_CONNECT_TCP);
}

static void test_describe_scope(void **state)
{
	struct landlock_config cfg = base_cfg();
	struct landlock_desc d;
	struct nsrun_error err = { 0 };

	(void)state;
	cfg.scope = true;
	for (int abi = 1; abi <= 5; abi++)
		expect_fail(&cfg, abi, "--landlock-scope needs Landlock ABI 6");
	for (int abi = 6; abi <= ABI_MAX_TESTED; abi++) {
		assert_int_equal(landlock_describe_abi(&cfg, abi, &d, &err), 0);
		assert_int_equal(d.scoped,
				 NSRUN_LL_SCOPE_ABSTRACT_UNIX_SOCKET | NSRUN_LL_SCOPE_SIGNAL);
		assert_int_equal(d.handled_net, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_rights_per_abi),
		cmocka_unit_test(test_write_rights_never_read_or_exec),
		cmocka_unit_test(test_file_rights_per_abi),
		cmocka_unit_test(test_file_rights_subset_of_handled),
		cmocka_unit_test(test_all_rights_per_abi),
		cmocka_unit_test(test_net_and_scope_per_abi),
		cmocka_unit_test(test_ruleset_attr_size),
		cmocka_unit_test(test_describe_disabled_is_noop),
		cmocka_unit_test(test_describe_rw_only),
		cmocka_unit_test(test_describe_exec_adds_execute),
		cmocka_unit_test(test_describe_unavailable),
		cmocka_unit_test(test_describe_tcp),
		cmocka_unit_test(test_describe_scope),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
