/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * notify.h: the monitor's side of --report-fd's observer (issue 36), a seccomp
 * user-notification listener that never decides anything: each call it is shown is
 * read (its path arguments with process_vm_readv, the directories they start from, whether
 * they exist in the caller's root), then always let go on with
 * SECCOMP_USER_NOTIF_FLAG_CONTINUE. A call that cannot be read is let go on unread.
 */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

enum notify_access {
	NOTIFY_WRITE,	 /* an open for writing (or creating, when the name does not exist) */
	NOTIFY_CREATE,	 /* mkdir, mknod, symlink: a new name */
	NOTIFY_REMOVE,	 /* unlink, rmdir */
	NOTIFY_RENAME,	 /* rename: both names */
	NOTIFY_LINK,	 /* link: the new name */
	NOTIFY_TRUNCATE, /* truncate(2), or an open with O_TRUNC and no write access */
	NOTIFY_EXECUTE,	 /* execve, execveat */
	NOTIFY_CONNECT,	 /* connect to an IPv4 or IPv6 address */
	NOTIFY_BIND,	 /* bind to one */
	NOTIFY_SEND,	 /* sendto one, from a datagram socket */
};

/* The address of a connect or bind. */
struct notify_peer {
	char address[64]; /* as text */
	unsigned port;
	bool udp;      /* a datagram socket (else stream: TCP) */
	bool loopback; /* 127.0.0.0/8, ::1, or ::ffff:127.0.0.0/104 */
};

struct notify_name {
	char named[PATH_MAX]; /* as the command passed it */
	char path[PATH_MAX];  /* absolute, as seen in the sandbox (not normalised) */
	bool exists;	      /* the name, not followed if a symlink, in the caller's root */
	bool parent_exists;   /* its directory (both: once notify_find was called) */
};

struct notify_event {
	pid_t pid;     /* as seen from the monitor */
	char comm[16]; /* once notify_find was called */
	enum notify_access access;
	bool creates;	/* an open with O_CREAT */
	bool exclusive; /* and O_EXCL: a name that exists fails with EEXIST */
	unsigned n_names;
	struct notify_name names[2];
	struct notify_peer peer; /* NOTIFY_CONNECT, NOTIFY_BIND */
};

/* What the monitor does with a call it has read, while the call waits: it must not
 * block (the caller is stopped until it returns). */
typedef void (*notify_fn)(void *arg, struct notify_event *ev);

/* Serves one notification of listener: reads it, calls fn when it was read whole and
 * is still valid, then lets it go on. 0, or -errno when the listener is done (every
 * process under the filter has ended) or broken: the caller stops polling it. */
int notify_serve(int listener, notify_fn fn, void *arg);

/* Fills comm and each name's exists and parent_exists, from the caller's root: only
 * asked for calls that nsrun's rules refuse, as it is most of the cost of a call. */
void notify_find(struct notify_event *ev);
