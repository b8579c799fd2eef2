/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * landlock.h: the --landlock-* write boundary. ABI-aware (rights are computed
 * per ABI with a fall-through switch) and fail-closed: any failure to build the
 * requested boundary is an error with exit status NSRUN_EXIT_FAIL_CLOSED and the
 * command never runs.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "plan.h"

/* Who keeps the command from connecting to pathname UNIX sockets outside the rw paths. */
enum landlock_unix_connect {
	LANDLOCK_UNIX_UNRESTRICTED = 0, /* nobody: Landlock ABI < 9 and no --landlock-deny-unix */
	LANDLOCK_UNIX_LANDLOCK,		/* Landlock's resolve_unix right (ABI 9, Linux 7.1) */
	LANDLOCK_UNIX_SECCOMP,		/* the launcher's filter refusing socket(AF_UNIX) */
	LANDLOCK_UNIX_MAX
};

/* What a ruleset for cfg would enforce on this kernel. */
struct landlock_desc {
	int abi;	     /* 0: Landlock unavailable */
	uint64_t handled_fs; /* LANDLOCK_ACCESS_FS_* bits handled */
	uint64_t handled_net;
	uint64_t scoped;
	enum landlock_unix_connect unix_connect;
	bool log_exec; /* --report-fd reads the audit records: the command's are logged */
};

/* Pure per-ABI computations (unit-tested). */
uint64_t landlock_fs_write_rights(int abi); /* every write-type right ABI knows */
uint64_t landlock_fs_file_rights(int abi);  /* the subset valid on a non-directory */
uint64_t landlock_fs_all_rights(int abi);   /* every filesystem right the ABI knows */
uint64_t landlock_net_rights(int abi);	    /* TCP bind/connect from ABI 4, UDP from ABI 10 */
uint32_t landlock_restrict_flags(int abi);  /* TSYNC from ABI 8, no audit before exec from 7 */
uint64_t landlock_scope_rights(int abi);    /* abstract unix sockets + signals from ABI 6 */
uint64_t landlock_fs_unix_rights(int abi);  /* resolve_unix from ABI 9, else 0 */
/* Size of struct nsrun_landlock_ruleset_attr the ABI knows: 8, 16 (ABI 4) or 24 (ABI 6). */
size_t landlock_ruleset_attr_size(int abi);

/* The ABI by landlock_create_ruleset(VERSION): >= 1, or -errno (-ENOSYS: not built in,
 * -EOPNOTSUPP: disabled at boot, -EPROTONOSUPPORT: nsrun built with --disable-landlock). */
int landlock_query_abi(void);

/* landlock_describe() for a given ABI (or -errno from the query); pure, for unit tests. */
int landlock_describe_abi(const struct landlock_config *cfg, int abi, struct landlock_desc *ret,
			  struct nsrun_error *err);

/* Queries the ABI and fills *ret for cfg; fails closed (status 126) when a requested
 * guarantee is not available. Makes no changes to the process. */
int landlock_describe(const struct landlock_config *cfg, struct landlock_desc *ret,
		      struct nsrun_error *err);

/* True when cfg asks for --landlock-deny-unix but desc's Landlock cannot restrict
 * pathname UNIX connects (ABI < 9): the launcher must then install a seccomp filter
 * refusing socket(AF_UNIX) after landlock_apply(). */
bool landlock_unix_needs_seccomp(const struct landlock_desc *desc,
				 const struct landlock_config *cfg);

/* "landlock", "seccomp" or "unrestricted" (the status JSON's landlock-unix-connect). */
const char *landlock_unix_connect_name(enum landlock_unix_connect how);

/* Builds the ruleset desc describes for cfg (landlock_describe, once, in the parent; rule
 * paths opened in the current root), sets NO_NEW_PRIVS and restricts the calling process.
 * Called in the payload after pivot, before seccomp. */
int landlock_apply(const struct landlock_config *cfg, const struct landlock_desc *desc,
		   struct nsrun_error *err);

/* Who refuses truncation outside the rw paths: Landlock from ABI 3, else the launcher's
 * seccomp guard. */
bool landlock_truncate_needs_seccomp(const struct landlock_desc *desc);
/* The status document's names: "landlock"/"seccomp", and "all"/"calling" threads. */
const char *landlock_truncate_name(const struct landlock_desc *desc);
const char *landlock_threads_name(const struct landlock_desc *desc);

/* --landlock-abi: prints the ABI and the rights nsrun would handle. */
int landlock_print_abi(FILE *out, struct nsrun_error *err);
