/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* seccomp.c: placeholder until the module lands. */
#include "config.h"

#include "seccomp.h"
