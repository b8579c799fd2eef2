/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * seccomp.h: load the prebuilt cBPF programs from --seccomp/--add-seccomp-fd,
 * in order. The caller must already have NO_NEW_PRIVS set.
 */
#pragma once

#include <linux/filter.h>

#include "error.h"
#include "plan.h"

/* The sock_fprog for one program, without loading it: refuses an empty program, a length
 * that is not a multiple of 8 and one over BPF_MAXINSNS, with bwrap's messages. Pure. */
int seccomp_prog_fprog(const struct seccomp_prog *p, struct sock_fprog *ret,
		       struct nsrun_error *err);

int seccomp_apply(const struct seccomp_config *cfg, struct nsrun_error *err);
