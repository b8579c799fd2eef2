/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * noexec-host.c: noexec_apply() on the host's own mount tree, as --landlock-only
 * will run it: parses nsrun's options (--landlock-only --landlock-rw ...
 * --landlock-exec ... -- COMMAND), enters a private mount namespace (unprivileged:
 * inside an identity-mapped user namespace), applies noexec with root "/" and
 * /proc, then Landlock, and execs COMMAND. Failures print "noexec-host: MSG" and
 * exit with the error's status (126 for a boundary that cannot be built).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "cli.h"
#include "landlock.h"
#include "noexec.h"
#include "plan.h"
#include "util.h"

extern char **environ;

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int r;

	if (fd < 0)
		return -errno;
	r = write_all(fd, text, strlen(text));
	close(fd);
	return r;
}

static int private_mount_ns(struct nsrun_error *err)
{
	uid_t uid = getuid();
	gid_t gid = getgid();
	char map[64];

	if (uid == 0) {
		if (unshare(CLONE_NEWNS) < 0)
			return error_set(err, errno, "unshare(CLONE_NEWNS)");
	} else {
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
			return error_set(err, errno, "unshare(CLONE_NEWUSER|CLONE_NEWNS)");
		snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)uid, (unsigned)uid);
		if (write_file("/proc/self/uid_map", map) < 0 ||
		    write_file("/proc/self/setgroups", "deny\n") < 0)
			return error_set(err, errno, "writing the uid map");
		snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)gid, (unsigned)gid);
		if (write_file("/proc/self/gid_map", map) < 0)
			return error_set(err, errno, "writing the gid map");
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) < 0)
		return error_set(err, errno, "making / a slave");
	return 0;
}

int main(int argc, char **argv)
{
	struct cli_io io = { .read_fd = cli_read_fd_default, .envp = environ };
	struct nsrun_error err = { 0 };
	struct plan plan;
	int r;

	r = cli_parse(argc, argv, &io, &plan, &err);
	if (r == 0)
		r = private_mount_ns(&err);
	if (r == 0)
		r = noexec_apply("/", "/proc", &plan.landlock, &err);
	if (r == 0)
		r = landlock_only_exec(&plan, &err);
	fprintf(stderr, "noexec-host: %s\n", err.msg);
	return err.status ? err.status : 1;
}
