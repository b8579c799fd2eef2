/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * setup.h: the process that becomes the command: the sandbox's child, inside the new
 * namespaces, or --landlock-only's (in place, or nsrun's child). It never returns: it
 * execs the payload (possibly under a pid-1 reaper) or sends a struct nsrun_error over
 * the error pipe and exits 1 (in place: prints it and exits with its status).
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

/* The one setup, in ctx->mode's profile: a sandbox's, or --landlock-only's without
 * namespaces or a root. */
_noreturn_ void setup_child(struct launch_ctx *ctx);
