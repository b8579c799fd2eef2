/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * noexec.c: see noexec.h. Runs in the child before the final pivot, while the
 * sandbox's mounts are still visible under root_path. A mount keeps exec when
 * it is the deepest mount under some --landlock-exec path (that is where the
 * allowed binaries live); read-only mounts are left alone: nothing new can be
 * written there; covered mounts are unreachable and skipped.
 */
#include "config.h"

#include "noexec.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mount.h"
#include "syscall.h"
#include "util.h"

struct mnt {
	char *path; /* inside the sandbox */
	bool writable;
};

/* Whether the mount with this mountinfo ID is the one the path reaches, i.e. not
 * covered by a later mount on the same or a parent mount point. */
static bool mount_visible(const char *full, unsigned long long id)
{
	struct statx stx;

	if (statx(AT_FDCWD, full, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT, STATX_MNT_ID, &stx) < 0)
		return false;
	/* Before Linux 5.8 there is no mount ID: treat the path's mount as the entry's. */
	return !(stx.stx_mask & STATX_MNT_ID) || stx.stx_mnt_id == id;
}

void noexec_unescape(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && isdigit((unsigned char)r[2]) &&
		    isdigit((unsigned char)r[3])) {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

/* Fields 5 (mount point) and 6 (per-mount options) of one mountinfo line. */
static int parse_line(char *line, const char *root_path, struct mnt *ret)
{
	char *field[6] = { 0 };
	char *save = NULL, *tok = strtok_r(line, " ", &save);

	for (int i = 0; tok && i < 6; i++, tok = strtok_r(NULL, " ", &save))
		field[i] = tok;
	if (!field[5])
		return -EINVAL;
	noexec_unescape(field[4]);
	if (!path_is_below(field[4], root_path) ||
	    !mount_visible(field[4], strtoull(field[0], NULL, 10)))
		return 0;
	ret->path = xstrdup(field[4][strlen(root_path)] ? field[4] + strlen(root_path) : "/");
	ret->writable = strncmp(field[5], "rw", 2) == 0 && (field[5][2] == ',' || !field[5][2]) &&
			!strstr(field[5], "noexec");
	return 1;
}

static int read_mounts(const char *mountinfo, const char *root_path, struct mnt **ret, size_t *n)
{
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;
	FILE *f = fopen(mountinfo, "re");

	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		struct mnt m = { 0 };

		line[strcspn(line, "\n")] = '\0';
		if (parse_line(line, root_path, &m) > 0)
			*(struct mnt *)xappend(ret, n, sizeof(m)) = m;
	}
	fclose(f);
	return 0;
}

/* The mount an exec path lives on: the longest mount point containing it. */
static ssize_t deepest_mount(const struct mnt *m, size_t n, const char *path)
{
	ssize_t best = -1;

	for (size_t i = 0; i < n; i++)
		if (path_is_below(path, m[i].path) &&
		    (best < 0 || strlen(m[i].path) >= strlen(m[best].path)))
			best = (ssize_t)i;
	return best;
}

static bool keeps_exec(const struct mnt *m, size_t n, size_t i, char *const *exec_paths)
{
	for (size_t e = 0; exec_paths[e]; e++)
		if (deepest_mount(m, n, exec_paths[e]) == (ssize_t)i)
			return true;
	return false;
}

static int set_noexec(const char *root_path, const char *path, struct nsrun_error *err)
{
	_cleanup_free_ char *full = path_join(root_path, path);
	_cleanup_close_ int fd = open(full, O_PATH | O_CLOEXEC);
	int r;

	if (fd < 0)
		return error_set(err, errno, "--landlock-exec: can't open mount '%s'", path);
	r = mount_set_attrs(fd, false, MOUNT_ATTR_NOEXEC);
	if (r < 0)
		return error_set(err, -r, "--landlock-exec: can't make writable mount '%s' noexec",
				 path);
	return 0;
}

int noexec_writable_mounts(const char *root_path, const char *mountinfo, char *const *exec_paths,
			   struct nsrun_error *err)
{
	struct mnt *m = NULL;
	size_t n = 0;
	int r;

	if (!exec_paths || !exec_paths[0])
		return 0;
	r = read_mounts(mountinfo, root_path, &m, &n);
	if (r < 0)
		r = error_set(err, -r, "--landlock-exec: reading '%s'", mountinfo);
	for (size_t i = 0; r >= 0 && i < n; i++)
		if (m[i].writable && !keeps_exec(m, n, i, exec_paths))
			r = set_noexec(root_path, m[i].path, err);
	for (size_t i = 0; i < n; i++)
		free(m[i].path);
	free(m);
	return r < 0 ? r : 0;
}
