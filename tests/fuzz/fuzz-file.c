/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fuzz-file.c: libFuzzer target for --file, --bind-data and --ro-bind-data: nsrun's
 * files_file() and files_bind_data() read the data fd and write it under a root, as the
 * sandbox child does. Input: a flags byte (which option; the data fd is a memfd, a pipe,
 * an O_PATH fd or a directory), two bytes of mode, the NUL-terminated destination, then
 * the data. The destination is prepared as the engine does (files_dest_open). The root is a fresh tmpfs per input and the staging directory a tmpfs, in a
 * private mount namespace of the fuzzer's own (a user namespace too when not root), so
 * nothing reaches the host. Invariants: a failure explains itself; a success leaves a
 * regular file holding exactly the data, with the mode asked, read-only for
 * --ro-bind-data; an unreadable data fd fails; the staging directory is left empty and
 * nothing appears beside the root, whatever the destination says.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"
#include "fuzz-common.h"
#include "path.h"
#include "util.h"

#define FUZZ_MAX_INPUT (1u << 20)

enum data_kind { DATA_MEMFD, DATA_PIPE, DATA_OPATH, DATA_DIR, DATA_MAX };

static char base[] = "/tmp/nsrun-fuzz-file.XXXXXX";
static int base_fd = -1, staging_fd = -1;

static void die(const char *what)
{
	fprintf(stderr, "fuzz-file: %s: %m\n", what);
	abort();
}

static int write_file(const char *path, const char *s)
{
	_cleanup_close_ int fd = open(path, O_WRONLY | O_CLOEXEC);

	return fd < 0 ? -errno : write_all(fd, s, strlen(s));
}

