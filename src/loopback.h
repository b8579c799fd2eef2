/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * loopback.h: bring up "lo" with 127.0.0.1/8 in a fresh network namespace,
 * over rtnetlink (no external `ip` binary).
 */
#pragma once

#include "error.h"

/* Fails with bwrap's message for the step that failed; where only RTM_NEWADDR is
 * refused and lo comes up with 127.0.0.1 all the same, succeeds. */
int loopback_setup(struct nsrun_error *err);
/* The same; *newaddr_refused is then the errno RTM_NEWADDR got (0 when it was not
 * refused), for --doctor. */
int loopback_setup_report(int *newaddr_refused, struct nsrun_error *err);
