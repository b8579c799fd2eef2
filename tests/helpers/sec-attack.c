/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sec-attack: carries out one attack that nsrun's seccomp guards must stop, step
 * by step, and says which step failed. The last line is either
 *   ATTACK <name> SUCCEEDED                      (exit 0)
 *   ATTACK <name> REFUSED at <step>: <strerror>  (exit 1)
 * and exit 2 means the attack could not even be set up. Dynamically linked on
 * purpose: the ld.so attack runs a copy of this very program through the loader.
 *   sec-attack memfd-execve|memfd-execveat|memfd-ldso|memfd-dlopen|memfd-mmap-exec
 *              [plain|seal|exec]                 (the memfd's MFD_* flags)
 *   sec-attack memfd-secret-exec | shared-anon-execve | i386-memfd-execve | x32-memfd
 *   sec-attack handle-ldso DIR       (a copy written to DIR, reopened by its file handle)
 *   sec-attack unix-connect PATH|@NAME | unix-dgram-pair PATH | unix-raw-pair PATH |
 *              unix-stream-pair
 *   sec-attack unix-io-uring PATH | i386-unix-socket PATH | i386-socketcall PATH
 *   sec-attack unix-listen STREAM_PATH DGRAM_PATH        (the server the above talk to)
 *   sec-attack tiocsti [--setsid] [--high] | tioclinux [--high]   (on fd 0, a tty)
 *   sec-attack leader-exit PIDFILE SECONDS   (the main thread exits, a thread runs on)
 *   sec-attack successors SECONDS            (forks a successor and exits, again and again)
 * The last two are for the deadline's sweep: they never print, and stop by themselves
 * after SECONDS, so that a sweep that misses them leaves nothing running for long.
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <linux/io_uring.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "audit-arch.h"
#include "macros.h"
#include "syscall.h"

static const char *attack = "?";

_noreturn_ static void succeeded(void)
{
	printf("ATTACK %s SUCCEEDED\n", attack);
	exit(0);
}

/* err: an errno value, or 0 when the step failed without one */
_noreturn_ static void refused(const char *step, int err)
{
	printf("ATTACK %s REFUSED at %s: %s\n", attack, step, err ? strerror(err) : "no effect");
	exit(1);
}

_noreturn_ static void setup_failed(const char *what)
{
	printf("ATTACK %s could not be set up: %s: %s\n", attack, what, strerror(errno));
	exit(2);
}

static void copy_file(int dst, const char *src)
{
	char buf[65536];
	int fd = open(src, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		setup_failed(src);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (write(dst, buf, (size_t)n) != n)
			setup_failed("write the memfd");
	if (n < 0)
		setup_failed(src);
	close(fd);
}

static unsigned memfd_flags(const char *mode)
{
	if (!mode || !strcmp(mode, "plain"))
		return 0;
	if (!strcmp(mode, "seal"))
		return MFD_NOEXEC_SEAL;
	if (!strcmp(mode, "exec"))
		return MFD_EXEC;
	fprintf(stderr, "sec-attack: memfd mode plain|seal|exec, not %s\n", mode);
	exit(2);
}

/* A memfd (not close-on-exec: the loader opens it by path after exec) holding src. */
static int memfd_with(const char *src, const char *mode)
{
	int fd = memfd_create("sec-attack", memfd_flags(mode));

	if (fd < 0)
		refused("memfd_create", errno);
	copy_file(fd, src);
	return fd;
}

/* The PT_INTERP of this program: the loader the ld.so attack runs. */
static void self_interp(char *out, size_t size)
{
	const ElfW(Phdr) *ph = (const ElfW(Phdr) *)getauxval(AT_PHDR);
	size_t n = getauxval(AT_PHNUM);
	uintptr_t base = 0;

	for (size_t i = 0; i < n; i++)
		if (ph[i].p_type == PT_PHDR)
			base = (uintptr_t)ph - ph[i].p_vaddr;
	for (size_t i = 0; i < n; i++)
		if (ph[i].p_type == PT_INTERP) {
			snprintf(out, size, "%s", (const char *)(base + ph[i].p_vaddr));
			return;
		}
	errno = ENOEXEC;
	setup_failed("find this program's PT_INTERP");
}

static void memfd_exec_attack(const char *how, const char *mode)
{
	char path[64], interp[PATH_MAX];
	int fd = memfd_with("/proc/self/exe", mode);

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	fflush(stdout);
	if (!strcmp(how, "execve")) {
		execl(path, "sec-attack", "ran", attack, (char *)NULL);
		refused("execve", errno);
	}
	if (!strcmp(how, "execveat")) {
		char *argv[] = { (char *)"sec-attack", (char *)"ran", (char *)attack, NULL };

		syscall(SYS_execveat, fd, "", argv, environ, AT_EMPTY_PATH);
		refused("execveat", errno);
	}
	self_interp(interp, sizeof(interp));
	execl(interp, interp, path, "ran", attack, (char *)NULL);
	refused("execve ld.so", errno);
}

/* A copy of this program written into DIR (as a command writes into its workspace,
 * which --landlock-exec makes noexec), reopened by its file handle through the mount of
 * "/", which is not noexec, and run by the loader. */
_noreturn_ static void handle_ldso_attack(const char *dir)
{
	struct file_handle *h = calloc(1, sizeof(*h) + MAX_HANDLE_SZ);
	char copy[PATH_MAX], path[64], interp[PATH_MAX];
	int fd, mount_id, root = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	snprintf(copy, sizeof(copy), "%s/sec-attack-copy", dir);
	fd = open(copy, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (!h || root < 0 || fd < 0)
		setup_failed("write a copy of this program");
	copy_file(fd, "/proc/self/exe");
	close(fd);
	h->handle_bytes = MAX_HANDLE_SZ;
	if (name_to_handle_at(AT_FDCWD, copy, h, &mount_id, 0) < 0)
		refused("name_to_handle_at", errno);
	fd = open_by_handle_at(root, h, O_RDONLY);
	if (fd < 0)
		refused("open_by_handle_at", errno);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	self_interp(interp, sizeof(interp));
	fflush(stdout);
	execl(interp, interp, path, "ran", attack, (char *)NULL);
	refused("execve ld.so", errno);
}

static void memfd_dlopen_attack(const char *mode)
{
	struct link_map *lm = NULL;
	void *libm = dlopen("libm.so.6", RTLD_LAZY | RTLD_LOCAL);
	char path[64];
	double (*cosine)(double);
	void *h;
	int fd;

	if (!libm || dlinfo(libm, RTLD_DI_LINKMAP, &lm) < 0 || !lm->l_name[0]) {
		errno = ENOENT;
		setup_failed("find libm.so.6");
	}
	fd = memfd_with(lm->l_name, mode);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		printf("dlerror: %s\n", dlerror());
		refused("dlopen", 0);
	}
	*(void **)&cosine = dlsym(h, "cos");
	if (!cosine || h == libm)
		refused("dlsym (the copy was not loaded)", 0);
	if (cosine(0.0) != 1.0)
		refused("call cos from the copy", 0);
	succeeded();
}

static void memfd_mmap_attack(const char *mode)
{
	int fd = memfd_with("/proc/self/exe", mode);

	if (mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0) == MAP_FAILED)
		refused("mmap PROT_EXEC", errno);
	succeeded();
}

static void memfd_secret_attack(void)
{
	int fd = (int)syscall(__NR_memfd_secret, 0);
	void *rw;

	if (fd < 0)
		refused("memfd_secret", errno);
	if (ftruncate(fd, 4096) < 0)
		setup_failed("ftruncate");
	rw = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (rw == MAP_FAILED)
		refused("mmap PROT_WRITE", errno);
	memset(rw, 0xc3, 4096); /* ret */
	if (mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0) == MAP_FAILED &&
	    mprotect(rw, 4096, PROT_READ | PROT_EXEC) < 0)
		refused("mmap or mprotect PROT_EXEC", errno);
	succeeded();
}

