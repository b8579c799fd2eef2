/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* path.c: placeholder until the module lands. */
#include "config.h"

#include "path.h"
