/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cli-options.h: placeholder until the option table lands (see cli.c). */
#pragma once
