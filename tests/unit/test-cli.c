/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test-cli.c: the parser against bwrap's observable behaviour: arity and error texts
 * (checked against /usr/bin/bwrap 0.8.0 where it has the option), op order, modifiers,
 * "--", --args through a fake reader, the 9000-argument cap, environment edits and the
 * nsrun extensions.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bridge.h"
#include "cli.h"
#include "unit-parse.h"
#include "util.h"

/* A reader serving canned buffers by fd; unknown fds fail with EBADF. */
struct fake {
	int fds[8];
	const char *data[8];
	size_t lens[8];
	size_t n;
	int reads;
};

static int fake_read(void *userdata, int fd, size_t max, char **ret, size_t *len)
{
	struct fake *f = userdata;

	for (size_t i = 0; i < f->n; i++) {
		if (f->fds[i] != fd)
			continue;
		if (f->lens[i] > max)
			return -EFBIG;
		*ret = xmalloc(f->lens[i] + 1);
		memcpy(*ret, f->data[i], f->lens[i]);
		(*ret)[f->lens[i]] = '\0';
		*len = f->lens[i];
		f->reads++;
		return 0;
	}
	return -EBADF;
}

static void fake_add(struct fake *f, int fd, const char *data, size_t len)
{
	f->fds[f->n] = fd;
	f->data[f->n] = data;
	f->lens[f->n] = len;
	f->n++;
}

static const char *const start_env[] = { "PATH=/usr/bin:/bin", "HOME=/root", "LANG=C", NULL };

static int parse_v(struct fake *f, bool selinux, struct plan *p, struct nsrun_error *e,
		   const char *const *args)
{
	struct cli_io io = { .read_fd = fake_read,
			     .userdata = f,
			     .envp = (char *const *)start_env,
			     .selinux_enabled = selinux };

	return parse_args(&io, args, p, e);
}
#define PARSE_OK(p, ...)                                                    \
	do {                                                                \
		struct nsrun_error e_;                                      \
		int r_ = parse_v(NULL, false, (p), &e_, ARGS(__VA_ARGS__)); \
		if (r_ < 0)                                                 \
			fail_msg("unexpected error: %s", e_.msg);           \
	} while (0)

static void expect_err_v(struct fake *f, bool selinux, const char *msg, const char *const *args)
{
	struct nsrun_error e;
	struct plan p;
	int r = parse_v(f, selinux, &p, &e, args);

	if (r >= 0)
		fail_msg("expected error \"%s\"", msg);
	assert_string_equal(e.msg, msg);
	plan_free(&p);
}
#define EXPECT_ERR(msg, ...) expect_err_v(NULL, false, (msg), ARGS(__VA_ARGS__))

static void test_table_sorted(void **state)
{
	(void)state;
	assert_int_equal(cli_n_options, OPT_MAX);
	/* bwrap 0.11.1, bwrap 0.12/0.13 (--debug-opt, --not-a-security-boundary), nsrun's
	 * own (12 with the UDP ones of Landlock ABI 10), its supervision
	 * options, --doctor and --json, the cgroup limits, --fallback, --bridge, --explain,
	 * --report-fd, --ignore-keyboard-signals and the time namespace's three, --mountns,
	 * --uid-map, --gid-map and --idmap, --sys. */
	assert_int_equal(cli_n_options, 67 + 2 + 12 + 5 + 2 + 5 + 1 + 1 + 1 + 1 + 4 + 1 + 3 + 1);
	for (size_t i = 0; i < cli_n_options; i++) {
		assert_int_equal(cli_options[i].id, i);
		assert_true(cli_options[i].arity <= 3);
		assert_true(str_has_prefix(cli_options[i].name, "--"));
		assert_ptr_equal(cli_find_option(cli_options[i].name), &cli_options[i]);
		if (i > 0 && strcmp(cli_options[i - 1].name, cli_options[i].name) >= 0)
			fail_msg("%s sorts after %s", cli_options[i - 1].name, cli_options[i].name);
		/* metavariable count equals arity */
		size_t words = 0;
		for (const char *s = cli_options[i].args; *s; s++)
			if (s == cli_options[i].args || s[-1] == ' ')
				words++;
		assert_int_equal(words, cli_options[i].arity);
	}
	assert_null(cli_find_option("--bind=/"));
	assert_null(cli_find_option("--"));
}

static void test_arity_messages(void **state)
{
	(void)state;
	for (size_t i = 0; i < cli_n_options; i++) {
		const struct cli_option *o = &cli_options[i];
		static const char *const words[] = { "", "an argument", "two arguments",
						     "three arguments" };
		char want[128];

		if (o->arity == 0 || o->id == OPT_DEBUG_OPT) /* only --debug-opt=NAME */
			continue;
		if (o->id == OPT_ARGV0 || o->id == OPT_CHDIR || o->id == OPT_REMOUNT_RO)
			snprintf(want, sizeof(want), "%s takes one argument", o->name);
		else if (o->id == OPT_RO_BIND_FD)
			snprintf(want, sizeof(want), "--bind-fd takes two arguments");
		else
			snprintf(want, sizeof(want), "%s takes %s", o->name, words[o->arity]);
		/* Every shorter argument count fails the same way. */
		for (unsigned n = 0; n < o->arity; n++) {
			const char *args[4] = { o->name, NULL, NULL, NULL };

			for (unsigned k = 0; k < n; k++)
				args[k + 1] = "/x";
			expect_err_v(NULL, true, want, args);
		}
	}
	EXPECT_ERR("--bind takes two arguments", "--bind", "/x");
	EXPECT_ERR("--dir takes an argument", "--dir");
	EXPECT_ERR("--overlay takes three arguments", "--overlay-src", "/a", "--overlay", "/u",
		   "/w");
}

static void test_unknown_and_command(void **state)
{
	struct plan p;

	(void)state;
	EXPECT_ERR("Unknown option --bind=/", "--bind=/", "/");
	EXPECT_ERR("Unknown option -x", "-x");
	EXPECT_ERR("Unknown option -", "-", "true");
	EXPECT_ERR("Unknown option --unshare-foo", "--unshare-foo", "true");

	PARSE_OK(&p, "--unshare-ipc", "ls", "-l", "--bind");
	assert_string_equal(p.proc.argv[0], "ls");
	assert_string_equal(p.proc.argv[1], "-l");
	assert_string_equal(p.proc.argv[2], "--bind");
	assert_null(p.proc.argv[3]);
	assert_true(p.ns.ipc);
	plan_free(&p);

	PARSE_OK(&p, "--", "--inadvisable-executable-name--", "x");
	assert_string_equal(p.proc.argv[0], "--inadvisable-executable-name--");
	assert_string_equal(p.proc.argv[1], "x");
	plan_free(&p);

	PARSE_OK(&p, "--", "--dev-bind", "/", "/");
	assert_int_equal(p.n_ops, 0);
	assert_string_equal(p.proc.argv[0], "--dev-bind");
	plan_free(&p);

	PARSE_OK(&p, "--unshare-pid");
	assert_null(p.proc.argv);
	plan_free(&p);

	PARSE_OK(&p, "--unshare-pid", "--");
	assert_null(p.proc.argv);
	plan_free(&p);
}