/* Shared anonymous memory is a file on the kernel's internal tmpfs too, which
 * /proc/PID/map_files opens (with CAP_SYS_ADMIN or CAP_CHECKPOINT_RESTORE in the
 * initial user namespace): the guards cannot refuse MAP_SHARED|MAP_ANONYMOUS. */
static void shared_anon_attack(void)
{
	size_t len = 4u << 20;
	char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char path[96];
	int src = open("/proc/self/exe", O_RDONLY | O_CLOEXEC), fd;
	ssize_t n, t = 0;

	if (m == MAP_FAILED || src < 0)
		setup_failed("map and fill shared memory");
	while ((n = read(src, m + t, len - (size_t)t)) > 0)
		t += n;
	snprintf(path, sizeof(path), "/proc/self/map_files/%lx-%lx", (unsigned long)m,
		 (unsigned long)m + len);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		refused("open /proc/self/map_files", errno);
	fflush(stdout);
	execl(path, "sec-attack", "ran", attack, (char *)NULL);
	refused("execve /proc/self/map_files", errno);
}

#ifdef __x86_64__
/* An i386 system call from this 64-bit process: arch is AUDIT_ARCH_I386 and the
 * arguments are truncated to 32 bits, so pointers must lie below 4 GiB. */
static long int80(long nr, long a, long b, long c)
{
	long ret;

	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(nr), "b"(a), "c"(b), "d"(c)
			 : "memory", "r8", "r9", "r10", "r11");
	return ret;
}

