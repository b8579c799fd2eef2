/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test-apparmor.c: the AppArmor hand-over's two ends without AppArmor: the environment
 * crosses in a sealed memfd and comes back whole; the restoring end takes nothing but
 * that memfd (never stdio, a file, a pipe or another memfd), and leaves what it refuses
 * open. And how a label's stack is read. The profiles run for real in the kernel guest
 * checks (tests/kernels/guest-checks.sh, case_apparmor).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "apparmor.h"
#include "error.h"
#include "syscall.h"

#define SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)

static struct nsrun_error err;

static int proc_fd(void)
{
	int fd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);

	assert_true(fd >= 0);
	return fd;
}

static bool has(char **v, const char *s)
{
	for (; *v; v++)
		if (strcmp(*v, s) == 0)
			return true;
	return false;
}

static void test_round_trip(void **state)
{
	char text[16], **envp = NULL;
	int proc = proc_fd(), fd;

	(void)state;
	unsetenv(APPARMOR_ENV_FD_VAR);
	setenv("NSRUN_TEST_VALUE", "a=b c\n", 1);
	setenv("LD_LIBRARY_PATH", "/nonexistent/lib", 1);
	fd = apparmor_env_save(&err);
	assert_true(fd > 2);
	/* not close-on-exec (it crosses the exec), sealed, named */
	assert_int_equal(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);
	assert_int_equal(fcntl(fd, F_GET_SEALS) & ~F_SEAL_EXEC, SEALS);
	assert_true(write(fd, "X=1", 4) < 0);
	snprintf(text, sizeof(text), "%d", fd);
	assert_string_equal(getenv(APPARMOR_ENV_FD_VAR), text);

	assert_int_equal(apparmor_env_restore(proc, text, &envp, &err), 0);
	assert_true(has(envp, "NSRUN_TEST_VALUE=a=b c\n"));
	assert_true(has(envp, "LD_LIBRARY_PATH=/nonexistent/lib"));
	/* the variable was set after the environment was saved, and is unset now */
	for (char **e = envp; *e; e++)
		assert_null(strstr(*e, APPARMOR_ENV_FD_VAR));
	assert_null(getenv(APPARMOR_ENV_FD_VAR));
	assert_int_equal(fcntl(fd, F_GETFD), -1);
	free(envp[0]);
	free(envp);
	close(proc);
}

/* Refused with the reason, exit 1 (not 126), and FD (when one) still open. */
static void expect_refused(int proc, const char *text, int fd, const char *reason)
{
	char **envp = NULL;

	memset(&err, 0, sizeof(err));
	assert_true(apparmor_env_restore(proc, text, &envp, &err) < 0);
	assert_null(envp);
	assert_int_equal(err.status, 0);
	if (!strstr(err.msg, reason) || !strstr(err.msg, "not the sealed memfd"))
		fail_msg("'%s': '%s' lacks '%s'", text, err.msg, reason);
	if (fd >= 0)
		assert_true(fcntl(fd, F_GETFD) >= 0);
}

static void test_refuses_stdio(void **state)
{
	int proc = proc_fd();

	(void)state;
	/* (whichever of them the test driver left open must stay open) */
	expect_refused(proc, "0", fcntl(0, F_GETFD) >= 0 ? 0 : -1, "=0 names standard input,");
	expect_refused(proc, "1", fcntl(1, F_GETFD) >= 0 ? 1 : -1, "=1 names standard output,");
	expect_refused(proc, "2", fcntl(2, F_GETFD) >= 0 ? 2 : -1, "=2 names standard error,");
	close(proc);
}

