/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * env-filter: runs a command under the seccomp filter of one of the test environments of
 * tests/integration/envs.sh, so that nsrun meets the refusals users meet.
 *   env-filter docker -- CMD [ARGS...]
 *     Docker's default profile where it bears on a sandbox (the profile is an allowlist;
 *     this is the part of it that refuses what a process without CAP_SYS_ADMIN asks):
 *     clone with a namespace flag, unshare, setns, the mount calls old and new, and the
 *     keyring fail with EPERM; clone3 with ENOSYS, so that libc falls back to clone.
 *     Landlock, seccomp and everything else are allowed, as in Docker's profile.
 *   env-filter nomount|nonetlink -- CMD [ARGS...]
 *     mount(2) fails with EACCES (a user namespace that Ubuntu's AppArmor restriction
 *     leaves without capabilities fails there first), or socket(AF_NETLINK) with EPERM
 *     (lo cannot be brought up).
 *   env-filter nonewaddr -- CMD [ARGS...]
 *     A seccomp user-notification supervisor (this process; the command is its child)
 *     that answers EPERM to a sendto/sendmsg on a NETLINK_ROUTE socket carrying an
 *     RTM_NEWADDR message, and lets every other call continue. It reads the target's
 *     socket and memory, so it must keep the privilege to (root, as envs.sh runs it).
 * Calls of a foreign architecture are allowed: tests only.
 */
#include "config.h"

#include <errno.h>
#include <linux/filter.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "audit-arch.h"
#include "macros.h"
#include "syscall.h"

#ifndef AUDIT_ARCH_NATIVE
#error "env-filter: audit-arch.h has no AUDIT_ARCH_* value for this architecture"
#endif
#ifndef __NR_pidfd_getfd
#define __NR_pidfd_getfd 438
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG0_LOW offsetof(struct seccomp_data, args[0])
#else
#define ARG0_LOW (offsetof(struct seccomp_data, args[0]) + 4)
#endif

#define STMT(code, k) ((struct sock_filter)BPF_STMT(code, k))
#define JUMP(op, k, jt, jf) ((struct sock_filter)BPF_JUMP(BPF_JMP | (op) | BPF_K, k, jt, jf))
#define RET(k) STMT(BPF_RET | BPF_K, k)

/* Docker's CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER |
 * CLONE_NEWPID | CLONE_NEWNET: the flags its profile refuses clone without CAP_SYS_ADMIN. */
#define DOCKER_NS_FLAGS 0x7E020000u

static const int docker_eperm[] = {
	__NR_unshare,	__NR_setns,	    __NR_mount,	 __NR_umount2,	__NR_pivot_root,
	__NR_open_tree, __NR_move_mount,    __NR_fsopen, __NR_fsconfig, __NR_fsmount,
	__NR_fspick,	__NR_mount_setattr, __NR_keyctl, __NR_add_key,	__NR_request_key,
};

/* With nnp, no_new_privs is set first (Docker's profile comes with it in envs.sh);
 * without, only where loading needs it (no CAP_SYS_ADMIN). */
static int load(struct sock_filter *prog, size_t n, unsigned flags, bool nnp)
{
	struct sock_fprog fprog = { .len = (unsigned short)n, .filter = prog };
	int r = -1;

	if (!nnp)
		r = (int)syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, flags, &fprog);
	if (r < 0 && (nnp || errno == EACCES)) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
			perror("env-filter: prctl(PR_SET_NO_NEW_PRIVS)");
			return -1;
		}
		r = (int)syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, flags, &fprog);
	}
	if (r < 0)
		perror("env-filter: seccomp(SECCOMP_SET_MODE_FILTER)");
	return r;
}

/* Layout: arch (foreign: allow), nr without x32's bit, clone3 -> ENOSYS, clone -> CLONE,
 * each refused call -> EPERM, ALLOW, EPERM, ENOSYS, CLONE: a namespace flag ? EPERM : ALLOW. */
