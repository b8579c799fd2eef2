/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * explain.c: the issue 36 prototype of `nsrun --explain ACCESS:TARGET`, until the option
 * exists: `explain ACCESS:TARGET [NSRUN OPTIONS...] COMMAND` parses the options as nsrun
 * does, asks this kernel for its Landlock ABI (nothing else) and prints the answer as one
 * JSON line. Exit 1: bad input; 126: nsrun would refuse to run (fail closed).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "explain.h"
#include "landlock.h"
#include "plan.h"
#include "rules.h"
#include "util.h"

extern char **environ;

int main(int argc, char **argv)
{
	struct cli_io io = { .read_fd = cli_read_fd_default, .envp = environ };
	struct nsrun_error err = { 0 };
	struct explain_query q;
	struct explain_answer a;
	struct landlock_desc desc;
	_cleanup_free_ char *cwd = getcwd(NULL, 0), *json = NULL;
	struct plan plan;

	if (argc < 2 || explain_parse(argv[1], &q, &err) < 0) {
		fprintf(stderr, "explain: %s\n",
			argc < 2 ? "usage: explain ACCESS:TARGET ..." : err.msg);
		return 1;
	}
	argv[1] = argv[0];
	if (cli_parse(argc - 1, argv + 1, &io, &plan, &err) < 0 ||
	    rules_check(&plan, &(struct rules_ctx){ .is_root = geteuid() == 0 }, &err) < 0 ||
	    explain_decide(&plan, &(struct landlock_desc){ 0 }, cwd, &q, &a, &err) < 0) {
		fprintf(stderr, "explain: %s\n", err.msg);
		return 1;
	}
	explain_answer_free(&a);
	if (landlock_describe(&plan.landlock, &desc, &err) < 0) {
		fprintf(stderr, "explain: the run would not start: %s\n", err.msg);
		return 126;
	}
	explain_decide(&plan, &desc, cwd, &q, &a, &err);
	json = explain_json(&q, &a);
	puts(json);
	explain_answer_free(&a);
	explain_query_free(&q);
	plan_free(&plan);
	return 0;
}