static void test_modes(void **state)
{
	struct plan p;

	(void)state;
	PARSE_OK(&p, "--unshare-pid", "--help", "--bogus");
	assert_int_equal(p.mode, PLAN_HELP);
	assert_null(p.proc.argv);
	plan_free(&p);
	PARSE_OK(&p, "--version", "--bogus");
	assert_int_equal(p.mode, PLAN_VERSION);
	plan_free(&p);
	PARSE_OK(&p, "--landlock-abi");
	assert_int_equal(p.mode, PLAN_LANDLOCK_ABI);
	assert_false(p.landlock.enabled);
	plan_free(&p);
	/* --doctor reads on, so --json may follow it. */
	PARSE_OK(&p, "--doctor", "--json");
	assert_int_equal(p.mode, PLAN_DOCTOR);
	assert_true(p.json);
	plan_free(&p);
	PARSE_OK(&p, "--json", "--doctor");
	assert_int_equal(p.mode, PLAN_DOCTOR);
	assert_true(p.json);
	plan_free(&p);
	PARSE_OK(&p, "--doctor");
	assert_false(p.json);
	plan_free(&p);
	/* --explain reads on: the other options and COMMAND make the plan it answers for;
	 * each question is checked as it is read. */
	PARSE_OK(&p, "--explain", "write:/x", "--ro-bind", "/", "/", "--explain", "signal:inside",
		 "true");
	assert_int_equal(p.mode, PLAN_EXPLAIN);
	assert_string_equal(p.explain[0], "write:/x");
	assert_string_equal(p.explain[1], "signal:inside");
	assert_null(p.explain[2]);
	assert_int_equal(p.n_ops, 1);
	assert_string_equal(p.proc.argv[0], "true");
	plan_free(&p);
	EXPECT_ERR("--explain: '70000' is not a target for connect", "--explain", "connect:70000",
		   "true");
	EXPECT_ERR("--explain cannot be combined with --doctor", "--doctor", "--explain",
		   "read:/x");
	EXPECT_ERR("--doctor cannot be combined with --explain", "--explain", "read:/x",
		   "--doctor");
	/* Errors before --help still count. */
	EXPECT_ERR("Unknown option --bogus", "--bogus", "--help");
	PARSE_OK(&p, "--perms", "0700", "--help");
	assert_int_equal(p.mode, PLAN_HELP);
	plan_free(&p);
}

static void test_ops_in_order(void **state)
{
	struct plan p;

	(void)state;
	PARSE_OK(&p, "--ro-bind", "/usr", "/usr", "--bind-try", "/a", "/b", "--dev-bind-try", "/c",
		 "/d", "--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev", "--mqueue", "/mq",
		 "--dir", "/x", "--symlink", "usr/lib", "/lib", "--chmod", "0700", "/x", "--file",
		 "3", "/f", "--bind-data", "4", "/bd", "--ro-bind-data", "5", "/rbd", "--bind-fd",
		 "6", "/bfd", "--ro-bind-fd", "7", "/rbfd", "--remount-ro", "/usr", "--ro-bind-try",
		 "/e", "/f2", "true");
	assert_int_equal(p.n_ops, 17);
	assert_int_equal(p.ops[0].type, OP_RO_BIND);
	assert_string_equal(p.ops[0].source, "/usr");
	assert_int_equal(p.ops[0].flags, 0);
	assert_int_equal(p.ops[1].type, OP_BIND);
	assert_int_equal(p.ops[1].flags, OP_F_TRY);
	assert_int_equal(p.ops[2].type, OP_DEV_BIND);
	assert_int_equal(p.ops[2].flags, OP_F_TRY);
	assert_int_equal(p.ops[3].type, OP_TMPFS);
	assert_int_equal(p.ops[3].perms, 0755);
	assert_false(p.ops[3].flags & OP_F_HAS_PERMS);
	assert_int_equal(p.ops[4].type, OP_PROC);
	assert_int_equal(p.ops[5].type, OP_DEV);
	assert_int_equal(p.ops[6].type, OP_MQUEUE);
	assert_int_equal(p.ops[7].type, OP_DIR);
	assert_int_equal(p.ops[7].perms, 0755);
	assert_int_equal(p.ops[8].type, OP_SYMLINK);
	assert_string_equal(p.ops[8].source, "usr/lib");
	assert_string_equal(p.ops[8].dest, "/lib");
	assert_int_equal(p.ops[9].type, OP_CHMOD);
	assert_int_equal(p.ops[9].perms, 0700);
	assert_string_equal(p.ops[9].dest, "/x");
	assert_null(p.ops[9].source);
	assert_int_equal(p.ops[10].type, OP_FILE);
	assert_int_equal(p.ops[10].fd, 3);
	assert_int_equal(p.ops[10].perms, 0666);
	assert_int_equal(p.ops[11].type, OP_BIND_DATA);
	assert_int_equal(p.ops[11].perms, 0600);
	assert_int_equal(p.ops[12].type, OP_RO_BIND_DATA);
	assert_int_equal(p.ops[12].fd, 5);
	assert_int_equal(p.ops[13].type, OP_BIND_FD);
	assert_int_equal(p.ops[13].fd, 6);
	assert_int_equal(p.ops[14].type, OP_RO_BIND_FD);
	assert_string_equal(p.ops[14].dest, "/rbfd");
	assert_int_equal(p.ops[15].type, OP_REMOUNT_RO);
	assert_int_equal(p.ops[16].type, OP_RO_BIND);
	assert_int_equal(p.ops[16].flags, OP_F_TRY);
	assert_int_equal(p.ops[16].fd, -1);
	plan_free(&p);
}

/* --sys (nsrun extension): one path argument, no -try variant, a read-only op. */
static void test_sys_op(void **state)
{
	struct plan p;

	(void)state;
	PARSE_OK(&p, "--tmpfs", "/run", "--sys", "/run/sys", "true");
	assert_int_equal(p.n_ops, 2);
	assert_int_equal(p.ops[1].type, OP_SYS);
	assert_string_equal(p.ops[1].dest, "/run/sys");
	assert_null(p.ops[1].source);
	assert_true(op_desc(OP_SYS)->read_only);
	plan_free(&p);
	EXPECT_ERR("Unknown option --sys-try", "--sys-try", "/sys", "true");
	EXPECT_ERR("--sys takes an argument", "--sys");
}

static void test_fd_args(void **state)
{
	(void)state;
	EXPECT_ERR("Invalid fd: -1", "--seccomp", "-1", "true");
	EXPECT_ERR("Invalid fd: 0a", "--seccomp", "0a", "true");
	EXPECT_ERR("Invalid fd: x", "--userns", "x", "true");
	EXPECT_ERR("Invalid fd: ", "--sync-fd", "", "true");
	EXPECT_ERR("Invalid fd: -1", "--file", "-1", "/x", "true");
	EXPECT_ERR("Invalid fd: 99999999999", "--bind-fd", "99999999999", "/x", "true");
	EXPECT_ERR("Invalid fd: 0a", "--args", "0a", "true");
}

