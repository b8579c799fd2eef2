/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cgroup.h: the sandbox's cgroup v2 (nsrun extension: --memory-max, --memory-swap-max,
 * --pids-max, --cpu-max, --cgroup-parent). Where the cgroup goes, its limits, killing
 * everything in it, what it used, and removing it however nsrun ends: a guard process
 * outside the sandbox removes it when nsrun dies without doing so itself.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "error.h"
#include "plan.h"

struct cgroup {
	int parent_fd;	      /* the directory the sandbox's cgroup is made in, or -1 */
	int fd;		      /* the sandbox's cgroup (clone3's CLONE_INTO_CGROUP), or -1 */
	int guard_fd;	      /* write end of the guard's pipe: only the monitor holds it */
	int done_fd;	      /* read end of a pipe the guard holds until it exits */
	bool own;	      /* nsrun's own cgroup is the parent: nsrun moved itself to a leaf */
	bool default_parent;  /* <hierarchy>/nsrun: kept with its controllers once used */
	bool made_parent;     /* ... which this run made */
	unsigned enabled;     /* controllers nsrun enabled in the parent */
	unsigned top_enabled; /* ... and in the hierarchy's root, on the way to the default */
	char mnt[64];	      /* where the cgroup v2 hierarchy is mounted */
	char name[64];	      /* the sandbox's cgroup in the parent */
	char path[4096 + 64]; /* as the hierarchy names it, for messages and the status */
};

#define CGROUP_INIT                                                      \
	{                                                                \
		.parent_fd = -1, .fd = -1, .guard_fd = -1, .done_fd = -1 \
	}

/* Makes the sandbox's cgroup with the limits of L, and the guard that removes it. A
 * parent that cannot take it (processes of its own, a threaded subtree) is refused before
 * anything is written; on failure every cgroup is left as it was found and err (status
 * NSRUN_EXIT_FAIL_CLOSED) says what is missing and how to get it. */
int cgroup_create(const struct limits_config *l, struct cgroup *cg, struct nsrun_error *err);

/* SIGKILL to every process in the cgroup FD (cgroup.kill, else frozen and killed one by
 * one); returns without waiting. */
void cgroup_kill(int fd);

struct cgroup_usage {
	bool has_peak;	      /* memory.peak exists (Linux 5.19) */
	uint64_t memory_peak; /* bytes */
	bool has_events;      /* memory.events exists (the memory controller is on) */
	uint64_t oom_kills;   /* memory.events' oom_kill */
	bool has_pids_events; /* pids.events exists (the pids controller is on) */
	uint64_t pids_max;    /* pids.events' max: forks and clones refused at --pids-max */
};

/* What the sandbox used, once nothing runs in it. */
void cgroup_read_usage(const struct cgroup *cg, struct cgroup_usage *u);

/* Kills what is left, waits until the cgroup is empty (bounded), reads nothing more.
 * Returns whether it is empty. */
bool cgroup_drain(const struct cgroup *cg);

/* Drains and removes the sandbox's cgroup, and undoes what nsrun did to its own cgroup
 * or to --cgroup-parent's (the controllers it enabled there, unless another cgroup below
 * is left); then the guard has nothing left to do. */
void cgroup_remove(struct cgroup *cg);

/* In the sandbox's first process once its root is built, PROC_FD the host's /proc: fails
 * (NSRUN_EXIT_FAIL_CLOSED) where the sandbox would see a cgroup v2 hierarchy writable, from
 * which a user's sandbox could turn its limits off in the delegated parent. */
int cgroup_check_view(int proc_fd, struct nsrun_error *err);

/* In the sandbox's first process: none of these fds may stay open there. */
void cgroup_close_in_child(const struct cgroup *cg);

/* The fds the monitor keeps (to pass to fd_close_all_except); returns how many. */
#define CGROUP_MAX_FDS 4
size_t cgroup_fds(const struct cgroup *cg, int *fds);

/* For --doctor, changing nothing: where the sandbox's cgroup goes without --cgroup-parent
 * (WHERE) and which of memory, pids and cpu can be limited there (LIMITS, "memory pids
 * cpu"). For a user, nsrun must also be alone in that cgroup when it runs. Returns 0, or
 * -errno with err saying why no limit can be applied (as root: processes in the default
 * parent, or in the hierarchy's root where it is a cgroup namespace's). */
int cgroup_probe(char *where, size_t wsize, char *limits, size_t lsize, struct nsrun_error *err);
