/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * userns.c: user namespace layout, ID maps and joins. A map is always a single
 * line onto one outside id, which is all an unprivileged writer may map; the
 * layout decides when a second, nested namespace is needed to show the caller's
 * chosen ids after uid 0 was required for setup (devpts) or nesting is capped.
 */
#include "config.h"

#include "userns.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "macros.h"
#include "util.h"

void userns_layout(const struct userns_request *req, struct userns_layout *ret)
{
	memset(ret, 0, sizeof(*ret));
	ret->ns_uid = req->sandbox_uid;
	ret->ns_gid = req->sandbox_gid;
	if (!req->unshare || req->maps_external)
		return;
	ret->write_maps = true;
	/* devpts refuses to mount unless uid/gid 0 exist in the namespace. */
	if (req->needs_devpts) {
		ret->ns_uid = 0;
		ret->ns_gid = 0;
	}
	ret->second = ret->ns_uid != req->sandbox_uid || ret->ns_gid != req->sandbox_gid ||
		      req->disable_userns;
	/* A one-line map onto the writer's own effective ids is what the kernel lets any
	 * process write for a namespace it created, from inside (setgroups denied first);
	 * whatever the inside ids are, uid 0 for devpts included. Only ids that are not
	 * the caller's own (a setuid start, which main refuses) need the parent. */
	ret->self_maps = req->effective_uid == req->real_uid && req->effective_gid == req->real_gid;
}

int userns_format_map(char *buf, size_t size, unsigned long inside, unsigned long outside,
		      unsigned long count)
{
	char a[NUM_BUF_SIZE], b[NUM_BUF_SIZE], c[NUM_BUF_SIZE];
	const char *parts[] = { num_str(a, inside, 10), " ", num_str(b, outside, 10), " ",
				num_str(c, count, 10),	"\n" };
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
		size_t l = strlen(parts[i]);

		if (n + l >= size)
			return -ENOSPC;
		memcpy(buf + n, parts[i], l + 1);
		n += l;
	}
	return (int)n;
}

static int write_proc_file(int proc_fd, pid_t pid, const char *name, const char *text,
			   struct nsrun_error *err)
{
	char num[NUM_BUF_SIZE];
	_cleanup_free_ char *path =
		xconcat(pid > 0 ? num_str(num, (unsigned long long)pid, 10) : "self", "/", name);
	_cleanup_close_ int fd = -1;
	int r;

	fd = openat(proc_fd, path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return error_set(err, errno, "setting up %s", name);
	r = write_all(fd, text, strlen(text));
	if (r < 0)
		return error_set(err, -r, "setting up %s", name);
	return 0;
}

int userns_write_maps(int proc_fd, pid_t pid, uid_t uid_in, uid_t uid_out, gid_t gid_in,
		      gid_t gid_out, bool deny_setgroups, struct nsrun_error *err)
{
	char map[64];
	int r;

	/* An unprivileged writer may only write gid_map once setgroups is denied;
	 * the file is absent before Linux 3.19, which needs no deny. */
	if (deny_setgroups) {
		r = write_proc_file(proc_fd, pid, "setgroups", "deny\n", err);
		if (r < 0 && r != -ENOENT)
			return r;
	}
	if (userns_format_map(map, sizeof(map), uid_in, uid_out, 1) < 0)
		return error_set(err, ENOSPC, "formatting uid map");
	r = write_proc_file(proc_fd, pid, "uid_map", map, err);
	if (r < 0)
		return error_set(err, -r, "setting up uid map");
	if (userns_format_map(map, sizeof(map), gid_in, gid_out, 1) < 0)
		return error_set(err, ENOSPC, "formatting gid map");
	r = write_proc_file(proc_fd, pid, "gid_map", map, err);
	if (r < 0)
		return error_set(err, -r, "setting up gid map");
	return 0;
}

static bool file_starts_with(const char *path, const char *prefix)
{
	char buf[32] = { 0 };
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	return n > 0 && str_has_prefix(buf, prefix);
}

bool userns_available(void)
{
	struct stat st;

	if (stat("/proc/self/ns/user", &st) < 0)
		return false;
	if (file_starts_with("/sys/module/user_namespace/parameters/enable", "N"))
		return false;
	if (file_starts_with("/proc/sys/user/max_user_namespaces", "0\n"))
		return false;
	return true;
}

int userns_join(int fd, struct nsrun_error *err)
{
	if (setns(fd, CLONE_NEWUSER) == 0)
		return 0;
	if (errno == EINVAL)
		return error_set_plain(err, EINVAL,
				       "Joining the specified user namespace failed, it might not "
				       "be a descendant of the current user namespace.");
	return error_set(err, errno, "Joining specified user namespace failed");
}

int userns_join2(int fd, struct nsrun_error *err)
{
	if (setns(fd, CLONE_NEWUSER) < 0)
		return error_set(err, errno, "Setting userns2 failed");
	return 0;
}

int userns_limit_nesting(int proc_fd, struct nsrun_error *err)
{
	_cleanup_close_ int fd =
		openat(proc_fd, "sys/user/max_user_namespaces", O_WRONLY | O_CLOEXEC);

	int r;

	if (fd < 0)
		return error_set(err, errno, "cannot open /proc/sys/user/max_user_namespaces");
	r = write_all(fd, "1", 1);
	if (r < 0)
		return error_set(err, -r, "sysctl user.max_user_namespaces = 1");
	return 0;
}

int userns_assert_disabled(struct nsrun_error *err)
{
	if (unshare(CLONE_NEWUSER) == 0)
		return error_set_plain(
			err, 0, "creation of new user namespaces was not disabled as requested");
	return 0;
}
