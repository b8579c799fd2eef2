/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * seccomp.c: installs compiled cBPF filters (bwrap takes BPF, not rules, so
 * libseccomp is not needed). --seccomp keeps only its last program; programs
 * from --add-seccomp-fd stack in command-line order. The guards are nsrun's own
 * filter, written here as cBPF; they refuse calls by number and by the low 32 bits
 * of integer arguments only, since seccomp cannot read memory behind a pointer.
 */
#include "config.h"

#include "seccomp.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "audit-arch.h"
#include "macros.h"
#include "syscall.h"

static const char seccomp_einval[] =
	"Unable to set up system call filtering as requested: prctl(PR_SET_SECCOMP) reported "
	"EINVAL. (Hint: this requires a kernel configured with CONFIG_SECCOMP and "
	"CONFIG_SECCOMP_FILTER.)";

int seccomp_prog_fprog(const struct seccomp_prog *p, struct sock_fprog *ret,
		       struct nsrun_error *err)
{
	size_t n = p->len / sizeof(struct sock_filter);

	if (p->len % sizeof(struct sock_filter) != 0)
		return error_set_plain(err, EINVAL, "Invalid seccomp data, must be multiple of 8");
	/* An empty program reaches the kernel, whose EINVAL gets bwrap's message.
	 * sock_fprog.len is an unsigned short: a longer program would reach the kernel cut to
	 * its first n % 65536 instructions (bwrap 0.11 has that bug). The kernel refuses more
	 * than BPF_MAXINSNS with EINVAL, so say what bwrap says for that answer. */
	if (n > BPF_MAXINSNS)
		return error_set_plain(err, EINVAL, "%s", seccomp_einval);
	ret->len = (unsigned short)n;
	ret->filter = (struct sock_filter *)p->data;
	return 0;
}

static int load_one(const struct seccomp_prog *p, struct nsrun_error *err)
{
	struct sock_fprog prog;
	int r = seccomp_prog_fprog(p, &prog, err);

	if (r < 0)
		return r;
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0)
		return 0;
	if (errno == EINVAL)
		return error_set_plain(err, EINVAL, "%s", seccomp_einval);
	return error_set(err, errno, "prctl(PR_SET_SECCOMP)");
}

int seccomp_apply(const struct seccomp_config *cfg, struct nsrun_error *err)
{
	size_t first = 0;
	int r;

	if (cfg->n_progs == 0)
		return 0;
	if (cfg->from_seccomp_opt)
		first = cfg->n_progs - 1;
	for (size_t i = first; i < cfg->n_progs; i++) {
		r = load_one(&cfg->progs[i], err);
		if (r < 0)
			return r;
	}
	return 0;
}

/* ---- nsrun's own guards ---- */

/* compat_abi holds i386's numbers: another compat ABI (arm on arm64) is killed as foreign. */
#if defined(AUDIT_ARCH_COMPAT) && AUDIT_ARCH_COMPAT == AUDIT_ARCH_I386
#define GUARD_COMPAT_ARCH AUDIT_ARCH_COMPAT
#endif

#define GUARD_KILL SECCOMP_RET_KILL_PROCESS
#define GUARD_ERRNO(e) (SECCOMP_RET_ERRNO | ((e)&SECCOMP_RET_DATA))
/* socket(2)'s type carries SOCK_NONBLOCK/SOCK_CLOEXEC above the type proper. */
#define GUARD_SOCK_TYPE_MASK 0xfu
/* socketcall(2) call numbers (linux/net.h) */
#define GUARD_SYS_SOCKET 1u
#define GUARD_SYS_SOCKETPAIR 8u

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define GUARD_ARG_LOW(i) ((unsigned)offsetof(struct seccomp_data, args[i]))
#else
#define GUARD_ARG_LOW(i) ((unsigned)offsetof(struct seccomp_data, args[i]) + 4u)
#endif

/* The calls a guard names, by their numbers in one ABI; -1 where the ABI lacks one. */
struct guard_abi {
	int memfd_create, memfd_secret, socket, socketpair, socketcall, ioctl, io_uring_setup;
	int truncate, truncate64, open, openat, openat2, open_by_handle_at;
	int fsopen, fsmount, fspick;
};

/* Not every ABI has these (arm64 has no open(2); only 32-bit ones have truncate64). */
#ifdef __NR_open
#define GUARD_NR_OPEN __NR_open
#else
#define GUARD_NR_OPEN (-1)
#endif
#ifdef __NR_truncate64
#define GUARD_NR_TRUNCATE64 __NR_truncate64
#else
#define GUARD_NR_TRUNCATE64 (-1)
#endif

