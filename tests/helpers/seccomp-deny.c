/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * seccomp-deny: writes to stdout a compiled classic-BPF seccomp program (the format
 * --seccomp and --add-seccomp-fd read) that makes each named syscall fail with EPERM
 * and allows everything else. Names are a small table or plain syscall numbers.
 */
#include "config.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "audit-arch.h"

static const struct {
	const char *name;
	long nr;
} table[] = {
	{ "getpriority", SYS_getpriority },
	{ "umask", SYS_umask },
	{ "sync", SYS_sync },
	{ "uname", SYS_uname },
	{ "getcwd", SYS_getcwd },
	{ "mkdir", SYS_mkdir },
	{ "mkdirat", SYS_mkdirat },
	{ "unshare", SYS_unshare },
	{ "setns", SYS_setns },
	{ "mount", SYS_mount },
	{ "personality", SYS_personality },
	{ "read", SYS_read },
	{ "socket", SYS_socket },
	{ "listen", SYS_listen },
};

static long lookup(const char *name)
{
	char *end;
	long nr;

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(name, table[i].name))
			return table[i].nr;
	nr = strtol(name, &end, 10);
	return (*name && !*end && nr >= 0) ? nr : -1;
}

int main(int argc, char **argv)
{
	struct sock_filter prog[256];
	size_t n = 0;

	if (argc < 2 || argc > 100) {
		fprintf(stderr, "usage: %s SYSCALL...\n", argv[0]);
		return 2;
	}
#ifdef AUDIT_ARCH_NATIVE
	/* Other architectures (x32, i386 via int 0x80) are simply allowed: tests only. */
	prog[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						 offsetof(struct seccomp_data, arch));
	prog[n++] =
		(struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_NATIVE, 1, 0);
	prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
#endif
	prog[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						 offsetof(struct seccomp_data, nr));
	for (int i = 1; i < argc; i++) {
		long nr = lookup(argv[i]);

		if (nr < 0) {
			fprintf(stderr, "%s: unknown syscall %s\n", argv[0], argv[i]);
			return 2;
		}
		prog[n++] =
			(struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 1);
		prog[n++] =
			(struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
	}
	prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	if (fwrite(prog, sizeof(prog[0]), n, stdout) != n || fflush(stdout) != 0)
		return 1;
	return 0;
}
