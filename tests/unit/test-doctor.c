/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test-doctor.c: --doctor's output contract: one "LEVEL name: text; do: fix" line per
 * check and a count, JSON with every string escaped, exit status 1 exactly when a check
 * failed. The checks themselves run for real in tests/integration/t-doctor.sh.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "doctor.h"

static void put(struct doctor_report *r, enum doctor_level level, const char *name,
		const char *text, const char *fix)
{
	struct doctor_check *c = &r->checks[r->n++];

	*c = (struct doctor_check){ .level = level };
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->text, sizeof(c->text), "%s", text);
	snprintf(c->fix, sizeof(c->fix), "%s", fix);
}

static char *print(const struct doctor_report *r, bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	doctor_print(f, r, json);
	fclose(f);
	return buf;
}

static void test_text_and_status(void **state)
{
	struct doctor_report *r = calloc(1, sizeof(*r));
	char *out;

	(void)state;
	put(r, DOCTOR_OK, "kernel", "Linux 6.18", "");
	put(r, DOCTOR_WARN, "cgroup", "no cgroup v2", "boot with it");
	assert_int_equal(doctor_status(r), 0);
	out = print(r, false);
	assert_non_null(strstr(out, "OK   kernel: Linux 6.18\n"));
	assert_non_null(strstr(out, "WARN cgroup: no cgroup v2; do: boot with it\n"));
	assert_non_null(strstr(out, "1 ok, 1 warn, 0 fail (as uid "));
	free(out);
	put(r, DOCTOR_FAIL, "userns", "blocked", "allow it");
	assert_int_equal(doctor_status(r), 1);
	assert_string_equal(doctor_level_name(DOCTOR_FAIL), "fail");
	free(r);
}

static void test_json_escapes(void **state)
{
	struct doctor_report *r = calloc(1, sizeof(*r));
	char *out;

	(void)state;
	put(r, DOCTOR_FAIL, "binary", "'/a \"b\"\\c\n' is setuid", "chmod u-s");
	out = print(r, true);
	assert_non_null(strstr(out, "\"status\": \"fail\", \"checks\": ["));
	assert_non_null(strstr(out, "{\"name\": \"binary\", \"status\": \"fail\", "
				    "\"message\": \"'/a \\\"b\\\"\\\\c\\u000a' is setuid\", "
				    "\"fix\": \"chmod u-s\"}"));
	free(out);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_and_status),
		cmocka_unit_test(test_json_escapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
