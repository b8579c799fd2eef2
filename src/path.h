/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* path.h: placeholder until the module lands. */
#pragma once
