/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test-seccomp: nsrun's guard filter, twice: through a small classic-BPF
 * interpreter fed made-up seccomp_data (every architecture path, x32, i386,
 * high ioctl bits), and installed for real in forked children that then make
 * the refused and the allowed calls.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "audit-arch.h"
#include "seccomp.h"
#include "syscall.h"

#define ALLOW SECCOMP_RET_ALLOW
#define KILL SECCOMP_RET_KILL_PROCESS
#define ERR(e) (SECCOMP_RET_ERRNO | (e))
#define ALL SECCOMP_GUARD_ALL

/* The subset of classic BPF the guards use; anything else fails the test, as does
 * a jump out of the program or falling off its end. */
static uint32_t bpf_run(const struct sock_filter *p, int n, const struct seccomp_data *d)
{
	uint32_t a = 0;

	for (int pc = 0; pc < n; pc++) {
		const struct sock_filter *f = &p[pc];

		switch (f->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			assert_true(f->k % 4 == 0 && f->k + 4 <= sizeof(*d));
			memcpy(&a, (const char *)d + f->k, 4);
			break;
		case BPF_ALU | BPF_AND | BPF_K:
			a &= f->k;
			break;
		case BPF_JMP | BPF_JA:
			pc += (int)f->k;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
			pc += a == f->k ? f->jt : f->jf;
			break;
		case BPF_JMP | BPF_JGE | BPF_K:
			pc += a >= f->k ? f->jt : f->jf;
			break;
		case BPF_RET | BPF_K:
			return f->k;
		default:
			fail_msg("opcode %#x at %d", f->code, pc);
		}
		assert_true(pc + 1 < n);
	}
	fail_msg("fell off the end");
	return 0;
}

static uint32_t verdict3(unsigned guards, uint32_t arch, int nr, uint64_t a0, uint64_t a1,
			 uint64_t a2)
{
	struct sock_filter prog[SECCOMP_GUARD_PROG_MAX];
	struct seccomp_data d = { .nr = nr, .arch = arch, .args = { a0, a1, a2 } };
	int n = seccomp_guard_program(guards, prog, ARRAY_SIZE(prog));

	assert_true(n > 0);
	return bpf_run(prog, n, &d);
}

static uint32_t verdict(unsigned guards, uint32_t arch, int nr, uint64_t a0, uint64_t a1)
{
	return verdict3(guards, arch, nr, a0, a1, 0);
}

#ifdef __x86_64__
#define NATIVE AUDIT_ARCH_NATIVE

static void test_native(void **state)
{
	(void)state;
	assert_int_equal(verdict(ALL, NATIVE, __NR_memfd_create, 0, 0), ERR(ENOSYS));
	assert_int_equal(verdict(ALL, NATIVE, __NR_memfd_create, MFD_NOEXEC_SEAL, 0), ERR(ENOSYS));
	assert_int_equal(verdict(ALL, NATIVE, __NR_memfd_secret, 0, 0), ERR(ENOSYS));
	assert_int_equal(verdict(ALL, NATIVE, __NR_socket, AF_UNIX, SOCK_STREAM), ERR(EACCES));
	/* only the low 32 bits reach the kernel's int family */
	assert_int_equal(verdict(ALL, NATIVE, __NR_socket, (1ull << 32) | AF_UNIX, 0), ERR(EACCES));
	assert_int_equal(verdict(ALL, NATIVE, __NR_socket, AF_INET, SOCK_STREAM), ALLOW);
	assert_int_equal(verdict(ALL, NATIVE, __NR_socket, AF_NETLINK, SOCK_RAW), ALLOW);
	assert_int_equal(verdict(ALL, NATIVE, __NR_socketpair, AF_UNIX, SOCK_STREAM), ALLOW);
	assert_int_equal(verdict(ALL, NATIVE, __NR_socketpair, AF_UNIX, SOCK_SEQPACKET), ALLOW);
	assert_int_equal(verdict(ALL, NATIVE, __NR_socketpair, AF_UNIX, SOCK_DGRAM), ERR(EACCES));
	assert_int_equal(verdict(ALL, NATIVE, __NR_socketpair, AF_UNIX,
				 SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK),
			 ERR(EACCES));
	/* the kernel makes a SOCK_RAW pair a datagram pair: allowed by type, not listed */
	for (unsigned t = 0; t <= 15; t++)
		if (t != SOCK_STREAM && t != SOCK_SEQPACKET)
			assert_int_equal(verdict(ALL, NATIVE, __NR_socketpair, AF_UNIX, t),
					 ERR(EACCES));
	assert_int_equal(verdict(ALL, NATIVE, __NR_socketpair, AF_UNIX, SOCK_RAW | SOCK_CLOEXEC),
			 ERR(EACCES));
	assert_int_equal(verdict(ALL, NATIVE, __NR_socketpair, AF_UNIX,
				 SOCK_SEQPACKET | SOCK_NONBLOCK),
			 ALLOW);
	assert_int_equal(verdict(ALL, NATIVE, __NR_socketpair, AF_INET, SOCK_DGRAM), ALLOW);
	assert_int_equal(verdict(ALL, NATIVE, __NR_io_uring_setup, 8, 0), ERR(ENOSYS));
	assert_int_equal(verdict(ALL, NATIVE, __NR_ioctl, 0, TIOCSTI), ERR(EPERM));
	assert_int_equal(verdict(ALL, NATIVE, __NR_ioctl, 0, TIOCLINUX), ERR(EPERM));
	/* CVE-2019-10063: the kernel ignores the upper half of the request */
	assert_int_equal(verdict(ALL, NATIVE, __NR_ioctl, 0, (1ull << 32) | TIOCSTI), ERR(EPERM));
	assert_int_equal(verdict(ALL, NATIVE, __NR_ioctl, 0, ~0ull << 32 | TIOCLINUX), ERR(EPERM));
	assert_int_equal(verdict(ALL, NATIVE, __NR_ioctl, 0, TCGETS), ALLOW);
	assert_int_equal(verdict(ALL, NATIVE, __NR_ioctl, 0, TIOCGWINSZ), ALLOW);
	assert_int_equal(verdict(ALL, NATIVE, __NR_read, 0, 0), ALLOW);
	assert_int_equal(verdict(ALL, NATIVE, __NR_execve, 0, 0), ALLOW);
	assert_int_equal(verdict(ALL, NATIVE, __NR_mmap, 0, 0), ALLOW);
}

