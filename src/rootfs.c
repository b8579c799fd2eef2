/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rootfs.c: placeholder until the module lands. */
#include "config.h"

#include "rootfs.h"
