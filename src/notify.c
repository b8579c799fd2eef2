/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * notify.c: --report-fd's observer on the monitor's side (issue 36). It only reads:
 * every call it is shown goes on as if no filter were there (CONTINUE), whether or
 * not it could be read, so it can neither loosen nor tighten what the command may do.
 * What it reads is read before the call goes on (the names as they were when the call
 * was made), from outside the sandbox: process_vm_readv for the arguments,
 * /proc/PID/cwd and /proc/PID/fd/N for where relative names start (the kernel prints
 * them as seen inside a pivoted root, since that root is out of the monitor's reach),
 * and /proc/PID/root, walked with RESOLVE_IN_ROOT, for whether a name exists there.
 */
#include "config.h"

#include "notify.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "macros.h"
#include "syscall.h"
#include "util.h"

/* Debian 12's headers have these; older ones may not. */
#ifndef SECCOMP_USER_NOTIF_FLAG_CONTINUE
#define SECCOMP_USER_NOTIF_FLAG_CONTINUE (1UL << 0)
#endif
#ifndef SECCOMP_IOCTL_NOTIF_RECV
#define SECCOMP_IOCTL_NOTIF_RECV _IOWR('!', 0, struct seccomp_notif)
#define SECCOMP_IOCTL_NOTIF_SEND _IOWR('!', 1, struct seccomp_notif_resp)
#endif
#ifndef SECCOMP_IOCTL_NOTIF_ID_VALID
#define SECCOMP_IOCTL_NOTIF_ID_VALID _IOW('!', 2, __u64)
#endif

#ifndef __NR_pidfd_getfd
#define __NR_pidfd_getfd 438
#endif

#define NOTIFY_AT_FDCWD (-100)
/* How long the monitor waits for a read of the caller (its memory, its root) */
#define NOTIFY_READ_MS 1000

/* One call's arguments: where each name is, and from which directory it starts. */
struct call {
	int nr;
	const __u64 *args;
	pid_t pid;
};

/* size bytes of the caller's at addr: process_vm_readv, one call and no fd (the same
 * ptrace check as /proc/PID/mem); a partial read stops at an unmapped page. */
static ssize_t read_mem(pid_t pid, __u64 addr, void *buf, size_t size)
{
	struct iovec local = { buf, size }, remote = { (void *)(uintptr_t)addr, size };

	return process_vm_readv(pid, &local, 1, &remote, 1, 0);
}

/* A string of the caller's at addr, read page by page (the next page may be unmapped). */
static bool read_string(pid_t pid, __u64 addr, char *buf, size_t size)
{
	size_t got = 0;

	while (got < size) {
		size_t room = 4096 - (size_t)((addr + got) % 4096);
		ssize_t n =
			read_mem(pid, addr + got, buf + got, room < size - got ? room : size - got);

		if (n <= 0)
			return false;
		if (memchr(buf + got, '\0', (size_t)n))
			return true;
		got += (size_t)n;
	}
	return false;
}

static bool read_link(pid_t pid, const char *what, char *buf, size_t size)
{
	char proc[64];
	ssize_t n;

	snprintf(proc, sizeof(proc), "/proc/%d/%s", (int)pid, what);
	n = readlink(proc, buf, size - 1);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return buf[0] == '/';
}

/* The directory a relative name starts from, as seen in the sandbox: the kernel prints
 * it relative to the caller's root when that root is out of the monitor's reach (a
 * pivoted sandbox); a root within reach (a chroot) is cut off the front. */
static bool start_dir(pid_t pid, long dirfd, char *buf, size_t size)
{
	char what[32], root[PATH_MAX];
	size_t n;

	if ((int)dirfd == NOTIFY_AT_FDCWD)
		snprintf(what, sizeof(what), "cwd");
	else
		snprintf(what, sizeof(what), "fd/%d", (int)dirfd);
	if (!read_link(pid, what, buf, size) || !read_link(pid, "root", root, sizeof(root)))
		return false;
	n = strlen(root);
	if (strcmp(root, "/") == 0)
		return true;
	if (strncmp(buf, root, n) != 0 || (buf[n] != '/' && buf[n] != '\0'))
		return false;
	memmove(buf, buf[n] ? buf + n : "/", strlen(buf[n] ? buf + n : "/") + 1);
	return true;
}

static bool exists_in_root(int root, const char *path)
{
	struct nsrun_open_how how = { .flags = O_PATH | O_NOFOLLOW | O_CLOEXEC,
				      .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS };
	int fd = sys_openat2(root, path, &how);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* Reads the name at args[a] that starts from the directory fd args[d] (-1: the cwd). */
static bool read_name(const struct call *c, int a, int d, struct notify_name *nm)
{
	char base[PATH_MAX];

	if (!read_string(c->pid, c->args[a], nm->named, sizeof(nm->named)))
		return false;
	if (nm->named[0] == '/') {
		snprintf(nm->path, sizeof(nm->path), "%s", nm->named);
		return true;
	}
	if (!start_dir(c->pid, d < 0 ? NOTIFY_AT_FDCWD : (long)(int)c->args[d], base, sizeof(base)))
		return false;
	return (size_t)snprintf(nm->path, sizeof(nm->path), "%s%s%s", base,
				nm->named[0] && strcmp(base, "/") != 0 ? "/" : "",
				nm->named) < sizeof(nm->path);
}

static void read_comm(pid_t pid, char *comm, size_t size)
{
	char proc[64];
	_cleanup_close_ int fd = -1;
	ssize_t n;

	snprintf(proc, sizeof(proc), "/proc/%d/comm", (int)pid);
	fd = open(proc, O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? read(fd, comm, size - 1) : -1;
	comm[n > 0 ? n : 0] = '\0';
	comm[strcspn(comm, "\n")] = '\0';
}

/* size bytes from fd within ms milliseconds, all of them or false. */
static bool read_within(int fd, void *buf, size_t size, int ms)
{
	struct pollfd q = { .fd = fd, .events = POLLIN };
	uint64_t end = now_ms() + (uint64_t)ms;
	size_t got = 0;

	while (got < size) {
		uint64_t t = now_ms();
		int r = t < end ? poll(&q, 1, (int)(end - t)) : 0;
		ssize_t n;

		if (r == 0 || (r < 0 && errno != EINTR))
			return false;
		if (r < 0)
			continue;
		n = read(fd, (char *)buf + got, size - got);
		if (n == 0 || (n < 0 && errno != EINTR))
			return false;
		got += n > 0 ? (size_t)n : 0;
	}
	return true;
}

/* The call being read: what the reader's read_now reads. */
struct call_copy {
	int nr;
	pid_t pid;
	__u64 args[6];
};
static struct call_copy reading;

/* One request to the reader and its answer. */
struct reader_msg {
	bool (*work)(struct notify_event *ev);
	struct call_copy call;
	struct notify_event ev;
	bool ok;
};

/* The reader (a child of the monitor), the monitor's end of its socket, and one reader
 * given up on (or -1). The reader keeps no other fd of the monitor's: one stuck must not
 * keep the filter's listener open once the monitor closes it. */
static pid_t reader_pid = -1, stuck_reader = -1;
static int reader_fd = -1;

static _Noreturn void reader_loop(int fd)
{
	static struct reader_msg m;

	while (recv(fd, &m, sizeof(m), 0) == (ssize_t)sizeof(m)) {
		reading = m.call;
		m.ok = m.work(&m.ev);
		if (send(fd, &m, sizeof(m), MSG_NOSIGNAL) != (ssize_t)sizeof(m))
			break;
	}
	_exit(0);
}

static bool reader_start(void)
{
	int sv[2];
	pid_t monitor = getpid();

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return false;
	reader_pid = fork();
	if (reader_pid == 0) {
		/* Forked after the clone, it would hold what the monitor holds: the listener,
		 * the life pipe, the sandbox's pidfd (CLONE_PIDFD_AUTOKILL), which must all go
		 * with the monitor, not with a reader stuck in the kernel. */
		fd_close_all_except(&sv[1], 1);
		(void)prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != monitor)
			_exit(0);
		reader_loop(sv[1]);
	}
	close(sv[1]);
	if (reader_pid < 0) {
		close(sv[0]);
		return false;
	}
	reader_fd = sv[0];
	return true;
}

/* Whether no reader given up on is left (reaped here, or by the supervisor). */
static bool reader_ended(void)
{
	if (stuck_reader > 0 && waitpid(stuck_reader, NULL, WNOHANG) == 0)
		return false;
	stuck_reader = -1;
	return true;
}

/* Runs work(ev) in the reader, a child of the monitor, and gives up after
 * NOTIFY_READ_MS. The command decides what the reads meet: a name in memory that its
 * own userfaultfd serves, or a file of its own FUSE mount, makes process_vm_readv or a
 * lookup wait for good, uninterruptibly; the monitor must not wait with it (--timeout
 * would never fire). A reader given up on is killed; it lets go once the command's
 * memory or mount goes, and until then nothing more is read (no entries; the calls go
 * on all the same). */
static bool bounded(bool (*work)(struct notify_event *), struct notify_event *ev)
{
	static struct reader_msg m;

	if (!reader_ended() || (reader_fd < 0 && !reader_start()))
		return false;
	m.work = work;
	m.call = reading;
	m.ev = *ev;
	if (send(reader_fd, &m, sizeof(m), MSG_NOSIGNAL) == (ssize_t)sizeof(m) &&
	    read_within(reader_fd, &m, sizeof(m), NOTIFY_READ_MS)) {
		*ev = m.ev;
		return m.ok;
	}
	kill(reader_pid, SIGKILL);
	stuck_reader = reader_pid;
	reader_pid = -1;
	close(reader_fd);
	reader_fd = -1;
	return false;
}

static bool find(struct notify_event *ev)
{
	_cleanup_close_ int root = -1;
	char proc[64], dir[PATH_MAX], *slash;

	read_comm(ev->pid, ev->comm, sizeof(ev->comm));
	snprintf(proc, sizeof(proc), "/proc/%d/root", (int)ev->pid);
	root = open(proc, O_PATH | O_DIRECTORY | O_CLOEXEC);
	for (unsigned i = 0; root >= 0 && i < ev->n_names; i++) {
		struct notify_name *nm = &ev->names[i];

		nm->exists = exists_in_root(root, nm->path);
		snprintf(dir, sizeof(dir), "%s", nm->path);
		slash = strrchr(dir, '/');
		if (slash)
			*(slash == dir ? slash + 1 : slash) = '\0';
		nm->parent_exists = exists_in_root(root, dir);
	}
	return true;
}

void notify_find(struct notify_event *ev)
{
	struct notify_event found = *ev;

	if (bounded(find, &found))
		*ev = found;
}

/* An open's flags say what it does; a read-only open without O_TRUNC is nothing here. */
static bool open_access(unsigned long flags, struct notify_event *ev)
{
	unsigned long mode = flags & O_ACCMODE;

	ev->creates = flags & O_CREAT;
	ev->exclusive = ev->creates && (flags & O_EXCL);
	if (mode == O_WRONLY || mode == O_RDWR || ev->creates)
		ev->access = NOTIFY_WRITE;
	else if (flags & O_TRUNC)
		ev->access = NOTIFY_TRUNCATE;
	else
		return false;
	return true;
}

static bool read_open(const struct call *c, int a, int d, unsigned long flags,
		      struct notify_event *ev)
{
	ev->n_names = 1;
	return open_access(flags, ev) && read_name(c, a, d, &ev->names[0]);
}

/* openat2's flags are behind a pointer. */
static bool read_openat2(const struct call *c, struct notify_event *ev)
{
	__u64 flags;

	if (read_mem(c->pid, c->args[2], &flags, sizeof(flags)) != (ssize_t)sizeof(flags))
		return false;
	return read_open(c, 1, 0, (unsigned long)flags, ev);
}

static bool names(const struct call *c, enum notify_access access, int a, int d, int a2, int d2,
		  struct notify_event *ev)
{
	ev->access = access;
	ev->n_names = a2 < 0 ? 1 : 2;
	return read_name(c, a, d, &ev->names[0]) && (a2 < 0 || read_name(c, a2, d2, &ev->names[1]));
}

/* The socket's type, from a copy of the caller's fd (pidfd_getfd, Linux 5.6). */
static bool socket_is_udp(pid_t pid, int fd, bool *udp)
{
	_cleanup_close_ int pidfd = sys_pidfd_open(pid, 0), sock = -1;
	int type = 0;
	socklen_t len = sizeof(type);

	if (pidfd < 0)
		return false;
	sock = (int)syscall(__NR_pidfd_getfd, pidfd, fd, 0);
	if (sock < 0 || getsockopt(sock, SOL_SOCKET, SO_TYPE, &type, &len) < 0)
		return false;
	*udp = type == SOCK_DGRAM;
	return type == SOCK_DGRAM || type == SOCK_STREAM;
}

static bool v6_loopback(const struct in6_addr *a)
{
	static const unsigned char mapped[12] = { [10] = 0xff, [11] = 0xff };

	return IN6_IS_ADDR_LOOPBACK(a) ||
	       (memcmp(a->s6_addr, mapped, 12) == 0 && a->s6_addr[12] == 127);
}

/* connect(fd, addr, len), bind(fd, addr, len), sendto(fd, ..., addr, len) to an IPv4
 * or IPv6 address: the address is args[a], its length args[a + 1]. */
static bool read_peer(const struct call *c, enum notify_access access, int a,
		      struct notify_event *ev)
{
	struct sockaddr_storage sa = { 0 };
	size_t len = c->args[a + 1] < sizeof(sa) ? (size_t)c->args[a + 1] : sizeof(sa);
	struct notify_peer *p = &ev->peer;
	const struct sockaddr_in *in = (const void *)&sa;
	const struct sockaddr_in6 *in6 = (const void *)&sa;

	ev->access = access;
	if (len < sizeof(sa_family_t) || read_mem(c->pid, c->args[a], &sa, len) != (ssize_t)len)
		return false;
	if (sa.ss_family == AF_INET && len >= sizeof(*in)) {
		p->port = ntohs(in->sin_port);
		p->loopback = (ntohl(in->sin_addr.s_addr) >> 24) == 127;
		inet_ntop(AF_INET, &in->sin_addr, p->address, sizeof(p->address));
	} else if (sa.ss_family == AF_INET6 && len >= sizeof(*in6)) {
		p->port = ntohs(in6->sin6_port);
		p->loopback = v6_loopback(&in6->sin6_addr);
		inet_ntop(AF_INET6, &in6->sin6_addr, p->address, sizeof(p->address));
	} else {
		return false; /* AF_UNSPEC, AF_UNIX, ...: not observed */
	}
	/* a stream socket's send goes where its connect went: only datagrams are sends */
	return socket_is_udp(c->pid, (int)c->args[0], &p->udp) && (access != NOTIFY_SEND || p->udp);
}

/* The calls of the *at family, in every ABI. */
static bool read_at_call(const struct call *c, struct notify_event *ev)
{
	switch (c->nr) {
	case __NR_connect:
		return read_peer(c, NOTIFY_CONNECT, 1, ev);
	case __NR_bind:
		return read_peer(c, NOTIFY_BIND, 1, ev);
	case __NR_sendto:
		return read_peer(c, NOTIFY_SEND, 4, ev);
	case __NR_openat:
		return read_open(c, 1, 0, (unsigned long)c->args[2], ev);
	case __NR_openat2:
		return read_openat2(c, ev);
	case __NR_mkdirat:
	case __NR_mknodat:
		return names(c, NOTIFY_CREATE, 1, 0, -1, -1, ev);
	case __NR_symlinkat:
		return names(c, NOTIFY_CREATE, 2, 1, -1, -1, ev);
	case __NR_unlinkat:
		return names(c, NOTIFY_REMOVE, 1, 0, -1, -1, ev);
	case __NR_renameat2:
		return names(c, NOTIFY_RENAME, 1, 0, 3, 2, ev);
	case __NR_linkat:
		return names(c, NOTIFY_LINK, 3, 2, -1, -1, ev);
	case __NR_truncate:
		return names(c, NOTIFY_TRUNCATE, 0, -1, -1, -1, ev);
	case __NR_execve:
		return names(c, NOTIFY_EXECUTE, 0, -1, -1, -1, ev);
	case __NR_execveat:
		return names(c, NOTIFY_EXECUTE, 1, 0, -1, -1, ev);
	default:
		return false;
	}
}

/* The older calls, where the ABI has them (arm64 has none). */
static bool read_call(const struct call *c, struct notify_event *ev)
{
	switch (c->nr) {
#ifdef __NR_open
	case __NR_open:
		return read_open(c, 0, -1, (unsigned long)c->args[1], ev);
	case __NR_creat:
		return read_open(c, 0, -1, O_CREAT | O_WRONLY | O_TRUNC, ev);
	case __NR_mkdir:
	case __NR_mknod:
		return names(c, NOTIFY_CREATE, 0, -1, -1, -1, ev);
	case __NR_symlink:
		return names(c, NOTIFY_CREATE, 1, -1, -1, -1, ev);
	case __NR_unlink:
	case __NR_rmdir:
		return names(c, NOTIFY_REMOVE, 0, -1, -1, -1, ev);
	case __NR_rename:
		return names(c, NOTIFY_RENAME, 0, -1, 1, -1, ev);
	case __NR_link:
		return names(c, NOTIFY_LINK, 1, -1, -1, -1, ev);
#endif
#ifdef __NR_renameat
	case __NR_renameat:
		return names(c, NOTIFY_RENAME, 1, 0, 3, 2, ev);
#endif
	default:
		return read_at_call(c, ev);
	}
}

static bool read_now(struct notify_event *ev)
{
	struct call c = { .nr = reading.nr, .args = reading.args, .pid = reading.pid };

	return read_call(&c, ev);
}

/* Reads the call, in a reader that cannot hold the monitor; false when any of it could
 * not be read. */
static bool read_event(const struct seccomp_notif *req, struct notify_event *ev)
{
	*ev = (struct notify_event){ .pid = (pid_t)req->pid };
	reading.nr = req->data.nr;
	reading.pid = (pid_t)req->pid;
	memcpy(reading.args, req->data.args, sizeof(reading.args));
	return bounded(read_now, ev);
}

int notify_serve(int listener, notify_fn fn, void *arg)
{
	/* The kernel's struct may be larger than this header's: room for it, zeroed. */
	static union {
		struct seccomp_notif req;
		char room[1024];
	} u;
	static struct notify_event ev;
	struct seccomp_notif_resp resp = { 0 };
	bool read;

	memset(&u, 0, sizeof(u));
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &u.req) < 0)
		return errno == EINTR || errno == ENOENT ? 0 : -errno;
	read = read_event(&u.req, &ev);
	/* Whatever was read belongs to the caller only if the call is still waiting: its pid
	 * could otherwise name another process by now. (A call that is no longer waiting is
	 * not answered: the kernel has dropped it.) */
	if (read && ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &u.req.id) < 0)
		read = false;
	/* Before the call goes on: what fn finds in the sandbox is what the call met. */
	if (read)
		fn(arg, &ev);
	resp.id = u.req.id;
	resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	(void)ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	return 0;
}
