/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * plan-print.h: a plan as text and as an argv. Neither runs in nsrun itself; the unit
 * tests, the fuzz targets and the helpers use them to compare plans and to check that
 * the parser reads back what a plan says.
 */
#pragma once

#include "plan.h"

/* Canonical, deterministic text form of a plan: one "field=value" line per field
 * (golden tests, fuzzer round trip). Returns a malloc'd string. */
char *plan_format(const struct plan *plan);

/* Seccomp programs in plan_to_argv()'s output: program i is read from fd
 * PLAN_TO_ARGV_SECCOMP_FD_BASE + i, so a test reader can hand the same bytes back. */
#define PLAN_TO_ARGV_SECCOMP_FD_BASE 1000

/* The inverse of cli_parse(): a NULL-terminated argv, argv[0] = "nsrun", free with
 * strv_free(), that parses back into a plan with the same plan_format() text. --args
 * buffers come back expanded and the environment as --clearenv plus --setenv. */
char **plan_to_argv(const struct plan *plan);
