/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-noexec.c: mountinfo unescaping and path containment used by the noexec pass. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "noexec.h"

static void test_unescape(void **state)
{
	char a[] = "/a\\040b\\011c\\134d";
	char b[] = "/plain";
	char c[] = "/bad\\04";

	(void)state;
	noexec_unescape(a);
	assert_string_equal(a, "/a b\tc\\d");
	noexec_unescape(b);
	assert_string_equal(b, "/plain");
	noexec_unescape(c);
	assert_string_equal(c, "/bad\\04");
}

static void test_within(void **state)
{
	(void)state;
	assert_true(noexec_path_within("/usr/bin", "/usr"));
	assert_true(noexec_path_within("/usr", "/usr"));
	assert_false(noexec_path_within("/usrx", "/usr"));
	assert_true(noexec_path_within("/anything", "/"));
	assert_true(noexec_path_within("/", "/"));
	assert_false(noexec_path_within("/usr", "/usr/bin"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unescape),
		cmocka_unit_test(test_within),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
