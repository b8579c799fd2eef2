/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/floor.c: a lower bound for bench/run.sh's desktop-app sandbox. It makes the
 * sandbox nsrun makes for
 *   --ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib
 *   --symlink usr/lib64 /lib64 --proc /proc --dev /dev --unshare-all --die-with-parent
 * (the same mounts, in the same order, with the same fd-based mount API, so the same
 * mountinfo), and nothing else: no option parsing, no confined path walks, no checks,
 * no error reporting beyond perror, no parent tracking. What it costs is what the
 * kernel asks of this sandbox on this machine; nsrun's distance from it is nsrun's
 * own. Not installed, not a test; bench/run.sh builds it with cc.
 * Usage: floor [CMD ARGS...] (default /bin/true). Needs user namespaces.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* The mount API's constants, for headers older than Linux 5.2. */
#define OPEN_TREE_CLONE_ 1
#define MOVE_MOUNT_F_EMPTY_PATH_ 0x4
#define MOVE_MOUNT_T_EMPTY_PATH_ 0x40
#define FSMOUNT_CLOEXEC_ 1
#define FSCONFIG_SET_FLAG_ 0
#define FSCONFIG_SET_STRING_ 1
#define FSCONFIG_CMD_CREATE_ 6
#define ATTR_RDONLY 0x1
#define ATTR_NOSUID 0x2
#define ATTR_NODEV 0x4
#define ATTR_NOEXEC 0x8

struct mount_attr_ {
	uint64_t attr_set, attr_clr, propagation, userns_fd;
};

static void must(long r, const char *what)
{
	if (r < 0) {
		perror(what);
		_exit(1);
	}
}

static void write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	must(fd < 0 ? -1 : write(fd, s, strlen(s)), path);
	close(fd);
}

/* One-line maps: uid in_uid onto out_uid, gid in_gid onto out_gid. */
static void maps(unsigned in_uid, unsigned out_uid, unsigned in_gid, unsigned out_gid, int deny)
{
	char b[64];

	if (deny)
		write_file("/proc/self/setgroups", "deny\n");
	snprintf(b, sizeof(b), "%u %u 1\n", in_uid, out_uid);
	write_file("/proc/self/uid_map", b);
	snprintf(b, sizeof(b), "%u %u 1\n", in_gid, out_gid);
	write_file("/proc/self/gid_map", b);
}

/* lo up with 127.0.0.1/8, as nsrun's two rtnetlink requests leave it. */
static void loopback(void)
{
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct ifreq r = { .ifr_name = "lo" };
	struct sockaddr_in *a = (struct sockaddr_in *)&r.ifr_addr;

	a->sin_family = AF_INET;
	a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	must(ioctl(s, SIOCSIFADDR, &r), "lo address");
	r.ifr_flags = IFF_UP | IFF_LOOPBACK | IFF_RUNNING;
	must(ioctl(s, SIOCSIFFLAGS, &r), "lo up");
	close(s);
}

static void move_to(int mnt, const char *dst)
{
	int d = open(dst, O_PATH | O_CLOEXEC);

	must(syscall(SYS_move_mount, mnt, "", d, "",
		     MOVE_MOUNT_F_EMPTY_PATH_ | MOVE_MOUNT_T_EMPTY_PATH_),
	     dst);
	close(d);
	close(mnt);
}

/* fsopen TYPE, KEY VALUE pairs (VALUE NULL: a flag), fsmount with attrs onto dst. */
static void new_fs(const char *type, const char *dst, unsigned attrs, const char *const *kv)
{
	int f = syscall(SYS_fsopen, type, 1 /* FSOPEN_CLOEXEC */);

	must(f, type);
	syscall(SYS_fsconfig, f, FSCONFIG_SET_STRING_, "source", type, 0);
	for (; kv && kv[0]; kv += 2)
		syscall(SYS_fsconfig, f, kv[1] ? FSCONFIG_SET_STRING_ : FSCONFIG_SET_FLAG_, kv[0],
			kv[1], 0);
	must(syscall(SYS_fsconfig, f, FSCONFIG_CMD_CREATE_, NULL, NULL, 0), type);
	int m = syscall(SYS_fsmount, f, FSMOUNT_CLOEXEC_, attrs);

	close(f);
	move_to(m, dst);
}

static void bind_tree(const char *src, const char *dst, unsigned attrs)
{
	struct mount_attr_ a = { .attr_set = attrs };
	int s = open(src, O_PATH | O_CLOEXEC);
	int t = syscall(SYS_open_tree, s, "",
			OPEN_TREE_CLONE_ | O_CLOEXEC | AT_EMPTY_PATH | AT_RECURSIVE);

	must(t, src);
	if (attrs)
		syscall(SYS_mount_setattr, t, "", AT_EMPTY_PATH | AT_RECURSIVE, &a, sizeof(a));
	close(s);
	move_to(t, dst);
}

static void proc(int privileged)
{
	static const char *const cover[] = { "sys", "sysrq-trigger", "irq", "bus" };
	char p[64];

	mkdir("/newroot/proc", 0755);
	new_fs("proc", "/newroot/proc", ATTR_NOSUID | ATTR_NODEV | ATTR_NOEXEC, NULL);
	for (size_t i = 0; i < 4; i++) {
		snprintf(p, sizeof(p), "/newroot/proc/%s", cover[i]);
		/* As nsrun: with privileges what exists, else what is writable. */
		if (access(p, privileged ? F_OK : W_OK) == 0)
			bind_tree(p, p, ATTR_RDONLY | ATTR_NOSUID | ATTR_NODEV);
	}
}