static void test_modifiers(void **state)
{
	struct plan p;

	(void)state;
	PARSE_OK(&p, "--perms", "0700", "--size", "0x100000", "--tmpfs", "/t", "--perms", "01777",
		 "--dir", "/d", "--size", "010", "--perms", "0", "--tmpfs", "/u", "true");
	assert_int_equal(p.ops[0].perms, 0700);
	assert_int_equal(p.ops[0].flags, OP_F_HAS_PERMS | OP_F_HAS_SIZE);
	assert_int_equal(p.ops[0].size, 1048576);
	assert_int_equal(p.ops[1].perms, 01777);
	assert_int_equal(p.ops[1].flags, OP_F_HAS_PERMS);
	assert_int_equal(p.ops[2].size, 8);
	assert_int_equal(p.ops[2].perms, 0);
	plan_free(&p);

	EXPECT_ERR("--perms takes an octal argument <= 07777", "--perms", "999", "--dir", "/x");
	EXPECT_ERR("--perms takes an octal argument <= 07777", "--perms", "010000", "--dir", "/x");
	EXPECT_ERR("--perms takes an octal argument <= 07777", "--perms", "", "--dir", "/x");
	EXPECT_ERR("--perms takes an octal argument <= 07777", "--perms", "0x", "--dir", "/x");
	EXPECT_ERR("--perms given twice for the same action", "--perms", "0700", "--perms", "0700");
	EXPECT_ERR("--size given twice for the same action", "--size", "5", "--size", "5");
	EXPECT_ERR("--perms must be followed by an option that creates a file", "--perms", "0700",
		   "--bind", "/", "/", "true");
	EXPECT_ERR("--perms must be followed by an option that creates a file", "--perms", "0700",
		   "--chmod", "0700", "/x", "true");
	EXPECT_ERR("--size must be followed by --tmpfs", "--size", "1", "--dir", "/x", "true");
	EXPECT_ERR("--chmod takes an octal argument <= 07777", "--chmod", "9999", "/x", "true");
	/* The option's own error comes before the pending-modifier check. */
	EXPECT_ERR("Invalid uid: x", "--perms", "0700", "--uid", "x", "true");

	static const char *const bad_sizes[] = {
		"0", "123bogus", "", "-1", " -1", " 1", "18446744073709551616", "0x", "+1"
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad_sizes); i++)
		EXPECT_ERR("--size takes a non-zero number of bytes", "--size", bad_sizes[i],
			   "--tmpfs", "/x", "true");
	EXPECT_ERR("--size (for tmpfs) is limited to 9223372036854775807", "--size",
		   "9223372036854775808", "--tmpfs", "/x");
	EXPECT_ERR("--size (for tmpfs) is limited to 9223372036854775807", "--size",
		   "9223372036854775809", "--tmpfs", "/x");
	PARSE_OK(&p, "--size", "9223372036854775807", "--tmpfs", "/x");
	assert_int_equal(p.ops[0].size, 9223372036854775807ull);
	plan_free(&p);

	/* Quirk: a modifier dangling right before COMMAND (or at the end) is ignored. */
	PARSE_OK(&p, "--perms", "0700", "true");
	assert_int_equal(p.n_ops, 0);
	assert_string_equal(p.proc.argv[0], "true");
	plan_free(&p);
	PARSE_OK(&p, "--size", "100", "--", "true");
	assert_int_equal(p.n_ops, 0);
	plan_free(&p);
	PARSE_OK(&p, "--perms", "0700");
	assert_null(p.proc.argv);
	plan_free(&p);
}

static void test_overlay(void **state)
{
	struct plan p;
	static const char dangling[] = "--overlay-src must be followed by another --overlay-src "
				       "or one of --overlay, --tmp-overlay, or --ro-overlay";

	(void)state;
	PARSE_OK(&p, "--overlay-src", "/l1", "--overlay-src", "/l2", "--overlay", "/rw", "/work",
		 "/dst", "--overlay-src", "/a", "--tmp-overlay", "/t", "--overlay-src", "/b",
		 "--overlay-src", "/c", "--ro-overlay", "/r", "true");
	assert_int_equal(p.n_ops, 3);
	assert_int_equal(p.ops[0].type, OP_OVERLAY);
	assert_string_equal(p.ops[0].source, "/rw");
	assert_string_equal(p.ops[0].workdir, "/work");
	assert_string_equal(p.ops[0].dest, "/dst");
	assert_string_equal(p.ops[0].layers[0], "/l1");
	assert_string_equal(p.ops[0].layers[1], "/l2");
	assert_null(p.ops[0].layers[2]);
	assert_int_equal(p.ops[1].type, OP_TMP_OVERLAY);
	assert_string_equal(p.ops[1].layers[0], "/a");
	assert_null(p.ops[1].layers[1]);
	assert_int_equal(p.ops[2].type, OP_RO_OVERLAY);
	assert_string_equal(p.ops[2].layers[1], "/c");
	plan_free(&p);

	EXPECT_ERR("--overlay requires at least one --overlay-src", "--overlay", "/a", "/b", "/c");
	EXPECT_ERR("--tmp-overlay requires at least one --overlay-src", "--tmp-overlay", "/a");
	EXPECT_ERR("--ro-overlay requires at least two --overlay-src", "--overlay-src", "/a",
		   "--ro-overlay", "/b");
	EXPECT_ERR(dangling, "--overlay-src", "/tmp", "true");
	EXPECT_ERR(dangling, "--overlay-src", "/tmp");
	EXPECT_ERR(dangling, "--overlay-src", "/tmp", "--chdir", "/", "true");
	/* --overlay-src is not a modifier for --perms/--size. */
	EXPECT_ERR("--perms must be followed by an option that creates a file", "--perms", "0700",
		   "--overlay-src", "/a", "--tmp-overlay", "/t");
}

static void test_warnings_and_singles(void **state)
{
	static const char *const singles[][2] = {
		{ "--chdir", "/a" },	 { "--hostname", "h" },	      { "--uid", "5" },
		{ "--gid", "5" },	 { "--block-fd", "3" },	      { "--userns-block-fd", "3" },
		{ "--info-fd", "3" },	 { "--json-status-fd", "3" }, { "--userns", "3" },
		{ "--userns2", "3" },	 { "--pidns", "3" },	      { "--exec-label", "l" },
		{ "--file-label", "l" },
	};
	struct nsrun_error e;
	struct plan p;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(singles); i++) {
		char want[128];
		const char *args[] = { singles[i][0], singles[i][1], singles[i][0],
				       singles[i][1], "true",	     NULL };

		assert_int_equal(parse_v(NULL, true, &p, &e, args), 0);
		snprintf(want, sizeof(want), "Only the last %s option will take effect",
			 singles[i][0]);
		assert_non_null(p.warnings);
		assert_string_equal(p.warnings[0], want);
		assert_null(p.warnings[1]);
		plan_free(&p);
	}
	PARSE_OK(&p, "--chdir", "/a", "--chdir", "/b", "--uid", "1", "--gid", "2", "--hostname",
		 "h", "true");
	assert_string_equal(p.proc.chdir, "/b");
	assert_true(p.ns.has_uid && p.ns.has_gid);
	assert_int_equal(p.ns.uid, 1);
	assert_int_equal(p.ns.gid, 2);
	assert_string_equal(p.ns.hostname, "h");
	plan_free(&p);

	EXPECT_ERR("--argv0 used multiple times", "--argv0", "a", "--argv0", "b", "true");
	PARSE_OK(&p, "--argv0", "a", "true");
	assert_string_equal(p.proc.argv0, "a");
	assert_null(p.warnings);
	plan_free(&p);
	EXPECT_ERR("Invalid uid: x", "--uid", "x", "true");
	EXPECT_ERR("Invalid uid: -1", "--uid", "-1", "true");
	EXPECT_ERR("Invalid gid: x", "--gid", "x", "true");
	EXPECT_ERR("Invalid gid: 4294967295", "--gid", "4294967295", "true");
	EXPECT_ERR("labeling not supported on this system", "--exec-label", "x", "true");
	EXPECT_ERR("labeling not supported on this system", "--file-label", "x", "true");
}