/* i386 (and s390x) have socketcall; i386 gained direct socket calls in 4.3. */
#ifdef __NR_socketcall
#define GUARD_NR_SOCKETCALL __NR_socketcall
#else
#define GUARD_NR_SOCKETCALL (-1)
#endif

static const struct guard_abi native_abi = {
	.memfd_create = __NR_memfd_create,
	.memfd_secret = __NR_memfd_secret,
	.socket = __NR_socket,
	.socketpair = __NR_socketpair,
	.socketcall = GUARD_NR_SOCKETCALL,
	.ioctl = __NR_ioctl,
	.io_uring_setup = __NR_io_uring_setup,
	.truncate = __NR_truncate,
	.truncate64 = GUARD_NR_TRUNCATE64,
	.open = GUARD_NR_OPEN,
	.openat = __NR_openat,
	.openat2 = __NR_openat2,
	.open_by_handle_at = __NR_open_by_handle_at,
	.fsopen = __NR_fsopen,
	.fsmount = __NR_fsmount,
	.fspick = __NR_fspick,
};

#ifdef GUARD_COMPAT_ARCH
/* i386 numbers (arch/x86/entry/syscalls/syscall_32.tbl): int 0x80 from a 64-bit
 * process, or a 32-bit program, arrives with AUDIT_ARCH_I386 and these numbers. */
static const struct guard_abi compat_abi = {
	.memfd_create = 356,
	.memfd_secret = 447,
	.socket = 359,
	.socketpair = 360,
	.socketcall = 102,
	.ioctl = 54,
	.io_uring_setup = 425,
	.truncate = 92,
	.truncate64 = 193,
	.open = 5,
	.openat = 295,
	.openat2 = 437,
	.open_by_handle_at = 342,
	.fsopen = 430,
	.fsmount = 432,
	.fspick = 433,
};
#endif

/* One refused call: when nr matches and each condition (low 32 bits of args[arg],
 * masked, equal to value) holds, the filter returns action. Only the low 32 bits
 * count because every argument tested is an int or unsigned int in the kernel. */
struct guard_cond {
	unsigned arg, mask, value;
};

struct guard_rule {
	int nr;
	unsigned n_conds;
	struct guard_cond conds[2];
	unsigned action;
};

struct guard_emit {
	struct sock_filter *prog;
	size_t n, max;
};

static void emit(struct guard_emit *e, unsigned short code, unsigned k, unsigned char jt,
		 unsigned char jf)
{
	if (e->n < e->max)
		e->prog[e->n] = (struct sock_filter){ code, jt, jf, k };
	e->n++; /* counts past max, so the caller can report -E2BIG */
}

/* A rule's block, entered and left with nr in A:
 *   jeq nr ? next : out;  per condition: ld arg; [and mask]; jeq value ? next : reload;
 *   ret action;  reload: ld nr;  out:
 * A mismatch on nr jumps past the reload, since A still holds nr there. */
static void emit_rule(struct guard_emit *e, const struct guard_rule *r)
{
	unsigned body = 1; /* ret */
	unsigned left;

	if (r->nr < 0)
		return;
	for (unsigned i = 0; i < r->n_conds; i++)
		body += r->conds[i].mask != ~0u ? 3 : 2;
	if (r->n_conds > 0)
		body++; /* reload */
	emit(e, BPF_JMP | BPF_JEQ | BPF_K, (unsigned)r->nr, 0, (unsigned char)body);
	left = body;
	for (unsigned i = 0; i < r->n_conds; i++) {
		const struct guard_cond *c = &r->conds[i];

		emit(e, BPF_LD | BPF_W | BPF_ABS, GUARD_ARG_LOW(c->arg), 0, 0);
		left--;
		if (c->mask != ~0u) {
			emit(e, BPF_ALU | BPF_AND | BPF_K, c->mask, 0, 0);
			left--;
		}
		left--;
		/* a mismatch skips the rest of the block but the reload */
		emit(e, BPF_JMP | BPF_JEQ | BPF_K, c->value, 0, (unsigned char)(left - 1));
	}
	emit(e, BPF_RET | BPF_K, r->action, 0, 0);
	if (r->n_conds > 0)
		emit(e, BPF_LD | BPF_W | BPF_ABS, (unsigned)offsetof(struct seccomp_data, nr), 0,
		     0);
}

static struct guard_rule rule_any(int nr, unsigned action)
{
	return (struct guard_rule){ .nr = nr, .action = action };
}