static void dev(void)
{
	static const char *const nodes[] = { "null", "zero", "full", "random", "urandom", "tty" };
	static const char *const links[][2] = {
		{ "/proc/self/fd/0", "stdin" },	 { "/proc/self/fd/1", "stdout" },
		{ "/proc/self/fd/2", "stderr" }, { "/proc/self/fd", "fd" },
		{ "/proc/kcore", "core" },
	};
	char s[64], d[64];

	mkdir("/newroot/dev", 0755);
	new_fs("tmpfs", "/newroot/dev", ATTR_NOSUID | ATTR_NODEV,
	       (const char *const[]){ "mode", "0755", NULL });
	for (size_t i = 0; i < 6; i++) {
		snprintf(s, sizeof(s), "/oldroot/dev/%s", nodes[i]);
		snprintf(d, sizeof(d), "/newroot/dev/%s", nodes[i]);
		close(open(d, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444));
		bind_tree(s, d, ATTR_NOSUID);
	}
	for (size_t i = 0; i < 5; i++) {
		snprintf(d, sizeof(d), "/newroot/dev/%s", links[i][1]);
		symlink(links[i][0], d);
	}
	mkdir("/newroot/dev/shm", 0755);
	mkdir("/newroot/dev/pts", 0755);
	new_fs("devpts", "/newroot/dev/pts", ATTR_NOSUID | ATTR_NOEXEC,
	       (const char *const[]){ "newinstance", NULL, "ptmxmode", "0666", "mode", "620",
				      NULL });
	symlink("pts/ptmx", "/newroot/dev/ptmx");
}

/* bwrap's two pivots: into a tmpfs on /tmp holding newroot and oldroot, then onto
 * newroot with the old root detached. */
static void root(int privileged)
{
	must(mount(NULL, "/", NULL, MS_SLAVE | MS_REC, NULL), "/");
	new_fs("tmpfs", "/tmp", ATTR_NOSUID | ATTR_NODEV, NULL);
	must(chdir("/tmp"), "/tmp");
	mkdir("newroot", 0755);
	bind_tree("newroot", "newroot", 0);
	mkdir("oldroot", 0755);
	must(syscall(SYS_pivot_root, ".", "oldroot"), "pivot_root");
	must(chdir("/"), "/");
	mkdir("/newroot/usr", 0755);
	bind_tree("/oldroot/usr", "/newroot/usr", ATTR_RDONLY | ATTR_NOSUID | ATTR_NODEV);
	symlink("usr/bin", "/newroot/bin");
	symlink("usr/lib", "/newroot/lib");
	symlink("usr/lib64", "/newroot/lib64");
	proc(privileged);
	dev();
	must(mount(NULL, "/oldroot", NULL, MS_PRIVATE | MS_REC, NULL), "/oldroot");
	must(umount2("/oldroot", MNT_DETACH), "/oldroot");
	int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	must(chdir("/newroot"), "/newroot");
	must(syscall(SYS_pivot_root, ".", "."), "pivot_root");
	must(fchdir(fd), "/");
	must(umount2(".", MNT_DETACH), "/");
	must(chdir("/"), "/");
	close(fd);
}

/* The command's ids, as nsrun shows them after --dev: a nested namespace, no caps; as
 * root, every cap but CAP_SYS_RESOURCE, as bwrap's root keeps them. */
static void become_user(unsigned uid, unsigned gid)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = { { 0 } };

	if (uid == 0) {
		must(syscall(SYS_capget, &h, d), "capget");
		d[0].permitted &= ~(1u << CAP_SYS_RESOURCE);
		d[0].effective &= ~(1u << CAP_SYS_RESOURCE);
		prctl(PR_CAPBSET_DROP, CAP_SYS_RESOURCE, 0, 0, 0);
		must(syscall(SYS_capset, &h, d), "capset");
		return;
	}
	must(unshare(CLONE_NEWUSER), "nested user namespace");
	for (int c = 0; c <= 40; c++)
		prctl(PR_CAPBSET_DROP, c, 0, 0, 0);
	maps(uid, 0, gid, 0, 0);
	must(syscall(SYS_capset, &h, d), "capset");
}

/* pid 1: the command as its child, whose status goes to the parent over report. */
static int child(unsigned uid, unsigned gid, char **cmd, int report)
{
	maps(0, uid, 0, gid, 1);
	loopback();
	root(uid == 0);
	become_user(uid, gid);
	pid_t p = vfork();

	if (p == 0) {
		execv(cmd[0], cmd);
		_exit(127);
	}
	int st;

	waitpid(p, &st, 0);
	must(write(report, &st, sizeof(st)), "report");
	return 0;
}

int main(int argc, char **argv)
{
	static char *dflt[] = { "/bin/true", NULL };
	char **cmd = argc > 1 ? argv + 1 : dflt;
	unsigned uid = getuid(), gid = getgid();
	int report[2], st;

	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	must(pipe2(report, O_CLOEXEC), "pipe");
	pid_t p = syscall(SYS_clone,
			  CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC |
				  CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET | SIGCHLD,
			  NULL, NULL, NULL, NULL);

	must(p, "clone");
	if (p == 0)
		_exit(child(uid, gid, cmd, report[1]));
	close(report[1]);
	/* As nsrun: done once pid 1 reports, not once it and its namespaces are gone. */
	if (read(report[0], &st, sizeof(st)) != sizeof(st))
		return 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
