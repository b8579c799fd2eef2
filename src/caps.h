/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * caps.h: the only libcap user. Capability names for --cap-add/--cap-drop,
 * and the final capability sets of the payload.
 */
#pragma once

/* Parses a capability name as libcap spells it ("CAP_SYS_ADMIN", case-insensitive)
 * or "ALL" (returns CAP_OP_ALL). Pure.
 * Returns the capability number or -EINVAL. */
int caps_parse_name(const char *name);
