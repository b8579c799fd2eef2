/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mountinfo.c: the only file that includes <libmount.h>. The legacy mount path
 * needs the submounts of a freshly bound tree to remount each of them; the fast
 * path (mount_setattr AT_RECURSIVE) never parses mountinfo.
 */
#include "config.h"

#include "mountinfo.h"

#include <errno.h>
#include <libmount.h>
#include <string.h>

#include "util.h"

static void tablep(struct libmnt_table **tb)
{
	mnt_unref_table(*tb);
}

static void iterp(struct libmnt_iter **it)
{
	mnt_free_iter(*it);
}

static int load_table(struct libmnt_table **ret)
{
	struct libmnt_table *tb = mnt_new_table();
	int r;

	if (!tb)
		return -ENOMEM;
	r = mnt_table_parse_file(tb, "/proc/self/mountinfo");
	if (r < 0) {
		mnt_unref_table(tb);
		return r == -1 ? -EIO : r;
	}
	*ret = tb;
	return 0;
}

static bool path_is_below(const char *target, const char *top)
{
	size_t n = strlen(top);

	if (strcmp(top, "/") == 0)
		return true;
	return strncmp(target, top, n) == 0 && (target[n] == '\0' || target[n] == '/');
}

int mountinfo_list_subtree(const char *mountpoint, char ***ret)
{
	_cleanup_(tablep) struct libmnt_table *tb = NULL;
	_cleanup_(iterp) struct libmnt_iter *it = NULL;
	struct libmnt_fs *fs;
	char **v = NULL;
	int r;

	r = load_table(&tb);
	if (r < 0)
		return r;
	it = mnt_new_iter(MNT_ITER_FORWARD);
	if (!it)
		return -ENOMEM;
	strv_push(&v, mountpoint);
	while (mnt_table_next_fs(tb, it, &fs) == 0) {
		const char *t = mnt_fs_get_target(fs);

		if (t && strcmp(t, mountpoint) != 0 && path_is_below(t, mountpoint))
			strv_push(&v, t);
	}
	*ret = v;
	return 0;
}

int mountinfo_is_mountpoint(const char *path)
{
	_cleanup_(tablep) struct libmnt_table *tb = NULL;
	int r;

	r = load_table(&tb);
	if (r < 0)
		return r;
	return mnt_table_find_target(tb, path, MNT_ITER_BACKWARD) != NULL;
}
