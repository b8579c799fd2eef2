/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mount.h: placeholder until the module lands. */
#pragma once
