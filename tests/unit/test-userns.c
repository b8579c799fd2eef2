/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test-userns.c: the pure parts of userns.c: map text and bwrap's layout
 * (when uid 0 is mapped first, when a nested namespace is needed); --uid-map/--gid-map's
 * grammar, the kernel's rules on ranges, and who writes such maps.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "userns.h"
#include "util.h"

static void test_format_map(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(userns_format_map(buf, sizeof(buf), 0, 1000, 1), 9);
	assert_string_equal(buf, "0 1000 1\n");
	userns_format_map(buf, sizeof(buf), 65534, 65534, 1);
	assert_string_equal(buf, "65534 65534 1\n");
	userns_format_map(buf, sizeof(buf), 4294967294ul, 0, 1);
	assert_string_equal(buf, "4294967294 0 1\n");
	assert_int_equal(userns_format_map(buf, 5, 0, 1000, 1), -ENOSPC);
}

static struct userns_request unpriv(void)
{
	struct userns_request req = {
		.unshare = true,
		.real_uid = 1000,
		.real_gid = 1000,
		.sandbox_uid = 1000,
		.sandbox_gid = 1000,
		.effective_uid = 1000,
		.effective_gid = 1000,
	};
	return req;
}

static int parse(const char *arg, struct id_map *m, struct nsrun_error *e)
{
	return userns_parse_map("--uid-map", arg, m, e);
}

static void test_parse_map(void **state)
{
	struct id_map m = { 0 };
	struct nsrun_error e = { 0 };

	(void)state;
	assert_int_equal(parse("0:1000:1", &m, &e), 0);
	/* bubblewrap issue 468's form: one argument, blanks between every field. */
	assert_int_equal(parse("1 100000 65536", &m, &e), 0);
	assert_int_equal(parse("70000:200000:5,80000:300000:1", &m, &e), 0);
	assert_int_equal(m.n, 4);
	assert_int_equal(m.v[1].inside, 1);
	assert_int_equal(m.v[1].outside, 100000);
	assert_int_equal(m.v[1].count, 65536);
	assert_int_equal(m.v[3].outside, 300000);
	/* The last id the kernel takes is 4294967294. */
	assert_int_equal(parse("4294967294:5:1", &m, &e), 0);
	assert_int_equal(userns_map_inside(&m, 1000), 0);
	assert_int_equal(userns_map_inside(&m, 100001), 2);
	assert_int_equal(userns_map_inside(&m, 99999), -1);
	assert_int_equal(userns_map_outside(&m, 65536, 7), 165535);
	assert_int_equal(userns_map_outside(&m, 65537, 7), 7);
	assert_true(userns_map_has(&m, 70004));
	assert_false(userns_map_has(&m, 70005));
	free(m.v);
}

