/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscall.h: raw wrappers for the syscalls glibc may lack, and the UAPI
 * constants Debian 12's 6.1 headers lack. Every wrapper returns -1 with errno
 * ENOSYS when the syscall number is unknown at build time, so callers see the
 * same failure as on a kernel without the call. This file is the only place
 * that calls syscall(2).
 */
#pragma once

#include <errno.h>
#include <fcntl.h>
#include <linux/types.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* ---- syscall numbers (identical on every architecture since 5.x unification) ---- */
#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#endif
#ifndef __NR_open_tree
#define __NR_open_tree 428
#endif
#ifndef __NR_move_mount
#define __NR_move_mount 429
#endif
#ifndef __NR_fsopen
#define __NR_fsopen 430
#endif
#ifndef __NR_fsconfig
#define __NR_fsconfig 431
#endif
#ifndef __NR_fsmount
#define __NR_fsmount 432
#endif
#ifndef __NR_fspick
#define __NR_fspick 433
#endif
#ifndef __NR_pidfd_send_signal
#define __NR_pidfd_send_signal 424
#endif
#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif
#ifndef __NR_clone3
#define __NR_clone3 435
#endif
#ifndef __NR_close_range
#define __NR_close_range 436
#endif
#ifndef __NR_openat2
#define __NR_openat2 437
#endif
#ifndef __NR_mount_setattr
#define __NR_mount_setattr 442
#endif
#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#endif
#ifndef __NR_landlock_add_rule
#define __NR_landlock_add_rule 445
#endif
#ifndef __NR_landlock_restrict_self
#define __NR_landlock_restrict_self 446
#endif
#ifndef __NR_memfd_secret
#define __NR_memfd_secret 447
#endif

/* ---- mount API ---- */
#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE 1
#endif
#ifndef OPEN_TREE_CLOEXEC
#define OPEN_TREE_CLOEXEC O_CLOEXEC
#endif
#ifndef MOVE_MOUNT_F_SYMLINKS
#define MOVE_MOUNT_F_SYMLINKS 0x00000001
#define MOVE_MOUNT_F_AUTOMOUNTS 0x00000002
#define MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#define MOVE_MOUNT_T_SYMLINKS 0x00000010
#define MOVE_MOUNT_T_AUTOMOUNTS 0x00000020
#define MOVE_MOUNT_T_EMPTY_PATH 0x00000040
#endif
#ifndef FSOPEN_CLOEXEC
#define FSOPEN_CLOEXEC 0x00000001
#endif
#ifndef FSMOUNT_CLOEXEC
#define FSMOUNT_CLOEXEC 0x00000001
#endif
#ifndef FSCONFIG_SET_FLAG
#define FSCONFIG_SET_FLAG 0
#define FSCONFIG_SET_STRING 1
#define FSCONFIG_SET_BINARY 2
#define FSCONFIG_SET_PATH 3
#define FSCONFIG_SET_PATH_EMPTY 4
#define FSCONFIG_SET_FD 5
#define FSCONFIG_CMD_CREATE 6
#define FSCONFIG_CMD_RECONFIGURE 7
#endif
#ifndef MOUNT_ATTR_RDONLY
#define MOUNT_ATTR_RDONLY 0x00000001
#define MOUNT_ATTR_NOSUID 0x00000002
#define MOUNT_ATTR_NODEV 0x00000004
#define MOUNT_ATTR_NOEXEC 0x00000008
#define MOUNT_ATTR__ATIME 0x00000070
#define MOUNT_ATTR_RELATIME 0x00000000
#define MOUNT_ATTR_NOATIME 0x00000010
#define MOUNT_ATTR_STRICTATIME 0x00000020
#define MOUNT_ATTR_NODIRATIME 0x00000080
#endif
#ifndef MOUNT_ATTR_IDMAP
#define MOUNT_ATTR_IDMAP 0x00100000
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

struct nsrun_mount_attr {
	__u64 attr_set;
	__u64 attr_clr;
	__u64 propagation;
	__u64 userns_fd;
};

/* ---- openat2 ---- */
struct nsrun_open_how {
	__u64 flags;
	__u64 mode;
	__u64 resolve;
};
#ifndef RESOLVE_NO_XDEV
#define RESOLVE_NO_XDEV 0x01
#define RESOLVE_NO_MAGICLINKS 0x02
#define RESOLVE_NO_SYMLINKS 0x04
#define RESOLVE_BENEATH 0x08
#define RESOLVE_IN_ROOT 0x10
#endif