static int docker_filter(void)
{
	enum { N = ARRAY_SIZE(docker_eperm), ALLOW = 7 + N, EPERM_AT, ENOSYS_AT, CLONE_AT };
	struct sock_filter prog[CLONE_AT + 4];
	size_t k = 0;

	prog[k++] = STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	prog[k++] = JUMP(BPF_JEQ, AUDIT_ARCH_NATIVE, 1, 0);
	prog[k++] = RET(SECCOMP_RET_ALLOW);
	prog[k++] = STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	prog[k++] = STMT(BPF_ALU | BPF_AND | BPF_K, ~AUDIT_ARCH_X32_BIT);
	prog[k] = JUMP(BPF_JEQ, __NR_clone3, (unsigned char)(ENOSYS_AT - k - 1), 0);
	k++;
	prog[k] = JUMP(BPF_JEQ, __NR_clone, (unsigned char)(CLONE_AT - k - 1), 0);
	k++;
	for (size_t i = 0; i < N; i++, k++)
		prog[k] = JUMP(BPF_JEQ, (unsigned)docker_eperm[i],
			       (unsigned char)(EPERM_AT - k - 1), 0);
	prog[k++] = RET(SECCOMP_RET_ALLOW);
	prog[k++] = RET(SECCOMP_RET_ERRNO | EPERM);
	prog[k++] = RET(SECCOMP_RET_ERRNO | ENOSYS);
	prog[k++] = STMT(BPF_LD | BPF_W | BPF_ABS, ARG0_LOW);
	prog[k++] = JUMP(BPF_JSET, DOCKER_NS_FLAGS, 0, 1);
	prog[k++] = RET(SECCOMP_RET_ERRNO | EPERM);
	prog[k++] = RET(SECCOMP_RET_ALLOW);
	return load(prog, k, 0, true) < 0 ? -1 : 0;
}

/* NR refused with E, where its first argument is ARG0 (any, when ANY): nomount,
 * mount(2) -> EACCES, as a user namespace restricted by Ubuntu's AppArmor answers;
 * nonetlink, socket(AF_NETLINK) -> EPERM, so that lo cannot be brought up. */
static int refuse_one(int nr, bool any, unsigned arg0, int e)
{
	struct sock_filter prog[] = {
		STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		JUMP(BPF_JEQ, AUDIT_ARCH_NATIVE, 1, 0),
		RET(SECCOMP_RET_ALLOW),
		STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		JUMP(BPF_JEQ, (unsigned)nr, 0, 3),
		STMT(BPF_LD | BPF_W | BPF_ABS, ARG0_LOW),
		/* either way to the refusal when any argument is refused */
		any ? JUMP(BPF_JEQ, 0, 0, 0) : JUMP(BPF_JEQ, arg0, 0, 1),
		RET(SECCOMP_RET_ERRNO | (unsigned)e),
		RET(SECCOMP_RET_ALLOW),
	};

	return load(prog, ARRAY_SIZE(prog), 0, false) < 0 ? -1 : 0;
}

/* sendto and sendmsg go to the supervisor; returns the listener. */
static int nonewaddr_filter(void)
{
	struct sock_filter prog[] = {
		STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		JUMP(BPF_JEQ, AUDIT_ARCH_NATIVE, 1, 0),
		RET(SECCOMP_RET_ALLOW),
		STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		JUMP(BPF_JEQ, __NR_sendto, 2, 0),
		JUMP(BPF_JEQ, __NR_sendmsg, 1, 0),
		RET(SECCOMP_RET_ALLOW),
		RET(SECCOMP_RET_USER_NOTIF),
	};

	return load(prog, ARRAY_SIZE(prog), SECCOMP_FILTER_FLAG_NEW_LISTENER, false);
}

static bool read_mem(pid_t pid, uint64_t addr, void *buf, size_t len)
{
	struct iovec local = { .iov_base = buf, .iov_len = len };
	struct iovec remote = { .iov_base = (void *)(uintptr_t)addr, .iov_len = len };

	return process_vm_readv(pid, &local, 1, &remote, 1, 0) == (ssize_t)len;
}

/* Whether the call's fd is a NETLINK_ROUTE socket (taken from the target with pidfd_getfd). */
static bool is_rtnetlink(const struct seccomp_notif *req)
{
	_cleanup_close_ int pidfd = (int)syscall(__NR_pidfd_open, req->pid, 0);
	_cleanup_close_ int fd = -1;
	int domain = 0, proto = 0;
	socklen_t len = sizeof(int);

	if (pidfd < 0)
		return false;
	fd = (int)syscall(__NR_pidfd_getfd, pidfd, (int)req->data.args[0], 0);
	if (fd < 0 || getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) < 0)
		return false;
	len = sizeof(int);
	if (getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &len) < 0)
		return false;
	return domain == AF_NETLINK && proto == NETLINK_ROUTE;
}

/* Whether the call sends an RTM_NEWADDR (in sendmsg's first iovec: where rtnetlink
 * users put their request). */
