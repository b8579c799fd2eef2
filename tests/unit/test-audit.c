/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test-audit.c: audit.c's record parser and event assembly, on record lines as the
 * kernel sends them over NETLINK_AUDIT (the text after the netlink header), and the
 * kernel entries report.c makes of them.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "audit.h"
#include "landlock.h"
#include "report.h"
#include "unit-parse.h"
#include "util.h"

static const char *const env0[] = { "PATH=/usr/bin:/bin", NULL };

/* A denied create, as Linux 7.2 logged it in tests/kernels with audit on (the 1424 record
 * comes with a domain's first denial; the 1423 record has no pid or comm: those are the
 * SYSCALL record's). */
static const char *const create_records[] = {
	"audit(1733412345.120:812): domain=11400ec6e blockers=fs.make_reg "
	"path=\"/tmp/i36\" dev=\"vda\" ino=3137",
	"audit(1733412345.120:812): domain=11400ec6e status=allocated mode=enforcing pid=2170 "
	"uid=0 exe=\"/usr/bin/nsrun\" comm=\"nsrun\"",
	"audit(1733412345.120:812): arch=c000003e syscall=257 success=no exit=-13 a0=ffffff9c "
	"a1=55d0 a2=241 a3=1b6 items=0 ppid=2169 pid=2171 auid=0 uid=0 gid=0 euid=0 suid=0 "
	"fsuid=0 egid=0 sgid=0 fsgid=0 tty=(none) ses=1 comm=\"sh\" exe=\"/usr/bin/dash\" key=(null)",
	"audit(1733412345.120:812): ",
};
static const int create_types[] = { NSRUN_AUDIT_LANDLOCK_ACCESS, NSRUN_AUDIT_LANDLOCK_DOMAIN,
				    NSRUN_AUDIT_SYSCALL, NSRUN_AUDIT_EOE };

static void feed_all(struct audit_assembler *a, const char *const *recs, const int *types, size_t n,
		     struct audit_event *out, int *done)
{
	for (size_t i = 0; i < n; i++)
		if (audit_feed(a, types[i], recs[i], strlen(recs[i]), out))
			(*done)++;
}

static void test_create_event(void **state)
{
	struct audit_assembler a = { 0 };
	struct audit_event ev;
	int done = 0;

	(void)state;
	feed_all(&a, create_records, create_types, 4, &ev, &done);
	assert_int_equal(done, 1);
	assert_false(a.open); /* the EOE closed it */
	assert_true(ev.denial);
	assert_int_equal(ev.serial, 812);
	assert_true(ev.domain == 0x11400ec6eULL);
	assert_string_equal(ev.blockers, "fs.make_reg");
	assert_string_equal(ev.path, "/tmp/i36");
	assert_string_equal(ev.dev, "vda");
	assert_int_equal(ev.ino, 3137);
	assert_int_equal(ev.pid, 2171);
	assert_string_equal(ev.comm, "sh");
	assert_string_equal(ev.exe, "/usr/bin/dash");
	assert_int_equal(ev.syscall, 257);
	assert_true(ev.has_exit);
	assert_int_equal(ev.exit, -13);
	assert_int_equal(ev.n_domains, 1);
	assert_true(ev.domains[0].id == 0x11400ec6eULL);
	assert_true(ev.domains[0].allocated);
	assert_int_equal(ev.domains[0].pid, 2170);
}

/* A path with a space or a quote is logged unquoted, as upper-case hex. */
static void test_hex_path(void **state)
{
	const char *rec = "audit(1.5:9): domain=2 blockers=fs.write_file,fs.truncate pid=4 "
			  "comm=6D7920736800 path=2F746D702F6120622F2278 dev=\"vda\" ino=12";
	struct audit_event ev;

	(void)state;
	audit_event_init(&ev);
	assert_int_equal(audit_parse_record(NSRUN_AUDIT_LANDLOCK_ACCESS, rec, strlen(rec), &ev), 9);
	assert_string_equal(ev.path, "/tmp/a b/\"x");
	assert_string_equal(ev.comm, "my sh");
	assert_string_equal(ev.blockers, "fs.write_file,fs.truncate");
	assert_false(ev.has_exit);
	assert_int_equal(ev.syscall, -1);
}

/* A quoted value that looks like hex stays as it is. */
static void test_quoted_hex_looking(void **state)
{
	const char *rec = "audit(1.5:10): domain=2 blockers=fs.execute path=\"ABCD\" dev=\"vda\"";
	struct audit_event ev;

	(void)state;
	audit_event_init(&ev);
	(void)audit_parse_record(NSRUN_AUDIT_LANDLOCK_ACCESS, rec, strlen(rec), &ev);
	assert_string_equal(ev.path, "ABCD");
}