static sigjmp_buf int80_fault;

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(int80_fault, 1);
}

/* Some kernels and hypervisors (ia32_emulation=0, PVM guests) have no i386 entry:
 * int 0x80 then faults instead of entering the kernel. */
static void need_i386(void)
{
	struct sigaction sa = { .sa_handler = on_segv }, old;

	sigaction(SIGSEGV, &sa, &old);
	if (sigsetjmp(int80_fault, 1) != 0) {
		printf("ATTACK %s could not be set up: int 0x80 faults, no i386 system calls "
		       "here\n",
		       attack);
		exit(2);
	}
	(void)int80(20, 0, 0, 0); /* getpid */
	sigaction(SIGSEGV, &old, NULL);
}

static char *low_page(void)
{
	char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
		       -1, 0);

	if (p == MAP_FAILED)
		setup_failed("mmap MAP_32BIT");
	return p;
}

static void i386_memfd_attack(void)
{
	char *name = low_page(), path[64];
	long fd;

	need_i386();
	strcpy(name, "sec-attack");
	fd = int80(356, (long)(uintptr_t)name, 0, 0); /* memfd_create */
	if (fd < 0)
		refused("i386 memfd_create", (int)-fd);
	copy_file((int)fd, "/proc/self/exe");
	snprintf(path, sizeof(path), "/proc/self/fd/%ld", fd);
	fflush(stdout);
	execl(path, "sec-attack", "ran", attack, (char *)NULL);
	refused("execve", errno);
}

static void x32_memfd_attack(void)
{
	long fd = syscall(AUDIT_ARCH_X32_BIT | __NR_memfd_create, "sec-attack", 0);

	/* a kernel without CONFIG_X86_X32_ABI answers ENOSYS; the guard kills */
	if (fd < 0)
		refused("x32 memfd_create", errno);
	succeeded();
}
#endif

static socklen_t unix_addr(struct sockaddr_un *sa, const char *path)
{
	size_t len = strlen(path);

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (len >= sizeof(sa->sun_path)) {
		errno = ENAMETOOLONG;
		setup_failed(path);
	}
	memcpy(sa->sun_path, path, len);
	if (path[0] == '@') /* abstract */
		sa->sun_path[0] = '\0';
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len + (path[0] != '@'));
}

