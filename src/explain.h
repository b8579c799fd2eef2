/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * explain.h: the answer before running (issue 36). Which of nsrun's rules allows or
 * refuses one access, from the plan and the kernel's Landlock ABI alone: nothing is
 * opened or started. The layers are asked in the order the kernel meets them, so the
 * answer names the rule the command would hit first.
 */
#pragma once

#include "explain-parse.h"
#include "landlock.h"
#include "plan.h"

/* Decides q under plan and desc (landlock_describe_abi() of plan->landlock; all zero when
 * Landlock is off). Pure. A relative path starts from --chdir, else from cwd (the
 * caller's directory, where the command starts when it exists in the sandbox); with
 * neither it is a usage error (-EINVAL with err filled). */
int explain_decide(const struct plan *plan, const struct landlock_desc *desc, const char *cwd,
		   const struct explain_query *q, struct explain_answer *a,
		   struct nsrun_error *err);