/* Network and signal denials: their targets. */
static void test_net_and_signal(void **state)
{
	const char *c = "audit(2.0:20): domain=5 blockers=net.connect_tcp pid=9 comm=\"nc\" "
			"daddr=127.0.0.1 dest=8080";
	const char *b = "audit(2.0:21): domain=5 blockers=net.bind_tcp src=9090";
	const char *s = "audit(2.0:22): domain=5 blockers=scope.signal opid=1 ocomm=\"bash\"";
	struct audit_event ev;

	(void)state;
	audit_event_init(&ev);
	(void)audit_parse_record(NSRUN_AUDIT_LANDLOCK_ACCESS, c, strlen(c), &ev);
	assert_string_equal(ev.daddr, "127.0.0.1");
	assert_int_equal(ev.dest, 8080);
	assert_int_equal(ev.src, -1);
	audit_event_init(&ev);
	(void)audit_parse_record(NSRUN_AUDIT_LANDLOCK_ACCESS, b, strlen(b), &ev);
	assert_int_equal(ev.src, 9090);
	assert_string_equal(ev.daddr, "");
	audit_event_init(&ev);
	(void)audit_parse_record(NSRUN_AUDIT_LANDLOCK_ACCESS, s, strlen(s), &ev);
	assert_int_equal(ev.opid, 1);
	assert_string_equal(ev.comm, ""); /* ocomm is the target's */
}

/* Records without a syscall context have no EOE: the next serial completes them, and the
 * last one is flushed. A deallocated domain is not an allocation. */
static void test_no_eoe(void **state)
{
	const char *r1 = "audit(3.0:30): domain=7 blockers=fs.remove_file pid=3 comm=\"rm\" "
			 "path=\"/etc\" dev=\"vda\" ino=2";
	const char *r2 = "audit(3.0:31): domain=7 status=deallocated denials=1";
	struct audit_assembler a = { 0 };
	struct audit_event ev;

	(void)state;
	assert_false(audit_feed(&a, NSRUN_AUDIT_LANDLOCK_ACCESS, r1, strlen(r1), &ev));
	assert_true(audit_feed(&a, NSRUN_AUDIT_LANDLOCK_DOMAIN, r2, strlen(r2), &ev));
	assert_int_equal(ev.serial, 30);
	assert_string_equal(ev.path, "/etc");
	assert_true(audit_flush(&a, &ev));
	assert_int_equal(ev.serial, 31);
	assert_false(ev.denial);
	assert_int_equal(ev.n_domains, 1);
	assert_false(ev.domains[0].allocated);
	assert_false(audit_flush(&a, &ev));
}

static void test_not_records(void **state)
{
	struct audit_event ev;

	(void)state;
	audit_event_init(&ev);
	assert_int_equal(audit_serial("hello", 5), 0);
	assert_int_equal(audit_parse_record(NSRUN_AUDIT_SYSCALL, "audit(", 6, &ev), 0);
	assert_int_equal(audit_serial("audit(1.2:345): x=1", 19), 345);
}

/* The lines report.c writes for the events of a run whose command is pid 2170 (the
 * restrict_self caller of domain 0x11400ec6e). */
static char *kernel_lines(const char *const *args, const struct audit_event *evs, size_t n,
			  char **summary)
{
	const struct cli_io io = { .envp = (char *const *)env0 };
	struct nsrun_error e;
	struct landlock_desc desc;
	struct report r;
	struct plan p;
	pid_t command = 0;
	char buf[8192];
	int fds[2];
	ssize_t len;

	if (parse_args(&io, args, &p, &e) < 0)
		fail_msg("parse failed: %s", e.msg);
	assert_int_equal(landlock_describe_abi(&p.landlock, 7, &desc, &e), 0);
	assert_int_equal(pipe2(fds, O_NONBLOCK), 0);
	report_init(&r, &p, &desc, fds[1]);
	r.audit_fd = 99; /* the kernel is the source: only a marker here */
	r.command = &command;
	r.observed = true;
	/* before the command's pid is known, events wait */
	report_audit_event(&r, &evs[0]);
	assert_int_equal(r.n_pending, 1);
	command = 2170;
	for (size_t i = 1; i < n; i++)
		report_audit_event(&r, &evs[i]);
	len = read(fds[0], buf, sizeof(buf) - 1);
	buf[len > 0 ? len : 0] = '\0';
	*summary = report_summary_json(&r);
	close(fds[0]);
	close(fds[1]);
	report_free(&r);
	plan_free(&p);
	return xstrdup(buf);
}

static struct audit_event denial(uint64_t domain, const char *blockers, const char *path)
{
	struct audit_event ev;