static void test_each_guard_alone(void **state)
{
	(void)state;
	assert_int_equal(verdict(SECCOMP_GUARD_EXEC_MEMFD, NATIVE, __NR_memfd_create, 0, 0),
			 ERR(ENOSYS));
	assert_int_equal(verdict(SECCOMP_GUARD_EXEC_MEMFD, NATIVE, __NR_socket, AF_UNIX, 1), ALLOW);
	/* no new filesystem (an overlay over the workspace) for --landlock-exec */
	assert_int_equal(verdict(SECCOMP_GUARD_EXEC_MEMFD, NATIVE, 430 /* fsopen */, 0, 0),
			 ERR(ENOSYS));
	assert_int_equal(verdict(SECCOMP_GUARD_EXEC_MEMFD, NATIVE, 432 /* fsmount */, 0, 0),
			 ERR(ENOSYS));
	assert_int_equal(verdict(SECCOMP_GUARD_EXEC_MEMFD, NATIVE, 433 /* fspick */, 0, 0),
			 ERR(ENOSYS));
	assert_int_equal(verdict(SECCOMP_GUARD_EXEC_MEMFD, AUDIT_ARCH_I386, 430, 0, 0),
			 ERR(ENOSYS));
	assert_int_equal(verdict(SECCOMP_GUARD_TIOCSTI, NATIVE, 430, 0, 0), ALLOW);
	assert_int_equal(verdict(SECCOMP_GUARD_EXEC_MEMFD, NATIVE, __NR_ioctl, 0, TIOCSTI), ALLOW);
	assert_int_equal(verdict(SECCOMP_GUARD_UNIX_SOCKET, NATIVE, __NR_memfd_create, 0, 0),
			 ALLOW);
	assert_int_equal(verdict(SECCOMP_GUARD_UNIX_SOCKET, NATIVE, __NR_socket, AF_UNIX, 1),
			 ERR(EACCES));
	assert_int_equal(verdict(SECCOMP_GUARD_UNIX_SOCKET, NATIVE, __NR_ioctl, 0, TIOCSTI), ALLOW);
	assert_int_equal(verdict(SECCOMP_GUARD_TIOCSTI, NATIVE, __NR_ioctl, 0, TIOCSTI),
			 ERR(EPERM));
	assert_int_equal(verdict(SECCOMP_GUARD_TIOCSTI, NATIVE, __NR_memfd_create, 0, 0), ALLOW);
	assert_int_equal(verdict(SECCOMP_GUARD_TIOCSTI, NATIVE, __NR_io_uring_setup, 0, 0), ALLOW);
}

