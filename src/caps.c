/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * caps.c: the only libcap user. Name parsing is pure (libcap's table), so the
 * parser may call it. Sets are 64-bit masks indexed by capability number and
 * are clipped to the running kernel's last capability before use.
 */
#include "config.h"

#include "caps.h"

#include <errno.h>
#include <strings.h>
#include <sys/capability.h>
#include <sys/prctl.h>

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

uint64_t caps_requested(const struct caps_config *cfg, uint64_t base)
{
	uint64_t caps = base;

	for (size_t i = 0; i < cfg->n_ops; i++) {
		const struct cap_op *op = &cfg->ops[i];
		uint64_t bits;

		if (op->cap == CAP_OP_ALL)
			bits = UINT64_MAX;
		else if (op->cap >= 0 && op->cap < 64)
			bits = 1ull << op->cap;
		else
			continue;
		caps = op->add ? (caps | bits) : (caps & ~bits);
	}
	return caps;
}

/* Number of capabilities the running kernel knows (cap_last_cap + 1). */
static int caps_count(void)
{
	int n = cap_max_bits();

	return n > 0 && n <= 64 ? n : CAP_LAST_CAP + 1;
}

static bool has(uint64_t caps, int cap)
{
	return cap < 64 && (caps & (1ull << cap));
}

int caps_get_effective(uint64_t *ret, struct nsrun_error *err)
{
	cap_t c = cap_get_proc();
	cap_flag_value_t v;
	int n = caps_count();

	if (!c)
		return error_set(err, errno, "capget failed");
	*ret = 0;
	for (int cap = 0; cap < n; cap++)
		if (cap_get_flag(c, (cap_value_t)cap, CAP_EFFECTIVE, &v) == 0 && v == CAP_SET)
			*ret |= 1ull << cap;
	cap_free(c);
	return 0;
}

int caps_bound(uint64_t keep, struct nsrun_error *err)
{
	int n = caps_count();

	for (int cap = 0; cap < n; cap++) {
		if (has(keep, cap))
			continue;
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL && errno != EPERM)
			return error_set(err, errno, "Dropping capability %d from bounds", cap);
	}
	return 0;
}

int caps_set(uint64_t caps, struct nsrun_error *err)
{
	static const cap_flag_t flags[] = { CAP_PERMITTED, CAP_EFFECTIVE, CAP_INHERITABLE };
	cap_t c = cap_init();
	int n = caps_count();
	int r = 0;

	if (!c)
		return error_set(err, errno, "capset failed");
	for (int cap = 0; cap < n && r == 0; cap++) {
		cap_value_t v = (cap_value_t)cap;

		if (!has(caps, cap))
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(flags) && r == 0; i++)
			r = cap_set_flag(c, flags[i], 1, &v, CAP_SET);
	}
	if (r == 0 && cap_set_proc(c) < 0)
		r = -1;
	if (r < 0)
		r = error_set(err, errno, "capset failed");
	cap_free(c);
	return r;
}

int caps_raise_ambient(uint64_t caps, struct nsrun_error *err)
{
	int n = caps_count();

	for (int cap = 0; cap < n; cap++) {
		if (!has(caps, cap))
			continue;
		if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap, 0, 0) < 0 && errno != EINVAL &&
		    errno != EPERM)
			return error_set(err, errno, "Adding ambient capability %d", cap);
	}
	return 0;
}
