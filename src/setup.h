/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * setup.h: the child side of the sandbox, run inside the new namespaces. It
 * never returns: it execs the payload (possibly under a pid-1 reaper) or sends
 * a struct nsrun_error over the error pipe and exits 1.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "launch.h"
#include "macros.h"
#include "plan.h"

/* How many of nsrun's processes stand between the sandbox's first process and the
 * command: the --pidns relay and pid 1, each when there is one. */
unsigned setup_command_depth(const struct launch_ctx *ctx);

_noreturn_ void setup_child(const struct launch_ctx *ctx);