/* Truncation by path where Landlock ABI < 3 cannot refuse it. */
static void test_truncate(void **state)
{
	const unsigned g = SECCOMP_GUARD_TRUNCATE;

	(void)state;
	assert_int_equal(verdict(g, NATIVE, __NR_truncate, 0, 0), ERR(EACCES));
	assert_int_equal(verdict(g, NATIVE, __NR_open, 0, O_RDONLY | O_TRUNC), ERR(EACCES));
	assert_int_equal(verdict(g, NATIVE, __NR_open, 0, O_RDONLY | O_TRUNC | O_CLOEXEC),
			 ERR(EACCES));
	/* a write open is Landlock's to refuse (write_file) */
	assert_int_equal(verdict(g, NATIVE, __NR_open, 0, O_WRONLY | O_TRUNC), ALLOW);
	assert_int_equal(verdict(g, NATIVE, __NR_open, 0, O_RDONLY), ALLOW);
	assert_int_equal(verdict3(g, NATIVE, __NR_openat, 0, 0, O_RDONLY | O_TRUNC), ERR(EACCES));
	assert_int_equal(verdict3(g, NATIVE, __NR_openat, 0, 0, O_RDWR | O_TRUNC), ALLOW);
	/* access mode 3: neither read nor write, so no write open for Landlock to refuse */
	assert_int_equal(verdict3(g, NATIVE, __NR_openat, 0, 0, 3 | O_TRUNC), ERR(EACCES));
	assert_int_equal(verdict(g, NATIVE, __NR_open, 0, 3 | O_TRUNC), ERR(EACCES));
	assert_int_equal(verdict3(g, NATIVE, __NR_open_by_handle_at, 0, 0, O_TRUNC), ERR(EACCES));
	assert_int_equal(verdict3(g, NATIVE, __NR_open_by_handle_at, 0, 0, 3 | O_TRUNC),
			 ERR(EACCES));
	assert_int_equal(verdict3(g, NATIVE, __NR_open_by_handle_at, 0, 0, O_WRONLY | O_TRUNC),
			 ALLOW);
	assert_int_equal(verdict3(g, NATIVE, __NR_openat, 0, 0, O_RDONLY | O_DIRECTORY), ALLOW);
	assert_int_equal(verdict(g, NATIVE, 437 /* openat2 */, 0, 0), ERR(ENOSYS));
	assert_int_equal(verdict(g, NATIVE, __NR_io_uring_setup, 0, 0), ERR(ENOSYS));
	assert_int_equal(verdict(g, NATIVE, __NR_ftruncate, 0, 0), ALLOW);
	assert_int_equal(verdict(g, AUDIT_ARCH_I386, 92, 0, 0), ERR(EACCES));  /* truncate */
	assert_int_equal(verdict(g, AUDIT_ARCH_I386, 193, 0, 0), ERR(EACCES)); /* truncate64 */
	assert_int_equal(verdict(g, AUDIT_ARCH_I386, 5, 0, O_RDONLY | O_TRUNC), ERR(EACCES));
	assert_int_equal(verdict3(g, AUDIT_ARCH_I386, 295, 0, 0, O_TRUNC), ERR(EACCES));
	assert_int_equal(verdict(SECCOMP_GUARD_EXEC_MEMFD, NATIVE, __NR_truncate, 0, 0), ALLOW);
}

static void test_x32_and_foreign_killed(void **state)
{
	(void)state;
	for (unsigned g = 1; g <= ALL; g++) {
		assert_int_equal(verdict(g, NATIVE, AUDIT_ARCH_X32_BIT | __NR_getpid, 0, 0), KILL);
		assert_int_equal(verdict(g, NATIVE, AUDIT_ARCH_X32_BIT | __NR_memfd_create, 0, 0),
				 KILL);
		assert_int_equal(verdict(g, NATIVE, -1, 0, 0), KILL);
		assert_int_equal(verdict(g, AUDIT_ARCH_AARCH64, __NR_getpid, 0, 0), KILL);
		assert_int_equal(verdict(g, NATIVE, __NR_getpid, 0, 0), ALLOW);
	}
}

