/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* reaper.c: placeholder until the module lands. */
#include "config.h"

#include "reaper.h"