/* ---- memfd (Linux 6.3; the 6.1 headers lack them) ---- */
#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008U
#endif
#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif
#ifndef F_SEAL_EXEC
#define F_SEAL_EXEC 0x0020
#endif

/* ---- close_range ---- */
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

/* ---- Landlock (6.1 headers stop at REFER) ---- */
#ifndef LANDLOCK_CREATE_RULESET_VERSION
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#endif
#define NSRUN_LANDLOCK_RULE_PATH_BENEATH 1
#define NSRUN_LANDLOCK_RULE_NET_PORT 2

#define NSRUN_LL_FS_EXECUTE (1ULL << 0)
#define NSRUN_LL_FS_WRITE_FILE (1ULL << 1)
#define NSRUN_LL_FS_READ_FILE (1ULL << 2)
#define NSRUN_LL_FS_READ_DIR (1ULL << 3)
#define NSRUN_LL_FS_REMOVE_DIR (1ULL << 4)
#define NSRUN_LL_FS_REMOVE_FILE (1ULL << 5)
#define NSRUN_LL_FS_MAKE_CHAR (1ULL << 6)
#define NSRUN_LL_FS_MAKE_DIR (1ULL << 7)
#define NSRUN_LL_FS_MAKE_REG (1ULL << 8)
#define NSRUN_LL_FS_MAKE_SOCK (1ULL << 9)
#define NSRUN_LL_FS_MAKE_FIFO (1ULL << 10)
#define NSRUN_LL_FS_MAKE_BLOCK (1ULL << 11)
#define NSRUN_LL_FS_MAKE_SYM (1ULL << 12)
#define NSRUN_LL_FS_REFER (1ULL << 13)			   /* ABI 2 */
#define NSRUN_LL_FS_TRUNCATE (1ULL << 14)		   /* ABI 3 */
#define NSRUN_LL_FS_IOCTL_DEV (1ULL << 15)		   /* ABI 5 */
#define NSRUN_LL_FS_RESOLVE_UNIX (1ULL << 16)		   /* ABI 9 */
#define NSRUN_LL_NET_BIND_TCP (1ULL << 0)		   /* ABI 4 */
#define NSRUN_LL_NET_CONNECT_TCP (1ULL << 1)		   /* ABI 4 */
#define NSRUN_LL_NET_BIND_UDP (1ULL << 2)		   /* ABI 10 */
#define NSRUN_LL_NET_CONNECT_SEND_UDP (1ULL << 3)	   /* ABI 10 */
#define NSRUN_LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)	   /* ABI 6 */
#define NSRUN_LL_SCOPE_SIGNAL (1ULL << 1)		   /* ABI 6 */
#define NSRUN_LL_RESTRICT_SELF_LOG_SAME_EXEC_OFF (1U << 0) /* ABI 7: no audit before exec */
#define NSRUN_LL_RESTRICT_SELF_LOG_NEW_EXEC_ON (1U << 1)   /* ABI 7: audit after exec */
#define NSRUN_LL_RESTRICT_SELF_TSYNC (1U << 3)		   /* ABI 8: every thread at once */

/* The full attribute layout (ABI 6); the kernel accepts a shorter size for older ABIs. */
struct nsrun_landlock_ruleset_attr {
	__u64 handled_access_fs;
	__u64 handled_access_net;
	__u64 scoped;
};

struct nsrun_landlock_path_beneath_attr {
	__u64 allowed_access;
	__s32 parent_fd;
} __attribute__((packed));

struct nsrun_landlock_net_port_attr {
	__u64 allowed_access;
	__u64 port;
};

/* ---- wrappers ---- */
static inline int sys_open_tree(int dfd, const char *path, unsigned int flags)
{
	return (int)syscall(__NR_open_tree, dfd, path, flags);
}

static inline int sys_move_mount(int from_dfd, const char *from_path, int to_dfd,
				 const char *to_path, unsigned int flags)
{
	return (int)syscall(__NR_move_mount, from_dfd, from_path, to_dfd, to_path, flags);
}

static inline int sys_fsopen(const char *fsname, unsigned int flags)
{
	return (int)syscall(__NR_fsopen, fsname, flags);
}

