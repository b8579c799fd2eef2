/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * seccomp.h: load the prebuilt cBPF programs from --seccomp/--add-seccomp-fd,
 * in order. The caller must already have NO_NEW_PRIVS set.
 */
#pragma once

#include "error.h"
#include "plan.h"

int seccomp_apply(const struct seccomp_config *cfg, struct nsrun_error *err);
