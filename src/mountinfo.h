/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mountinfo.h: placeholder until the module lands. */
#pragma once