/* Connects the new socket fd to path and expects the server's greeting. */
static void connect_and_greet(int fd, const char *path)
{
	struct sockaddr_un sa;
	socklen_t len = unix_addr(&sa, path);
	char buf[16] = { 0 };

	if (connect(fd, (struct sockaddr *)&sa, len) < 0)
		refused("connect", errno);
	if (read(fd, buf, sizeof(buf) - 1) < 5 || strncmp(buf, "HELLO", 5) != 0)
		refused("read the greeting", errno);
	succeeded();
}

static void unix_connect_attack(const char *path)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		refused("socket(AF_UNIX)", errno);
	connect_and_greet(fd, path);
}

/* A datagram pair can still send to any path, even once connected; the kernel
 * makes a SOCK_RAW pair a datagram pair. */
static void unix_dgram_pair_attack(const char *path, bool raw)
{
	struct sockaddr_un sa;
	socklen_t len = unix_addr(&sa, path);
	int sv[2];

	if (socketpair(AF_UNIX, (raw ? SOCK_RAW : SOCK_DGRAM) | SOCK_CLOEXEC, 0, sv) < 0)
		refused(raw ? "socketpair(AF_UNIX, SOCK_RAW)" : "socketpair(AF_UNIX, SOCK_DGRAM)",
			errno);
	if (sendto(sv[0], "HELLO", 5, 0, (struct sockaddr *)&sa, len) != 5)
		refused("sendto", errno);
	succeeded();
}

/* Not an attack: what the guard must leave working. */
static void unix_stream_pair(void)
{
	char buf[8] = { 0 };
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		refused("socketpair(AF_UNIX, SOCK_STREAM)", errno);
	if (write(sv[0], "HELLO", 5) != 5 || read(sv[1], buf, sizeof(buf)) != 5)
		refused("write/read", errno);
	succeeded();
}

/* io_uring's IORING_OP_SOCKET (Linux 5.19) creates sockets without a system call
 * that seccomp could see. One SQE, one CQE, through the raw rings. */
static int io_uring_socket(void)
{
	struct io_uring_params p = { 0 };
	int ring = (int)syscall(__NR_io_uring_setup, 2, &p);
	uint8_t *sq, *cq;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	uint32_t tail;

	if (ring < 0)
		refused("io_uring_setup", errno);
	sq = mmap(NULL, p.sq_off.array + p.sq_entries * sizeof(uint32_t), PROT_READ | PROT_WRITE,
		  MAP_SHARED, ring, IORING_OFF_SQ_RING);
	cq = mmap(NULL, p.cq_off.cqes + p.cq_entries * sizeof(*cqe), PROT_READ | PROT_WRITE,
		  MAP_SHARED, ring, IORING_OFF_CQ_RING);
	sqe = mmap(NULL, p.sq_entries * sizeof(*sqe), PROT_READ | PROT_WRITE, MAP_SHARED, ring,
		   IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqe == MAP_FAILED)
		setup_failed("mmap the io_uring rings");
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_SOCKET;
	sqe->fd = AF_UNIX;
	sqe->off = SOCK_STREAM;
	tail = *(uint32_t *)(sq + p.sq_off.tail);
	((uint32_t *)(sq + p.sq_off.array))[tail & *(uint32_t *)(sq + p.sq_off.ring_mask)] = 0;
	__atomic_store_n((uint32_t *)(sq + p.sq_off.tail), tail + 1, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, ring, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0)
		refused("io_uring_enter", errno);
	cqe = (struct io_uring_cqe *)(cq + p.cq_off.cqes) +
	      (*(uint32_t *)(cq + p.cq_off.head) & *(uint32_t *)(cq + p.cq_off.ring_mask));
	if (cqe->res < 0)
		refused("IORING_OP_SOCKET", -cqe->res);
	return cqe->res;
}

