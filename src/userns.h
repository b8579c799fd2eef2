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
#include "plan.h"

struct userns_request {
	bool unshare;	     /* a new user namespace is created at clone */
	bool maps_external;  /* --userns-block-fd: someone else writes the maps */
	bool needs_devpts;   /* --dev in the ops: uid 0 must be mapped to mount devpts */
	bool disable_userns; /* --disable-userns */
	uid_t real_uid, sandbox_uid, effective_uid;
	gid_t real_gid, sandbox_gid, effective_gid;
	const struct id_map *uid_map, *gid_map; /* --uid-map, --gid-map (n 0: not given) */
};

struct userns_layout {
	bool write_maps; /* write the first namespace's maps (and setgroups "deny") */
	bool self_maps;	 /* ... from the child itself, with no round trip to the parent */
	uid_t ns_uid;	 /* uid inside the first namespace, mapped onto real_uid */
	gid_t ns_gid;
	bool second; /* after setup, unshare a nested namespace mapping sandbox -> ns ids */
	/* --uid-map / --gid-map: the maps are the caller's ranges, written by the monitor
	 * (itself as root, else through newuidmap/newgidmap: helper), unless both are one
	 * line onto the caller's own ids (self_maps); a map not given is bwrap's one line
	 * ns -> real. After the setup the process becomes the sandbox's ids (switch_ids). */
	bool custom;
	bool helper;
	bool switch_ids;
	const struct id_map *uid_map, *gid_map;
};

/* Pure: which maps the sandbox needs (bwrap's semantics). */
void userns_layout(const struct userns_request *req, struct userns_layout *ret);

/* Pure: "INSIDE OUTSIDE COUNT\n" into buf. Returns the length or -ENOSPC. */
int userns_format_map(char *buf, size_t size, unsigned long inside, unsigned long outside,
		      unsigned long count);

/* Pure: appends the ranges of ARG, one or more INSIDE:OUTSIDE:COUNT (fields separated by
 * ':' or blanks, ranges by blanks or ','), to map. Refuses what the kernel would: a count
 * of 0, a range past 4294967294, overlaps inside or outside, more than PLAN_MAX_ID_RANGES.
 * opt names the option in the messages. */
int userns_parse_map(const char *opt, const char *arg, struct id_map *map, struct nsrun_error *err);

/* Pure: the inside id onto which map puts outside, or -1 when none does. */
long long userns_map_inside(const struct id_map *map, unsigned long outside);
/* Pure: the outside id map puts inside onto, or otherwise when none does. */
unsigned long userns_map_outside(const struct id_map *map, unsigned long inside,
				 unsigned long otherwise);
/* Pure: whether map has inside id inside. */
bool userns_map_has(const struct id_map *map, unsigned long inside);

/* Pure: the id the command runs as under map: given (has), else the inside id of real;
 * refuses (a usage error) one the map does not hold. what: "uid" or "gid". */
int userns_pick_id(const struct id_map *map, bool has, unsigned long given, unsigned long real,
		   const char *what, unsigned long *ret, struct nsrun_error *err);

/* Writes the maps of layout->custom for pid: /proc/PID/{uid,gid}_map as root (setgroups
 * left as it is), else through newuidmap/newgidmap run by absolute path with an empty
 * environment. Fails closed when a helper is missing or refuses. */
int userns_write_custom_maps(int proc_fd, pid_t pid, const struct userns_layout *l, uid_t real_uid,
			     gid_t real_gid, struct nsrun_error *err);

/* The process that runs newuidmap/newgidmap for the monitor. They are setuid (or hold
 * file capabilities), which an exec under NO_NEW_PRIVS would not grant, and nsrun sets
 * it before clone: so this process is forked before, and waits for the child's pid. */
struct userns_writer {
	pid_t pid; /* 0: none */
	int to;	   /* the child's pid goes here */
	int from;  /* the result comes back: int, then struct nsrun_error */
	bool keep; /* answers until stopped (--fallback's attempts), else once */
};

/* Forks the writer when layout->helper and none runs yet (else leaves w as it is); w
 * starts as { 0, -1, -1, keep }. */
int userns_writer_start(const struct userns_layout *l, uid_t real_uid, gid_t real_gid,
			struct userns_writer *w, struct nsrun_error *err);
/* Hands it the child's pid and returns its result (the helpers' error, fail-closed). */
int userns_writer_run(struct userns_writer *w, pid_t child, struct nsrun_error *err);
/* Closes the pipes and reaps it (it exits when its pipe closes). */
void userns_writer_stop(struct userns_writer *w);

/* --idmap: an fd on a user namespace of its own whose maps put the ids on disk (the
 * caller's) onto the command's, uid and gid; for mount_setattr(MOUNT_ATTR_IDMAP). */
int userns_idmap_fd(int proc_fd, uid_t disk_uid, uid_t uid, gid_t disk_gid, gid_t gid,
		    struct nsrun_error *err);

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
