/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-noexec.c: the pure parts of the noexec pass: the shared mountinfo line parser,
 * where a mount shows a path of its filesystem, and overlayfs layer lists. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mountinfo.h"
#include "noexec.h"
#include "util.h"

static void test_unescape(void **state)
{
	char a[] = "/a\\040b\\011c\\134d";
	char b[] = "/plain";
	char c[] = "/bad\\04";
	char d[] = "/not\\089octal\\";

	(void)state;
	mountinfo_unescape(a);
	assert_string_equal(a, "/a b\tc\\d");
	mountinfo_unescape(b);
	assert_string_equal(b, "/plain");
	mountinfo_unescape(c);
	assert_string_equal(c, "/bad\\04");
	mountinfo_unescape(d);
	assert_string_equal(d, "/not\\089octal\\");
}

static void test_parse_line(void **state)
{
	char line[] = "36 35 98:0 /mnt1 /mnt/my\\040dir rw,noatime master:1 shared:7 - ext3 "
		      "/dev/root rw,errors=continue\n";
	struct mountinfo_entry e;

	(void)state;
	assert_int_equal(mountinfo_parse_line(line, &e), 0);
	assert_int_equal(e.id, 36);
	assert_int_equal(e.parent_id, 35);
	assert_int_equal(e.major, 98);
	assert_int_equal(e.minor, 0);
	assert_string_equal(e.root, "/mnt1");
	assert_string_equal(e.mountpoint, "/mnt/my dir");
	assert_string_equal(e.mount_opts, "rw,noatime");
	assert_string_equal(e.fstype, "ext3");
	assert_string_equal(e.source, "/dev/root");
	assert_string_equal(e.super_opts, "rw,errors=continue");
}

static void test_parse_line_edges(void **state)
{
	char no_optional[] = "1 0 0:5 / / ro - tmpfs none ro";
	char empty_source[] = "2 1 0:6 / /x rw - fuse  rw";
	const char *const bad[] = {
		"",
		"1 0 0:5 / / rw",
		"1 0 0:5 / / rw shared:1",
		"x 0 0:5 / / rw - t s o",
		"1 0 05 / / rw - t s o",
		"1 0 0:5 / / rw - t s",
		"1 -1 0:5 / / rw - t s o",
	};
	struct mountinfo_entry e;

	(void)state;
	assert_int_equal(mountinfo_parse_line(no_optional, &e), 0);
	assert_string_equal(e.fstype, "tmpfs");
	assert_string_equal(e.super_opts, "ro");
	assert_int_equal(mountinfo_parse_line(empty_source, &e), 0);
	assert_string_equal(e.fstype, "fuse");
	assert_string_equal(e.source, "");
	assert_string_equal(e.super_opts, "rw");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *copy = xstrdup(bad[i]);

		assert_int_equal(mountinfo_parse_line(copy, &e), -EINVAL);
		free(copy);
	}
}

static void test_has_opt(void **state)
{
	(void)state;
	assert_true(mountinfo_has_opt("ro,nosuid", "ro"));
	assert_true(mountinfo_has_opt("rw,nosuid,noexec", "noexec"));
	assert_false(mountinfo_has_opt("rw,nosuid", "ro"));
	assert_false(mountinfo_has_opt("rw,errors=remount-ro", "ro"));
	assert_false(mountinfo_has_opt("rw,noexecx", "noexec"));
	assert_false(mountinfo_has_opt("", "ro"));
}

static void check_overlap(const char *mp, const char *root, const char *fspath,
			  enum noexec_overlap want, const char *want_alias)
{
	char *alias = NULL;

	assert_int_equal(noexec_overlap(mp, root, fspath, &alias), want);
	if (want_alias)
		assert_string_equal(alias, want_alias);
	else
		assert_null(alias);
	free(alias);
}

static void test_overlap(void **state)
{
	(void)state;
	/* the shape: "/" of the host fs at "/", the workspace bound at /mnt */
	check_overlap("/", "/", "/tmp/ws", NOEXEC_ALIAS, "/tmp/ws");
	check_overlap("/mnt", "/tmp/ws", "/tmp/ws", NOEXEC_INSIDE, NULL);
	check_overlap("/opt", "/tmp/ws/sub", "/tmp/ws", NOEXEC_INSIDE, NULL);
	check_overlap("/srv", "/tmp", "/tmp/ws/d", NOEXEC_ALIAS, "/srv/ws/d");
	check_overlap("/srv", "/tmp/w", "/tmp/ws", NOEXEC_DISJOINT, NULL);
	check_overlap("/srv", "/usr", "/tmp/ws", NOEXEC_DISJOINT, NULL);
	check_overlap("/newroot/a", "/", "/x", NOEXEC_ALIAS, "/newroot/a/x");
	check_overlap("/", "/home", "/home/u", NOEXEC_ALIAS, "/u");
	check_overlap("/x", "/", "/", NOEXEC_INSIDE, NULL);
}

static void check_strv(char **v, const char *const *want)
{
	size_t n = 0;

	for (; want[n]; n++) {
		assert_non_null(v);
		assert_non_null(v[n]);
		assert_string_equal(v[n], want[n]);
	}
	assert_true(v == NULL ? n == 0 : v[n] == NULL);
}

static void test_overlay_layers(void **state)
{
	/* as Linux 6.18 shows them: lowerdir+ (new API), lowerdir with '\' escapes (legacy) */
	static const struct {
		const char *opts;
		const char *lowers[4];
		const char *uppers[3];
	} cases[] = {
		{ "rw,lowerdir+=/o/a\\054b\\040c,lowerdir+=/o/l1,upperdir=/o/u,workdir=/o/w,uuid=on",
		  { "/o/a,b c", "/o/l1", NULL },
		  { "/o/u", "/o/w", NULL } },
		{ "rw,lowerdir=/o/a\\134\\054b\\040c:/o/l1,upperdir=/o/u\\134\\0541,workdir=/w",
		  { "/o/a,b c", "/o/l1", NULL },
		  { "/o/u,1", "/w", NULL } },
		{ "ro,lowerdir=/o/x\\134:y:/o/l1,redirect_dir=on",
		  { "/o/x:y", "/o/l1", NULL },
		  { NULL } },
		{ "ro,lowerdir+=/o/x:y,datadir+=/d,userxattr", { "/o/x:y", "/d", NULL }, { NULL } },
		{ "rw,relatime", { NULL }, { NULL } },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char **lowers = NULL, **uppers = NULL;

		mountinfo_overlay_layers(cases[i].opts, &lowers, &uppers);
		check_strv(lowers, cases[i].lowers);
		check_strv(uppers, cases[i].uppers);
		strv_free(lowers);
		strv_free(uppers);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unescape),	 cmocka_unit_test(test_parse_line),
		cmocka_unit_test(test_parse_line_edges), cmocka_unit_test(test_has_opt),
		cmocka_unit_test(test_overlap),		 cmocka_unit_test(test_overlay_layers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
