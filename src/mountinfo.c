/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mountinfo.c: placeholder until the module lands. */
#include "config.h"

#include "mountinfo.h"
