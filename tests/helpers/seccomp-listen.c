/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * seccomp-listen: installs a seccomp filter that allows everything, with a listener
 * (SECCOMP_FILTER_FLAG_NEW_LISTENER), as a tool that supervises its children would, and
 * prints OK or the errno's name (EBUSY under --report-fd's observer: a process may have
 * only one listener in its filters). Exit 0 when installed, 1 when not.
 */
#include "config.h"

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SECCOMP_FILTER_FLAG_NEW_LISTENER
#define SECCOMP_FILTER_FLAG_NEW_LISTENER (1UL << 3)
#endif

int main(void)
{
	struct sock_filter allow[] = { BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
	struct sock_fprog prog = { .len = 1, .filter = allow };
	long fd;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		perror("seccomp-listen: no_new_privs");
		return 1;
	}
	fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	if (fd >= 0) {
		puts("OK");
		return 0;
	}
	puts(errno == EBUSY ? "EBUSY" : strerror(errno));
	return 1;
}
