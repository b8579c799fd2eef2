/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * nsrun-probe: the payload of the integration and compatibility tests. Each verb
 * prints stable "key=value" lines (path verbs use "verb:PATH=value"), so tests assert
 * on what the sandbox looks like without needing host tools inside it. It is linked
 * statically and uses no sanitizers, so it runs in a sandbox that has no /usr.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static const char *prog_argv0;

/* errno names, so output does not depend on the C library's message texts. */
static const char *errname(int e)
{
	static char buf[32];
	static const struct {
		int e;
		const char *n;
	} names[] = {
		{ EPERM, "EPERM" },   { ENOENT, "ENOENT" },   { ESRCH, "ESRCH" },
		{ EINTR, "EINTR" },   { EIO, "EIO" },	      { ENXIO, "ENXIO" },
		{ EBADF, "EBADF" },   { ECHILD, "ECHILD" },   { EAGAIN, "EAGAIN" },
		{ ENOMEM, "ENOMEM" }, { EACCES, "EACCES" },   { EBUSY, "EBUSY" },
		{ EEXIST, "EEXIST" }, { EXDEV, "EXDEV" },     { ENODEV, "ENODEV" },
		{ ENOTDIR, "ENOTDIR" }, { EISDIR, "EISDIR" }, { EINVAL, "EINVAL" },
		{ ENOSPC, "ENOSPC" }, { EROFS, "EROFS" },     { EMLINK, "EMLINK" },
		{ ENOSYS, "ENOSYS" }, { ELOOP, "ELOOP" },     { ENOTEMPTY, "ENOTEMPTY" },
		{ ENOTTY, "ENOTTY" }, { ETXTBSY, "ETXTBSY" }, { EOPNOTSUPP, "EOPNOTSUPP" },
		{ EUSERS, "EUSERS" }, { ENAMETOOLONG, "ENAMETOOLONG" }, { EOVERFLOW, "EOVERFLOW" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == e)
			return names[i].n;
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Reads a whole small file; returns NULL with errno set. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int c;

	if (!f)
		return NULL;
	while ((c = fgetc(f)) != EOF) {
		if (len + 2 > cap) {
			cap = cap ? cap * 2 : 4096;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		buf[len++] = (char)c;
	}
	fclose(f);
	if (!buf)
		buf = calloc(1, 1);
	else
		buf[len] = '\0';
	return buf;
}

static void v_ids(void)
{
	gid_t groups[256];
	int n = getgroups(256, groups);

	printf("uid=%u\ngid=%u\neuid=%u\negid=%u\ngroups=", getuid(), getgid(), geteuid(),
	       getegid());
	for (int i = 0; i < n; i++)
		printf("%s%u", i ? " " : "", groups[i]);
	printf("\n");
}

/* The map as "inside outside count" per line, with the kernel's padding squeezed. */
static void v_map(const char *key, const char *path)
{
	char *text = slurp(path), *save = NULL;
	unsigned long a, b, c;

	if (!text) {
		printf("%s=errno=%s\n", key, errname(errno));
		return;
	}
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (sscanf(l, "%lu %lu %lu", &a, &b, &c) == 3)
			printf("%s=%lu %lu %lu\n", key, a, b, c);
	free(text);
}

static void v_caps(void)
{
	static const char *const keys[] = { "CapInh", "CapPrm", "CapEff", "CapBnd",
					    "CapAmb", "NoNewPrivs", "Seccomp" };
	char *text = slurp("/proc/self/status"), *save = NULL;

	if (!text) {
		printf("caps=errno=%s\n", errname(errno));
		return;
	}
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			size_t n = strlen(keys[i]);

			if (strncmp(l, keys[i], n) == 0 && l[n] == ':')
				printf("%s=%s\n", keys[i], l + n + 1 + strspn(l + n + 1, " \t"));
		}
	free(text);
}

static void v_ns(void)
{
	static const char *const names[] = { "cgroup", "ipc",  "mnt",  "net",
					     "pid",    "time", "user", "uts" };
	char path[64];
	struct stat st;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "/proc/self/ns/%s", names[i]);
		if (stat(path, &st) == 0)
			printf("ns.%s=%lu\n", names[i], (unsigned long)st.st_ino);
		else
			printf("ns.%s=errno=%s\n", names[i], errname(errno));
	}
}

