/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test-util.c: the strict number parsers (their edge cases decide bwrap-compatible
 * error messages), environment vectors, string vectors, whole-fd I/O, the fd closer,
 * path_join and path_is_below.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "error.h"
#include "syscall.h"
#include "util.h"

static void test_parse_fd(void **state)
{
	static const char *const bad[] = { "",	  "-1", "0a",	      "a",
					   " 1",  "1 ", "2147483648", "99999999999999999999",
					   "+-1", "0x3" };
	int fd = -5;

	(void)state;
	assert_int_equal(parse_fd("0", &fd), 0);
	assert_int_equal(fd, 0);
	assert_int_equal(parse_fd("2147483647", &fd), 0);
	assert_int_equal(fd, 2147483647);
	assert_int_equal(parse_fd("010", &fd), 0);
	assert_int_equal(fd, 10); /* decimal, like bwrap's strtol(..., 10) */
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		fd = -5;
		assert_int_equal(parse_fd(bad[i], &fd), -EINVAL);
		assert_int_equal(fd, -5);
	}
	assert_int_equal(parse_fd(NULL, &fd), -EINVAL);
}

static void test_parse_octal_mode(void **state)
{
	static const char *const bad[] = { "",	 "8",  "0x7", "07778", "010000",
					   "-1", " 7", "7 ",  "abc",   "99999999999999999999999" };
	mode_t m = 0;

	(void)state;
	assert_int_equal(parse_octal_mode("0", &m), 0);
	assert_int_equal(m, 0);
	assert_int_equal(parse_octal_mode("755", &m), 0);
	assert_int_equal(m, 0755);
	assert_int_equal(parse_octal_mode("07777", &m), 0);
	assert_int_equal(m, 07777);
	assert_int_equal(parse_octal_mode("0001777", &m), 0);
	assert_int_equal(m, 01777);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		assert_true(parse_octal_mode(bad[i], &m) < 0);
}

