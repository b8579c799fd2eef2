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

int seccomp_apply(const struct seccomp_config *cfg, struct nsrun_error *err);

enum seccomp_guard {
	/* memfd_create and memfd_secret answer ENOSYS (code in a memfd can be mapped
	 * executable even when it is noexec-sealed, so no memfd is made at all) */
	SECCOMP_GUARD_EXEC_MEMFD = 1u << 0,
	/* socket(AF_UNIX) and socketpair(AF_UNIX, SOCK_DGRAM) answer EACCES (a datagram
	 * pair can still send to any path); io_uring_setup answers ENOSYS (its
	 * IORING_OP_SOCKET bypasses seccomp); stream and seqpacket socketpairs stay */
	SECCOMP_GUARD_UNIX_SOCKET = 1u << 1,
	/* ioctl TIOCSTI and TIOCLINUX answer EPERM, whatever the upper 32 bits of the
	 * request (CVE-2019-10063) */
	SECCOMP_GUARD_TIOCSTI = 1u << 2,
	SECCOMP_GUARD_ALL = (1u << 3) - 1,
};

/* The longest guard program; seccomp_guard_program never needs more. */
#define SECCOMP_GUARD_PROG_MAX 96

/* Writes the guard program for `guards` into prog (room for max instructions) and
 * returns its length: -EINVAL for unknown guard bits, -E2BIG when max is too small,
 * -EOPNOTSUPP on an architecture without a known AUDIT_ARCH value. The program
 * kills calls of any other architecture, and x32 calls on x86_64; i386 calls on
 * x86_64 are filtered by their own numbers. Exposed for the unit tests. */
int seccomp_guard_program(unsigned guards, struct sock_filter *prog, size_t max);

/* Sets NO_NEW_PRIVS and installs one filter with the given guards (nothing when
 * guards is 0). -errno with err filled; the caller decides the exit status. */
int seccomp_apply_guards(unsigned guards, struct nsrun_error *err);

/* Sets vm.memfd_noexec=2 for the caller's pid namespace through proc_fd (an fd,
 * O_PATH is enough, of a procfs in which the caller is visible). Then memfds are
 * created noexec-sealed and MFD_EXEC is refused: execve of a memfd fails, but
 * mmap(PROT_EXEC) of one still works (ld.so, dlopen), which is why
 * SECCOMP_GUARD_EXEC_MEMFD exists. Returns 0; -ENOENT when the kernel lacks the
 * sysctl (before 6.3); -EACCES when the caller is not the initial user namespace's
 * root (the sysctl file checks the global uid 0), -EPERM without CAP_SYS_ADMIN over
 * the pid namespace or in the initial pid namespace (that would change the host);
 * -EROFS when /proc/sys is read-only there. A process left with euid 0 and
 * CAP_SYS_ADMIN in this pid namespace can set it back to the parent's value. */
int seccomp_memfd_noexec_pidns(int proc_fd, struct nsrun_error *err);