static void v_env(void)
{
	size_t n = 0;
	char **copy;

	while (environ && environ[n])
		n++;
	copy = calloc(n + 1, sizeof(*copy));
	if (!copy)
		abort();
	memcpy(copy, environ, n * sizeof(*copy));
	qsort(copy, n, sizeof(*copy), cmp_str);
	for (size_t i = 0; i < n; i++)
		printf("env=%s\n", copy[i]);
	free(copy);
}

static const char *ftype(mode_t m)
{
	switch (m & S_IFMT) {
	case S_IFDIR: return "dir";
	case S_IFREG: return "file";
	case S_IFLNK: return "symlink";
	case S_IFCHR: return "chr";
	case S_IFBLK: return "blk";
	case S_IFIFO: return "fifo";
	case S_IFSOCK: return "sock";
	default: return "unknown";
	}
}

static void v_stat(const char *verb, const char *path, int follow)
{
	struct stat st;
	int r = follow ? stat(path, &st) : lstat(path, &st);

	if (r < 0) {
		printf("%s:%s=errno=%s\n", verb, path, errname(errno));
		return;
	}
	printf("%s:%s=%s mode=%04o uid=%u gid=%u rdev=%u:%u\n", verb, path, ftype(st.st_mode),
	       (unsigned)(st.st_mode & 07777), st.st_uid, st.st_gid, major(st.st_rdev),
	       minor(st.st_rdev));
}

static void v_readlink(const char *path)
{
	char buf[4096];
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);

	if (n < 0) {
		printf("readlink:%s=errno=%s\n", path, errname(errno));
		return;
	}
	buf[n] = '\0';
	printf("readlink:%s=%s\n", path, buf);
}

static void v_ls(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0;

	if (!d) {
		printf("ls:%s=errno=%s\n", path, errname(errno));
		return;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		if (!names || !(names[n] = strdup(de->d_name)))
			abort();
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	printf("ls:%s=", path);
	for (size_t i = 0; i < n; i++) {
		printf("%s%s", i ? " " : "", names[i]);
		free(names[i]);
	}
	printf("\n");
	free(names);
}

/* Undoes mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] && s[3]) {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/*
 * The mount that PATH is on (found by its mount id, so covered mounts never match):
 * mount point, fs type, per-mount options and super-block options.
 */
static void v_mountinfo(const char *path)
{
	struct statx stx;
	char *text, *save = NULL;
	char found[2048] = "";

	if (statx(AT_FDCWD, path, 0, STATX_MNT_ID, &stx) < 0 ||
	    !(text = slurp("/proc/self/mountinfo"))) {
		printf("mountinfo:%s=errno=%s\n", path, errname(errno));
		return;
	}
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *f[16], *g[3], *s2 = NULL, *s3 = NULL, *sep = strstr(l, " - ");
		int n = 0, m = 0;

		if (!sep)
			continue;
		*sep = '\0';
		for (char *t = strtok_r(l, " ", &s2); t && n < 16; t = strtok_r(NULL, " ", &s2))
			f[n++] = t;
		for (char *t = strtok_r(sep + 3, " ", &s3); t && m < 3; t = strtok_r(NULL, " ", &s3))
			g[m++] = t;
		if (n < 6 || m < 3 || strtoull(f[0], NULL, 10) != stx.stx_mnt_id)
			continue;
		unescape(f[4]);
		snprintf(found, sizeof(found), "mnt=%s fstype=%s opts=%s super=%s", f[4], g[0], f[5],
			 g[2]);
	}
	printf("mountinfo:%s=%s\n", path, found[0] ? found : "errno=ENOENT");
	free(text);
}

static void v_statfs(const char *path)
{
	struct statfs sf;

	if (statfs(path, &sf) < 0) {
		printf("statfs:%s=errno=%s\n", path, errname(errno));
		return;
	}
	printf("statfs:%s=type=0x%lx kb=%llu flags=%s%s%s%s\n", path, (unsigned long)sf.f_type,
	       (unsigned long long)sf.f_blocks * (unsigned long long)sf.f_bsize / 1024,
	       (sf.f_flags & ST_RDONLY) ? "ro" : "rw", (sf.f_flags & ST_NOSUID) ? ",nosuid" : "",
	       (sf.f_flags & ST_NODEV) ? ",nodev" : "", (sf.f_flags & ST_NOEXEC) ? ",noexec" : "");
}

