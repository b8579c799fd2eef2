/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * loopback.h: bring up "lo" with 127.0.0.1/8 in a fresh network namespace,
 * over rtnetlink (no external `ip` binary).
 */
#pragma once

#include "error.h"

int loopback_setup(struct nsrun_error *err);