/* low 32 bits of args[arg], masked, == value */
static struct guard_rule rule_flags(int nr, unsigned arg, unsigned mask, unsigned value,
				    unsigned action)
{
	return (struct guard_rule){
		.nr = nr,
		.n_conds = 1,
		.conds = { { arg, mask, value } },
		.action = action,
	};
}

/* low 32 bits of args[arg] == value */
static struct guard_rule rule_arg(int nr, unsigned arg, unsigned value, unsigned action)
{
	return rule_flags(nr, arg, ~0u, value, action);
}

/* socketpair(AF_UNIX, type, ...) with the given type, whatever its flags */
static struct guard_rule rule_pair(int nr, unsigned type, unsigned action)
{
	struct guard_rule r = rule_arg(nr, 0, AF_UNIX, action);

	r.conds[r.n_conds++] = (struct guard_cond){ 1, GUARD_SOCK_TYPE_MASK, type };
	return r;
}

/* The rules of `guards` in one ABI, in the order they are tested. */
static size_t guard_rules(unsigned guards, const struct guard_abi *abi, struct guard_rule *out)
{
	const unsigned eacces = GUARD_ERRNO(EACCES), eperm = GUARD_ERRNO(EPERM);
	/* ENOSYS, as on a kernel without the call: programs that use memfds or
	 * io_uring must already handle kernels that lack them, and fall back (to a
	 * temporary file, to epoll); EPERM is often taken as fatal. */
	const unsigned enosys = GUARD_ERRNO(ENOSYS);
	size_t n = 0;

	if (guards & SECCOMP_GUARD_EXEC_MEMFD) {
		out[n++] = rule_any(abi->memfd_create, enosys);
		out[n++] = rule_any(abi->memfd_secret, enosys);
		/* A new superblock (an overlay over the workspace, made in a user namespace
		 * of the command's own) comes without noexec: no new filesystem at all. */
		out[n++] = rule_any(abi->fsopen, enosys);
		out[n++] = rule_any(abi->fsmount, enosys);
		out[n++] = rule_any(abi->fspick, enosys);
		/* A file handle reopens what the command wrote through any mount of its
		 * filesystem, one without noexec too (CAP_DAC_READ_SEARCH; from Linux 6.10
		 * also that capability over the mounts of a user namespace of its own). */
		out[n++] = rule_any(abi->open_by_handle_at, eperm);
	}
	if (guards & SECCOMP_GUARD_UNIX_SOCKET) {
		out[n++] = rule_arg(abi->socket, 0, AF_UNIX, eacces);
		/* A pair is allowed by type, not refused by a list of bad ones: the kernel
		 * turns SOCK_RAW into a datagram pair, and a datagram socket can sendto()
		 * any path. Connected stream and seqpacket pairs reach only each other. */
		out[n++] = rule_pair(abi->socketpair, SOCK_STREAM, SECCOMP_RET_ALLOW);
		out[n++] = rule_pair(abi->socketpair, SOCK_SEQPACKET, SECCOMP_RET_ALLOW);
		out[n++] = rule_arg(abi->socketpair, 0, AF_UNIX, eacces);
		/* socketcall's arguments are behind a pointer: refuse creating any socket */
		out[n++] = rule_arg(abi->socketcall, 0, GUARD_SYS_SOCKET, eacces);
		out[n++] = rule_arg(abi->socketcall, 0, GUARD_SYS_SOCKETPAIR, eacces);
		out[n++] = rule_any(abi->io_uring_setup, enosys);
	}
	if (guards & SECCOMP_GUARD_TRUNCATE) {
		out[n++] = rule_any(abi->truncate, eacces);
		out[n++] = rule_any(abi->truncate64, eacces);
		/* Access mode 0 (read-only) and 3 (no read, no write: ioctl only) open
		 * without a write open that Landlock could refuse, and O_TRUNC truncates. */
		for (unsigned mode = 0; mode <= 3; mode += 3) {
			unsigned m = O_TRUNC | O_ACCMODE, v = O_TRUNC | mode;

			out[n++] = rule_flags(abi->open, 1, m, v, eacces);
			out[n++] = rule_flags(abi->openat, 2, m, v, eacces);
			out[n++] = rule_flags(abi->open_by_handle_at, 2, m, v, eacces);
		}
		out[n++] = rule_any(abi->openat2, enosys);
		if (!(guards & SECCOMP_GUARD_UNIX_SOCKET))
			out[n++] = rule_any(abi->io_uring_setup, enosys);
	}
	if (guards & SECCOMP_GUARD_TIOCSTI) {
		out[n++] = rule_arg(abi->ioctl, 1, TIOCSTI, eperm);
		out[n++] = rule_arg(abi->ioctl, 1, TIOCLINUX, eperm);
	}
	return n;
}