static void result(const char *verb, const char *arg, int r)
{
	if (r < 0)
		printf("%s:%s=errno=%s\n", verb, arg, errname(errno));
	else
		printf("%s:%s=ok\n", verb, arg);
}

static void v_write(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd >= 0 && write(fd, "probe\n", 6) != 6) {
		close(fd);
		fd = -1;
	}
	result("write", path, fd);
	if (fd >= 0)
		close(fd);
}

static void v_cat(const char *path)
{
	char *text = slurp(path);

	if (!text) {
		printf("cat:%s=errno=%s\n", path, errname(errno));
		return;
	}
	printf("cat:%s=", path);
	for (char *p = text; *p; p++)
		if (*p == '\n')
			printf("\\n");
		else
			putchar(*p);
	printf("\n");
	free(text);
}

static void v_open(const char *path, const char *flags)
{
	int f = O_RDONLY;

	if (!strcmp(flags, "w"))
		f = O_WRONLY;
	else if (!strcmp(flags, "rw"))
		f = O_RDWR;
	else if (!strcmp(flags, "wc"))
		f = O_WRONLY | O_CREAT;
	int fd = open(path, f | O_CLOEXEC, 0644);

	result("open", path, fd);
	if (fd >= 0)
		close(fd);
}

static void sleep_seconds(const char *s)
{
	double d = strtod(s, NULL);
	struct timespec ts = { (time_t)d, (long)((d - (double)(time_t)d) * 1e9) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int signum(const char *s)
{
	static const struct {
		const char *n;
		int s;
	} sigs[] = { { "HUP", SIGHUP }, { "INT", SIGINT },   { "KILL", SIGKILL },
		     { "TERM", SIGTERM }, { "SEGV", SIGSEGV }, { "USR1", SIGUSR1 } };

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (!strcmp(s, sigs[i].n))
			return sigs[i].s;
	return atoi(s);
}

static void v_kill_self(const char *s)
{
	int sig = signum(s);
	sigset_t set;

	fflush(stdout);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	kill(getpid(), sig);
	pause();
}

/*
 * Orphans a grandchild that exits at once, so it is reparented to pid 1 of our pid
 * namespace; after a while its /proc entry tells whether pid 1 reaped it.
 */
static void v_zombie(void)
{
	int p[2];
	pid_t child, gpid = 0;
	char path[64];

	if (pipe(p) < 0)
		abort();
	fflush(stdout);
	child = fork();
	if (child == 0) {
		pid_t g = fork();

		if (g == 0)
			_exit(0);
		if (write(p[1], &g, sizeof(g)) != sizeof(g))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], &gpid, sizeof(gpid)) != sizeof(gpid))
		gpid = 0;
	close(p[0]);
	waitpid(child, NULL, 0);
	sleep_seconds("0.3");
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)gpid);
	char *st = slurp(path);
	char *rp = st ? strrchr(st, ')') : NULL;

	printf("zombie=%s\n", !st ? "reaped" : (rp && rp[2] == 'Z') ? "zombie" : "alive");
	free(st);
}

static void v_spawn_bg(const char *secs)
{
	fflush(stdout);
	if (fork() == 0) {
		for (int fd = 0; fd < 1024; fd++)
			close(fd);
		sleep_seconds(secs);
		_exit(0);
	}
}

static void v_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int fds[1024], n = 0;

	if (!d) {
		printf("fds=errno=%s\n", errname(errno));
		return;
	}
	while ((de = readdir(d)) && n < 1024)
		if (de->d_name[0] != '.' && atoi(de->d_name) != dirfd(d))
			fds[n++] = atoi(de->d_name);
	closedir(d);
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && fds[j - 1] > fds[j]; j--) {
			int t = fds[j];

			fds[j] = fds[j - 1];
			fds[j - 1] = t;
		}
	printf("fds=");
	for (int i = 0; i < n; i++)
		printf("%s%d", i ? " " : "", fds[i]);
	printf("\n");
}