static void test_namespaces(void **state)
{
	struct plan p;

	(void)state;
	PARSE_OK(&p, "--unshare-all", "true");
	assert_int_equal(p.ns.user, NS_TRY);
	assert_int_equal(p.ns.cgroup, NS_TRY);
	assert_true(p.ns.ipc && p.ns.pid && p.ns.net && p.ns.uts);
	plan_free(&p);
	PARSE_OK(&p, "--unshare-user", "--unshare-cgroup", "--unshare-all", "--share-net", "true");
	assert_int_equal(p.ns.user, NS_YES);
	assert_int_equal(p.ns.cgroup, NS_YES);
	assert_false(p.ns.net);
	plan_free(&p);
	PARSE_OK(&p, "--share-net", "--unshare-net", "--unshare-user-try", "--unshare-cgroup-try",
		 "--disable-userns", "--assert-userns-disabled", "--userns", "0", "--userns2", "4",
		 "--pidns", "5", "true");
	assert_true(p.ns.net);
	assert_int_equal(p.ns.user, NS_TRY);
	assert_int_equal(p.ns.cgroup, NS_TRY);
	assert_true(p.ns.disable_userns && p.ns.assert_userns_disabled);
	assert_int_equal(p.ns.userns_fd, 0);
	assert_int_equal(p.ns.userns2_fd, 4);
	assert_int_equal(p.ns.pidns_fd, 5);
	assert_int_equal(p.ns.mountns_fd, -1);
	plan_free(&p);
	PARSE_OK(&p, "--mountns", "6", "true");
	assert_int_equal(p.ns.mountns_fd, 6);
	plan_free(&p);
	EXPECT_ERR("Invalid fd: x", "--mountns", "x", "true");
}

static void test_process_and_status(void **state)
{
	struct plan p;

	(void)state;
	PARSE_OK(&p, "--new-session", "--die-with-parent", "--as-pid-1", "--level-prefix",
		 "--sync-fd", "3", "--block-fd", "4", "--userns-block-fd", "5", "--info-fd", "6",
		 "--json-status-fd", "7", "--lock-file", "/l1", "--lock-file", "/l2", "true");
	assert_true(p.proc.new_session && p.proc.die_with_parent && p.proc.as_pid_1);
	assert_true(p.level_prefix);
	assert_int_equal(p.sync.n_sync_fds, 1);
	assert_int_equal(p.sync.sync_fds[0], 3);
	assert_int_equal(p.sync.block_fd, 4);
	assert_int_equal(p.sync.userns_block_fd, 5);
	assert_int_equal(p.sync.info_fd, 6);
	assert_int_equal(p.sync.json_status_fd, 7);
	assert_string_equal(p.sync.lock_files[0], "/l1");
	assert_string_equal(p.sync.lock_files[1], "/l2");
	plan_free(&p);
	PARSE_OK(&p, "true");
	assert_int_equal(p.sync.n_sync_fds, 0);
	assert_int_equal(p.ns.userns_fd, -1);
	assert_int_equal(p.mode, PLAN_RUN);
	plan_free(&p);
}

static void test_env(void **state)
{
	struct plan p;

	(void)state;
	PARSE_OK(&p, "--setenv", "FOO", "1", "--unsetenv", "HOME", "--setenv", "PATH", "/x",
		 "true");
	assert_string_equal(p.proc.envp[0], "PATH=/x");
	assert_string_equal(p.proc.envp[1], "LANG=C");
	assert_string_equal(p.proc.envp[2], "FOO=1");
	assert_null(p.proc.envp[3]);
	plan_free(&p);
	PARSE_OK(&p, "--setenv", "A", "1", "--clearenv", "--setenv", "B", "x=y", "--unsetenv",
		 "NOPE", "true");
	assert_string_equal(p.proc.envp[0], "B=x=y");
	assert_null(p.proc.envp[1]);
	plan_free(&p);
	PARSE_OK(&p, "--clearenv", "--setenv", "A", "", "true");
	assert_string_equal(p.proc.envp[0], "A=");
	plan_free(&p);
	EXPECT_ERR("setenv failed", "--setenv", "A=B", "x", "true");
	EXPECT_ERR("setenv failed", "--setenv", "", "x", "true");
	EXPECT_ERR("unsetenv failed", "--unsetenv", "A=B", "true");
	EXPECT_ERR("unsetenv failed", "--unsetenv", "", "true");
}

static void test_caps(void **state)
{
	struct plan p;

	(void)state;
	PARSE_OK(&p, "--cap-add", "cap_sys_admin", "--cap-drop", "ALL", "--cap-add", "CAP_NET_RAW",
		 "--cap-drop", "all", "--cap-add", "21", "true");
	assert_int_equal(p.caps.n_ops, 5);
	assert_true(p.caps.ops[0].add);
	assert_int_equal(p.caps.ops[0].cap, 21);
	assert_false(p.caps.ops[1].add);
	assert_int_equal(p.caps.ops[1].cap, CAP_OP_ALL);
	assert_int_equal(p.caps.ops[2].cap, 13);
	assert_int_equal(p.caps.ops[3].cap, CAP_OP_ALL);
	assert_int_equal(p.caps.ops[4].cap, 21);
	plan_free(&p);
	EXPECT_ERR("unknown cap: FOO", "--cap-add", "FOO", "true");
	EXPECT_ERR("unknown cap: sys_admin", "--cap-drop", "sys_admin", "true");
}

static void test_seccomp(void **state)
{
	struct fake f = { 0 };
	struct nsrun_error e;
	struct plan p;

	(void)state;
	fake_add(&f, 3, "12345678abcdefgh", 16);
	fake_add(&f, 4, "ABCDEFGH", 8);
	fake_add(&f, 5, "abcde", 5);
	fake_add(&f, 6, "", 0);
	assert_int_equal(parse_v(&f, false, &p, &e,
				 ARGS("--add-seccomp-fd", "3", "--add-seccomp-fd", "4", "true")),
			 0);
	assert_int_equal(p.seccomp.n_progs, 2);
	assert_false(p.seccomp.from_seccomp_opt);
	assert_int_equal(p.seccomp.progs[0].len, 16);
	assert_memory_equal(p.seccomp.progs[1].data, "ABCDEFGH", 8);
	plan_free(&p);

	assert_int_equal(parse_v(&f, false, &p, &e,
				 ARGS("--seccomp", "3", "--seccomp", "4", "true")),
			 0);
	assert_int_equal(p.seccomp.n_progs, 1);
	assert_true(p.seccomp.from_seccomp_opt);
	assert_int_equal(p.seccomp.progs[0].len, 8);
	assert_string_equal(p.warnings[0], "Only the last --seccomp option will take effect");
	plan_free(&p);

	expect_err_v(&f, false, "--seccomp cannot be combined with --add-seccomp-fd",
		     ARGS("--add-seccomp-fd", "3", "--seccomp", "4", "true"));
	expect_err_v(&f, false, "--add-seccomp-fd cannot be combined with --seccomp",
		     ARGS("--seccomp", "3", "--add-seccomp-fd", "4", "true"));
	expect_err_v(&f, false, "Invalid seccomp data, must be multiple of 8",
		     ARGS("--seccomp", "5", "true"));
	/* An empty program parses (bwrap's prctl refuses it in the sandbox), so that the
	 * conflict is reported first, as bwrap does. */
	assert_int_equal(parse_v(&f, false, &p, &e, ARGS("--add-seccomp-fd", "6", "true")), 0);
	assert_int_equal(p.seccomp.n_progs, 1);
	assert_int_equal(p.seccomp.progs[0].len, 0);
	plan_free(&p);
	expect_err_v(&f, false, "--seccomp cannot be combined with --add-seccomp-fd",
		     ARGS("--add-seccomp-fd", "6", "--seccomp", "4", "true"));
	expect_err_v(&f, false, "Can't read seccomp data: Bad file descriptor",
		     ARGS("--seccomp", "9", "true"));
	/* --seccomp is read after parsing (bwrap reads it even later), so only the last
	 * one is read and option errors come first. */
	expect_err_v(&f, false, "--add-seccomp-fd cannot be combined with --seccomp",
		     ARGS("--seccomp", "5", "--add-seccomp-fd", "3", "true"));
	expect_err_v(&f, false, "Unknown option --bogus", ARGS("--seccomp", "9", "--bogus"));
	expect_err_v(&f, false, "Invalid fd: x", ARGS("--seccomp", "x", "true"));
	f.reads = 0;
	assert_int_equal(parse_v(&f, false, &p, &e, ARGS("--seccomp", "9", "--seccomp", "4")), 0);
	assert_int_equal(f.reads, 1);
	assert_int_equal(p.seccomp.n_progs, 1);
	plan_free(&p);
	f.reads = 0;
	assert_int_equal(parse_v(&f, false, &p, &e, ARGS("--seccomp", "3", "--help")), 0);
	assert_int_equal(f.reads, 0);
	plan_free(&p);
	expect_err_v(&f, false, "Can't read seccomp data: Bad file descriptor",
		     ARGS("--add-seccomp-fd", "9", "true"));
}

