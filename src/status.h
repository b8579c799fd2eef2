/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* status.h: placeholder until the module lands. */
#pragma once