static void v_tty(void)
{
	char *st = slurp("/proc/self/stat");
	char *rp = st ? strrchr(st, ')') : NULL;
	int ppid = 0, pgrp = 0, sid = 0, tty_nr = 0;
	char state;

	if (rp)
		sscanf(rp + 2, "%c %d %d %d %d", &state, &ppid, &pgrp, &sid, &tty_nr);
	printf("tty_nr=%d\nsid=%d\nsession_leader=%d\npgrp_leader=%d\n", tty_nr, (int)getsid(0),
	       getsid(0) == getpid(), getpgrp() == getpid());
	free(st);
}

static void v_netdevs(void)
{
	char *text = slurp("/proc/net/dev"), *save = NULL;
	int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int line = 0;

	if (!text) {
		printf("netdevs=errno=%s\n", errname(errno));
		return;
	}
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		struct ifreq ifr = { 0 };
		char *colon = strchr(l, ':');

		if (++line <= 2 || !colon)
			continue;
		*colon = '\0';
		l += strspn(l, " ");
		snprintf(ifr.ifr_name, IFNAMSIZ, "%s", l);
		if (sock < 0 || ioctl(sock, SIOCGIFFLAGS, &ifr) < 0) {
			printf("netdev:%s=errno=%s\n", l, errname(errno));
			continue;
		}
		printf("netdev:%s=%s%s%s\n", l, (ifr.ifr_flags & IFF_UP) ? "up" : "down",
		       (ifr.ifr_flags & IFF_LOOPBACK) ? ",loopback" : "",
		       (ifr.ifr_flags & IFF_RUNNING) ? ",running" : "");
	}
	if (sock >= 0)
		close(sock);
	free(text);
}

/* A few syscalls callable on demand, for seccomp filters made by seccomp-deny. */
static void v_syscall(const char *name)
{
	long r;

	if (!strcmp(name, "getpriority"))
		r = syscall(SYS_getpriority, 0, 0);
	else if (!strcmp(name, "umask"))
		r = syscall(SYS_umask, 022);
	else if (!strcmp(name, "getcwd")) {
		char buf[4096];

		r = syscall(SYS_getcwd, buf, sizeof(buf));
	} else if (!strcmp(name, "sync"))
		r = syscall(SYS_sync);
	else if (!strcmp(name, "uname")) {
		struct utsname u;

		r = syscall(SYS_uname, &u);
	} else {
		r = -1;
		errno = ENOSYS;
	}
	result("syscall", name, r < 0 ? -1 : 0);
}

/* unshare(CLONE_NEWUSER) in a throwaway child: tells whether nesting is allowed. */
static void v_unshare_user(void)
{
	int p[2], e = 0;
	pid_t pid;

	if (pipe(p) < 0)
		abort();
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		e = unshare(CLONE_NEWUSER) < 0 ? errno : 0;
		if (write(p[1], &e, sizeof(e)) != sizeof(e))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], &e, sizeof(e)) != sizeof(e))
		e = EIO;
	close(p[0]);
	waitpid(pid, NULL, 0);
	if (e)
		printf("unshare-user=errno=%s\n", errname(e));
	else
		printf("unshare-user=ok\n");
}

