/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * plan-dump.c: parses its arguments exactly as nsrun does (real fds for --args and
 * --seccomp, the real environment) and prints plan_format() followed by the verdict
 * of rules_check() as root and as an unprivileged user. Parse errors print the
 * message on stderr and exit 1. Run under `env -i` for environment-free output.
 */
#include "config.h"

#include <stdio.h>
#include <unistd.h>

#include "cli.h"
#include "plan-print.h"
#include "plan.h"
#include "rules.h"
#include "util.h"

extern char **environ;

int main(int argc, char **argv)
{
	struct cli_io io = {
		.read_fd = cli_read_fd_default,
		.envp = environ,
		.selinux_enabled = access("/sys/fs/selinux/enforce", F_OK) == 0,
	};
	struct nsrun_error err = { 0 };
	_cleanup_free_ char *text = NULL;
	struct plan plan;
	int r;

	r = cli_parse(argc, argv, &io, &plan, &err);
	for (size_t i = 0; plan.warnings && plan.warnings[i]; i++)
		fprintf(stderr, "warning: %s\n", plan.warnings[i]);
	if (r < 0) {
		fprintf(stderr, "%s\n", err.msg);
		plan_free(&plan);
		return 1;
	}
	text = plan_format(&plan);
	fputs(text, stdout);
	for (int root = 1; root >= 0; root--) {
		struct nsrun_error verr = { 0 };
		int v = rules_check(&plan, &(struct rules_ctx){ .is_root = root }, &verr);

		printf("validate.%s=%s\n", root ? "root" : "user", v < 0 ? verr.msg : "ok");
	}
	plan_free(&plan);
	return 0;
}