static void test_args(void **state)
{
	static const char a3[] = "--dir\0/a\0";
	static const char a4[] = "--dir\0/b\0--perms\0"
				 "0700\0--dir\0/c";
	static const char a5[] = "--dir\0/d\0";
	static const char nested[] = "--args\0"
				     "4\0";
	static const char cmd[] = "--dir\0/x\0true\0--bind\0";
	static const char half[] = "--bind\0/nonexist\0";
	static const char perms[] = "--perms\0"
				    "0700\0";
	struct fake f = { 0 };
	struct nsrun_error e;
	struct plan p;

	(void)state;
	fake_add(&f, 3, a3, sizeof(a3) - 1);
	fake_add(&f, 4, a4, sizeof(a4) - 1);
	fake_add(&f, 5, a5, sizeof(a5) - 1);
	fake_add(&f, 6, nested, sizeof(nested) - 1);
	fake_add(&f, 7, cmd, sizeof(cmd) - 1);
	fake_add(&f, 8, half, sizeof(half) - 1);
	fake_add(&f, 9, perms, sizeof(perms) - 1);
	/* Several --args apply in order; a trailing unterminated entry counts. */
	assert_int_equal(parse_v(&f, false, &p, &e,
				 ARGS("--args", "3", "--args", "4", "--dir", "/m", "--args", "5",
				      "ls")),
			 0);
	assert_int_equal(p.n_ops, 5);
	assert_string_equal(p.ops[0].dest, "/a");
	assert_string_equal(p.ops[1].dest, "/b");
	assert_string_equal(p.ops[2].dest, "/c");
	assert_int_equal(p.ops[2].perms, 0700);
	assert_string_equal(p.ops[3].dest, "/m");
	assert_string_equal(p.ops[4].dest, "/d");
	assert_string_equal(p.proc.argv[0], "ls");
	plan_free(&p);

	expect_err_v(&f, false, "--args not supported in arguments file",
		     ARGS("--args", "6", "ls"));
	/* A COMMAND inside the buffer would end it and drop the rest (bwrap does so
	 * silently): nsrun refuses it. */
	expect_err_v(&f, false,
		     "Unexpected argument 'true' in --args data: COMMAND must be given on the "
		     "command line",
		     ARGS("--args", "7", "--tmpfs", "/t"));
	/* Options inside a buffer cannot take their arguments from outside it. */
	expect_err_v(&f, false, "--bind takes two arguments", ARGS("--args", "8", "/y", "true"));
	/* A modifier left pending by a buffer is checked after the --args option. */
	expect_err_v(&f, false, "--perms must be followed by an option that creates a file",
		     ARGS("--args", "9", "--dir", "/x", "true"));
	expect_err_v(&f, false, "Can't read --args data: Bad file descriptor",
		     ARGS("--args", "99", "true"));
	expect_err_v(&f, false, "--args takes an argument", ARGS("--args"));
}

/* What ends an --args buffer early: "--" at its end is harmless, anything after it, an
 * empty entry or a non-option is refused with its name; --help stops parsing as usual. */
static void test_args_leftovers(void **state)
{
	static const char dashdash_end[] = "--dir\0/a\0--\0";
	static const char dashdash_cmd[] = "--dir\0/a\0--\0ls\0";
	static const char empty[] = "--dir\0/a\0\0--unshare-net\0";
	static const char help[] = "--dir\0/a\0--help\0garbage\0";
	struct fake f = { 0 };
	struct nsrun_error e;
	struct plan p;

	(void)state;
	fake_add(&f, 3, dashdash_end, sizeof(dashdash_end) - 1);
	fake_add(&f, 4, dashdash_cmd, sizeof(dashdash_cmd) - 1);
	fake_add(&f, 5, empty, sizeof(empty) - 1);
	fake_add(&f, 6, help, sizeof(help) - 1);
	assert_int_equal(parse_v(&f, false, &p, &e, ARGS("--args", "3", "--dir", "/b", "true")), 0);
	assert_int_equal(p.n_ops, 2);
	assert_string_equal(p.proc.argv[0], "true");
	plan_free(&p);
	expect_err_v(&f, false,
		     "Unexpected argument 'ls' in --args data: COMMAND must be given on the "
		     "command line",
		     ARGS("--args", "4", "true"));
	expect_err_v(&f, false,
		     "Unexpected argument '' in --args data: COMMAND must be given on the "
		     "command line",
		     ARGS("--args", "5", "true"));
	assert_int_equal(parse_v(&f, false, &p, &e, ARGS("--args", "6", "true")), 0);
	assert_int_equal(p.mode, PLAN_HELP);
	plan_free(&p);
}

/* A fake check_fd: fd 3 is open for reading, fd 4 only for writing, others closed. */
static int fake_check_fd(void *userdata, int fd, bool read)
{
	(void)userdata;
	if (fd == 3 || (fd == 4 && !read))
		return 0;
	return -EBADF;
}

/* And for --report-fd: only fd 4 is open for writing. */
static int fake_check_fd_writable(void *userdata, int fd)
{
	(void)userdata;
	return fd == 4 ? 0 : -EBADF;
}

static int parse_checked(struct plan *p, struct nsrun_error *e, const char *const *args)
{
	struct cli_io io = { .check_fd = fake_check_fd,
			     .check_fd_writable = fake_check_fd_writable,
			     .envp = (char *const *)start_env };

	return parse_args(&io, args, p, e);
}

/* --block-fd and --userns-block-fd must name an open fd (readable) once there is a
 * command to run; bwrap would ignore a closed one. Every --sync-fd counts, and a closed
 * one is ignored, as in bwrap 0.13.1. */
