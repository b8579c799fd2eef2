/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mountinfo.h: read-only queries of /proc/self/mountinfo through libmount (the
 * only libmount user). Paths are as the calling process sees them (relative to
 * its root), which is what mountinfo's mount-point field holds.
 */
#pragma once

#include <stdbool.h>

/* Mount points at or below MOUNTPOINT (the path itself first, then in mountinfo order,
 * which lists parents before children). Returns 0 with a NULL-terminated vector in *ret
 * (free with strv_free) or -errno; -ELIBACC when libmount cannot be loaded. */
int mountinfo_list_subtree(const char *mountpoint, char ***ret);

/* Loads libmount now. Callers on the legacy path do this before pivoting away from the
 * host's library directories. Returns 0 or -ELIBACC. */
int mountinfo_preload(void);
