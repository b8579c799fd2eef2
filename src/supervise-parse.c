/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * supervise-parse.c: DURATION and --rlimit parsing. Strict like the other parsers: the
 * whole argument must be consumed, and nothing from argv can overflow.
 */
#include "config.h"

#include "supervise-parse.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/resource.h>

#include "util.h"

static const struct {
	const char *name;
	int resource;
} rlimit_names[] = {
	{ "as", RLIMIT_AS },
	{ "core", RLIMIT_CORE },
	{ "cpu", RLIMIT_CPU },
	{ "data", RLIMIT_DATA },
	{ "fsize", RLIMIT_FSIZE },
	{ "locks", RLIMIT_LOCKS },
	{ "memlock", RLIMIT_MEMLOCK },
	{ "msgqueue", RLIMIT_MSGQUEUE },
	{ "nice", RLIMIT_NICE },
	{ "nofile", RLIMIT_NOFILE },
	{ "nproc", RLIMIT_NPROC },
	{ "rss", RLIMIT_RSS },
	{ "rtprio", RLIMIT_RTPRIO },
	{ "rttime", RLIMIT_RTTIME },
	{ "sigpending", RLIMIT_SIGPENDING },
	{ "stack", RLIMIT_STACK },
};

const char *supervise_parse_rlimit_name(int resource)
{
	for (size_t i = 0; i < ARRAY_SIZE(rlimit_names); i++)
		if (rlimit_names[i].resource == resource)
			return rlimit_names[i].name;
	return NULL;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Digits into *v, at most max; returns the end, or NULL when there are none or too many. */
static const char *digits(const char *p, uint64_t max, uint64_t *v)
{
	const char *start = p;

	*v = 0;
	for (; is_digit(*p); p++) {
		if (*v > (max - (uint64_t)(*p - '0')) / 10)
			return NULL;
		*v = *v * 10 + (uint64_t)(*p - '0');
	}
	return p == start ? NULL : p;
}

static uint64_t duration_unit_ms(char suffix)
{
	switch (suffix) {
	case '\0':
	case 's':
		return 1000;
	case 'm':
		return 60 * 1000;
	case 'h':
		return 3600 * 1000;
	case 'd':
		return 24 * 3600 * 1000;
	default:
		return 0;
	}
}

/* A decimal number, "W", "W.F" or ".F": the whole part (at most max_whole) and the
 * fraction as frac/scale, of which the first digits up to max_scale count. Past them,
 * further digits are ignored, or with exact refused unless they are 0. "1." and "."
 * are refused like other garbage. Returns where the number ends, or NULL with *r set. */
struct decimal {
	uint64_t whole, frac, scale;
};

static const char *decimal(const char *s, uint64_t max_whole, uint64_t max_scale, bool exact,
			   struct decimal *d, int *r)
{
	const char *p = s;

	*d = (struct decimal){ .scale = 1 };
	*r = -EINVAL;
	if (!s || (!is_digit(*s) && *s != '.'))
		return NULL;
	if (is_digit(*p) && !(p = digits(p, max_whole, &d->whole))) {
		*r = -ERANGE;
		return NULL;
	}
	if (*p != '.')
		return p;
	p++;
	if (!is_digit(*p))
		return NULL;
	for (; is_digit(*p); p++)
		if (d->scale < max_scale) {
			d->frac = d->frac * 10 + (uint64_t)(*p - '0');
			d->scale *= 10;
		} else if (exact && *p != '0') {
			return NULL;
		}
	return p;
}

int supervise_parse_duration(const char *s, uint64_t *ret_ms)
{
	struct decimal d;
	uint64_t unit, ms;
	int r;
	/* At most 9 decimals count. */
	const char *p = decimal(s, SUPERVISE_MAX_DURATION_MS, 1000000000ull, false, &d, &r);

	if (!p)
		return r;
	unit = duration_unit_ms(*p);
	if (unit == 0 || (*p && p[1]))
		return -EINVAL;
	if (d.whole > SUPERVISE_MAX_DURATION_MS / unit)
		return -ERANGE;
	/* Rounded up, so that a tiny non-zero duration does not become "no timeout". */
	ms = d.whole * unit + (d.frac * unit + d.scale - 1) / d.scale;
	if (ms > SUPERVISE_MAX_DURATION_MS)
		return -ERANGE;
	*ret_ms = ms;
	return 0;
}

static int rlimit_value(const char *s, size_t len, uint64_t *v)
{
	static const char suffixes[] = "KMGT";
	uint64_t n, mult = 1;
	const char *end, *sfx;
	char buf[32];

	if (len == 0 || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (strcmp(buf, "unlimited") == 0 || strcmp(buf, "infinity") == 0) {
		*v = RLIM_INFINITY;
		return 0;
	}
	end = digits(buf, UINT64_MAX, &n);
	if (!end)
		return -EINVAL;
	if (*end) {
		sfx = strchr(suffixes, *end);
		if (!sfx || end[1])
			return -EINVAL;
		mult = 1ull << (10 * (sfx - suffixes + 1));
	}
	/* RLIM_INFINITY is all ones: a number that large must be said as "unlimited". */
	if (n > (RLIM_INFINITY - 1) / mult)
		return -ERANGE;
	*v = n * mult;
	return 0;
}

int supervise_parse_size(const char *s, uint64_t *ret)
{
	uint64_t v;

	if (!s || strcmp(s, "unlimited") == 0 || strcmp(s, "infinity") == 0 ||
	    rlimit_value(s, strlen(s), &v) < 0)
		return -EINVAL;
	*ret = v;
	return 0;
}

int supervise_parse_cpu(const char *s, uint64_t *ret_quota_us)
{
	struct decimal d;
	uint64_t q;
	int r;
	/* cpu.max counts microseconds of a 100 ms period: 5 decimals are exact. */
	const char *p = decimal(s, SUPERVISE_MAX_CPUS, LIMITS_CPU_PERIOD_US, true, &d, &r);

	if (!p)
		return r;
	if (*p)
		return -EINVAL;
	q = d.whole * LIMITS_CPU_PERIOD_US + d.frac * (LIMITS_CPU_PERIOD_US / d.scale);
	/* The kernel's smallest quota is 1 ms. */
	if (q < 1000 || q > SUPERVISE_MAX_CPUS * LIMITS_CPU_PERIOD_US)
		return -ERANGE;
	*ret_quota_us = q;
	return 0;
}

static int rlimit_resource(const char *s, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(rlimit_names); i++)
		if (strlen(rlimit_names[i].name) == len &&
		    memcmp(rlimit_names[i].name, s, len) == 0)
			return rlimit_names[i].resource;
	return -1;
}

int supervise_parse_rlimit(const char *s, struct plan_rlimit *ret, struct nsrun_error *err)
{
	const char *eq = strchr(s, '='), *val, *colon;
	struct plan_rlimit rl = { 0 };

	if (!eq)
		return error_set(err, 0, "--rlimit takes NAME=SOFT[:HARD], not '%s'", s);
	rl.resource = rlimit_resource(s, (size_t)(eq - s));
	if (rl.resource < 0)
		return error_set(err, 0, "--rlimit: unknown resource '%.*s'", (int)(eq - s), s);
	val = eq + 1;
	colon = strchr(val, ':');
	if (!colon) {
		rl.has_soft = rl.has_hard = rlimit_value(val, strlen(val), &rl.soft) == 0;
		rl.hard = rl.soft;
	} else {
		rl.has_soft = colon > val;
		rl.has_hard = colon[1] != '\0';
		if ((rl.has_soft && rlimit_value(val, (size_t)(colon - val), &rl.soft) < 0) ||
		    (rl.has_hard && rlimit_value(colon + 1, strlen(colon + 1), &rl.hard) < 0))
			rl.has_soft = rl.has_hard = false;
	}
	if (!rl.has_soft && !rl.has_hard)
		return error_set(err, 0, "--rlimit: invalid limit '%s' (a number, or unlimited)",
				 val);
	if (rl.has_soft && rl.has_hard && rl.soft > rl.hard)
		return error_set(err, 0, "--rlimit: soft limit above hard limit in '%s'", s);
	*ret = rl;
	return 0;
}
