/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * caps.h: the only libcap user (loaded on demand). Capability names for
 * --cap-add/--cap-drop, and the final capability sets of the payload.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include <linux/capability.h>

#include "error.h"
#include "plan.h"

/* Parses a capability name as libcap spells it ("CAP_SYS_ADMIN", case-insensitive)
 * or "ALL" (returns CAP_OP_ALL). Pure but for loading libcap the first time.
 * Returns the capability number, -EINVAL, or -ELIBACC when libcap cannot be loaded. */
int caps_parse_name(const char *name);

/* The capabilities the payload keeps: start from base (the caller's effective set when
 * nsrun runs as root, else none) and apply the --cap-add/--cap-drop ops in order. Pure. */
uint64_t caps_requested(const struct caps_config *cfg, uint64_t base);

/* Running code in the kernel: modules, raw memory, kexec. */
#define CAPS_KERNEL_CODE                                                    \
	((UINT64_C(1) << CAP_SYS_MODULE) | (UINT64_C(1) << CAP_SYS_RAWIO) | \
	 (UINT64_C(1) << CAP_SYS_BOOT))

/* What would undo --landlock-exec: remounting without noexec (mount_setattr(2), which
 * Landlock does not mediate; CAP_SYS_ADMIN, also inside a user namespace that owns the
 * mounts), opening a written file through a mount without noexec by its file handle
 * (open_by_handle_at(2): CAP_DAC_READ_SEARCH), mapping anonymous shared memory through
 * /proc/PID/map_files (CAP_CHECKPOINT_RESTORE, Linux 5.9) and running code in the
 * kernel. */
#define CAPS_EXEC_BOUNDARY_BREAKERS                                              \
	((UINT64_C(1) << CAP_SYS_ADMIN) | (UINT64_C(1) << CAP_DAC_READ_SEARCH) | \
	 (UINT64_C(1) << CAP_CHECKPOINT_RESTORE) | CAPS_KERNEL_CODE)

/* What would undo the cgroup limits: CAP_SYS_ADMIN (the command could uncover or remount
 * what shows the cgroup tree), real-time scheduling, which cpu.max does not throttle, and
 * code in the kernel. */
#define CAPS_LIMIT_BREAKERS \
	((UINT64_C(1) << CAP_SYS_ADMIN) | (UINT64_C(1) << CAP_SYS_NICE) | CAPS_KERNEL_CODE)

/* The caller's effective set (for the root base). */
int caps_get_effective(uint64_t *ret, struct nsrun_error *err);
/* The permitted set: under NO_NEW_PRIVS, the most an exec can leave the next image. */
int caps_get_permitted(uint64_t *ret, struct nsrun_error *err);

/* Drops every capability not in keep from the bounding set. EINVAL/EPERM are ignored,
 * as bwrap does (unknown caps, no CAP_SETPCAP). */
int caps_bound(uint64_t keep, struct nsrun_error *err);

/* Sets permitted, effective and inheritable to caps. */
int caps_set(uint64_t caps, struct nsrun_error *err);

/* Makes the permitted set effective again (after a uid change under PR_SET_KEEPCAPS),
 * leaving permitted and inheritable as they are. */
int caps_raise_effective(struct nsrun_error *err);

/* Raises every cap in caps as ambient so it survives exec (EINVAL/EPERM ignored). */
int caps_raise_ambient(uint64_t caps, struct nsrun_error *err);
