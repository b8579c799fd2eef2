/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sandbox.h: the parent side. Clones the child into its namespaces, writes the
 * ID maps, serves the sync/status fds, reads the error pipe and passes the
 * payload's exit status on.
 */
#pragma once

#include "error.h"
#include "plan.h"

/* Returns the status nsrun exits with (the payload's n, or 128+signal), or a negative
 * errno with err filled when nsrun failed before the payload ran (exit err->status or 1).
 * caller: nsrun's parent when it started, the one --die-with-parent tracks. */
int sandbox_run(const struct plan *plan, pid_t caller, struct nsrun_error *err);