static inline int sys_fsconfig(int fd, unsigned int cmd, const char *key, const void *value,
			       int aux)
{
	return (int)syscall(__NR_fsconfig, fd, cmd, key, value, aux);
}

static inline int sys_fsmount(int fd, unsigned int flags, unsigned int attr_flags)
{
	return (int)syscall(__NR_fsmount, fd, flags, attr_flags);
}

static inline int sys_mount_setattr(int dfd, const char *path, unsigned int flags,
				    struct nsrun_mount_attr *attr)
{
	return (int)syscall(__NR_mount_setattr, dfd, path, flags, attr, sizeof(*attr));
}

static inline int sys_openat2(int dfd, const char *path, struct nsrun_open_how *how)
{
	return (int)syscall(__NR_openat2, dfd, path, how, sizeof(*how));
}

static inline int sys_pidfd_open(pid_t pid, unsigned int flags)
{
	return (int)syscall(__NR_pidfd_open, pid, flags);
}

static inline int sys_pidfd_send_signal(int pidfd, int sig)
{
	return (int)syscall(__NR_pidfd_send_signal, pidfd, sig, NULL, 0);
}

static inline int sys_close_range(unsigned int first, unsigned int last, unsigned int flags)
{
	return (int)syscall(__NR_close_range, first, last, flags);
}

static inline int sys_pivot_root(const char *new_root, const char *put_old)
{
	return (int)syscall(SYS_pivot_root, new_root, put_old);
}

/* glibc's capget/capset are declared only by libcap's header. */
static inline int sys_capget(void *header, void *data)
{
	return (int)syscall(SYS_capget, header, data);
}

static inline int sys_capset(void *header, const void *data)
{
	return (int)syscall(SYS_capset, header, data);
}

/* Fork-like clone: returns 0 in the child, the pid in the parent. */
static inline pid_t sys_clone_fork(unsigned long flags)
{
	return (pid_t)syscall(SYS_clone, flags, NULL, NULL, NULL, NULL);
}

#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif

/* clone3's arguments up to cgroup (CLONE_ARGS_SIZE_VER2, Linux 5.7); the 6.1 headers
 * have the struct, older ones do not, so it is spelled out. */
struct nsrun_clone_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
	uint64_t set_tid, set_tid_size, cgroup;
};

/* fork(2) through clone3: CLONE_* FLAGS (none in the low byte), EXIT_SIGNAL, the child
 * born in the cgroup CGROUP_FD when it is >= 0 (no migration, so nothing of it ever runs
 * outside), and its pidfd in *PIDFD when FLAGS has CLONE_PIDFD. */
static inline pid_t sys_clone3(uint64_t flags, int exit_signal, int cgroup_fd, int *pidfd)
{
	struct nsrun_clone_args a = { 0 };

	a.flags = flags;
	a.exit_signal = (uint64_t)exit_signal;
	if (cgroup_fd >= 0) {
		a.flags |= CLONE_INTO_CGROUP;
		a.cgroup = (uint64_t)cgroup_fd;
	}
	a.pidfd = (uint64_t)(uintptr_t)pidfd;
	return (pid_t)syscall(__NR_clone3, &a, sizeof(a));
}

/* The child born in the cgroup CGROUP_FD; flags' low byte is the exit signal, as for
 * clone. */
static inline pid_t sys_clone3_into_cgroup(unsigned long flags, int cgroup_fd)
{
	return sys_clone3(flags & ~0xffUL, (int)(flags & 0xff), cgroup_fd, NULL);
}

/* clone3's flags that tie the child's life to the pidfd it returns (tested on 7.2; 6.18
 * answers EINVAL): AUTOKILL needs AUTOREAP and PIDFD, and, without CAP_SYS_ADMIN, NNP. */
#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif
#ifndef CLONE_AUTOREAP
#define CLONE_AUTOREAP (1ULL << 34)
#endif
#ifndef CLONE_NNP
#define CLONE_NNP (1ULL << 35)
#endif
#ifndef CLONE_PIDFD_AUTOKILL
#define CLONE_PIDFD_AUTOKILL (1ULL << 36)
#endif

/* The child's flags for a life tied to *PIDFD: it is reaped by the kernel (no SIGCHLD,
 * no wait: its status comes from PIDFD_GET_INFO) and SIGKILLed when the last copy of
 * the pidfd is closed, by this process's exit too, however it exits. CGROUP_FD: as for
 * sys_clone3_into_cgroup, or -1. */
