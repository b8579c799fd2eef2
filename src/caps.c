/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * caps.c: capability sets and names. Sets are 64-bit masks indexed by capability
 * number, clipped to the running kernel's last capability, and applied with the
 * raw capget/capset/prctl calls. Names come from libcap's table, which is loaded
 * only when a name is parsed: linked, every start of nsrun would map and relocate
 * it, and every fork and exit copy and tear down its six mappings (~2% of the
 * start-up of a sandbox on the bench machine), for a table only --cap-add and
 * --cap-drop read. A static nsrun links it in (configure.ac).
 */
#include "config.h"

#include "caps.h"

#include <dlfcn.h>
#include <errno.h>
#include <linux/capability.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "plan.h"
#include "syscall.h"

#define LIBCAP_SONAME "libcap.so.2"

#ifdef NSRUN_STATIC_PIE
/* A static nsrun has libcap's table linked in (configure.ac): nothing to load. */
static __typeof__(cap_from_name) *libcap_from_name(void)
{
	return cap_from_name;
}
#else
/* Loaded once per process and never unloaded: a cache, not state that changes meaning. */
static __typeof__(cap_from_name) *libcap_from_name(void)
{
	static __typeof__(cap_from_name) *fn;
	static bool tried;
	void *h;

	if (tried)
		return fn;
	tried = true;
	h = dlopen(LIBCAP_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (h)
		fn = (__typeof__(cap_from_name) *)dlsym(h, "cap_from_name");
	return fn;
}
#endif

int caps_parse_name(const char *name)
{
	__typeof__(cap_from_name) *from_name;
	cap_value_t v;

	if (strcasecmp(name, "ALL") == 0)
		return CAP_OP_ALL;
	from_name = libcap_from_name();
	if (!from_name)
		return -ELIBACC;
	/* libcap's table, as bwrap uses it: "CAP_SYS_ADMIN" or "cap_sys_admin". */
	if (from_name(name, &v) < 0)
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

/* Whether the running kernel knows cap: 1, 0 (EINVAL), -1 (no answer). */
static int cap_known(int cap)
{
	if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0)
		return 1;
	return errno == EINVAL ? 0 : -1;
}

/* Number of capabilities the running kernel knows (cap_last_cap + 1), which may be more
 * or fewer than these headers know: the bounding set answers for every one it has.
 * Without an answer (a filter refusing the prctl) assume the headers' count: too
 * many is harmless (the kernel ignores unknown bits, drops of them are ignored), too
 * few would leave capabilities in the bounding set. */
static int caps_count(void)
{
	static int n;
	int last = CAP_LAST_CAP, k;

	if (n)
		return n;
	k = cap_known(last);
	while (k == 0 && last > 0)
		k = cap_known(--last);
	while (k == 1 && last < 63 && (k = cap_known(last + 1)) == 1)
		last++;
	n = k < 0 ? CAP_LAST_CAP + 1 : last + 1;
	return n;
}

static bool has(uint64_t caps, int cap)
{
	return cap < 64 && (caps & (1ull << cap));
}

static uint64_t known(void)
{
	int n = caps_count();

	return n >= 64 ? UINT64_MAX : (1ull << n) - 1;
}

static int caps_get(bool permitted, uint64_t *ret, struct nsrun_error *err)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3] = { { 0 } };

	/* The permitted set decides guards: a filter that answers capget with success
	 * without filling it in must read as every capability, never as none. */
	if (permitted)
		memset(d, 0xff, sizeof(d));
	if (sys_capget(&h, d) < 0)
		return error_set(err, errno, "capget failed");
	if (permitted)
		*ret = (uint64_t)d[1].permitted << 32 | d[0].permitted;
	else
		*ret = (uint64_t)d[1].effective << 32 | d[0].effective;
	*ret &= known();
	return 0;
}

int caps_get_effective(uint64_t *ret, struct nsrun_error *err)
{
	return caps_get(false, ret, err);
}

int caps_get_permitted(uint64_t *ret, struct nsrun_error *err)
{
	return caps_get(true, ret, err);
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
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	caps &= known();
	for (size_t i = 0; i < ARRAY_SIZE(d); i++) {
		uint32_t word = (uint32_t)(caps >> (32 * i));

		d[i].permitted = d[i].effective = d[i].inheritable = word;
	}
	if (sys_capset(&h, d) < 0)
		return error_set(err, errno, "capset failed");
	return 0;
}

int caps_raise_effective(struct nsrun_error *err)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	if (sys_capget(&h, d) < 0)
		return error_set(err, errno, "capget failed");
	for (size_t i = 0; i < ARRAY_SIZE(d); i++)
		d[i].effective = d[i].permitted;
	if (sys_capset(&h, d) < 0)
		return error_set(err, errno, "capset failed");
	return 0;
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
