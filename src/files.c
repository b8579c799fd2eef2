/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* files.c: placeholder until the module lands. */
#include "config.h"

#include "files.h"