static void test_sync_fds_checked(void **state)
{
	static const struct {
		const char *opt, *fd, *msg;
	} cases[] = {
		{ "--sync-fd", "3", NULL },
		{ "--sync-fd", "4", NULL },
		{ "--sync-fd", "9", NULL },
		{ "--block-fd", "3", NULL },
		{ "--block-fd", "4", "Can't use --block-fd 4: Bad file descriptor" },
		{ "--block-fd", "9", "Can't use --block-fd 9: Bad file descriptor" },
		{ "--userns-block-fd", "3", NULL },
		{ "--userns-block-fd", "9", "Can't use --userns-block-fd 9: Bad file descriptor" },
		/* written by the monitor: open for writing */
		{ "--report-fd", "4", NULL },
		{ "--report-fd", "3", "Can't use --report-fd 3: Bad file descriptor" },
		{ "--report-fd", "9", "Can't use --report-fd 9: Bad file descriptor" },
	};
	struct nsrun_error e;
	struct plan p;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int r = parse_checked(&p, &e, ARGS(cases[i].opt, cases[i].fd, "true"));

		if (cases[i].msg)
			assert_string_equal(e.msg, cases[i].msg);
		else if (r < 0)
			fail_msg("%s %s: %s", cases[i].opt, cases[i].fd, e.msg);
		assert_int_equal(r < 0, cases[i].msg != NULL);
		plan_free(&p);
	}
	assert_int_equal(parse_checked(&p, &e,
				       ARGS("--sync-fd", "3", "--sync-fd", "9", "--sync-fd", "4",
					    "true")),
			 0);
	assert_int_equal(p.sync.n_sync_fds, 2);
	assert_int_equal(p.sync.sync_fds[0], 3);
	assert_int_equal(p.sync.sync_fds[1], 4);
	plan_free(&p);
	/* Without a command (usage) or with --help nothing is checked. */
	assert_int_equal(parse_checked(&p, &e, ARGS("--block-fd", "9")), 0);
	plan_free(&p);
	assert_int_equal(parse_checked(&p, &e, ARGS("--block-fd", "9", "--help")), 0);
	plan_free(&p);
}

static void test_arg_limit(void **state)
{
	size_t n = PLAN_MAX_ARGS;
	char *buf = xmalloc(n * 14);
	const char *argv[PLAN_MAX_ARGS + 3];
	struct cli_io io = { .read_fd = fake_read, .envp = (char *const *)start_env };
	struct fake f = { 0 };
	struct nsrun_error e;
	struct plan p;

	(void)state;
	io.userdata = &f;
	argv[0] = "nsrun";
	for (size_t i = 1; i <= n; i++)
		argv[i] = "--unshare-ipc";
	argv[n + 1] = "x";
	argv[n + 2] = NULL;
	/* 9000 arguments after argv[0] pass, 9001 do not (measured with bwrap 0.8.0). */
	assert_int_equal(cli_parse((int)n + 1, (char *const *)argv, &io, &p, &e), 0);
	plan_free(&p);
	assert_true(cli_parse((int)n + 2, (char *const *)argv, &io, &p, &e) < 0);
	assert_string_equal(e.msg, "Exceeded maximum number of arguments 9000");
	plan_free(&p);

	/* --args entries are not counted against bwrap's 9000 (nsrun extension): 20,000
	 * entries, 10,000 ops, beside a full command line. */
	for (size_t i = 0; i < n; i++)
		memcpy(buf + i * 14, "--unshare-ipc", 14);
	{
		size_t k = 10000;
		char *ops = xmalloc(k * 16);
		size_t len = 0;

		for (size_t i = 0; i < k; i++)
			len += (size_t)sprintf(ops + len, "--dir%c/d%zu", '\0', i) + 1;
		fake_add(&f, 3, ops, len);
		argv[n - 2] = "--args";
		argv[n - 1] = "3";
		argv[n] = "true";
		argv[n + 1] = NULL;
		assert_int_equal(cli_parse((int)n + 1, (char *const *)argv, &io, &p, &e), 0);
		assert_int_equal(p.n_ops, k);
		assert_string_equal(p.ops[k - 1].dest, "/d9999");
		plan_free(&p);
		free(ops);
	}
	/* Past PLAN_MAX_FILE_ARGS entries of every buffer together: nsrun's own message. */
	{
		size_t big = PLAN_MAX_FILE_ARGS / 2;
		char *many = xmalloc((big + 1) * 14);

		for (size_t i = 0; i <= big; i++)
			memcpy(many + i * 14, "--unshare-ipc", 14);
		f.n = 0;
		fake_add(&f, 3, many, big * 14);
		fake_add(&f, 4, many, big * 14);
		argv[1] = "--args";
		argv[2] = "3";
		argv[3] = "--args";
		argv[4] = "4";
		argv[5] = "true";
		argv[6] = NULL;
		assert_int_equal(cli_parse(6, (char *const *)argv, &io, &p, &e), 0);
		plan_free(&p);
		f.lens[1] = (big + 1) * 14;
		assert_true(cli_parse(6, (char *const *)argv, &io, &p, &e) < 0);
		assert_string_equal(e.msg, "Too many arguments in --args data (at most 1000000)");
		plan_free(&p);
		/* The byte cap is of every buffer together too. */
		f.lens[1] = PLAN_MAX_ARGS_BYTES - big * 14 + 1;
		assert_true(cli_parse(6, (char *const *)argv, &io, &p, &e) < 0);
		assert_string_equal(e.msg, "Can't read --args data: File too large");
		plan_free(&p);
		free(many);
	}
	/* An oversized buffer is a read failure. */
	f.n = 0;
	fake_add(&f, 3, buf, PLAN_MAX_ARGS_BYTES + 1);
	argv[1] = "--args";
	argv[2] = "3";
	argv[3] = "true";
	argv[4] = NULL;
	assert_true(cli_parse(4, (char *const *)argv, &io, &p, &e) < 0);
	assert_string_equal(e.msg, "Can't read --args data: File too large");
	plan_free(&p);
	free(buf);
}

static void test_extensions(void **state)
{
	struct plan p;

	(void)state;
	PARSE_OK(&p, "--overlay-hide", ".ssh", "--overlay-allow", "/home/u/.ssh/known_hosts",
		 "--overlay-hide", "/etc/shadow", "true");
	assert_string_equal(p.hide.hide[0], ".ssh");
	assert_string_equal(p.hide.hide[1], "/etc/shadow");
	assert_string_equal(p.hide.allow[0], "/home/u/.ssh/known_hosts");
	plan_free(&p);
	EXPECT_ERR("--overlay-hide requires a non-empty NAME or PATH", "--overlay-hide", "",
		   "true");
	EXPECT_ERR("--overlay-allow requires a non-empty NAME or PATH", "--overlay-allow", "");

	PARSE_OK(&p, "--landlock-rw", "/tmp", "--landlock-exec", "/usr", "--landlock-connect-tcp",
		 "443", "--landlock-connect-tcp", "0", "--landlock-bind-tcp", "65535",
		 "--landlock-connect-udp", "53", "--landlock-bind-udp", "0", "true");
	assert_true(p.landlock.enabled);
	assert_false(p.landlock.only);
	assert_string_equal(p.landlock.rw[0], "/tmp");
	assert_string_equal(p.landlock.exec[0], "/usr");
	assert_int_equal(p.landlock.ports[LL_PORT_CONNECT_TCP].n, 2);
	assert_int_equal(p.landlock.ports[LL_PORT_CONNECT_TCP].v[0], 443);
	assert_int_equal(p.landlock.ports[LL_PORT_CONNECT_TCP].v[1], 0);
	for (int k = 0; k < LL_PORT_KINDS; k++)
		assert_true(p.landlock.ports[k].has);
	assert_int_equal(p.landlock.ports[LL_PORT_BIND_TCP].v[0], 65535);
	assert_int_equal(p.landlock.ports[LL_PORT_CONNECT_UDP].v[0], 53);
	assert_int_equal(p.landlock.ports[LL_PORT_BIND_UDP].n, 1);
	assert_int_equal(p.landlock.ports[LL_PORT_BIND_UDP].v[0], 0);
	plan_free(&p);
	PARSE_OK(&p, "--landlock-scope", "true");
	assert_true(p.landlock.enabled && p.landlock.scope);
	plan_free(&p);
	PARSE_OK(&p, "--landlock-only", "true");
	assert_true(p.landlock.enabled && p.landlock.only);
	assert_false(p.landlock.deny_unix);
	plan_free(&p);
	PARSE_OK(&p, "--landlock-deny-unix", "true");
	assert_true(p.landlock.enabled && p.landlock.deny_unix && !p.landlock.only);
	plan_free(&p);
	static const char *const bad_ports[] = { "65536", "-1", "0x10", "",
						 "1a",	  " 1", "+1",	"99999999999999999999" };
	for (size_t i = 0; i < ARRAY_SIZE(bad_ports); i++) {
		char want[64];

		snprintf(want, sizeof(want), "Invalid port: %s", bad_ports[i]);
		expect_err_v(NULL, false, want, ARGS("--landlock-bind-tcp", bad_ports[i]));
		expect_err_v(NULL, false, want, ARGS("--landlock-connect-tcp", bad_ports[i]));
	}
	EXPECT_ERR("--landlock-rw requires an absolute path", "--landlock-rw", "tmp", "true");
	EXPECT_ERR("--landlock-exec requires an absolute path", "--landlock-exec", "", "true");
}

