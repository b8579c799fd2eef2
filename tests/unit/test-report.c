/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test-report.c: --report-fd's pure parts (report.c): the bound and the counting of
 * identical entries, the lines' JSON, which calls the observer reads become entries
 * (only those the kernel gets as far as nsrun's rule for), the status document's
 * summary; and the observer's filter program (seccomp.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "landlock.h"
#include "report.h"
#include "seccomp.h"
#include "status.h"
#include "unit-parse.h"
#include "util.h"

static const char *const env0[] = { "PATH=/usr/bin:/bin", NULL };

static struct report_entry entry(const char *access, const char *path, const char *option)
{
	return (struct report_entry){ .pid = 7,
				      .comm = "sh",
				      .access = access,
				      .named = path,
				      .path = path,
				      .port = -1,
				      .layer = "landlock",
				      .option = option,
				      .error = "EACCES",
				      .why = "a \"quoted\" why" };
}

static void test_bound(void **state)
{
	struct plan p = { 0 };
	struct report r;
	char path[64];

	(void)state;
	assert_int_equal(PLAN_MAX_REPORT_ENTRIES, 1000);
	report_init(&r, &p, NULL, -1);
	for (int i = 0; i < 3000; i++) {
		struct report_entry e = entry("create", path, "--landlock-rw");
		_cleanup_free_ char *line = NULL;

		snprintf(path, sizeof(path), "/o/n%d", i);
		line = report_add(&r, &e);
		if (i < PLAN_MAX_REPORT_ENTRIES)
			assert_non_null(line);
		else
			assert_null(line);
	}
	assert_int_equal(r.entries, 3000);
	assert_int_equal(r.n_keys, 1000);
	assert_int_equal(r.dropped, 2000);
	report_free(&r);
}

static void test_identical(void **state)
{
	struct plan p = { 0 };
	struct report r;
	struct report_entry a = entry("write", "/etc/passwd", "--landlock-rw"),
			    b = entry("create", "/etc/passwd", "--landlock-rw"),
			    c = entry("write", "/etc/passwd", "--ro-bind");
	char *l1, *l2, *l3, *l4;

	(void)state;
	report_init(&r, &p, NULL, -1);
	l1 = report_add(&r, &a);
	a.pid = 9; /* another process, the same refusal: counted */
	l2 = report_add(&r, &a);
	l3 = report_add(&r, &b);
	l4 = report_add(&r, &c);
	assert_non_null(l1);
	assert_null(l2);
	assert_non_null(l3);
	assert_non_null(l4);
	assert_string_equal(l1, "{\"seq\":1,\"source\":\"inferred\",\"pid\":7,\"comm\":\"sh\","
				"\"access\":\"write\",\"target\":{\"named\":\"/etc/passwd\","
				"\"path\":\"/etc/passwd\"},\"layer\":\"landlock\","
				"\"option\":\"--landlock-rw\",\"rule\":null,\"error\":\"EACCES\","
				"\"why\":\"a \\\"quoted\\\" why\"}\n");
	assert_non_null(strstr(l4, "\"seq\":3,"));
	assert_int_equal(r.entries, 4);
	assert_int_equal(r.n_by_option, 2);
	assert_int_equal(r.by_option[0].n, 3);
	free(l1), free(l3), free(l4);
	report_free(&r);
}

/* report_event on one call: the lines it writes (read back from a pipe). */
static char *event_lines(const char *const *args, struct notify_event *ev)
{
	const struct cli_io io = { .envp = (char *const *)env0 };
	struct nsrun_error e;
	struct landlock_desc desc;
	struct report r;
	struct plan p;
	char buf[4096];
	int fds[2];
	ssize_t n;

	if (parse_args(&io, args, &p, &e) < 0)
		fail_msg("parse failed: %s", e.msg);
	assert_int_equal(landlock_describe_abi(&p.landlock, 7, &desc, &e), 0);
	assert_int_equal(pipe2(fds, O_NONBLOCK), 0);
	report_init(&r, &p, &desc, fds[1]);
	report_event(&r, ev);
	n = read(fds[0], buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	close(fds[0]);
	close(fds[1]);
	report_free(&r);
	plan_free(&p);
	return xstrdup(buf);
}

static struct notify_event call(enum notify_access access, const char *path, bool exists,
				bool parent_exists)
{
	/* pid -1: no /proc entry, so notify_find leaves the flags the case sets */
	struct notify_event ev = { .pid = -1, .comm = "sh", .access = access, .n_names = 1 };

	snprintf(ev.names[0].named, sizeof(ev.names[0].named), "%s", path);
	snprintf(ev.names[0].path, sizeof(ev.names[0].path), "%s", path);
	ev.names[0].exists = exists;
	ev.names[0].parent_exists = parent_exists;
	return ev;
}

#define WS ARGS("--bind", "/", "/", "--landlock-rw", "/workspace", "true")

static void expect_line(const char *const *args, struct notify_event ev, const char *has)
{
	_cleanup_free_ char *lines = event_lines(args, &ev);

	if (!has) {
		assert_string_equal(lines, "");
		return;
	}
	if (!strstr(lines, has))
		fail_msg("expected '%s' in '%s'", has, lines);
}

static void test_events(void **state)
{
	struct notify_event ev;

	(void)state;
	expect_line(WS, call(NOTIFY_WRITE, "/etc/passwd", true, true),
		    "\"access\":\"write\",\"target\":{\"named\":\"/etc/passwd\"");
	/* allowed: nothing */
	expect_line(WS, call(NOTIFY_WRITE, "/workspace/a", true, true), NULL);
	/* an absent name fails with ENOENT first, a new one that exists with EEXIST */
	expect_line(WS, call(NOTIFY_WRITE, "/etc/none", false, true), NULL);
	expect_line(WS, call(NOTIFY_CREATE, "/etc/d", true, true), NULL);
	expect_line(WS, call(NOTIFY_CREATE, "/none/d", false, false), NULL);
	expect_line(WS, call(NOTIFY_CREATE, "/etc/d", false, true), "\"access\":\"create\"");
	/* O_CREAT on a name that is not there is a create */
	ev = call(NOTIFY_WRITE, "/etc/new", false, true);
	ev.creates = true;
	expect_line(WS, ev, "\"access\":\"create\"");
	/* O_CREAT | O_EXCL on a name that is there fails with EEXIST first */
	ev = call(NOTIFY_WRITE, "/etc/passwd", true, true);
	ev.creates = ev.exclusive = true;
	expect_line(WS, ev, NULL);
	expect_line(WS, call(NOTIFY_REMOVE, "/etc/passwd", true, true), "\"access\":\"remove\"");
	expect_line(WS, call(NOTIFY_TRUNCATE, "/etc/passwd", true, true),
		    "\"access\":\"truncate\"");
	/* the read-only mount before Landlock, as the kernel meets them */
	expect_line(ARGS("--ro-bind", "/", "/", "--landlock-rw", "/workspace", "true"),
		    call(NOTIFY_WRITE, "/etc/passwd", true, true),
		    "\"layer\":\"mount\",\"option\":\"--ro-bind\",\"rule\":\"/ /\","
		    "\"error\":\"EROFS\"");
	/* a hidden name is absent because of the rule */
	expect_line(ARGS("--ro-bind", "/", "/", "--overlay-hide", "/opt/x", "true"),
		    call(NOTIFY_EXECUTE, "/opt/x", false, true),
		    "\"layer\":\"hide\",\"option\":\"--overlay-hide\"");
	expect_line(ARGS("--bind", "/", "/", "--landlock-rw", "/workspace", "--landlock-exec",
			 "/usr", "true"),
		    call(NOTIFY_EXECUTE, "/workspace/x", true, true),
		    "\"option\":\"--landlock-exec\"");
	/* a rename is refused by the first name refused */
	ev = call(NOTIFY_RENAME, "/workspace/a", true, true);
	ev.n_names = 2;
	snprintf(ev.names[1].named, sizeof(ev.names[1].named), "/etc/b");
	snprintf(ev.names[1].path, sizeof(ev.names[1].path), "/etc/b");
	ev.names[1].parent_exists = true;
	expect_line(WS, ev, "\"access\":\"rename\",\"target\":{\"named\":\"/etc/b\"");
}

/* A connect: decided by port and loopback, before any route is looked up. */
static void test_ports(void **state)
{
	struct notify_event ev = { .pid = -1, .access = NOTIFY_CONNECT };
	_cleanup_free_ char *a = NULL, *b = NULL, *c = NULL, *d = NULL, *e = NULL;

	(void)state;
	snprintf(ev.peer.address, sizeof(ev.peer.address), "192.0.2.1");
	ev.peer.port = 443;
	a = event_lines(ARGS("--ro-bind", "/", "/", "--unshare-net", "true"), &ev);
	assert_non_null(
		strstr(a, "\"access\":\"connect\",\"target\":{\"address\":\"192.0.2.1\","
			  "\"port\":443,\"proto\":\"tcp\"},\"layer\":\"network-namespace\","
			  "\"option\":\"--unshare-net\",\"rule\":null,\"error\":\"ENETUNREACH\""));
	/* a port rule refuses before the empty namespace would */
	b = event_lines(ARGS("--ro-bind", "/", "/", "--unshare-net", "--landlock-connect-tcp", "80",
			     "true"),
			&ev);
	assert_non_null(strstr(b, "\"option\":\"--landlock-connect-tcp\",\"rule\":null,"
				  "\"error\":\"EACCES\""));
	ev.peer.loopback = true;
	ev.peer.port = 80;
	c = event_lines(ARGS("--ro-bind", "/", "/", "--unshare-net", "--landlock-connect-tcp", "80",
			     "true"),
			&ev);
	assert_string_equal(c, "");
	/* a datagram sent outside the empty namespace */
	ev.access = NOTIFY_SEND;
	ev.peer.loopback = false;
	ev.peer.udp = true;
	ev.peer.port = 53;
	e = event_lines(ARGS("--ro-bind", "/", "/", "--unshare-net", "true"), &ev);
	assert_non_null(strstr(e, "\"access\":\"send\""));
	assert_non_null(strstr(e, "\"proto\":\"udp\"},\"layer\":\"network-namespace\""));
	ev.peer.udp = false;
	ev.access = NOTIFY_BIND;
	ev.peer.port = 8080;
	d = event_lines(ARGS("--ro-bind", "/", "/", "--landlock-bind-tcp", "80", "true"), &ev);
	assert_non_null(strstr(d, "\"access\":\"bind\""));
	assert_non_null(strstr(d, "\"option\":\"--landlock-bind-tcp\""));
}

static void test_summary(void **state)
{
	struct plan p = { 0 };
	struct report r;
	struct report_entry a = entry("write", "/etc/passwd", "--landlock-rw");
	_cleanup_free_ char *line = NULL, *sum = NULL, *doc = NULL;

	(void)state;
	p.landlock.enabled = true;
	report_init(&r, &p, NULL, -1);
	r.observed = true;
	line = report_add(&r, &a);
	sum = report_summary_json(&r);
	assert_non_null(strstr(sum, "{\"entries\": 1, \"distinct\": 1, \"dropped\": 0, "
				    "\"by-option\": {\"--landlock-rw\": 1}, \"sources\": "
				    "{\"landlock\": \"inferred\", \"mount\": \"inferred\""));
	assert_non_null(strstr(sum, "\"unseen\": [\"results of inferred entries\""));
	assert_null(strstr(sum, "could not be installed"));
	r.observed = false;
	free(sum);
	sum = report_summary_json(&r);
	assert_non_null(strstr(sum, "\"every refusal: the observer could not be installed\""));
	doc = status_with_field(status_format_exit(3), "report", "{}");
	assert_string_equal(doc, "{ \"exit-code\": 3, \"report\": {} }\n");
	report_free(&r);
}

/* The cgroup limits hit become one "counter" entry each, counted in the summary;
 * a limit not given, or not hit, none. */
static void test_counters(void **state)
{
	struct plan p = { 0 };
	struct report r;
	struct cgroup_usage u = {
		.has_events = true, .oom_kills = 2, .has_pids_events = true, .pids_max = 7
	};
	_cleanup_free_ char *sum = NULL;
	char buf[1024] = { 0 };
	int fds[2];

	(void)state;
	p.limits.has_pids_max = true;
	p.limits.pids_max = 10;
	assert_int_equal(pipe2(fds, O_NONBLOCK), 0);
	report_init(&r, &p, NULL, fds[1]);
	report_counters(&r, &u);
	report_counters(&r, &u); /* the same key again: counted, not written */
	assert_true(read(fds[0], buf, sizeof(buf) - 1) > 0);
	assert_string_equal(buf, "{\"seq\":1,\"source\":\"counter\",\"access\":\"fork\","
				 "\"count\":7,\"layer\":\"cgroup\",\"option\":\"--pids-max\","
				 "\"rule\":\"10\",\"error\":\"EAGAIN\",\"why\":\"the sandbox "
				 "reached --pids-max 10: fork and clone failed 7 times\"}\n");
	sum = report_summary_json(&r);
	assert_non_null(strstr(sum, "{\"entries\": 14, \"distinct\": 1, \"dropped\": 0, "
				    "\"by-option\": {\"--pids-max\": 14}"));
	assert_non_null(strstr(sum, "\"cgroup\": \"counter\""));
	p.limits.has_memory_max = true; /* oom_kill 2: the second entry */
	p.limits.memory_max = 1 << 20;
	u.pids_max = 0;
	report_counters(&r, &u);
	memset(buf, 0, sizeof(buf));
	assert_true(read(fds[0], buf, sizeof(buf) - 1) > 0);
	assert_non_null(strstr(buf, "\"seq\":2,\"source\":\"counter\",\"access\":\"memory\","
				    "\"count\":2,\"layer\":\"cgroup\",\"option\":\"--memory-max\","
				    "\"rule\":\"1048576\",\"error\":\"SIGKILL\""));
	report_free(&r);
	close(fds[0]);
	close(fds[1]);
}

static void test_observe_program(void **state)
{
	struct sock_filter prog[SECCOMP_OBSERVE_PROG_MAX];
	int n;

	(void)state;
	n = seccomp_observe_program(SECCOMP_OBSERVE_ALL, prog, ARRAY_SIZE(prog));
	if (n == -EOPNOTSUPP)
		skip();
	assert_true(n > 10);
	/* everything not named goes on: the last instruction allows */
	assert_int_equal(prog[n - 1].code, BPF_RET | BPF_K);
	assert_int_equal(prog[n - 1].k, SECCOMP_RET_ALLOW);
	assert_int_equal(seccomp_observe_program(1u << 7, prog, ARRAY_SIZE(prog)), -EINVAL);
	assert_int_equal(seccomp_observe_program(SECCOMP_OBSERVE_ALL, prog, 4), -E2BIG);
	/* no call is ever refused: every return is ALLOW or USER_NOTIF */
	for (int i = 0; i < n; i++)
		if (prog[i].code == (BPF_RET | BPF_K))
			assert_true(prog[i].k == SECCOMP_RET_ALLOW || prog[i].k == 0x7fc00000U);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bound),	 cmocka_unit_test(test_identical),
		cmocka_unit_test(test_events),	 cmocka_unit_test(test_ports),
		cmocka_unit_test(test_summary),	 cmocka_unit_test(test_observe_program),
		cmocka_unit_test(test_counters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
