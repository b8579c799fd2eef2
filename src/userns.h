/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * userns.h: user namespace layout and ID maps. Which namespaces to create and
 * what each map says is decided by pure code (userns_layout, userns_format_map,
 * unit-tested); the rest writes the maps, joins (--userns, --userns2) and
 * disables (--disable-userns) user namespaces.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "error.h"

struct userns_request {
	bool unshare;	     /* a new user namespace is created at clone */
	bool maps_external;  /* --userns-block-fd: someone else writes the maps */
	bool needs_devpts;   /* --dev in the ops: uid 0 must be mapped to mount devpts */
	bool disable_userns; /* --disable-userns */
	uid_t real_uid, sandbox_uid, effective_uid;
	gid_t real_gid, sandbox_gid, effective_gid;
};

struct userns_layout {
	bool write_maps; /* write the first namespace's maps (and setgroups "deny") */
	bool self_maps;	 /* ... from the child itself, with no round trip to the parent */
	uid_t ns_uid;	 /* uid inside the first namespace, mapped onto real_uid */
	gid_t ns_gid;
	bool second; /* after setup, unshare a nested namespace mapping sandbox -> ns ids */
};

/* Pure: which maps the sandbox needs (bwrap's semantics). */
void userns_layout(const struct userns_request *req, struct userns_layout *ret);

/* Pure: "INSIDE OUTSIDE COUNT\n" into buf. Returns the length or -ENOSPC. */
int userns_format_map(char *buf, size_t size, unsigned long inside, unsigned long outside,
		      unsigned long count);

/* Writes setgroups "deny" (when asked), gid_map and uid_map of pid (0: the caller),
 * each a one-line map inside -> outside. proc_fd: a directory fd on a procfs that
 * sees pid (the sandbox's own /proc may be read-only or absent). */
int userns_write_maps(int proc_fd, pid_t pid, uid_t uid_in, uid_t uid_out, gid_t gid_in,
		      gid_t gid_out, bool deny_setgroups, struct nsrun_error *err);

/* --unshare-user-try: /proc/self/ns/user exists, the RHEL 7 module switch is not off,
 * and max_user_namespaces is not 0. */
bool userns_available(void);

/* setns(fd, CLONE_NEWUSER) with bwrap's messages. */
int userns_join(int fd, struct nsrun_error *err);
/* --userns2 */
int userns_join2(int fd, struct nsrun_error *err);

/* --disable-userns: inside our own user namespace, cap max_user_namespaces at 1 so the
 * nested namespace created next is the last one. */
int userns_limit_nesting(int proc_fd, struct nsrun_error *err);

/* Fails unless unshare(CLONE_NEWUSER) is refused. Must run in a throwaway context:
 * on the unexpected success the caller is in a new namespace and must give up. */
int userns_assert_disabled(struct nsrun_error *err);