/* --bridge PORT TARGET: bridge_parse's shapes, and what the handler adds (one bridge per
 * port, the port held by Landlock's connect rules where it has them). */
static void test_bridge_target(void **state)
{
	static const struct {
		const char *target;
		enum bridge_kind kind;
		const char *where; /* path, or host */
		unsigned port;
	} good[] = {
		{ "unix:/run/proxy.sock", BRIDGE_UNIX, "/run/proxy.sock", 0 },
		{ "tcp:127.0.0.1:3128", BRIDGE_TCP, "127.0.0.1", 3128 },
		{ "tcp:127.1.2.3:1", BRIDGE_TCP, "127.1.2.3", 1 },
		{ "tcp:localhost:65535", BRIDGE_TCP, "127.0.0.1", 65535 },
		{ "tcp:[::1]:8080", BRIDGE_TCP, "::1", 8080 },
		{ "tcp:::1:8080", BRIDGE_TCP, "::1", 8080 },
	};
	static const char *const malformed[] = {
		"",
		"unix:",
		"unix:run/x",
		"tcp:",
		"tcp:127.0.0.1",
		"tcp:127.0.0.1:",
		"tcp::80",
		"tcp:127.0.0.1:0",
		"tcp:127.0.0.1:65536",
		"tcp:127.0.0.1:http",
		"tcp:[::1:80",
		"udp:127.0.0.1:53",
		"/run/x",
		"tcp:proxy.example:3128",
		"tcp:127.0.0.1:-1",
	};
	static const char *const outside[] = { "tcp:10.0.0.1:3128", "tcp:0.0.0.0:3128",
					       "tcp:[::]:80", "tcp:[2001:db8::1]:80",
					       "tcp:128.0.0.1:80" };
	struct nsrun_error e = { 0 };
	struct plan_bridge b;
	char want[256], path[200];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		assert_int_equal(bridge_parse("80", good[i].target, &b, &e), 0);
		assert_int_equal(b.port, 80);
		assert_int_equal(b.kind, good[i].kind);
		assert_string_equal(b.target, good[i].target);
		assert_string_equal(good[i].kind == BRIDGE_UNIX ? b.path : b.host, good[i].where);
		assert_int_equal(b.target_port, good[i].port);
		free(b.target);
		free(b.path);
		free(b.host);
	}
	for (size_t i = 0; i < ARRAY_SIZE(malformed); i++) {
		snprintf(want, sizeof(want),
			 "--bridge: invalid TARGET '%s' (unix:/ABSOLUTE/PATH or tcp:HOST:PORT)",
			 malformed[i]);
		expect_err_v(NULL, false, want, ARGS("--bridge", "80", malformed[i], "true"));
	}
	for (size_t i = 0; i < ARRAY_SIZE(outside); i++) {
		assert_int_equal(bridge_parse("80", outside[i], &b, &e), -EINVAL);
		assert_non_null(strstr(e.msg, "is not a loopback address"));
	}
	static const char *const bad_ports[] = { "0", "65536", "-1", "", "80x", "0x50" };
	for (size_t i = 0; i < ARRAY_SIZE(bad_ports); i++) {
		snprintf(want, sizeof(want), "--bridge: invalid port '%s' (1 to 65535)",
			 bad_ports[i]);
		expect_err_v(NULL, false, want, ARGS("--bridge", bad_ports[i], "unix:/p", "true"));
	}
	memset(path, 'a', sizeof(path));
	memcpy(path, "unix:/", 6);
	path[sizeof(path) - 1] = '\0';
	assert_int_equal(bridge_parse("80", path, &b, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "longer than 107 bytes"));
	EXPECT_ERR("--bridge: port 80 is bridged twice", "--bridge", "80", "unix:/a", "--bridge",
		   "80", "tcp:127.0.0.1:1", "true");
}

static void test_bridge_plan(void **state)
{
	struct plan p;

	(void)state;
	PARSE_OK(&p, "--unshare-net", "--bridge", "80", "unix:/a", "--bridge", "443",
		 "tcp:127.0.0.1:3128", "true");
	assert_int_equal(p.n_bridges, 2);
	assert_int_equal(p.bridges[1].port, 443);
	assert_string_equal(p.bridges[1].target, "tcp:127.0.0.1:3128");
	/* Held by Landlock only where a --landlock-* option enables it. */
	assert_false(p.landlock.enabled);
	assert_true(p.landlock.bridge.has);
	assert_int_equal(p.landlock.bridge.n, 2);
	assert_int_equal(p.landlock.bridge.v[0], 80);
	assert_int_equal(p.landlock.bridge.v[1], 443);
	assert_false(p.landlock.ports[LL_PORT_CONNECT_TCP].has);
	plan_free(&p);
	/* PLAN_MAX_BRIDGES, then one more. */
	{
		char ports[PLAN_MAX_BRIDGES + 1][8];
		const char *args[3 * (PLAN_MAX_BRIDGES + 1) + 2];
		size_t n = 0;

		for (int i = 0; i <= PLAN_MAX_BRIDGES; i++) {
			snprintf(ports[i], sizeof(ports[i]), "%d", 1000 + i);
			args[n++] = "--bridge";
			args[n++] = ports[i];
			args[n++] = "unix:/p";
		}
		args[n++] = "true";
		args[n] = NULL;
		expect_err_v(NULL, false, "Too many --bridge options (at most 64)", args);
		args[n - 4] = "true";
		args[n - 3] = NULL;
		assert_int_equal(parse_v(NULL, false, &p, &(struct nsrun_error){ 0 }, args), 0);
		assert_int_equal(p.n_bridges, PLAN_MAX_BRIDGES);
		plan_free(&p);
	}
}

