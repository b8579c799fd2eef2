/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * seccomp.h: load the prebuilt cBPF programs from --seccomp/--add-seccomp-fd,
 * in order (the caller must already have NO_NEW_PRIVS set); and nsrun's own
 * small guards, one hand-written filter that refuses what Landlock and the
 * mount flags cannot (code in memfds, new UNIX sockets, TIOCSTI).
 */
#pragma once

#include <linux/filter.h>
#include <stddef.h>

#include "error.h"
#include "plan.h"

/* The sock_fprog for one program, without loading it: refuses an empty program, a length
 * that is not a multiple of 8 and one over BPF_MAXINSNS, with bwrap's messages. Pure. */
int seccomp_prog_fprog(const struct seccomp_prog *p, struct sock_fprog *ret,
		       struct nsrun_error *err);

int seccomp_apply(const struct seccomp_config *cfg, struct nsrun_error *err);

enum seccomp_guard {
	/* memfd_create and memfd_secret answer ENOSYS (code in a memfd can be mapped
	 * executable even when it is noexec-sealed, so no memfd is made at all), as do
	 * fsopen, fsmount and fspick (a filesystem the command mounts in a user namespace
	 * of its own, an overlay over its workspace, would come without noexec), and
	 * open_by_handle_at answers EPERM (it reopens a written file through a mount
	 * without noexec) */
	SECCOMP_GUARD_EXEC_MEMFD = 1u << 0,
	/* socket(AF_UNIX) and socketpair(AF_UNIX, SOCK_DGRAM) answer EACCES (a datagram
	 * pair can still send to any path); io_uring_setup answers ENOSYS (its
	 * IORING_OP_SOCKET bypasses seccomp); stream and seqpacket socketpairs stay */
	SECCOMP_GUARD_UNIX_SOCKET = 1u << 1,
	/* ioctl TIOCSTI and TIOCLINUX answer EPERM, whatever the upper 32 bits of the
	 * request (CVE-2019-10063) */
	SECCOMP_GUARD_TIOCSTI = 1u << 2,
	/* Truncation by path where Landlock cannot mediate it (ABI < 3): truncate(2) and
	 * truncate64 answer EACCES, as does an open(at) or open_by_handle_at with O_TRUNC
	 * and access mode 0 or 3 (it truncates without a write open); openat2 and
	 * io_uring_setup, whose open flags
	 * a filter cannot read, answer ENOSYS. A write open stays Landlock's to refuse. */
	SECCOMP_GUARD_TRUNCATE = 1u << 3,
	SECCOMP_GUARD_ALL = (1u << 4) - 1,
};

/* The longest guard program; seccomp_guard_program never needs more. */
#define SECCOMP_GUARD_PROG_MAX 384

/* Writes the guard program for `guards` into prog (room for max instructions) and
 * returns its length: -EINVAL for unknown guard bits, -E2BIG when max is too small,
 * -EOPNOTSUPP on an architecture without a known AUDIT_ARCH value. The program
 * kills calls of any other architecture, and x32 calls on x86_64; i386 calls on
 * x86_64 are filtered by their own numbers. Exposed for the unit tests. */
int seccomp_guard_program(unsigned guards, struct sock_filter *prog, size_t max);

/* Sets NO_NEW_PRIVS and installs one filter with the given guards (nothing when
 * guards is 0). -errno with err filled; the caller decides the exit status. */
int seccomp_apply_guards(unsigned guards, struct nsrun_error *err);

/* --report-fd's observer (issue 36): which calls it is shown. */
enum seccomp_observe {
	SECCOMP_OBSERVE_FILES =
		1u << 0, /* opens for writing, creating, removing, renaming, linking, truncating */
	SECCOMP_OBSERVE_EXEC = 1u << 1, /* execve, execveat */
	SECCOMP_OBSERVE_NET = 1u << 2,	/* connect, bind, sendto with an address */
	SECCOMP_OBSERVE_ALL = (1u << 3) - 1,
};

#define SECCOMP_OBSERVE_PROG_MAX 128

/* Writes the observer's program: SECCOMP_RET_USER_NOTIF for the calls of `what` in the
 * native ABI, SECCOMP_RET_ALLOW for everything else (other ABIs included: it is never a
 * boundary). Returns its length, or -EINVAL / -E2BIG / -EOPNOTSUPP. Pure. */
int seccomp_observe_program(unsigned what, struct sock_filter *prog, size_t max);

/* Installs the observer last of all filters (NO_NEW_PRIVS is set by then) with
 * SECCOMP_FILTER_FLAG_NEW_LISTENER: the listener fd, or -errno with err filled (EBUSY
 * when a filter of this process already has a listener). */
int seccomp_observe_install(unsigned what, struct nsrun_error *err);