/* A mount namespace of our own, private so no mount propagates back to the host. */
static int enter_namespace(void)
{
	uid_t uid = getuid();
	gid_t gid = getgid();
	char map[64];

	if (unshare(CLONE_NEWNS) < 0) {
		if (errno != EPERM || unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
			return -errno;
		snprintf(map, sizeof(map), "0 %u 1", (unsigned)uid);
		if (write_file("/proc/self/setgroups", "deny") < 0 ||
		    write_file("/proc/self/uid_map", map) < 0)
			return -errno;
		snprintf(map, sizeof(map), "0 %u 1", (unsigned)gid);
		if (write_file("/proc/self/gid_map", map) < 0)
			return -errno;
	}
	return mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ? -errno : 0;
}

static void cleanup(void)
{
	umount2(base, MNT_DETACH);
	rmdir(base);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	umask(0); /* the sandbox child runs the file operations with umask 0 */
	if (enter_namespace() < 0) {
		fprintf(stderr, "fuzz-file: no private mount namespace (%m), skipping\n");
		exit(77);
	}
	if (!mkdtemp(base))
		die("mkdtemp");
	atexit(cleanup);
	if (mount("tmpfs", base, "tmpfs", 0, "mode=0755") < 0)
		die("mount base");
	base_fd = open(base, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (base_fd < 0 || mkdirat(base_fd, "root", 0755) < 0 ||
	    mkdirat(base_fd, "staging", 0700) < 0)
		die("base dirs");
	staging_fd = openat(base_fd, "staging", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (staging_fd < 0)
		die("staging");
	return 0;
}

/* A fresh tmpfs for the root: also drops the bind mounts the last input made. */
static int fresh_root(void)
{
	_cleanup_free_ char *root = path_join(base, "root");

	umount2(root, MNT_DETACH);
	if (mount("tmpfs", root, "tmpfs", 0, "mode=0755") < 0)
		die("mount root");
	return open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

static int data_fd(enum data_kind kind, const uint8_t *data, size_t len)
{
	_cleanup_close_ int mfd = -1;
	int p[2];

	if (kind == DATA_PIPE && len <= 65536) {
		/* A pipe holds 64 KiB by default: small data goes in whole, then EOF. */
		if (pipe2(p, O_CLOEXEC) < 0 || write_all(p[1], data, len) < 0)
			die("pipe");
		close(p[1]);
		return p[0];
	}
	if (kind == DATA_DIR)
		return openat(base_fd, "staging", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	mfd = fuzz_memfd(data, len);
	if (kind == DATA_OPATH) {
		_cleanup_free_ char *self = xasprintf("/proc/self/fd/%d", mfd);

		return open(self, O_PATH | O_CLOEXEC);
	}
	return TAKE_FD(mfd);
}

/* Nothing but root and staging beside the root; nothing left in staging. */
static void check_dirs(void)
{
	DIR *d = opendir(base);
	struct dirent *e;
	int n = 0;

	if (!d)
		die("opendir base");
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n += strcmp(e->d_name, "root") == 0 || strcmp(e->d_name, "staging") == 0 ?
				     1 :
				     100;
	closedir(d);
	if (n != 2)
		die("something was created beside the root");
	d = fdopendir(openat(base_fd, "staging", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
	if (!d)
		die("opendir staging");
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			die("a temporary file was left in staging");
	closedir(d);
}

static void check_result(int root_fd, const char *dest, mode_t mode, bool ro, const uint8_t *data,
			 size_t len)
{
	_cleanup_free_ char *name = NULL, *got = NULL;
	/* as the engine reached it: parents by prefix, so DEST may exceed PATH_MAX */
	_cleanup_close_ int parent = path_dest_parent(root_fd, dest, 0755, &name);
	_cleanup_close_ int fd = parent < 0 ? -1 : openat(parent, name, O_RDONLY | O_NOFOLLOW);
	_cleanup_close_ int wfd = -1;
	size_t got_len;
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		die("the destination is not a regular file");
	if ((st.st_mode & 07777) != mode)
		die("wrong mode");
	if (read_all(fd, FUZZ_MAX_INPUT, &got, &got_len) < 0 || got_len != len ||
	    memcmp(got, data, len) != 0)
		die("the file does not hold the data");
	wfd = openat(parent, name, O_WRONLY | O_NOFOLLOW);
	if (ro != (wfd < 0 && errno == EROFS))
		die(ro ? "--ro-bind-data is writable" : "the file is not writable");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	_cleanup_close_ int root_fd = -1, in_fd = -1;
	_cleanup_free_ char *dest = NULL;
	struct nsrun_error err = { 0 };
	struct files_dest d;
	const uint8_t *nul;
	enum data_kind kind;
	unsigned op;
	mode_t mode;
	int r;

	if (size < 3 || size > FUZZ_MAX_INPUT || base_fd < 0)
		return 0;
	op = data[0] % 3;
	kind = (enum data_kind)((data[0] >> 2) % DATA_MAX);
	mode = (mode_t)(data[1] | data[2] << 8) & 07777;
	nul = memchr(data + 3, '\0', size - 3);
	if (!nul)
		return 0;
	dest = xstrdup((const char *)data + 3);
	size -= (size_t)(nul + 1 - data);
	data = nul + 1;
	root_fd = fresh_root();
	in_fd = data_fd(kind, data, size);
	if (root_fd < 0 || in_fd < 0)
		die("fds");
	r = files_dest_open(root_fd,
			    &(struct files_dest_opts){ .dest = dest,
						       .node = FILES_NODE_FILE,
						       .perms = op == 0 ? (int)mode : -1,
						       .writable = op == 0,
						       .is_mount = op != 0,
						       .parent_mode = 0755 },
			    &d, &err);
	if (r == 0 && op == 0)
		r = files_file(&d, dest, in_fd, &err);
	else if (r == 0)
		r = files_bind_data(&d, staging_fd, dest, in_fd, mode, op == 2, &err);
	files_dest_close(&d);
	if (r < 0 && !err.msg[0])
		die("a failure without a message");
	if (r >= 0 && (kind == DATA_OPATH || kind == DATA_DIR))
		die("an unreadable data fd was accepted");
	if (r >= 0)
		check_result(root_fd, dest, mode, op == 2, data, size);
	check_dirs();
	return 0;
}