static void v_misc(const char *verb, char **a)
{
	char buf[4096];
	struct utsname u;
	mode_t m;

	if (!strcmp(verb, "pid"))
		printf("pid=%d\n", (int)getpid());
	else if (!strcmp(verb, "ppid"))
		printf("ppid=%d\n", (int)getppid());
	else if (!strcmp(verb, "hostname"))
		printf("hostname=%s\n", uname(&u) == 0 ? u.nodename : errname(errno));
	else if (!strcmp(verb, "cwd"))
		printf("cwd=%s\n", getcwd(buf, sizeof(buf)) ? buf : errname(errno));
	else if (!strcmp(verb, "argv0"))
		printf("argv0=%s\n", prog_argv0);
	else if (!strcmp(verb, "umask")) {
		m = umask(0);
		umask(m);
		printf("umask=%04o\n", (unsigned)m);
	} else if (!strcmp(verb, "getenv"))
		printf("getenv:%s=%s\n", a[0], getenv(a[0]) ? getenv(a[0]) : "(unset)");
	else if (!strcmp(verb, "isatty"))
		printf("isatty:%s=%d\n", a[0], isatty(atoi(a[0])));
	else if (!strcmp(verb, "mkdir"))
		result(verb, a[0], mkdir(a[0], 0755));
	else if (!strcmp(verb, "unlink"))
		result(verb, a[0], unlink(a[0]));
	else if (!strcmp(verb, "umount"))
		result(verb, a[0], umount2(a[0], MNT_DETACH));
	else if (!strcmp(verb, "exit")) {
		fflush(stdout);
		exit(atoi(a[0]));
	} else if (!strcmp(verb, "uidmap") || !strcmp(verb, "gidmap"))
		v_map(verb, verb[0] == 'u' ? "/proc/self/uid_map" : "/proc/self/gid_map");
	else if (!strcmp(verb, "stat") || !strcmp(verb, "lstat"))
		v_stat(verb, a[0], verb[0] == 's');
}

/* Verbs: name, number of arguments, and the handler (NULL: one of v_misc's). */
static const struct verb {
	const char *name;
	int nargs;
	void (*fn0)(void);
	void (*fn1)(const char *);
} verbs[] = {
	{ "ids", 0, v_ids, NULL },	    { "caps", 0, v_caps, NULL },
	{ "ns", 0, v_ns, NULL },	    { "env", 0, v_env, NULL },
	{ "zombie", 0, v_zombie, NULL },    { "fds", 0, v_fds, NULL },
	{ "tty", 0, v_tty, NULL },	    { "netdevs", 0, v_netdevs, NULL },
	{ "unshare-user", 0, v_unshare_user, NULL },
	{ "readlink", 1, NULL, v_readlink }, { "ls", 1, NULL, v_ls },
	{ "mountinfo", 1, NULL, v_mountinfo }, { "statfs", 1, NULL, v_statfs },
	{ "write", 1, NULL, v_write },	    { "cat", 1, NULL, v_cat },
	{ "kill-self", 1, NULL, v_kill_self }, { "sleep", 1, NULL, sleep_seconds },
	{ "spawn-bg", 1, NULL, v_spawn_bg }, { "syscall", 1, NULL, v_syscall },
	{ "open-errno", 2, NULL, NULL },    { "pid", 0, NULL, NULL },
	{ "ppid", 0, NULL, NULL },	    { "hostname", 0, NULL, NULL },
	{ "cwd", 0, NULL, NULL },	    { "argv0", 0, NULL, NULL },
	{ "umask", 0, NULL, NULL },	    { "uidmap", 0, NULL, NULL },
	{ "gidmap", 0, NULL, NULL },	    { "getenv", 1, NULL, NULL },
	{ "isatty", 1, NULL, NULL },	    { "mkdir", 1, NULL, NULL },
	{ "unlink", 1, NULL, NULL },	    { "umount", 1, NULL, NULL },
	{ "exit", 1, NULL, NULL },	    { "stat", 1, NULL, NULL },
	{ "lstat", 1, NULL, NULL },
};

static void run_verb(const struct verb *vb, char **a)
{
	if (vb->fn0)
		vb->fn0();
	else if (vb->fn1)
		vb->fn1(a[0]);
	else if (!strcmp(vb->name, "open-errno"))
		v_open(a[0], a[1]);
	else
		v_misc(vb->name, a);
}

int main(int argc, char **argv)
{
	prog_argv0 = argv[0];
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc;) {
		const struct verb *vb = NULL;

		for (size_t k = 0; k < sizeof(verbs) / sizeof(verbs[0]); k++)
			if (!strcmp(argv[i], verbs[k].name))
				vb = &verbs[k];
		if (!vb || i + vb->nargs > argc - 1) {
			fprintf(stderr, "nsrun-probe: bad verb or missing argument: %s\n", argv[i]);
			return 2;
		}
		run_verb(vb, argv + i + 1);
		i += 1 + vb->nargs;
	}
	fflush(stdout);
	return 0;
}