#ifdef __x86_64__
static void i386_socket_attack(const char *path, bool socketcall)
{
	uint32_t *args = (uint32_t *)(void *)low_page();
	long fd;

	need_i386();
	if (socketcall) {
		args[0] = AF_UNIX, args[1] = SOCK_STREAM, args[2] = 0;
		fd = int80(102, 1, (long)(uintptr_t)args, 0); /* socketcall(SYS_SOCKET) */
	} else {
		fd = int80(359, AF_UNIX, SOCK_STREAM, 0); /* socket */
	}
	if (fd < 0)
		refused(socketcall ? "i386 socketcall(SYS_SOCKET)" : "i386 socket", (int)-fd);
	connect_and_greet((int)fd, path);
}
#endif

static int unix_bound(const char *path, int type)
{
	struct sockaddr_un sa;
	socklen_t len = unix_addr(&sa, path);
	int fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, len) < 0)
		setup_failed(path);
	return fd;
}

/* Greets every stream client and prints every datagram, until killed. */
_noreturn_ static void unix_listen(const char *stream_path, const char *dgram_path)
{
	struct pollfd p[2] = {
		{ unix_bound(stream_path, SOCK_STREAM), POLLIN, 0 },
		{ unix_bound(dgram_path, SOCK_DGRAM), POLLIN, 0 },
	};
	char buf[64];
	ssize_t n;

	if (listen(p[0].fd, 16) < 0)
		setup_failed("listen");
	chmod(stream_path, 0777);
	chmod(dgram_path, 0777);
	for (;;) {
		if (poll(p, 2, -1) < 0)
			continue;
		if (p[0].revents & POLLIN) {
			int c = accept4(p[0].fd, NULL, NULL, SOCK_CLOEXEC);

			if (c >= 0 && write(c, "HELLO\n", 6) == 6)
				printf("greeted a stream client\n");
			close(c);
		}
		if ((p[1].revents & POLLIN) && (n = read(p[1].fd, buf, sizeof(buf) - 1)) >= 0)
			printf("datagram: %.*s\n", (int)n, buf);
		fflush(stdout);
	}
}

/* --setsid: from a child in a session of its own, so that fd 0 is not the
 * controlling terminal (what --new-session leaves); TIOCSTI then needs
 * CAP_SYS_ADMIN. --high: the request with bit 32 set, which the kernel drops. */
static void tiocsti_attack(bool new_session, bool high)
{
	const char *text = "INJECTED\n";
	unsigned long req = TIOCSTI | (high ? 1ul << 32 : 0);
	struct pollfd p = { 0, POLLIN, 0 };
	char buf[64] = { 0 };
	ssize_t n;
	pid_t pid;
	int st;

	if (!isatty(0))
		setup_failed("fd 0 is not a terminal");
	if (new_session && (pid = fork()) != 0) {
		if (pid < 0 || waitpid(pid, &st, 0) < 0)
			setup_failed("fork");
		exit(WIFEXITED(st) ? WEXITSTATUS(st) : 2);
	}
	if (new_session && setsid() < 0)
		setup_failed("setsid");
	for (const char *c = text; *c; c++)
		if (syscall(SYS_ioctl, 0, req, c) < 0)
			refused("ioctl TIOCSTI", errno);
	/* The injected line is now input of the terminal: read it back. An EOF
	 * character queued before it (script(1) sends one when its stdin ends) reads
	 * as an empty line. */
	for (int i = 0; i < 4 && poll(&p, 1, 2000) == 1; i++) {
		n = read(0, buf, sizeof(buf) - 1);
		if (n < 0)
			refused("read the injected input back", errno);
		buf[n] = '\0';
		if (strstr(buf, "INJECTED"))
			succeeded();
	}
	refused("read the injected input back", 0);
}

static void tioclinux_attack(bool high)
{
	char sub[2] = { 6, 0 }; /* TIOCL_GETSHIFTSTATE: harmless, answered by a VT only */
	unsigned long req = TIOCLINUX | (high ? 1ul << 32 : 0);

	if (syscall(SYS_ioctl, 0, req, sub) < 0)
		refused("ioctl TIOCLINUX", errno);
	succeeded();
}

static bool has_opt(int argc, char **argv, const char *opt)
{
	for (int i = 2; i < argc; i++)
		if (!strcmp(argv[i], opt))
			return true;
	return false;
}

