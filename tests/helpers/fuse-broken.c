/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fuse-broken: mounts a FUSE filesystem on DIR whose server answers statfs() with EIO,
 * like an unreachable network mount, then serves it in the background until it is
 * unmounted. A recursive bind whose tree holds it cannot remount it on the mount(2)
 * path (nsrun statvfs()es each submount to keep its flags): the fixture for
 * --not-a-security-boundary. Raw /dev/fuse protocol, no libfuse. Needs root.
 *   fuse-broken DIR     (exits 0 once mounted; the server lives on until DIR is
 *                        unmounted: it holds the mount namespace, so unmount it)
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

/* The kernel refuses a read buffer smaller than this (FUSE_MIN_READ_BUFFER). */
#define BUF_SIZE (1u << 17)

static void reply(int fd, const struct fuse_in_header *in, int error, const void *arg, size_t len)
{
	struct fuse_out_header out = {
		.len = (uint32_t)(sizeof(out) + len),
		.error = -error,
		.unique = in->unique,
	};
	struct iovec iov[2] = { { &out, sizeof(out) }, { (void *)arg, len } };

	/* ENOENT: the request was interrupted; nothing else to do in a test helper. */
	(void)!writev(fd, iov, len ? 2 : 1);
}

static void reply_init(int fd, const struct fuse_in_header *in, const struct fuse_init_in *arg)
{
	struct fuse_init_out out = {
		.major = FUSE_KERNEL_VERSION,
		.minor = arg->minor < FUSE_KERNEL_MINOR_VERSION ? arg->minor :
								  FUSE_KERNEL_MINOR_VERSION,
		.max_readahead = arg->max_readahead,
		.max_write = 4096,
	};

	reply(fd, in, 0, &out, sizeof(out));
}

/* The root directory's attributes, so a lookup or stat of the mount point works. */
static void reply_root_attr(int fd, const struct fuse_in_header *in)
{
	struct fuse_attr_out out = { 0 };

	out.attr.ino = FUSE_ROOT_ID;
	out.attr.mode = S_IFDIR | 0755;
	out.attr.nlink = 2;
	reply(fd, in, 0, &out, sizeof(out));
}

static int serve(int fd)
{
	static char buf[BUF_SIZE];

	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		const struct fuse_in_header *in = (const void *)buf;

		if (n < 0 && (errno == EINTR || errno == ENOENT))
			continue;
		if (n < 0)
			return errno == ENODEV ? 0 : 1; /* ENODEV: unmounted */
		if ((size_t)n < sizeof(*in))
			return 1;
		switch (in->opcode) {
		case FUSE_INIT:
			reply_init(fd, in, (const void *)(in + 1));
			break;
		case FUSE_GETATTR:
			if (in->nodeid == FUSE_ROOT_ID)
				reply_root_attr(fd, in);
			else
				reply(fd, in, ENOENT, NULL, 0);
			break;
		case FUSE_STATFS:
			reply(fd, in, EIO, NULL, 0); /* the point of this filesystem */
			break;
		case FUSE_FORGET:
		case FUSE_BATCH_FORGET:
			break; /* no reply */
		case FUSE_DESTROY:
			reply(fd, in, 0, NULL, 0);
			return 0;
		default:
			reply(fd, in, ENOSYS, NULL, 0);
			break;
		}
	}
}

int main(int argc, char **argv)
{
	char opts[128];
	int fd;
	pid_t pid;

	if (argc != 2) {
		fprintf(stderr, "usage: fuse-broken DIR\n");
		return 2;
	}
	fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		perror("fuse-broken: /dev/fuse");
		return 77;
	}
	/* allow_other: a sandbox's processes (another user namespace) may use it too. */
	snprintf(opts, sizeof(opts), "fd=%d,rootmode=40755,user_id=0,group_id=0,allow_other", fd);
	if (mount("fuse-broken", argv[1], "fuse.fuse-broken", 0, opts) < 0) {
		perror("fuse-broken: mount");
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		perror("fuse-broken: fork");
		return 1;
	}
	if (pid > 0)
		return 0;
	/* Detached from the test's stdio, so its pipes close when the test is done. */
	if (setsid() < 0 || !freopen("/dev/null", "r", stdin) ||
	    !freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
		_exit(1);
	_exit(serve(fd));
}
