/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * force-enosys: run a command with groups of syscalls answering ENOSYS, to test
 * nsrun's fallbacks and fail-closed paths as if the kernel were older. A raw cBPF
 * filter (no libseccomp); calls of a foreign architecture are let through, except
 * the compat ABI, whose numbers for these (unified, 424+) syscalls are the same.
 *   force-enosys GROUP[,GROUP...] -- CMD ARGS...
 * groups: landlock, mount-api, openat2, close_range, capset, listmount, clone3, and
 * landlock-abi=N, which makes the Landlock ABI query answer N (through a seccomp user-notification supervisor)
 * while the real calls stay live, so older ABIs can be exercised on a newer kernel.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "audit-arch.h"
#include "macros.h"
#include "syscall.h"

#ifndef __NR_fspick
#define __NR_fspick 433
#endif

#ifndef AUDIT_ARCH_NATIVE
#error "force-enosys: audit-arch.h has no AUDIT_ARCH_* value for this architecture"
#endif
/* Without a compat ABI, the native one twice. */
#ifdef AUDIT_ARCH_COMPAT
#define COMPAT_ARCH AUDIT_ARCH_COMPAT
#else
#define COMPAT_ARCH AUDIT_ARCH_NATIVE
#endif

struct group {
	const char *name;
	int nrs[8];
	size_t n;
};

static const struct group groups[] = {
	{ "landlock",
	  { __NR_landlock_create_ruleset, __NR_landlock_add_rule, __NR_landlock_restrict_self },
	  3 },
	{ "mount-api",
	  { __NR_open_tree, __NR_move_mount, __NR_mount_setattr, __NR_fsopen, __NR_fsconfig,
	    __NR_fsmount, __NR_fspick },
	  7 },
	{ "openat2", { __NR_openat2 }, 1 },
	{ "close_range", { __NR_close_range }, 1 },
	{ "capset", { __NR_capset }, 1 },
	/* statmount 457, listmount 458 (Linux 6.8): absent from older headers */
	{ "listmount", { 457, 458 }, 2 },
	/* nsrun's clone3 paths: --die-with-parent's CLONE_PIDFD_AUTOKILL, CLONE_INTO_CGROUP */
	{ "clone3", { __NR_clone3 }, 1 },
};

#define MAX_NRS 32

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG2_LOW offsetof(struct seccomp_data, args[2])
#else
#define ARG2_LOW (offsetof(struct seccomp_data, args[2]) + 4)
#endif

static int usage(void)
{
	fprintf(stderr, "usage: force-enosys GROUP[,GROUP...] -- CMD [ARGS...]\n"
			"groups: landlock, mount-api, openat2, close_range, capset, listmount, clone3, "
			"landlock-abi=N\n");
	return 2;
}

/* Collects the syscall numbers of a comma-separated group list and a fake Landlock
 * ABI (0: none); -1 on an unknown group. */
static int parse_groups(char *list, int *nrs, size_t *n, int *fake_abi)
{
	for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		size_t g;

		if (strncmp(tok, "landlock-abi=", 13) == 0) {
			*fake_abi = atoi(tok + 13);
			if (*fake_abi < 1)
				return -1;
			continue;
		}

		for (g = 0; g < ARRAY_SIZE(groups) && strcmp(groups[g].name, tok) != 0; g++)
			;
		if (g == ARRAY_SIZE(groups)) {
			fprintf(stderr, "force-enosys: unknown group '%s'\n", tok);
			return -1;
		}
		for (size_t i = 0; i < groups[g].n && *n < MAX_NRS; i++)
			nrs[(*n)++] = groups[g].nrs[i];
	}
	return *n > 0 || *fake_abi > 0 ? 0 : -1;
}

#define STMT(code, k) ((struct sock_filter)BPF_STMT(code, k))
#define JEQ(k, jt, jf) ((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, k, jt, jf))

/* Layout: arch check, nr load, one JEQ per blocked call (to ERRNO), an optional JEQ for
 * landlock_create_ruleset (to FAKE), ALLOW, ERRNO, FAKE: flags == VERSION ? NOTIF : ALLOW.
 * Returns the listener fd with a fake ABI, 0 without, -1 on error. */
static int install_filter(const int *nrs, size_t n, bool fake)
{
	struct sock_filter prog[16 + MAX_NRS];
	struct sock_fprog fprog;
	size_t m = n + (fake ? 1 : 0), k = 0;
	int r;

	/* arch must be native or compat, else allow: foreign numbers mean other calls */
	prog[k++] = STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	prog[k++] = JEQ(AUDIT_ARCH_NATIVE, 1, 0);
	prog[k++] = JEQ(COMPAT_ARCH, 0, (unsigned char)(m + 2));
	prog[k++] = STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	/* x32 calls carry bit 30 with the same numbers */
	prog[k++] = STMT(BPF_ALU | BPF_AND | BPF_K, ~AUDIT_ARCH_X32_BIT);
	for (size_t i = 0; i < n; i++)
		prog[k++] = JEQ((unsigned)nrs[i], (unsigned char)(m - i), 0);
	if (fake)
		prog[k++] = JEQ(__NR_landlock_create_ruleset, 2, 0);
	prog[k++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog[k++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA));
	if (fake) {
		prog[k++] = STMT(BPF_LD | BPF_W | BPF_ABS, ARG2_LOW);
		prog[k++] = JEQ(LANDLOCK_CREATE_RULESET_VERSION, 0, 1);
		prog[k++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF);
		prog[k++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	}
	fprog.len = (unsigned short)k;
	fprog.filter = prog;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		perror("force-enosys: prctl(PR_SET_NO_NEW_PRIVS)");
		return -1;
	}
	r = (int)syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER,
			 fake ? SECCOMP_FILTER_FLAG_NEW_LISTENER : 0, &fprog);
	if (r < 0) {
		perror("force-enosys: seccomp(SECCOMP_SET_MODE_FILTER)");
		return -1;
	}
	return r;
}

/* The supervisor answers every ABI query with abi; it dies with the command (its
 * parent), which keeps the original pid so exit statuses pass through unchanged. */
static int start_supervisor(int listener, int abi)
{
	pid_t parent = getpid();
	pid_t pid = fork();

	if (pid < 0) {
		perror("force-enosys: fork");
		return -1;
	}
	if (pid > 0) {
		close(listener);
		return 0;
	}
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != parent)
		_exit(0);
	/* do not hold the command's output pipes open */
	for (int fd = 0; fd <= 2; fd++)
		close(fd);
	for (;;) {
		struct seccomp_notif req;
		struct seccomp_notif_resp resp;

		memset(&req, 0, sizeof(req));
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0) {
			if (errno == EINTR || errno == ENOENT)
				continue;
			_exit(0);
		}
		resp = (struct seccomp_notif_resp){ .id = req.id, .val = abi };
		ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
}

int main(int argc, char **argv)
{
	int nrs[MAX_NRS];
	size_t n = 0;
	int fake_abi = 0, listener;

	if (argc < 4 || strcmp(argv[2], "--") != 0)
		return usage();
	if (parse_groups(argv[1], nrs, &n, &fake_abi) < 0)
		return usage();
	listener = install_filter(nrs, n, fake_abi > 0);
	if (listener < 0)
		return 1;
	if (fake_abi > 0 && start_supervisor(listener, fake_abi) < 0)
		return 1;
	execvp(argv[3], argv + 3);
	fprintf(stderr, "force-enosys: execvp %s: %s\n", argv[3], strerror(errno));
	return 127;
}