/* ld nr, [kill x32], the rules, allow. */
static void emit_abi(struct guard_emit *e, unsigned guards, const struct guard_abi *abi,
		     bool kill_x32)
{
	struct guard_rule rules[40];
	size_t n = guard_rules(guards, abi, rules);

	emit(e, BPF_LD | BPF_W | BPF_ABS, (unsigned)offsetof(struct seccomp_data, nr), 0, 0);
	if (kill_x32) {
		emit(e, BPF_JMP | BPF_JGE | BPF_K, AUDIT_ARCH_X32_BIT, 0, 1);
		emit(e, BPF_RET | BPF_K, GUARD_KILL, 0, 0);
	}
	for (size_t i = 0; i < n; i++)
		emit_rule(e, &rules[i]);
	emit(e, BPF_RET | BPF_K, SECCOMP_RET_ALLOW, 0, 0);
}

int seccomp_guard_program(unsigned guards, struct sock_filter *prog, size_t max)
{
#ifdef AUDIT_ARCH_NATIVE
	struct guard_emit e = { prog, 0, max };
	size_t ja;

	if (guards & ~(unsigned)SECCOMP_GUARD_ALL)
		return -EINVAL;
	emit(&e, BPF_LD | BPF_W | BPF_ABS, (unsigned)offsetof(struct seccomp_data, arch), 0, 0);
	emit(&e, BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_NATIVE, 1, 0);
	ja = e.n;
	emit(&e, BPF_JMP | BPF_JA, 0, 0, 0); /* to the other architectures, patched below */
	emit_abi(&e, guards, &native_abi, AUDIT_ARCH_X32_BIT != 0);
	if (ja < e.max)
		prog[ja].k = (unsigned)(e.n - ja - 1);
#ifdef GUARD_COMPAT_ARCH
	emit(&e, BPF_JMP | BPF_JEQ | BPF_K, GUARD_COMPAT_ARCH, 1, 0);
	emit(&e, BPF_RET | BPF_K, GUARD_KILL, 0, 0);
	emit_abi(&e, guards, &compat_abi, false);
#else
	/* another ABI's numbers would name other calls */
	emit(&e, BPF_RET | BPF_K, GUARD_KILL, 0, 0);
#endif
	if (e.n > max)
		return -E2BIG;
	return (int)e.n;
#else
	(void)guards, (void)prog, (void)max;
	return -EOPNOTSUPP;
#endif
}

