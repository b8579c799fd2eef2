/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * supervise-parse.h: the pure parsers of the supervision options: DURATION (--timeout,
 * --kill-after, as timeout(1) writes them) and NAME=SOFT[:HARD] (--rlimit, with
 * prlimit(1)'s resource names). No syscalls, so they are unit-tested and fuzzed
 * with the rest of the command line.
 */
#pragma once

#include <stdint.h>

#include "plan.h"

/* Longest accepted DURATION: 1000 days, far from any overflow. */
#define SUPERVISE_MAX_DURATION_MS (1000ull * 24 * 3600 * 1000)

/* "10", "1.5", "2m", "1h", "0.25s", "1d": seconds unless suffixed; rounded up to
 * whole milliseconds. Returns 0 or -EINVAL (garbage, sign, empty) / -ERANGE. */
int supervise_parse_duration(const char *s, uint64_t *ret_ms);

/* NAME=N (soft and hard), NAME=SOFT:HARD, NAME=SOFT: or NAME=:HARD; each value a
 * decimal number with an optional K, M, G or T (powers of 1024) or "unlimited"
 * ("infinity"). Returns 0, or -EINVAL with err filled. */
int supervise_parse_rlimit(const char *s, struct plan_rlimit *ret, struct nsrun_error *err);

/* --cpu-max: at most this many CPUs' worth. */
#define SUPERVISE_MAX_CPUS 4096ull

/* SIZE for the cgroup options: a decimal number of bytes with an optional K, M, G or T
 * (powers of 1024). Returns 0, -EINVAL or -ERANGE. */
int supervise_parse_size(const char *s, uint64_t *ret);

/* FRACTION of one CPU ("0.5", "2", "1.25"; at most 5 decimals) as cpu.max's quota in
 * microseconds per LIMITS_CPU_PERIOD_US. Returns 0, -EINVAL, or -ERANGE below 0.01 (the
 * kernel's 1 ms) or above SUPERVISE_MAX_CPUS. */
int supervise_parse_cpu(const char *s, uint64_t *ret_quota_us);

/* prlimit(1)'s name of an RLIMIT_* resource, or NULL. */
const char *supervise_parse_rlimit_name(int resource);