static void test_refuses_files(void **state)
{
	char path[] = "/tmp/test-apparmor.XXXXXX", text[16];
	int proc = proc_fd(), pipe_fds[2], fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd > 2);
	unlink(path);
	assert_int_equal(write(fd, "LD_PRELOAD=/x.so", 17), 17);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	snprintf(text, sizeof(text), "%d", fd);
	/* a file on tmpfs answers F_GET_SEALS too (F_SEAL_SEAL) */
	expect_refused(proc, text, fd, "names a file");
	close(fd);

	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	snprintf(text, sizeof(text), "%d", fd);
	expect_refused(proc, text, fd, "names a file that is not a memfd");
	close(fd);

	assert_int_equal(pipe(pipe_fds), 0);
	snprintf(text, sizeof(text), "%d", pipe_fds[0]);
	expect_refused(proc, text, pipe_fds[0], "names a file that is not a memfd");
	close(pipe_fds[0]);
	close(pipe_fds[1]);

	expect_refused(proc, "999", -1, "=999 names no open fd");
	close(proc);
}

static void test_refuses_other_memfds(void **state)
{
	char text[16];
	int proc = proc_fd(), fd;

	(void)state;
	/* nsrun's name, not sealed */
	fd = memfd_create("nsrun-environ", MFD_CLOEXEC);
	assert_true(fd > 2);
	snprintf(text, sizeof(text), "%d", fd);
	expect_refused(proc, text, fd, "names a file without the seals nsrun sets");
	close(fd);

	/* nsrun's name, sealed but still writable */
	fd = memfd_create("nsrun-environ", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	assert_int_equal(fcntl(fd, F_ADD_SEALS, F_SEAL_SEAL | F_SEAL_SHRINK), 0);
	snprintf(text, sizeof(text), "%d", fd);
	expect_refused(proc, text, fd, "names a file without the seals nsrun sets");
	close(fd);

	/* nsrun's seals, another name (also one that starts with nsrun's) */
	fd = memfd_create("nsrun-environ-x", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	assert_int_equal(fcntl(fd, F_ADD_SEALS, SEALS), 0);
	snprintf(text, sizeof(text), "%d", fd);
	expect_refused(proc, text, fd, "names a memfd nsrun did not make");
	close(fd);
	close(proc);
}

static void test_refuses_bad_numbers(void **state)
{
	static const char *const bad[] = { "", "x", "-1", " 5", "5 ", "99999999999" };
	char **envp = NULL;
	int proc = proc_fd();

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&err, 0, sizeof(err));
		assert_true(apparmor_env_restore(proc, bad[i], &envp, &err) < 0);
		assert_string_equal(err.msg, "AppArmor hand-over: bad " APPARMOR_ENV_FD_VAR);
	}
	assert_null(envp);
	close(proc);
}

static void test_label_has(void **state)
{
	(void)state;
	assert_true(apparmor_label_has("nsrun_payload (enforce)", "nsrun_payload"));
	assert_true(apparmor_label_has("nsrun_payload//&nsrun_userns (enforce)", "nsrun_payload"));
	assert_true(apparmor_label_has("nsrun_payload//&nsrun_userns (enforce)", "nsrun_userns"));
	assert_true(apparmor_label_has("nsrun//&nsrun_payload//&nsrun_userns (enforce)",
				       "nsrun_payload"));
	assert_true(apparmor_label_has("a (complain)//&nsrun_payload (enforce)", "nsrun_payload"));
	assert_true(apparmor_label_has("nsrun_payload", "nsrun_payload"));
	assert_false(apparmor_label_has("unconfined", "nsrun_payload"));
	assert_false(apparmor_label_has("nsrun_userns (enforce)", "nsrun_payload"));
	assert_false(apparmor_label_has("nsrun_payload_x (enforce)", "nsrun_payload"));
	assert_false(apparmor_label_has("x_nsrun_payload (enforce)", "nsrun_payload"));
	assert_false(apparmor_label_has("nsrun_payload//hat (enforce)", "nsrun_payload"));
	assert_false(apparmor_label_has("nsrun (enforce)", "nsrun_payload"));
	assert_false(apparmor_label_has("nsrun_userns//&nsrun (enforce)", "nsrun_payload"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_refuses_stdio),
		cmocka_unit_test(test_refuses_files),
		cmocka_unit_test(test_refuses_other_memfds),
		cmocka_unit_test(test_refuses_bad_numbers),
		cmocka_unit_test(test_label_has),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
