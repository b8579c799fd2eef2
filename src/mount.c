/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mount.c: placeholder until the module lands. */
#include "config.h"

#include "mount.h"