static void run_memfd(const char *name, const char *mode)
{
	if (!strcmp(name, "memfd-execve"))
		memfd_exec_attack("execve", mode);
	if (!strcmp(name, "memfd-execveat"))
		memfd_exec_attack("execveat", mode);
	if (!strcmp(name, "memfd-ldso"))
		memfd_exec_attack("ldso", mode);
	if (!strcmp(name, "memfd-dlopen"))
		memfd_dlopen_attack(mode);
	if (!strcmp(name, "memfd-mmap-exec"))
		memfd_mmap_attack(mode);
	if (!strcmp(name, "memfd-secret-exec"))
		memfd_secret_attack();
	if (!strcmp(name, "shared-anon-execve"))
		shared_anon_attack();
#ifdef __x86_64__
	if (!strcmp(name, "i386-memfd-execve"))
		i386_memfd_attack();
	if (!strcmp(name, "x32-memfd"))
		x32_memfd_attack();
#endif
}

static void run_unix(const char *name, const char *path)
{
	if (!strcmp(name, "unix-stream-pair"))
		unix_stream_pair();
	if (!path)
		return;
	if (!strcmp(name, "unix-connect"))
		unix_connect_attack(path);
	if (!strcmp(name, "unix-dgram-pair") || !strcmp(name, "unix-raw-pair"))
		unix_dgram_pair_attack(path, !strcmp(name, "unix-raw-pair"));
	if (!strcmp(name, "unix-io-uring"))
		connect_and_greet(io_uring_socket(), path);
#ifdef __x86_64__
	if (!strcmp(name, "i386-unix-socket"))
		i386_socket_attack(path, false);
	if (!strcmp(name, "i386-socketcall"))
		i386_socket_attack(path, true);
#endif
}

static void *sleeper(void *arg)
{
	sleep((unsigned)(uintptr_t)arg);
	_exit(0);
}

/* The thread group's leader exits and shows as a zombie while its thread runs on. */
_noreturn_ static void leader_exit(const char *pidfile, unsigned seconds)
{
	FILE *f = fopen(pidfile, "w");
	pthread_t t;

	if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f) != 0)
		setup_failed(pidfile);
	if (pthread_create(&t, NULL, sleeper, (void *)(uintptr_t)seconds) != 0)
		setup_failed("pthread_create");
	pthread_exit(NULL);
}

/* A chain of processes, each forking the next and exiting, until the deadline. */
_noreturn_ static void successors(unsigned seconds)
{
	time_t end = time(NULL) + seconds;
	pid_t pid;

	while (time(NULL) < end) {
		pid = fork();
		if (pid > 0)
			_exit(0);
		if (pid < 0)
			usleep(1000);
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: sec-attack ATTACK [ARGS] (see the source)\n");
		return 2;
	}
	attack = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(attack, "ran") && argc > 2) {
		attack = argv[2]; /* the code from the memfd runs: the attack worked */
		succeeded();
	}
	if (!strcmp(attack, "unix-listen") && argc > 3)
		unix_listen(argv[2], argv[3]);
	if (!strcmp(attack, "tiocsti"))
		tiocsti_attack(has_opt(argc, argv, "--setsid"), has_opt(argc, argv, "--high"));
	if (!strcmp(attack, "tioclinux"))
		tioclinux_attack(has_opt(argc, argv, "--high"));
	if (!strcmp(attack, "leader-exit") && argc > 3)
		leader_exit(argv[2], (unsigned)atoi(argv[3]));
	if (!strcmp(attack, "successors") && argc > 2)
		successors((unsigned)atoi(argv[2]));
	if (!strcmp(attack, "handle-ldso") && argc > 2)
		handle_ldso_attack(argv[2]);
	run_memfd(attack, argc > 2 ? argv[2] : NULL);
	run_unix(attack, argc > 2 ? argv[2] : NULL);
	fprintf(stderr, "sec-attack: unknown attack or missing argument: %s\n", attack);
	return 2;
}