static bool carries_newaddr(const struct seccomp_notif *req)
{
	char buf[4096];
	uint64_t addr = req->data.args[1], len = req->data.args[2];
	ssize_t n;

	if (req->data.nr == __NR_sendmsg) {
		struct msghdr msg;
		struct iovec iov;

		if (!read_mem(req->pid, addr, &msg, sizeof(msg)) || msg.msg_iovlen == 0 ||
		    !read_mem(req->pid, (uintptr_t)msg.msg_iov, &iov, sizeof(iov)))
			return false;
		addr = (uintptr_t)iov.iov_base;
		len = iov.iov_len;
	}
	n = (ssize_t)(len < sizeof(buf) ? len : sizeof(buf));
	if (n < (ssize_t)sizeof(struct nlmsghdr) || !read_mem(req->pid, addr, buf, (size_t)n))
		return false;
	for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
	     h = NLMSG_NEXT(h, n))
		if (h->nlmsg_type == RTM_NEWADDR)
			return true;
	return false;
}

static void answer(int listener)
{
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;

	memset(&req, 0, sizeof(req));
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0)
		return; /* the target died meanwhile, or a signal */
	resp = (struct seccomp_notif_resp){ .id = req.id };
	if (req.pid != 0 && is_rtnetlink(&req) && carries_newaddr(&req))
		resp.error = -EPERM;
	else
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	(void)ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
}

/* The parent takes the child's listener with pidfd_getfd: the child may no longer
 * sendmsg (its own filter would wait for the supervisor), so it writes the fd's number
 * and waits until the parent has it. */
static int take_listener(pid_t child, int sock)
{
	_cleanup_close_ int pidfd = (int)syscall(__NR_pidfd_open, child, 0);
	int num, fd;

	if (pidfd < 0 || read(sock, &num, sizeof(num)) != sizeof(num))
		return -1;
	fd = (int)syscall(__NR_pidfd_getfd, pidfd, num, 0);
	if (fd < 0 || write(sock, "", 1) != 1)
		return -1;
	return fd;
}

/* The supervisor answers until its child (the command) exits, then exits as it did. */
static int supervise(pid_t child, int listener)
{
	_cleanup_close_ int pidfd = (int)syscall(__NR_pidfd_open, child, 0);
	int status;

	for (;;) {
		struct pollfd p[2] = { { .fd = listener, .events = POLLIN },
				       { .fd = pidfd, .events = POLLIN } };

		if (poll(p, 2, -1) < 0 && errno != EINTR)
			break;
		if (p[0].revents & POLLIN)
			answer(listener);
		if (p[1].revents || pidfd < 0 || (p[0].revents & (POLLHUP | POLLERR)))
			break;
	}
	if (waitpid(child, &status, 0) < 0)
		return 125;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int run_nonewaddr(char **cmd)
{
	int sv[2], listener;
	pid_t child;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return perror("env-filter: socketpair"), 125;
	child = fork();
	if (child < 0)
		return perror("env-filter: fork"), 125;
	if (child == 0) {
		close(sv[0]);
		char ack;

		listener = nonewaddr_filter();
		if (listener < 0 || write(sv[1], &listener, sizeof(listener)) != sizeof(listener) ||
		    read(sv[1], &ack, 1) != 1)
			_exit(125);
		close(listener);
		close(sv[1]);
		execvp(cmd[0], cmd);
		fprintf(stderr, "env-filter: execvp %s: %s\n", cmd[0], strerror(errno));
		_exit(127);
	}
	close(sv[1]);
	listener = take_listener(child, sv[0]);
	close(sv[0]);
	if (listener < 0) {
		(void)waitpid(child, NULL, 0);
		fprintf(stderr, "env-filter: no listener from the child\n");
		return 125;
	}
	/* The terminal's signals go to the command; the supervisor waits for it. */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	return supervise(child, listener);
}

int main(int argc, char **argv)
{
	int r;

	if (argc < 4 || strcmp(argv[2], "--") != 0) {
		fprintf(stderr,
			"usage: env-filter docker|nonewaddr|nomount|nonetlink -- CMD [ARGS...]\n");
		return 2;
	}
	if (strcmp(argv[1], "nonewaddr") == 0)
		return run_nonewaddr(argv + 3);
	if (strcmp(argv[1], "nomount") == 0)
		r = refuse_one(__NR_mount, true, 0, EACCES);
	else if (strcmp(argv[1], "nonetlink") == 0)
		r = refuse_one(__NR_socket, false, AF_NETLINK, EPERM);
	else if (strcmp(argv[1], "docker") == 0)
		r = docker_filter();
	else
		return 2;
	if (r < 0)
		return 125;
	execvp(argv[3], argv + 3);
	fprintf(stderr, "env-filter: execvp %s: %s\n", argv[3], strerror(errno));
	return 127;
}