static void test_parse_map_refused(void **state)
{
	static const struct {
		const char *arg, *msg;
	} bad[] = {
		{ "", "--uid-map takes INSIDE:OUTSIDE:COUNT (got '')" },
		{ "0:1000", "--uid-map takes INSIDE:OUTSIDE:COUNT (got '0:1000')" },
		{ "0:1000:1:", "--uid-map takes INSIDE:OUTSIDE:COUNT (got '0:1000:1:')" },
		{ "0,1000,1", "--uid-map takes INSIDE:OUTSIDE:COUNT (got '0,1000,1')" },
		{ "-1:0:1", "--uid-map takes INSIDE:OUTSIDE:COUNT (got '-1:0:1')" },
		{ "0x10:0:1", "--uid-map takes INSIDE:OUTSIDE:COUNT (got '0x10:0:1')" },
		{ "4294967296:0:1", "--uid-map takes INSIDE:OUTSIDE:COUNT (got '4294967296:0:1')" },
		{ "0:1000:0", "--uid-map: a range of 0 ids" },
		{ "4294967295:0:1", "--uid-map: range 4294967295:0:1 goes past id 4294967294" },
		{ "0:4294967290:10", "--uid-map: range 0:4294967290:10 goes past id 4294967294" },
		{ "0:1000:10 5:2000:1", "--uid-map: range 5:2000:1 overlaps 0:1000:10" },
		{ "0:1000:10 20:1009:1", "--uid-map: range 20:1009:1 overlaps 0:1000:10" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct id_map m = { 0 };
		struct nsrun_error e = { 0 };

		assert_int_equal(parse(bad[i].arg, &m, &e), -EINVAL);
		assert_string_equal(e.msg, bad[i].msg);
		free(m.v);
	}
}

/* PLAN_MAX_ID_RANGES: the kernel's 340 lines, and not one more. */
static void test_parse_map_limit(void **state)
{
	struct id_map m = { 0 };
	struct nsrun_error e = { 0 };
	char arg[64];

	(void)state;
	for (unsigned i = 0; i < PLAN_MAX_ID_RANGES; i++) {
		snprintf(arg, sizeof(arg), "%u:%u:1", i, 1000 + i);
		assert_int_equal(parse(arg, &m, &e), 0);
	}
	assert_int_equal(parse("5000:9000:1", &m, &e), -EINVAL);
	assert_string_equal(e.msg, "--uid-map: at most 340 ranges (the kernel's limit)");
	free(m.v);
}

/* The kernel takes a map in one write of less than a page (4096 bytes on every
 * architecture nsrun builds for): long ids reach that before 340 lines. */
static void test_parse_map_page(void **state)
{
	struct id_map m = { 0 };
	struct nsrun_error e = { 0 };
	char arg[64];
	unsigned i;
	int r = 0;

	(void)state;
	for (i = 0; i < PLAN_MAX_ID_RANGES && r == 0; i++) {
		snprintf(arg, sizeof(arg), "%u:%u:5", 1000000000 + i * 10, 2000000000 + i * 10);
		r = parse(arg, &m, &e);
	}
	assert_int_equal(r, -EINVAL);
	/* 24 bytes a line: 170 lines fit in 4095, the 171st does not. */
	assert_int_equal(i, 171);
	assert_string_equal(e.msg, "--uid-map: its lines pass the 4095 bytes the kernel reads "
				   "(fewer ranges, or smaller ids)");
	free(m.v);
}

static void test_pick_id(void **state)
{
	struct id_range r[] = { { 0, 1000, 1 }, { 1, 100000, 65536 } };
	struct id_map m = { r, 2 }, none = { 0 };
	struct nsrun_error e = { 0 };
	unsigned long id;

	(void)state;
	assert_int_equal(userns_pick_id(&none, false, 0, 1000, "uid", &id, &e), 0);
	assert_int_equal(id, 1000);
	assert_int_equal(userns_pick_id(&none, true, 5, 1000, "uid", &id, &e), 0);
	assert_int_equal(id, 5);
	assert_int_equal(userns_pick_id(&m, false, 0, 1000, "uid", &id, &e), 0);
	assert_int_equal(id, 0);
	assert_int_equal(userns_pick_id(&m, true, 1000, 1000, "uid", &id, &e), 0);
	assert_int_equal(id, 1000);
	assert_int_equal(userns_pick_id(&m, true, 65537, 1000, "gid", &id, &e), -EINVAL);
	assert_string_equal(e.msg, "--gid 65537 is not an inside id of --gid-map");
	assert_int_equal(userns_pick_id(&m, false, 0, 5, "uid", &id, &e), -EINVAL);
	assert_string_equal(e.msg, "--uid-map maps no inside id onto your uid 5: name the one the "
				   "command runs as with --uid");
}

/* Who writes --uid-map's maps: the child for one line onto its own ids, the monitor as
 * root, newuidmap/newgidmap otherwise; no devpts trick and no nested namespace. */
static void test_layout_custom(void **state)
{
	struct id_range own = { 0, 1000, 1 }, many[] = { { 0, 1000, 1 }, { 1, 100000, 65536 } };
	struct id_map m_own = { &own, 1 }, m_many = { many, 2 }, none = { 0 };
	struct userns_request req = unpriv();
	struct userns_layout l;

	(void)state;
	req.uid_map = &m_own;
	req.gid_map = &none;
	req.needs_devpts = true;
	req.sandbox_uid = 0; /* as userns_pick_id says without --uid */
	userns_layout(&req, &l);
	assert_true(l.custom && l.self_maps && !l.helper && !l.second && !l.switch_ids);
	assert_int_equal(l.ns_uid, 0);
	assert_int_equal(l.ns_gid, 1000);

	req.uid_map = &m_many;
	req.sandbox_uid = 1000;
	userns_layout(&req, &l);
	assert_true(l.custom && !l.self_maps && l.helper && l.switch_ids);

	req.sandbox_uid = 0;
	userns_layout(&req, &l);
	assert_false(l.switch_ids);

	req.real_uid = req.effective_uid = req.real_gid = req.effective_gid = 0;
	req.sandbox_gid = 0;
	userns_layout(&req, &l);
	assert_true(l.custom && !l.self_maps && !l.helper);
	/* Root's own uid 0 is not in the map: it shows as nothing until the switch. */
	assert_true(l.switch_ids);
}

static void test_layout_plain(void **state)
{
	struct userns_request req = unpriv();
	struct userns_layout l;

	(void)state;
	userns_layout(&req, &l);
	assert_true(l.write_maps);
	assert_true(l.self_maps);
	assert_int_equal(l.ns_uid, 1000);
	assert_int_equal(l.ns_gid, 1000);
	assert_false(l.second);
}

/* The child maps itself whenever the outside ids are its own, whatever it shows inside. */
static void test_layout_self_maps(void **state)
{
	struct userns_request req = unpriv();
	struct userns_layout l;

	(void)state;
	req.needs_devpts = true;
	userns_layout(&req, &l);
	assert_true(l.self_maps);
	assert_true(l.second);

	req = unpriv();
	req.real_uid = req.effective_uid = req.real_gid = req.effective_gid = 0;
	req.sandbox_uid = 5;
	userns_layout(&req, &l);
	assert_true(l.self_maps);

	/* Not its own ids (a setuid start): only the parent can write "1000 0 1". */
	req = unpriv();
	req.effective_uid = 0;
	userns_layout(&req, &l);
	assert_true(l.write_maps);
	assert_false(l.self_maps);
	req = unpriv();
	req.effective_gid = 0;
	userns_layout(&req, &l);
	assert_false(l.self_maps);

	/* Nobody in nsrun writes maps: nothing for the child to do either. */
	req = unpriv();
	req.maps_external = true;
	userns_layout(&req, &l);
	assert_false(l.self_maps);
	req = unpriv();
	req.unshare = false;
	userns_layout(&req, &l);
	assert_false(l.self_maps);
}

static void test_layout_uid(void **state)
{
	struct userns_request req = unpriv();
	struct userns_layout l;

	(void)state;
	req.sandbox_uid = 5;
	req.sandbox_gid = 7;
	userns_layout(&req, &l);
	/* "5 1000 1" directly: no nesting needed. */
	assert_int_equal(l.ns_uid, 5);
	assert_int_equal(l.ns_gid, 7);
	assert_false(l.second);
}

static void test_layout_devpts(void **state)
{
	struct userns_request req = unpriv();
	struct userns_layout l;

	(void)state;
	req.needs_devpts = true;
	userns_layout(&req, &l);
	/* First "0 1000 1" for devpts, then the nested "1000 0 1". */
	assert_int_equal(l.ns_uid, 0);
	assert_int_equal(l.ns_gid, 0);
	assert_true(l.second);

	req.sandbox_uid = 0;
	req.sandbox_gid = 0;
	userns_layout(&req, &l);
	assert_false(l.second);
}

static void test_layout_disable(void **state)
{
	struct userns_request req = unpriv();
	struct userns_layout l;

	(void)state;
	req.disable_userns = true;
	userns_layout(&req, &l);
	assert_int_equal(l.ns_uid, 1000);
	assert_true(l.second);
}

static void test_layout_external_or_none(void **state)
{
	struct userns_request req = unpriv();
	struct userns_layout l;

	(void)state;
	req.maps_external = true;
	req.needs_devpts = true;
	userns_layout(&req, &l);
	assert_false(l.write_maps);
	assert_false(l.second);
	assert_int_equal(l.ns_uid, 1000);

	req = unpriv();
	req.unshare = false;
	req.needs_devpts = true;
	userns_layout(&req, &l);
	assert_false(l.write_maps);
	assert_false(l.second);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_map),
		cmocka_unit_test(test_layout_plain),
		cmocka_unit_test(test_layout_self_maps),
		cmocka_unit_test(test_layout_uid),
		cmocka_unit_test(test_layout_devpts),
		cmocka_unit_test(test_layout_disable),
		cmocka_unit_test(test_layout_external_or_none),
		cmocka_unit_test(test_parse_map),
		cmocka_unit_test(test_parse_map_refused),
		cmocka_unit_test(test_parse_map_limit),
		cmocka_unit_test(test_parse_map_page),
		cmocka_unit_test(test_pick_id),
		cmocka_unit_test(test_layout_custom),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
