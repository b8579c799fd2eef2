/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* landlock.c: placeholder until the module lands. */
#include "config.h"

#include "landlock.h"

int landlock_print_abi(FILE *out, struct nsrun_error *err)
{
	(void)out;
	return error_set(err, ENOSYS, "landlock is not implemented yet");
}

int landlock_only_exec(const struct plan *plan, struct nsrun_error *err)
{
	(void)plan;
	return error_set(err, ENOSYS, "landlock is not implemented yet");
}