static inline pid_t sys_clone3_autokill(unsigned long flags, int cgroup_fd, int *pidfd)
{
	return sys_clone3((flags & ~0xffUL) | CLONE_PIDFD | CLONE_AUTOREAP | CLONE_PIDFD_AUTOKILL |
				  CLONE_NNP,
			  0, cgroup_fd, pidfd);
}

/* PIDFD_GET_INFO (6.13) with PIDFD_INFO_EXIT (6.15): an ended process's wait status,
 * also once it is reaped. The struct up to exit_code, as 6.15 lays it out. */
struct nsrun_pidfd_info {
	uint64_t mask, cgroupid;
	uint32_t pid, tgid, ppid, ruid, rgid, euid, egid, suid, sgid, fsuid, fsgid;
	int32_t exit_code;
	uint32_t coredump_mask, spare;
};
#define NSRUN_PIDFD_INFO_EXIT (1ULL << 3)
#define NSRUN_PIDFD_GET_INFO _IOWR(0xFF, 11, struct nsrun_pidfd_info)

/* clone3(NULL, 0): EINVAL on any kernel that has clone3 (it creates nothing), ENOSYS
 * where it is missing or a filter answers for it. */
static inline int sys_clone3_probe(void)
{
	return (int)syscall(__NR_clone3, NULL, 0);
}

static inline int sys_landlock_create_ruleset(const void *attr, size_t size, __u32 flags)
{
	return (int)syscall(__NR_landlock_create_ruleset, attr, size, flags);
}

static inline int sys_landlock_add_rule(int ruleset_fd, int rule_type, const void *rule_attr,
					__u32 flags)
{
	return (int)syscall(__NR_landlock_add_rule, ruleset_fd, rule_type, rule_attr, flags);
}

static inline int sys_landlock_restrict_self(int ruleset_fd, __u32 flags)
{
	return (int)syscall(__NR_landlock_restrict_self, ruleset_fd, flags);
}

/* Landlock's self-test: both need ptrace read access to pid and change nothing. */
static inline int sys_get_robust_list(pid_t pid, void **head, size_t *len)
{
	return (int)syscall(SYS_get_robust_list, pid, head, len);
}

static inline int sys_kcmp(pid_t pid1, pid_t pid2, int type, unsigned long idx1, unsigned long idx2)
{
	return (int)syscall(SYS_kcmp, pid1, pid2, type, idx1, idx2);
}

/* ---- listmount/statmount (Linux 6.8; used by hide.c to find submounts) ---- */
#ifndef __NR_statmount
#define __NR_statmount 457
#endif
#ifndef __NR_listmount
#define __NR_listmount 458
#endif
#ifndef STATX_MNT_ID_UNIQUE
#define STATX_MNT_ID_UNIQUE 0x00004000U
#endif
#define NSRUN_STATMOUNT_MNT_POINT 0x00000010U
#define NSRUN_MNT_ID_REQ_SIZE_VER0 24

struct nsrun_mnt_id_req {
	__u32 size;
	__u32 spare;
	__u64 mnt_id;
	__u64 param;
};

/* The 6.8 layout; later kernels only append fields. String fields are offsets into str[]. */
struct nsrun_statmount {
	__u32 size;
	__u32 mnt_opts;
	__u64 mask;
	__u32 sb_dev_major;
	__u32 sb_dev_minor;
	__u64 sb_magic;
	__u32 sb_flags;
	__u32 fs_type;
	__u64 mnt_id;
	__u64 mnt_parent_id;
	__u32 mnt_id_old;
	__u32 mnt_parent_id_old;
	__u64 mnt_attr;
	__u64 mnt_propagation;
	__u64 mnt_peer_group;
	__u64 mnt_master;
	__u64 propagate_from;
	__u32 mnt_root;
	__u32 mnt_point;
	__u64 spare2[50];
	char str[];
};

static inline int sys_statmount(const struct nsrun_mnt_id_req *req, struct nsrun_statmount *buf,
				size_t bufsize, unsigned int flags)
{
	return (int)syscall(__NR_statmount, req, buf, bufsize, flags);
}

static inline long sys_listmount(const struct nsrun_mnt_id_req *req, __u64 *ids, size_t nr,
				 unsigned int flags)
{
	return syscall(__NR_listmount, req, ids, nr, flags);
}
