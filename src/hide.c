/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* hide.c: placeholder until the module lands. */
#include "config.h"

#include "hide.h"
