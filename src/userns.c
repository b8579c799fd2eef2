/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* userns.c: placeholder until the module lands. */
#include "config.h"

#include "userns.h"
