/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mountinfo.c: the only file that uses libmount. The legacy mount path needs
 * the submounts of a freshly bound tree to remount each of them; the fast path
 * (mount_setattr AT_RECURSIVE) never parses mountinfo. libmount is therefore
 * loaded on first use: linking it pulls in libblkid, libselinux and libpcre2,
 * about 1 MiB of resident memory in every run, for code most runs never reach.
 */
#include "config.h"

#include "mountinfo.h"

#include <dlfcn.h>
#include <errno.h>
#include <libmount.h>
#include <string.h>

#include "util.h"

#define LIBMOUNT_SONAME "libmount.so.1"

struct libmount_api {
	__typeof__(mnt_new_table) *new_table;
	__typeof__(mnt_unref_table) *unref_table;
	__typeof__(mnt_table_parse_file) *table_parse_file;
	__typeof__(mnt_new_iter) *new_iter;
	__typeof__(mnt_free_iter) *free_iter;
	__typeof__(mnt_table_next_fs) *table_next_fs;
	__typeof__(mnt_fs_get_target) *fs_get_target;
};

/* Loaded once per process and never unloaded: a cache, not state that changes meaning. */
static const struct libmount_api *libmount(void)
{
	static struct libmount_api api;
	static int loaded; /* 0 not tried, 1 ok, -1 failed */
	void *h;

	if (loaded)
		return loaded > 0 ? &api : NULL;
	loaded = -1;
	h = dlopen(LIBMOUNT_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return NULL;
	api.new_table = (__typeof__(api.new_table))dlsym(h, "mnt_new_table");
	api.unref_table = (__typeof__(api.unref_table))dlsym(h, "mnt_unref_table");
	api.table_parse_file = (__typeof__(api.table_parse_file))dlsym(h, "mnt_table_parse_file");
	api.new_iter = (__typeof__(api.new_iter))dlsym(h, "mnt_new_iter");
	api.free_iter = (__typeof__(api.free_iter))dlsym(h, "mnt_free_iter");
	api.table_next_fs = (__typeof__(api.table_next_fs))dlsym(h, "mnt_table_next_fs");
	api.fs_get_target = (__typeof__(api.fs_get_target))dlsym(h, "mnt_fs_get_target");
	if (!api.new_table || !api.unref_table || !api.table_parse_file || !api.new_iter ||
	    !api.free_iter || !api.table_next_fs || !api.fs_get_target)
		return NULL;
	loaded = 1;
	return &api;
}

static int collect_subtree(const struct libmount_api *m, struct libmnt_table *tb,
			   const char *mountpoint, char ***ret)
{
	struct libmnt_iter *it = m->new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	char **v = NULL;

	if (!it)
		return -ENOMEM;
	strv_push(&v, mountpoint);
	while (m->table_next_fs(tb, it, &fs) == 0) {
		const char *t = m->fs_get_target(fs);

		if (t && strcmp(t, mountpoint) != 0 && path_is_below(t, mountpoint))
			strv_push(&v, t);
	}
	m->free_iter(it);
	*ret = v;
	return 0;
}

int mountinfo_preload(void)
{
	return libmount() ? 0 : -ELIBACC;
}

int mountinfo_list_subtree(const char *mountpoint, char ***ret)
{
	const struct libmount_api *m = libmount();
	struct libmnt_table *tb;
	int r;

	if (!m)
		return -ELIBACC;
	tb = m->new_table();
	if (!tb)
		return -ENOMEM;
	r = m->table_parse_file(tb, "/proc/self/mountinfo");
	if (r < 0)
		r = r == -1 ? -EIO : r;
	else
		r = collect_subtree(m, tb, mountpoint, ret);
	m->unref_table(tb);
	return r;
}