	audit_event_init(&ev);
	ev.denial = true;
	ev.domain = domain;
	snprintf(ev.blockers, sizeof(ev.blockers), "%s", blockers);
	snprintf(ev.path, sizeof(ev.path), "%s", path);
	ev.pid = 2171;
	snprintf(ev.comm, sizeof(ev.comm), "sh");
	ev.has_exit = true;
	ev.exit = -13;
	return ev;
}

static void test_kernel_entries(void **state)
{
	struct audit_event evs[6];
	_cleanup_free_ char *out = NULL, *sum = NULL;

	(void)state;
	/* ours: allocated by the command's pid, logged with its first denial */
	evs[0] = denial(0x11400ec6eULL, "fs.make_reg", "/tmp");
	evs[0].n_domains = 1;
	evs[0].domains[0].id = 0x11400ec6eULL;
	evs[0].domains[0].pid = 2170;
	evs[0].domains[0].allocated = true;
	evs[1] = denial(0x11400ec6eULL, "fs.write_file", "/etc/passwd");
	evs[2] = denial(0x11400ec6eULL, "fs.write_file", "/etc/passwd"); /* counted only */
	/* a domain the command made itself (another pid), and one never seen allocated */
	evs[3] = denial(0x222ULL, "fs.remove_file", "/etc/hosts");
	evs[3].n_domains = 1;
	evs[3].domains[0].id = 0x222ULL;
	evs[3].domains[0].pid = 2171;
	evs[3].domains[0].allocated = true;
	evs[4] = denial(0x333ULL, "fs.execute", "/bin/true");
	evs[5] = denial(0x11400ec6eULL, "net.connect_tcp", "");
	snprintf(evs[5].daddr, sizeof(evs[5].daddr), "127.0.0.1");
	evs[5].dest = 8080;
	out = kernel_lines(ARGS("--bind", "/", "/", "--landlock-rw", "/dev",
				"--landlock-connect-tcp", "80", "true"),
			   evs, 6, &sum);
	assert_non_null(
		strstr(out, "\"seq\":1,\"source\":\"kernel\",\"blockers\":[\"fs.make_reg\"],"
			    "\"pid\":2171,\"comm\":\"sh\",\"access\":\"create\","
			    "\"target\":{\"named\":null,\"path\":\"/tmp\"},\"layer\":\"landlock\","
			    "\"option\":\"--landlock-rw\""));
	assert_non_null(
		strstr(out, "\"seq\":2,\"source\":\"kernel\",\"blockers\":[\"fs.write_file\"]"));
	assert_non_null(strstr(out, "\"access\":\"write\""));
	assert_null(strstr(out, "\"seq\":4"));
	assert_null(strstr(out, "/etc/hosts"));
	assert_null(strstr(out, "/bin/true"));
	assert_non_null(strstr(out, "\"access\":\"connect\",\"target\":{\"address\":\"127.0.0.1\","
				    "\"port\":8080,\"proto\":\"tcp\"}"));
	assert_non_null(strstr(out, "\"option\":\"--landlock-connect-tcp\""));
	assert_non_null(strstr(sum, "\"entries\": 4, \"distinct\": 3"));
	assert_non_null(strstr(sum, "\"sources\": {\"landlock\": \"kernel\", \"mount\""));
	assert_non_null(strstr(sum, "\"lost\": 0"));
	assert_null(strstr(sum, "not-kernel"));
}

/* The kernel's fact is kept where the rules alone would allow it, and said so. */
static void test_kernel_disagrees(void **state)
{
	struct audit_event evs[2];
	_cleanup_free_ char *out = NULL, *sum = NULL;

	(void)state;
	evs[0] = denial(0x5ULL, "fs.write_file", "/dev/null");
	evs[0].n_domains = 1;
	evs[0].domains[0].id = 0x5ULL;
	evs[0].domains[0].pid = 2170;
	evs[0].domains[0].allocated = true;
	evs[1] = evs[0];
	out = kernel_lines(ARGS("--ro-bind", "/", "/", "--landlock-rw", "/dev", "true"), evs, 2,
			   &sum);
	assert_non_null(strstr(out, "\"source\":\"kernel\""));
	assert_non_null(strstr(out, "\"option\":null"));
	assert_non_null(strstr(out, "Landlock refused it (the kernel's record)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_event),
		cmocka_unit_test(test_hex_path),
		cmocka_unit_test(test_quoted_hex_looking),
		cmocka_unit_test(test_net_and_signal),
		cmocka_unit_test(test_no_eoe),
		cmocka_unit_test(test_not_records),
		cmocka_unit_test(test_kernel_entries),
		cmocka_unit_test(test_kernel_disagrees),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
