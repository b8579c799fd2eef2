/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* plan.c: placeholder until the plan module lands. */
#include "config.h"

#include "plan.h"

#include <string.h>

#include "util.h"

void plan_init(struct plan *plan, char *const *envp)
{
	memset(plan, 0, sizeof(*plan));
	plan->proc.envp = strv_copy(envp);
	plan->ns.userns_fd = plan->ns.userns2_fd = plan->ns.pidns_fd = -1;
	plan->sync.sync_fd = plan->sync.block_fd = plan->sync.userns_block_fd = -1;
	plan->sync.info_fd = plan->sync.json_status_fd = -1;
}

void plan_free(struct plan *plan)
{
	strv_free(plan->proc.envp);
	memset(plan, 0, sizeof(*plan));
}

int plan_validate(const struct plan *plan, bool is_root, struct nsrun_error *err)
{
	(void)plan;
	(void)is_root;
	(void)err;
	return 0;
}