/* i386 numbers, from arch/x86/entry/syscalls/syscall_32.tbl */
static void test_i386(void **state)
{
	const uint32_t i386 = AUDIT_ARCH_I386;

	(void)state;
	assert_int_equal(verdict(ALL, i386, 356, 0, 0), ERR(ENOSYS));	    /* memfd_create */
	assert_int_equal(verdict(ALL, i386, 447, 0, 0), ERR(ENOSYS));	    /* memfd_secret */
	assert_int_equal(verdict(ALL, i386, 359, AF_UNIX, 1), ERR(EACCES)); /* socket */
	assert_int_equal(verdict(ALL, i386, 359, AF_INET, 1), ALLOW);
	assert_int_equal(verdict(ALL, i386, 360, AF_UNIX, SOCK_DGRAM), ERR(EACCES));
	assert_int_equal(verdict(ALL, i386, 360, AF_UNIX, SOCK_STREAM), ALLOW);
	assert_int_equal(verdict(ALL, i386, 360, AF_UNIX, SOCK_RAW), ERR(EACCES));
	assert_int_equal(verdict(ALL, i386, 102, 1, 0), ERR(EACCES));	  /* socketcall SOCKET */
	assert_int_equal(verdict(ALL, i386, 102, 8, 0), ERR(EACCES));	  /* ... SOCKETPAIR */
	assert_int_equal(verdict(ALL, i386, 102, 3, 0), ALLOW);		  /* ... CONNECT */
	assert_int_equal(verdict(ALL, i386, 54, 0, TIOCSTI), ERR(EPERM)); /* ioctl */
	assert_int_equal(verdict(ALL, i386, 54, 0, TIOCLINUX), ERR(EPERM));
	assert_int_equal(verdict(ALL, i386, 54, 0, TCGETS), ALLOW);
	assert_int_equal(verdict(ALL, i386, 425, 0, 0), ERR(ENOSYS)); /* io_uring_setup */
	/* native numbers mean other calls there: 319 is i386 epoll_pwait, 16 lchown */
	assert_int_equal(verdict(ALL, i386, __NR_memfd_create, 0, 0), ALLOW);
	assert_int_equal(verdict(ALL, i386, __NR_ioctl, 0, TIOCSTI), ALLOW);
	/* i386 has no x32 bit */
	assert_int_equal(verdict(ALL, i386, 20, 0, 0), ALLOW);
}
#endif

static void test_bad_input(void **state)
{
	struct sock_filter prog[SECCOMP_GUARD_PROG_MAX];

	(void)state;
	assert_int_equal(seccomp_guard_program(1u << 4, prog, ARRAY_SIZE(prog)), -EINVAL);
	assert_int_equal(seccomp_guard_program(ALL, prog, 4), -E2BIG);
	for (unsigned g = 0; g <= ALL; g++)
		assert_in_range(seccomp_guard_program(g, prog, ARRAY_SIZE(prog)), 4,
				SECCOMP_GUARD_PROG_MAX);
}

/* Runs fn in a child under the guards; returns its wait status. */
static int in_child(unsigned guards, int (*fn)(void))
{
	struct nsrun_error err = { 0 };
	pid_t pid = fork();
	int st;

	assert_true(pid >= 0);
	if (pid == 0) {
		if (seccomp_apply_guards(guards, &err) < 0)
			_exit(100);
		_exit(fn());
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return st;
}

/* Each failed expectation sets one bit of the exit status. */
static int real_calls(void)
{
	int bad = 0, sv[2], fd;

	if (memfd_create("x", 0) != -1 || errno != ENOSYS)
		bad |= 1;
	if (memfd_create("x", MFD_NOEXEC_SEAL) != -1 || errno != ENOSYS)
		bad |= 2;
	if (socket(AF_UNIX, SOCK_STREAM, 0) != -1 || errno != EACCES)
		bad |= 4;
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) != -1 || errno != EACCES)
		bad |= 8;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		bad |= 16;
	if (socketpair(AF_UNIX, SOCK_RAW, 0, sv) != -1 || errno != EACCES)
		bad |= 8;
	if (truncate("/nonexistent/nsrun-test", 0) != -1 || errno != EACCES)
		bad |= 256;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 && errno != EAFNOSUPPORT)
		bad |= 32;
	/* /dev/null is no tty: without the guard these fail with ENOTTY */
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (ioctl(fd, TIOCSTI, "x") != -1 || errno != EPERM)
		bad |= 64;
	if (ioctl(fd, TCGETS, &(char[64]){ 0 }) != -1 || errno != ENOTTY)
		bad |= 128;
	return bad;
}

static void test_installed(void **state)
{
	int st = in_child(ALL, real_calls);

	(void)state;
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static int memfd_allowed(void)
{
	int fd = memfd_create("x", MFD_CLOEXEC);

	return fd >= 0 ? 0 : 1;
}

static void test_installed_other_guard(void **state)
{
	int st = in_child(SECCOMP_GUARD_TIOCSTI | SECCOMP_GUARD_UNIX_SOCKET, memfd_allowed);

	(void)state;
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

#ifdef __x86_64__
static int x32_getpid(void)
{
	/* this kernel may lack x32 (ENOSYS); under the guard the call never returns */
	(void)syscall(AUDIT_ARCH_X32_BIT | __NR_getpid);
	return 0;
}

static void test_installed_x32(void **state)
{
	int st = in_child(SECCOMP_GUARD_TIOCSTI, x32_getpid);

	(void)state;
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGSYS);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
#ifdef __x86_64__
		cmocka_unit_test(test_native),
		cmocka_unit_test(test_each_guard_alone),
		cmocka_unit_test(test_truncate),
		cmocka_unit_test(test_x32_and_foreign_killed),
		cmocka_unit_test(test_i386),
		cmocka_unit_test(test_installed_x32),
#endif
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_installed),
		cmocka_unit_test(test_installed_other_guard),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
