/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* setup.h: placeholder until the module lands. */
#pragma once
