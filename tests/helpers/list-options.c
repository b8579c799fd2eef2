/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * list-options.c: prints the option table, one row per line, as
 * "NAME ARITY GROUP FLAGS" (FLAGS: comma list of modifier,nsrun,bwrap08,hidden, or "-").
 * With --rules, the rules table instead (src/rules.c), one rule per line, its fields
 * separated by tabs: "STAGE A KIND B MESSAGE" (B "-" when the rule has none).
 * The meta and compat tests parse this; keep the format stable.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "rules.h"

static int list_rules(void)
{
	for (size_t i = 0; i < rules_count; i++) {
		const struct rule *r = &rules_table[i];

		printf("%s\t%s\t%s\t%s\t%s\n", rules_stage_name(r->stage), r->a,
		       rules_kind_name(r->kind), r->b ? r->b : "-", r->msg);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--rules") == 0)
		return list_rules();
	for (size_t i = 0; i < cli_n_options; i++) {
		const struct cli_option *o = &cli_options[i];
		char flags[64] = "";

		if (o->flags & OPTF_MODIFIER)
			snprintf(flags, sizeof(flags), "modifier");
		if (o->flags & OPTF_NSRUN)
			snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags), "%snsrun",
				 flags[0] ? "," : "");
		if (o->flags & OPTF_BWRAP08)
			snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags), "%sbwrap08",
				 flags[0] ? "," : "");
		if (o->flags & OPTF_HIDDEN)
			snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags), "%shidden",
				 flags[0] ? "," : "");
		printf("%s %u %s %s\n", o->name, o->arity, cli_group_name(o->group),
		       flags[0] ? flags : "-");
	}
	return 0;
}
