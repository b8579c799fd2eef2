/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* status.c: placeholder until the module lands. */
#include "config.h"

#include "status.h"
