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

#include "audit-arch.h"
#include "syscall.h"

#ifndef AUDIT_ARCH_NATIVE
#error "fake-landlock: audit-arch.h has no AUDIT_ARCH_* value for this architecture"
#endif

int main(int argc, char **argv)
{
	struct sock_filter prog[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_NATIVE, 0, 3),
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
