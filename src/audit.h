/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * audit.h: --report-fd's kernel source for the Landlock layer (issue 36). Landlock
 * (ABI 7, Linux 6.15) logs its denials as audit records, which real root in the initial
 * namespaces may read from a NETLINK_AUDIT socket (multicast group READLOG) while audit
 * is enabled. nsrun never enables audit: where it is off, or the monitor may not read,
 * the report infers the layer instead. The record parser and the assembly of one event
 * per serial are pure.
 */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Record types Debian 12's headers lack (Linux 6.15). */
#define NSRUN_AUDIT_LANDLOCK_ACCESS 1423
#define NSRUN_AUDIT_LANDLOCK_DOMAIN 1424
#define NSRUN_AUDIT_SYSCALL 1300
#define NSRUN_AUDIT_EOE 1320

/* The Landlock domains of one event that were allocated there (logged with their first
 * denial), by the pid that called landlock_restrict_self. */
#define AUDIT_MAX_DOMAINS 4

/* One event: the records of one serial. */
struct audit_event {
	unsigned long long serial;
	bool denial;	     /* a 1423 record: a Landlock refusal */
	uint64_t domain;     /* the domain that refused */
	char blockers[128];  /* comma-separated, as logged: "fs.write_file" ... */
	char path[PATH_MAX]; /* path= of the refusal (decoded), or "" */
	char dev[64];
	unsigned long ino;
	char daddr[64], saddr[64]; /* a connect's peer, a bind's address, or "" */
	int dest, src;		   /* their ports, or -1 */
	pid_t opid;		   /* scope.signal: the target, or 0 */
	pid_t pid;		   /* the refused process (init pid namespace) */
	char comm[64];
	char exe[PATH_MAX];
	int syscall;   /* -1 without a SYSCALL record */
	long exit;     /* its result, 0 without one */
	bool has_exit; /* a SYSCALL record came */
	size_t n_domains;
	struct {
		uint64_t id;
		pid_t pid;
		bool allocated; /* status=allocated (else deallocated) */
	} domains[AUDIT_MAX_DOMAINS];
};

/* Parses one record's text ("audit(SEC.MS:SERIAL): key=value ...") of type into ev, which
 * holds the records of its serial so far (zeroed by the caller for a new one, with
 * syscall -1 and dest/src -1). Returns the serial, or 0 for text that is no record. Pure. */
unsigned long long audit_parse_record(int type, const char *text, size_t len,
				      struct audit_event *ev);

/* A fresh event. */
void audit_event_init(struct audit_event *ev);

/* The serial of a record's text, or 0. Pure. */
unsigned long long audit_serial(const char *text, size_t len);

/* The kernel's status: enabled and its lost counter. 0 or -errno. */
int audit_status(bool *enabled, uint32_t *lost);

/* Whether the monitor may read Landlock's records: NULL and *fd the bound socket
 * (nonblocking, close-on-exec), or one phrase why not. abi is the kernel's Landlock ABI. */
const char *audit_open_reader(int abi, int *fd);

/* Receives one datagram: its record type and text (NUL-terminated) in buf. The text's
 * length, 0 for nothing to read now, or -errno (-ENOBUFS: records were dropped). */
ssize_t audit_recv(int fd, int *type, char *buf, size_t size);

/* The events of a stream of records: one per serial, complete at its EOE record or at
 * the first record of another serial (records outside a syscall have no EOE). */
struct audit_assembler {
	bool open;
	struct audit_event cur;
};

/* Feeds one record; true with *out filled when an event is complete. Pure. */
bool audit_feed(struct audit_assembler *a, int type, const char *text, size_t len,
		struct audit_event *out);
/* The event still open at the end, if any. */
bool audit_flush(struct audit_assembler *a, struct audit_event *out);