/* --monotonic, --boottime: whole seconds of either sign, up to PLAN_MAX_CLOCK_OFFSET. */
static void test_clock_offsets(void **state)
{
	struct plan p;
	char past[32], most[32], least[32];

	(void)state;
	PARSE_OK(&p, "--unshare-time", "--monotonic", "-30", "--boottime", "+86400", "true");
	assert_true(p.ns.time);
	assert_true(p.ns.has_monotonic && p.ns.has_boottime);
	assert_true(p.ns.monotonic == -30 && p.ns.boottime == 86400);
	/* Not part of --unshare-all, which stays bwrap's. */
	assert_false(p.ns.unshare_all);
	plan_free(&p);
	PARSE_OK(&p, "--unshare-all", "true");
	assert_false(p.ns.time || p.ns.has_monotonic || p.ns.has_boottime);
	plan_free(&p);
	snprintf(most, sizeof(most), "%lld", PLAN_MAX_CLOCK_OFFSET);
	snprintf(least, sizeof(least), "-%lld", PLAN_MAX_CLOCK_OFFSET);
	PARSE_OK(&p, "--unshare-time", "--monotonic", most, "--boottime", least, "true");
	assert_true(p.ns.monotonic == PLAN_MAX_CLOCK_OFFSET);
	assert_true(p.ns.boottime == -PLAN_MAX_CLOCK_OFFSET);
	plan_free(&p);
	snprintf(past, sizeof(past), "%lld", PLAN_MAX_CLOCK_OFFSET + 1);
	static const char *const bad[] = { "", "-", "+", "1.5", "1s", "0x10", "--5", " 5" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char want[128];

		snprintf(want, sizeof(want),
			 "--boottime takes whole seconds from -4611686018 to 4611686018, not '%s'",
			 bad[i]);
		expect_err_v(NULL, false, want,
			     ARGS("--unshare-time", "--boottime", bad[i], "true"));
	}
	EXPECT_ERR("--monotonic takes whole seconds from -4611686018 to 4611686018, not "
		   "'4611686019'",
		   "--unshare-time", "--monotonic", past, "true");
	PARSE_OK(&p, "--ignore-keyboard-signals", "true");
	assert_true(p.sup.ignore_keyboard_signals);
	plan_free(&p);
}

/* bwrap 0.13: every path argument of every bwrap option is refused when empty, with the
 * path's metavariable named; the other arguments of the same option are valid. */
static void test_empty_paths(void **state)
{
	size_t checked = 0;

	(void)state;
	for (size_t i = 0; i < cli_n_options; i++) {
		const struct cli_option *o = &cli_options[i];
		const char *m = o->args;

		if (o->flags & OPTF_NSRUN)
			continue;
		for (unsigned k = 0; k < o->arity; k++) {
			size_t len = strcspn(m, " ");
			char word[16], want[128];
			const char *args[6] = { o->name };

			snprintf(word, sizeof(word), "%.*s", (int)len, m);
			m += len + (m[len] == ' ');
			if (strcmp(word, "SRC") && strcmp(word, "DEST") && strcmp(word, "DIR") &&
			    strcmp(word, "PATH") && strcmp(word, "RWSRC") &&
			    strcmp(word, "WORKDIR"))
				continue;
			for (unsigned j = 0; j < o->arity; j++)
				args[j + 1] = j == k			  ? "" :
					      o->args[0] == 'F' && j == 0 ? "3" :
					      o->args[0] == 'O' && j == 0 ? "0755" :
									    "/x";
			args[o->arity + 1] = "true";
			snprintf(want, sizeof(want), "%s does not take an empty path argument",
				 o->name);
			expect_err_v(NULL, true, want, args);
			checked++;
		}
	}
	/* --bind* (6), --dev, --dir, --proc, --tmpfs, --mqueue, --remount-ro, --chdir,
	 * --lock-file, --overlay-src, --tmp-overlay, --ro-overlay, --overlay (3), --symlink (2),
	 * --chmod, --file, --bind-data, --ro-bind-data, --bind-fd, --ro-bind-fd. */
	assert_int_equal(checked, 6 * 2 + 11 + 3 + 2 + 6);
	EXPECT_ERR("--bind-try does not take an empty path argument", "--bind-try", "", "", "true");
	EXPECT_ERR("--bind does not take an empty path argument", "--bind", "/x", "", "true");
	/* Not paths: an empty --setenv value, --argv0, --hostname are still fine. */
	{
		struct plan p;

		PARSE_OK(&p, "--setenv", "A", "", "--argv0", "", "--hostname", "", "true");
		plan_free(&p);
	}
	/* nsrun's own options keep their own messages. */
	EXPECT_ERR("--overlay-hide requires a non-empty NAME or PATH", "--overlay-hide", "",
		   "true");
}

static void test_debug_opt(void **state)
{
	struct plan p;

	(void)state;
	PARSE_OK(&p, "--debug-opt=print-assumed-kernel", "--bogus");
	assert_int_equal(p.mode, PLAN_ASSUMED_KERNEL);
	plan_free(&p);
	PARSE_OK(&p, "--debug-opt=force-mount-setattr-fallback",
		 "--debug-opt=force-openat-fallback", "true");
	assert_true(p.debug.force_mount_fallback);
	assert_true(p.debug.force_openat_fallback);
	assert_false(p.debug.not_a_security_boundary);
	assert_int_equal(p.mode, PLAN_RUN);
	plan_free(&p);
	PARSE_OK(&p, "--debug-opt=force-openat-fallback", "true");
	assert_false(p.debug.force_mount_fallback);
	assert_true(p.debug.force_openat_fallback);
	plan_free(&p);
	PARSE_OK(&p, "--not-a-security-boundary", "true");
	assert_true(p.debug.not_a_security_boundary);
	assert_false(p.debug.force_mount_fallback);
	plan_free(&p);
	EXPECT_ERR("Unknown --debug-opt value: bogus", "--debug-opt=bogus", "true");
	EXPECT_ERR("Unknown --debug-opt value: ", "--debug-opt=", "true");
	/* bwrap 0.13.1 knows no "--debug-opt NAME" */
	EXPECT_ERR("Unknown option --debug-opt", "--debug-opt", "print-assumed-kernel", "true");
	EXPECT_ERR("Unknown option --debug-opt", "--debug-opt");
	/* Only --debug-opt takes "=VALUE"; a prefix of it is not it. */
	EXPECT_ERR("Unknown option --debug-o=force-openat-fallback",
		   "--debug-o=force-openat-fallback", "true");
	EXPECT_ERR("Unknown option --bind=/", "--bind=/", "/", "true");
	EXPECT_ERR("Unknown option --not-a-security-boundary=1", "--not-a-security-boundary=1",
		   "true");
}

static void test_usage(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	cli_usage(f, "/usr/bin/bwrap");
	fclose(f);
	assert_true(
		str_has_prefix(buf,
			       "usage: /usr/bin/bwrap [OPTIONS...] [--] COMMAND [ARGS...]\n\n"));
	for (size_t i = 0; i < cli_n_options; i++) {
		char line[64];

		snprintf(line, sizeof(line), "\n    %s ", cli_options[i].name);
		if (cli_options[i].flags & OPTF_HIDDEN) {
			if (strstr(buf, line))
				fail_msg("hidden %s in usage", cli_options[i].name);
		} else if (!strstr(buf, line)) {
			fail_msg("%s missing from usage", cli_options[i].name);
		}
	}
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_sorted),
		cmocka_unit_test(test_arity_messages),
		cmocka_unit_test(test_unknown_and_command),
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_ops_in_order),
		cmocka_unit_test(test_sys_op),
		cmocka_unit_test(test_fd_args),
		cmocka_unit_test(test_modifiers),
		cmocka_unit_test(test_overlay),
		cmocka_unit_test(test_warnings_and_singles),
		cmocka_unit_test(test_namespaces),
		cmocka_unit_test(test_process_and_status),
		cmocka_unit_test(test_env),
		cmocka_unit_test(test_caps),
		cmocka_unit_test(test_seccomp),
		cmocka_unit_test(test_args),
		cmocka_unit_test(test_args_leftovers),
		cmocka_unit_test(test_sync_fds_checked),
		cmocka_unit_test(test_arg_limit),
		cmocka_unit_test(test_extensions),
		cmocka_unit_test(test_empty_paths),
		cmocka_unit_test(test_bridge_target),
		cmocka_unit_test(test_bridge_plan),
		cmocka_unit_test(test_clock_offsets),
		cmocka_unit_test(test_debug_opt),
		cmocka_unit_test(test_usage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