int seccomp_apply_guards(unsigned guards, struct nsrun_error *err)
{
	struct sock_filter prog[SECCOMP_GUARD_PROG_MAX];
	struct sock_fprog fprog = { 0 };
	int n;

	if (guards == 0)
		return 0;
	n = seccomp_guard_program(guards, prog, ARRAY_SIZE(prog));
	if (n == -EOPNOTSUPP)
		return error_set_plain(err, EOPNOTSUPP,
				       "seccomp guards are not supported on this architecture");
	if (n < 0)
		return error_set(err, -n, "build the seccomp guards %#x", guards);
	/* Without it an unprivileged process may not install a filter; nsrun sets it
	 * for every payload anyway. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return error_set(err, errno, "prctl(PR_SET_NO_NEW_PRIVS) failed");
	fprog.len = (unsigned short)n;
	fprog.filter = prog;
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog) < 0)
		return error_set(err, errno, "install the seccomp guards");
	return 0;
}

/* ---- --report-fd's observer (issue 36) ---- */

#ifndef SECCOMP_RET_USER_NOTIF
#define SECCOMP_RET_USER_NOTIF 0x7fc00000U
#endif
#ifndef SECCOMP_FILTER_FLAG_NEW_LISTENER
#define SECCOMP_FILTER_FLAG_NEW_LISTENER (1UL << 3)
#endif

#define OBSERVE SECCOMP_RET_USER_NOTIF
/* An open that can only read changes nothing nsrun refuses: it is not shown. */
#define OBSERVE_OPEN_WRITES ((unsigned)(O_WRONLY | O_RDWR | O_CREAT | O_TRUNC))

/* The calls that create, remove, rename or link a name; -1 where the ABI lacks one
 * (arm64 has only the *at forms). */
static const int observe_names[] = {
#ifdef __NR_creat
	__NR_creat,
#endif
#ifdef __NR_mkdir
	__NR_mkdir,
#endif
#ifdef __NR_mknod
	__NR_mknod,
#endif
#ifdef __NR_unlink
	__NR_unlink,
#endif
#ifdef __NR_rmdir
	__NR_rmdir,
#endif
#ifdef __NR_rename
	__NR_rename,
#endif
#ifdef __NR_renameat
	__NR_renameat,
#endif
#ifdef __NR_link
	__NR_link,
#endif
#ifdef __NR_symlink
	__NR_symlink,
#endif
	__NR_mkdirat,  __NR_mknodat,   __NR_unlinkat, __NR_renameat2,
	__NR_linkat,   __NR_symlinkat, __NR_truncate, __NR_openat2,
};

static size_t observe_rules(unsigned what, struct guard_rule *out)
{
	size_t n = 0;

	if (what & SECCOMP_OBSERVE_FILES) {
		/* read-only opens go on at once; every other open is shown */
		out[n++] = rule_flags(GUARD_NR_OPEN, 1, OBSERVE_OPEN_WRITES, 0, SECCOMP_RET_ALLOW);
		out[n++] = rule_any(GUARD_NR_OPEN, OBSERVE);
		out[n++] = rule_flags(__NR_openat, 2, OBSERVE_OPEN_WRITES, 0, SECCOMP_RET_ALLOW);
		out[n++] = rule_any(__NR_openat, OBSERVE);
		for (size_t i = 0; i < ARRAY_SIZE(observe_names); i++)
			out[n++] = rule_any(observe_names[i], OBSERVE);
	}
	if (what & SECCOMP_OBSERVE_EXEC) {
		out[n++] = rule_any(__NR_execve, OBSERVE);
		out[n++] = rule_any(__NR_execveat, OBSERVE);
	}
	/* (socketcall's arguments are behind a pointer: its ABI is not observed) */
	if (what & SECCOMP_OBSERVE_NET) {
		out[n++] = rule_any(__NR_connect, OBSERVE);
		out[n++] = rule_any(__NR_bind, OBSERVE);
		/* a send with an address (low 32 bits of the pointer: one whose low half is
		 * zero goes unseen, which is all a miss can cost); send() has none */
		out[n++] = rule_arg(__NR_sendto, 4, 0, SECCOMP_RET_ALLOW);
		out[n++] = rule_any(__NR_sendto, OBSERVE);
	}
	return n;
}

int seccomp_observe_program(unsigned what, struct sock_filter *prog, size_t max)
{
#ifdef AUDIT_ARCH_NATIVE
	struct guard_emit e = { prog, 0, max };
	struct guard_rule rules[40];
	size_t n;

	if (what & ~(unsigned)SECCOMP_OBSERVE_ALL)
		return -EINVAL;
	n = observe_rules(what, rules);
	/* Another ABI's calls are not shown (nor refused: this is no boundary). */
	emit(&e, BPF_LD | BPF_W | BPF_ABS, (unsigned)offsetof(struct seccomp_data, arch), 0, 0);
	emit(&e, BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_NATIVE, 1, 0);
	emit(&e, BPF_RET | BPF_K, SECCOMP_RET_ALLOW, 0, 0);
	emit(&e, BPF_LD | BPF_W | BPF_ABS, (unsigned)offsetof(struct seccomp_data, nr), 0, 0);
	if (AUDIT_ARCH_X32_BIT != 0) {
		emit(&e, BPF_JMP | BPF_JGE | BPF_K, AUDIT_ARCH_X32_BIT, 0, 1);
		emit(&e, BPF_RET | BPF_K, SECCOMP_RET_ALLOW, 0, 0);
	}
	for (size_t i = 0; i < n; i++)
		emit_rule(&e, &rules[i]);
	emit(&e, BPF_RET | BPF_K, SECCOMP_RET_ALLOW, 0, 0);
	if (e.n > max)
		return -E2BIG;
	return (int)e.n;
#else
	(void)what, (void)prog, (void)max;
	return -EOPNOTSUPP;
#endif
}

int seccomp_observe_install(unsigned what, struct nsrun_error *err)
{
	struct sock_filter prog[SECCOMP_OBSERVE_PROG_MAX];
	struct sock_fprog fprog = { 0 };
	int n = seccomp_observe_program(what, prog, ARRAY_SIZE(prog)), fd;

	if (n < 0)
		return error_set(err, -n, "build the --report-fd observer");
	fprog.len = (unsigned short)n;
	fprog.filter = prog;
	fd = (int)syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER,
			  &fprog);
	if (fd < 0)
		return error_set(err, errno, "install the --report-fd observer");
	return fd;
}