static void test_parse_u64(void **state)
{
	uint64_t v = 0;

	(void)state;
	assert_int_equal(parse_u64("0", 0, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(parse_u64("0x10", 0, &v), 0);
	assert_int_equal(v, 16);
	assert_int_equal(parse_u64("010", 0, &v), 0);
	assert_int_equal(v, 8);
	assert_int_equal(parse_u64("010", 10, &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(parse_u64("18446744073709551615", 0, &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(parse_u64("18446744073709551616", 0, &v), -ERANGE);
	assert_int_equal(parse_u64("", 0, &v), -EINVAL);
	assert_int_equal(parse_u64("-1", 0, &v), -EINVAL);
	assert_int_equal(parse_u64(" -1", 0, &v), -EINVAL);
	assert_int_equal(parse_u64(" 1", 0, &v), -EINVAL);
	assert_int_equal(parse_u64("+1", 0, &v), -EINVAL);
	assert_int_equal(parse_u64("123bogus", 0, &v), -EINVAL);
	assert_int_equal(parse_u64("0x", 0, &v), -EINVAL);
	assert_int_equal(parse_u64("08", 0, &v), -EINVAL);
	assert_int_equal(parse_u64("0x10", 10, &v), -EINVAL);
}

static void test_env(void **state)
{
	static const char *const start[] = { "A=1", "AB=2", "B=x=y", NULL };
	char **env = strv_copy((char *const *)start);

	(void)state;
	assert_string_equal(env_get(env, "A"), "1");
	assert_string_equal(env_get(env, "AB"), "2");
	assert_string_equal(env_get(env, "B"), "x=y");
	assert_null(env_get(env, "C"));
	assert_null(env_get(env, "A="));
	env_set(&env, "A", "3");
	assert_string_equal(env[0], "A=3"); /* replaced in place, order kept */
	env_set(&env, "C", "");
	assert_string_equal(env[3], "C=");
	assert_null(env[4]);
	env_unset(&env, "AB");
	assert_string_equal(env[1], "B=x=y");
	assert_string_equal(env[2], "C=");
	assert_null(env[3]);
	env_unset(&env, "NOPE");
	assert_int_equal(strv_length(env), 3);
	env_unset(&env, "A");
	env_unset(&env, "B");
	env_unset(&env, "C");
	assert_int_equal(strv_length(env), 0);
	assert_non_null(env);
	env_set(&env, "D", "4");
	assert_string_equal(env[0], "D=4");
	strv_free(env);

	env = NULL;
	env_set(&env, "X", "y");
	assert_string_equal(env[0], "X=y");
	strv_free(env);
}

static void test_strv(void **state)
{
	static const char *const cv[] = { "a", "", "c", NULL };
	char *const *v = (char *const *)cv;
	char **c;

	(void)state;
	assert_int_equal(strv_length(NULL), 0);
	assert_int_equal(strv_length(v), 3);
	c = strv_copy(v);
	assert_int_equal(strv_length(c), 3);
	assert_ptr_not_equal(c[0], v[0]);
	assert_string_equal(c[1], "");
	strv_push(&c, "d");
	assert_string_equal(c[3], "d");
	assert_null(c[4]);
	strv_free(c);
	c = strv_copy(NULL);
	assert_non_null(c);
	assert_null(c[0]);
	strv_free(c);
	c = NULL;
	strv_push(&c, "x");
	assert_int_equal(strv_length(c), 1);
	strv_free(c);
	strv_free(NULL);
	{
		_cleanup_free_ char *j = strv_join(v, ", "), *e = strv_join(NULL, " ");

		assert_string_equal(j, "a, , c");
		assert_string_equal(e, "");
	}
}

static void test_strings(void **state)
{
	_cleanup_free_ char *a = path_join("/a/", "/b"), *b = path_join("/", "x"),
			    *c = path_join("rel", "y/z"), *d = path_join("/a//", "");
	_cleanup_free_ char *e = xasprintf("%s-%d", "x", 5);

	(void)state;
	assert_string_equal(a, "/a/b");
	assert_string_equal(b, "/x");
	assert_string_equal(c, "rel/y/z");
	assert_string_equal(d, "/a/");
	assert_string_equal(e, "x-5");
	assert_true(str_has_prefix("--bind", "--"));
	assert_true(str_has_prefix("x", ""));
	assert_false(str_has_prefix("-", "--"));
	assert_null(xstrdup(NULL));
}

/* The printf-free builders of the setup side. */
static void test_concat(void **state)
{
	_cleanup_free_ char *a = xconcat("/oldroot", "/usr"), *b = xconcat(""),
			    *c = xconcat("a", "", "b", "=", "c"), *d = xjoin_n("/x/yz", 2, "n"),
			    *e = xjoin_n("", 0, "top");
	char buf[NUM_BUF_SIZE];

	(void)state;
	assert_string_equal(a, "/oldroot/usr");
	assert_string_equal(b, "");
	assert_string_equal(c, "ab=c");
	assert_string_equal(d, "/x/n");
	assert_string_equal(e, "/top");
	assert_string_equal(num_str(buf, 0, 10), "0");
	assert_string_equal(num_str(buf, 4294967294ull, 10), "4294967294");
	assert_string_equal(num_str(buf, UINT64_MAX, 10), "18446744073709551615");
	assert_string_equal(num_str(buf, 0755, 8), "755");
	assert_string_equal(num_str(buf, UINT64_MAX, 8), "1777777777777777777777");
	assert_string_equal(num_str(buf, 0xbeef, 16), "beef");
}

static void test_xappend(void **state)
{
	int *arr = NULL;
	size_t n = 0;

	(void)state;
	for (int i = 0; i < 100; i++) {
		int *slot = xappend(&arr, &n, sizeof(int));

		assert_int_equal(*slot, 0);
		*slot = i;
	}
	assert_int_equal(n, 100);
	assert_int_equal(arr[99], 99);
	/* A caller may lower the count; growth resumes from there (room is implied). */
	n = 3;
	for (int i = 3; i < 5000; i++)
		*(int *)xappend(&arr, &n, sizeof(int)) = i;
	for (int i = 0; i < 5000; i++)
		assert_int_equal(arr[i], i);
	free(arr);
}

/* strv_append: the same vector as strv_push gives, NULL-terminated at every length. */
static void test_strv_append(void **state)
{
	char **v = NULL, buf[16];
	size_t n = 0;

	(void)state;
	for (int i = 0; i < 3000; i++) {
		snprintf(buf, sizeof(buf), "s%d", i);
		strv_append(&v, &n, buf);
		assert_int_equal(n, (size_t)i + 1);
		assert_null(v[n]);
		assert_int_equal(strv_length(v), n);
	}
	assert_string_equal(v[0], "s0");
	assert_string_equal(v[2999], "s2999");
	strv_free(v);
}

static void test_path_is_below(void **state)
{
	(void)state;
	assert_true(path_is_below("/usr/bin", "/usr"));
	assert_true(path_is_below("/usr", "/usr"));
	assert_false(path_is_below("/usrx", "/usr"));
	assert_false(path_is_below("/usr", "/usr/bin"));
	assert_true(path_is_below("/anything", "/"));
	assert_true(path_is_below("/", "/"));
	assert_false(path_is_below("relative", "/"));
}

static void test_read_all(void **state)
{
	int p[2];
	char *buf = NULL;
	size_t len = 0;

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write_all(p[1], "a\0b", 3), 0);
	close(p[1]);
	assert_int_equal(read_all(p[0], 16, &buf, &len), 0);
	assert_int_equal(len, 3);
	assert_memory_equal(buf, "a\0b", 4); /* NUL-terminated */
	free(buf);
	close(p[0]);

	assert_int_equal(pipe(p), 0);
	assert_int_equal(write_all(p[1], "0123456789", 10), 0);
	close(p[1]);
	assert_int_equal(read_all(p[0], 9, &buf, &len), -EFBIG);
	close(p[0]);
	assert_int_equal(read_all(-1, 9, &buf, &len), -EBADF);
}

static void test_read_full(void **state)
{
	char buf[8];
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write_all(p[1], "xyz", 3), 0);
	assert_int_equal(read_byte(p[0]), 'x');
	close(p[1]);
	/* short at EOF: what was there, then nothing */
	assert_int_equal(read_full(p[0], buf, sizeof(buf)), 2);
	assert_memory_equal(buf, "yz", 2);
	assert_int_equal(read_full(p[0], buf, sizeof(buf)), 0);
	assert_int_equal(read_byte(p[0]), -1);
	close(p[0]);
	assert_int_equal(read_full(-1, buf, 1), -EBADF);
	assert_int_equal(read_byte(-1), -1);
}

/* A message too long for the struct keeps its reason at the end. */
static void test_error_set(void **state)
{
	static struct nsrun_error e;
	static char big[NSRUN_ERROR_MSG_MAX + 100];
	const char *tail = "...: No such file or directory";

	(void)state;
	assert_int_equal(error_set(&e, ENOENT, "Can't find %s", "x"), -ENOENT);
	assert_string_equal(e.msg, "Can't find x: No such file or directory");
	memset(big, 'p', sizeof(big) - 1);
	error_set(&e, ENOENT, "Can't find %s", big);
	assert_int_equal(strlen(e.msg), sizeof(e.msg) - 1);
	assert_string_equal(e.msg + strlen(e.msg) - strlen(tail), tail);
	assert_memory_equal(e.msg, "Can't find ppp", 14);
	error_set_plain(&e, 0, "%s", big);
	assert_int_equal(strlen(e.msg), sizeof(e.msg) - 1);
	assert_string_equal(e.msg + strlen(e.msg) - 4, "p...");
	/* Just fitting: nothing cut. */
	big[sizeof(e.msg) - 1 - strlen(": No such file or directory")] = '\0';
	error_set(&e, ENOENT, "%s", big);
	assert_int_equal(strlen(e.msg), sizeof(e.msg) - 1);
	assert_string_equal(e.msg + strlen(e.msg) - 30, "ppp: No such file or directory");
}

/* A hint after the message, cut where the message ends, from parts of the message too. */
static void test_error_append(void **state)
{
	static struct nsrun_error e;
	static char big[NSRUN_ERROR_MSG_MAX];

	(void)state;
	error_append(NULL, "nothing");
	error_set_plain(&e, EPERM, "Unknown option --x=y");
	error_append(&e, ": the value goes in the next argument (--x %s)", strchr(e.msg, '=') + 1);
	assert_string_equal(e.msg, "Unknown option --x=y: the value goes in the next argument "
				   "(--x y)");
	assert_int_equal(e.code, EPERM);
	memset(big, 'p', sizeof(big) - 1);
	big[sizeof(e.msg) - 3] = '\0';
	error_set_plain(&e, 0, "%s", big);
	error_append(&e, " (run 'nsrun --doctor')");
	assert_int_equal(strlen(e.msg), sizeof(e.msg) - 1);
	assert_string_equal(e.msg + strlen(e.msg) - 3, "p (");
}

/* An fd's /proc/self/fd name and its real path, as mount(2) and messages use them. */
static void test_fd_paths(void **state)
{
	char link[FD_PATH_SIZE], *real = NULL;
	int fd = open("/usr/bin", O_PATH | O_CLOEXEC);

	(void)state;
	assert_true(fd >= 0);
	fd_proc_path(link, 7);
	assert_string_equal(link, "/proc/self/fd/7");
	fd_proc_path(link, 2147483647);
	assert_string_equal(link, "/proc/self/fd/2147483647");
	assert_int_equal(fd_real_path(fd, &real), 0);
	assert_string_equal(real, "/usr/bin");
	free(real);
	close(fd);
	assert_int_equal(fd_real_path(fd, &real), -ENOENT);
}

/* close_range(2) answers ENOSYS, as before Linux 5.9: the closer closes every number below
 * the hard limit, never trusting a /proc listing. */
static int deny_close_range(void)
{
	struct sock_filter prog[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_close_range, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog fprog = { ARRAY_SIZE(prog), prog };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog);
}

/* In a child, as nsrun's pid 1, monitor and cgroup guard call it: 1 when a kept fd or a
 * standard one changed, 2 when one that is not kept stayed open. */
static int close_all_except_in_child(bool old_kernel)
{
	int keep[] = { 9, -1, 2, 100, 0 }, fds[] = { 5, 6, 9, 40, 100 }, std[3];
	int null = open("/dev/null", O_RDONLY);

	for (size_t i = 0; i < ARRAY_SIZE(fds); i++)
		(void)dup2(null, fds[i]);
	for (int i = 0; i < 3; i++)
		std[i] = fcntl(i, F_GETFD);
	if (old_kernel && deny_close_range() < 0)
		return 3;
	fd_close_all_except(keep, ARRAY_SIZE(keep));
	for (int i = 0; i < 3; i++)
		if (fcntl(i, F_GETFD) != std[i])
			return 1;
	if (fcntl(9, F_GETFD) < 0 || fcntl(100, F_GETFD) < 0)
		return 1;
	if (fcntl(5, F_GETFD) >= 0 || fcntl(6, F_GETFD) >= 0 || fcntl(40, F_GETFD) >= 0 ||
	    fcntl(null, F_GETFD) >= 0)
		return 2;
	return 0;
}

static void test_fd_close_all_except(void **state)
{
	(void)state;
	for (int old_kernel = 0; old_kernel <= 1; old_kernel++) {
		pid_t pid = fork();
		int st;

		assert_true(pid >= 0);
		if (pid == 0)
			_exit(close_all_except_in_child(old_kernel));
		assert_int_equal(waitpid(pid, &st, 0), pid);
		assert_true(WIFEXITED(st));
		assert_int_equal(WEXITSTATUS(st), 0);
	}
}

/* One escaper for every JSON nsrun writes (--doctor --json, the status's cgroup path). */
static void test_json_escape(void **state)
{
	char *s;

	(void)state;
	s = json_escape("/sys/fs/cgroup/a\"b\\c\n\x01"
			"d\\x2d");
	assert_string_equal(s, "/sys/fs/cgroup/a\\\"b\\\\c\\u000a\\u0001d\\\\x2d");
	free(s);
	/* UTF-8 passes as it is; a byte that is none of it (a path cut inside a character,
	 * a Latin-1 name) becomes U+FFFD, so that the document stays JSON. */
	s = json_escape("/caf\xc3\xa9/\xe2\x82\xac/\xf0\x9f\x98\x80/\xe9t\xe9/\xc3");
	assert_string_equal(s,
			    "/caf\xc3\xa9/\xe2\x82\xac/\xf0\x9f\x98\x80/\\ufffdt\\ufffd/\\ufffd");
	free(s);
	/* Nor what only looks like it: a surrogate, overlong forms, past U+10FFFF; the
	 * edges beside them pass (U+D7FF, U+E000, U+0800, U+10000, U+10FFFF). */
	s = json_escape("\xed\xa0\x80|\xe0\x80\xaf|\xf0\x80\x80\xaf|\xf4\x90\x80\x80|"
			"\xed\x9f\xbf\xee\x80\x80\xe0\xa0\x80\xf0\x90\x80\x80\xf4\x8f\xbf\xbf");
	assert_string_equal(s,
			    "\\ufffd\\ufffd\\ufffd|\\ufffd\\ufffd\\ufffd|"
			    "\\ufffd\\ufffd\\ufffd\\ufffd|\\ufffd\\ufffd\\ufffd\\ufffd|"
			    "\xed\x9f\xbf\xee\x80\x80\xe0\xa0\x80\xf0\x90\x80\x80\xf4\x8f\xbf\xbf");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_escape),
		cmocka_unit_test(test_parse_fd),
		cmocka_unit_test(test_parse_octal_mode),
		cmocka_unit_test(test_parse_u64),
		cmocka_unit_test(test_env),
		cmocka_unit_test(test_strv),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_concat),
		cmocka_unit_test(test_xappend),
		cmocka_unit_test(test_strv_append),
		cmocka_unit_test(test_read_all),
		cmocka_unit_test(test_path_is_below),
		cmocka_unit_test(test_read_full),
		cmocka_unit_test(test_fd_paths),
		cmocka_unit_test(test_fd_close_all_except),
		cmocka_unit_test(test_error_set),
		cmocka_unit_test(test_error_append),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
