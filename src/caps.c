/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * caps.c: the only libcap user. Name parsing is pure (libcap's table), so the
 * parser may call it.
 */
#include "config.h"

#include "caps.h"

#include <errno.h>
#include <strings.h>
#include <sys/capability.h>

#include "plan.h"

int caps_parse_name(const char *name)
{
	cap_value_t v;

	if (strcasecmp(name, "ALL") == 0)
		return CAP_OP_ALL;
	/* libcap's table, as bwrap uses it: "CAP_SYS_ADMIN" or "cap_sys_admin". */
	if (cap_from_name(name, &v) < 0)
		return -EINVAL;
	return (int)v;
}
