/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test-userns.c: the pure parts of userns.c: map text and bwrap's layout
 * (when uid 0 is mapped first, when a nested namespace is needed).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "userns.h"

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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
