/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sandbox.c: placeholder until the module lands. */
#include "config.h"

#include "sandbox.h"

int sandbox_run(const struct plan *plan, struct nsrun_error *err)
{
	(void)plan;
	return error_set(err, ENOSYS, "the sandbox engine is not implemented yet");
}
