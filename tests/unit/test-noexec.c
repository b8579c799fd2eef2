/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-noexec.c: mountinfo unescaping used by the noexec pass. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unescape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
