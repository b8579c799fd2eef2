/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fake-landlock: run a command with landlock_restrict_self(2) answering 0 without
 * doing anything, as a broken seccomp profile or kernel could. nsrun's self-test
 * must notice that the boundary is fiction and refuse to run (status 126).
 *   fake-landlock -- CMD ARGS...
 * A raw cBPF filter: SECCOMP_RET_ERRNO with errno 0 skips the call and returns 0.
 */
#include "config.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "syscall.h"

#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#elif defined(__i386__)
#define NATIVE_ARCH AUDIT_ARCH_I386
#elif defined(__riscv) && __riscv_xlen == 64
#define NATIVE_ARCH AUDIT_ARCH_RISCV64
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define NATIVE_ARCH AUDIT_ARCH_PPC64LE
#elif defined(__s390x__)
#define NATIVE_ARCH AUDIT_ARCH_S390X
#else
#error "fake-landlock: add this architecture's AUDIT_ARCH_* value"
#endif

int main(int argc, char **argv)
{
	struct sock_filter prog[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_landlock_restrict_self, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog fprog = { .len = sizeof(prog) / sizeof(prog[0]), .filter = prog };

	if (argc < 3 || strcmp(argv[1], "--") != 0) {
		fprintf(stderr, "usage: fake-landlock -- CMD [ARGS...]\n");
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0) < 0) {
		perror("fake-landlock: installing the seccomp filter");
		return 1;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "fake-landlock: execvp %s: %s\n", argv[2], strerror(errno));
	return 127;
}
