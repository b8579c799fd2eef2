/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* setup.c: placeholder until the module lands. */
#include "config.h"

#include "setup.h"
