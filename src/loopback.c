/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* loopback.c: placeholder until the module lands. */
#include "config.h"

#include "loopback.h"
