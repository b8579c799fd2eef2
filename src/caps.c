/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* caps.c: placeholder until the module lands. */
#include "config.h"

#include "caps.h"
