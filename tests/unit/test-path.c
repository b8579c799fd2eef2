/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test-path.c: confined resolution and creation beneath a root fd, on real files
 * in a mkdtemp directory. Symlinks that point at "/" or climb with ".." must land
 * inside the root; both the openat2 path and the component walk are exercised.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "path.h"

struct fixture {
	char dir[64];
	int root_fd;
};

static void run(const char *cmd)
{
	assert_int_equal(system(cmd), 0);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char cmd[512];

	umask(0);
	snprintf(f->dir, sizeof(f->dir), "/tmp/test-path-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	/* The root holds etc/f, links that try to leave it, a loop and a dangling link. */
	snprintf(cmd, sizeof(cmd),
		 "cd %s && mkdir -p etc sub/deeper && echo inside > etc/f && "
		 "ln -s / esc && ln -s ../../../../.. up && ln -s /etc abs && "
		 "ln -s loop2 loop1 && ln -s loop1 loop2 && ln -s /made/here dangling && "
		 "ln -s /proc/self/root magic && touch plain",
		 f->dir);
	run(cmd);
	f->root_fd = open(f->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(f->root_fd >= 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	close(f->root_fd);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", f->dir);
	run(cmd);
	free(f);
	return 0;
}

/* Reads the file at path (opened confined) and checks it is the root's etc/f. */
static void assert_inside_file(int root_fd, const char *path)
{
	char buf[16] = { 0 };
	int fd = path_open(root_fd, path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, sizeof(buf) - 1), 7);
	assert_string_equal(buf, "inside\n");
	close(fd);
}

static void test_open_escapes_stay_inside(void **state)
{
	struct fixture *f = *state;

	assert_inside_file(f->root_fd, "/etc/f");
	assert_inside_file(f->root_fd, "esc/etc/f");
	assert_inside_file(f->root_fd, "up/etc/f");
	assert_inside_file(f->root_fd, "abs/f");
	assert_inside_file(f->root_fd, "../../../etc/f");
	assert_inside_file(f->root_fd, "sub/deeper/../../up/abs/f");
	/* Host files are not reachable: the root has no etc/passwd. */
	assert_int_equal(path_open(f->root_fd, "esc/etc/passwd", O_RDONLY), -ENOENT);
	assert_int_equal(path_open(f->root_fd, "up/etc/passwd", O_RDONLY), -ENOENT);
}

static void test_walk_escapes_stay_inside(void **state)
{
	struct fixture *f = *state;
	const char *paths[] = { "esc/etc/f", "up/etc/f", "abs/f", "../../etc/f", "abs/../abs/f" };
	struct path_walk_opts o = { .last = PATH_LAST_EXISTING };

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		struct path_walk_result res;
		struct stat a, b;

		assert_int_equal(path_walk(f->root_fd, paths[i], &o, &res), 0);
		assert_string_equal(res.name, "f");
		assert_string_equal(res.canon, "/etc/f");
		assert_int_equal(fstatat(f->root_fd, "etc/f", &a, 0), 0);
		assert_int_equal(fstat(res.fd, &b), 0);
		assert_true(a.st_ino == b.st_ino && a.st_dev == b.st_dev);
		path_walk_result_free(&res);
	}
}

/* The real tree's canonical directory names, as --overlay-hide's planner sees them. */
static void test_resolve_dir(void **state)
{
	struct fixture *f = *state;
	char *canon = NULL;

	assert_int_equal(path_resolve_dir(&path_fd_tree, f->root_fd, "esc/sub/../abs", &canon), 0);
	assert_string_equal(canon, "/etc");
	free(canon);
	assert_int_equal(path_resolve_dir(&path_fd_tree, f->root_fd, "/", &canon), 0);
	assert_string_equal(canon, "/");
	free(canon);
	canon = NULL;
	assert_int_equal(path_resolve_dir(&path_fd_tree, f->root_fd, "plain", &canon), -ENOTDIR);
	assert_int_equal(path_resolve_dir(&path_fd_tree, f->root_fd, "dangling", &canon), -ENOENT);
	assert_int_equal(path_resolve_dir(&path_fd_tree, f->root_fd, "loop1", &canon), -ELOOP);
	assert_null(canon);
}

static void test_loops_and_magic(void **state)
{
	struct fixture *f = *state;
	struct path_walk_opts o = { .last = PATH_LAST_EXISTING };
	struct path_walk_result res;

	assert_int_equal(path_open(f->root_fd, "loop1", O_PATH), -ELOOP);
	assert_int_equal(path_walk(f->root_fd, "loop1/x", &o, &res), -ELOOP);
	/* /proc/self/root inside the root is just a missing path, never the host's root. */
	assert_int_equal(path_walk(f->root_fd, "magic/etc", &o, &res), -ENOENT);
	assert_int_equal(path_open(f->root_fd, "magic/etc", O_PATH), -ENOENT);
	assert_int_equal(path_open(f->root_fd, "plain/x", O_PATH), -ENOTDIR);
}

/* Landlock rule paths: a symlink anywhere refuses the path, by openat2 and by the walk. */
static void test_no_symlinks(void **state)
{
	struct fixture *f = *state;
	struct path_walk_opts o = { .last = PATH_LAST_EXISTING, .no_symlinks = true };
	const char *refused[] = { "abs", "abs/f", "esc/etc/f", "sub/../abs/f", "dangling" };
	struct path_walk_result res;
	struct stat a, b;
	int fd;

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		assert_int_equal(path_open_no_symlinks(f->root_fd, refused[i], O_PATH), -ELOOP);
		assert_int_equal(path_walk(f->root_fd, refused[i], &o, &res), -ELOOP);
	}
	fd = path_open_no_symlinks(f->root_fd, "/sub/deeper/../../etc/f", O_PATH);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &a), 0);
	close(fd);
	assert_int_equal(path_walk(f->root_fd, "sub/deeper/../../etc/f", &o, &res), 0);
	assert_int_equal(fstat(res.fd, &b), 0);
	assert_true(a.st_ino == b.st_ino && a.st_dev == b.st_dev);
	path_walk_result_free(&res);
	assert_int_equal(path_open_no_symlinks(f->root_fd, "etc/missing", O_PATH), -ENOENT);
}

static mode_t mode_of(const struct fixture *f, const char *rel)
{
	struct stat st;

	assert_int_equal(fstatat(f->root_fd, rel, &st, AT_SYMLINK_NOFOLLOW), 0);
	return st.st_mode;
}

/* bwrap 0.12+'s destinations: parents made and followed inside the root, the last
 * component left to the caller, never followed. */
static void test_dest_parent(void **state)
{
	struct fixture *f = *state;
	char *name = NULL;
	int fd;

	fd = path_dest_parent(f->root_fd, "/a/b/c", 0750, &name);
	assert_true(fd >= 0);
	assert_string_equal(name, "c");
	assert_int_equal(mode_of(f, "a"), S_IFDIR | 0750);
	assert_int_equal(mode_of(f, "a/b"), S_IFDIR | 0750);
	assert_true(faccessat(f->root_fd, "a/b/c", F_OK, AT_SYMLINK_NOFOLLOW) < 0);
	close(fd);
	free(name);
	/* "//" and a trailing '/' name the same last component */
	fd = path_dest_parent(f->root_fd, "a//b/d//", 0700, &name);
	assert_true(fd >= 0);
	assert_string_equal(name, "d");
	assert_int_equal(mode_of(f, "a/b"), S_IFDIR | 0750);
	close(fd);
	free(name);
	/* through an absolute link: inside the root */
	fd = path_dest_parent(f->root_fd, "esc/x/y", 0755, &name);
	assert_true(fd >= 0);
	assert_string_equal(name, "y");
	assert_int_equal(mode_of(f, "x"), S_IFDIR | 0755);
	close(fd);
	free(name);
	fd = path_dest_parent(f->root_fd, "/", 0755, &name);
	assert_true(fd >= 0);
	assert_string_equal(name, ".");
	close(fd);
	free(name);
	assert_int_equal(path_dest_parent(f->root_fd, "plain/sub", 0755, &name), -ENOTDIR);
	assert_null(name);
	/* past a dangling link: nothing is made at its target */
	assert_int_equal(path_dest_parent(f->root_fd, "dangling/sub", 0755, &name), -ENOENT);
	assert_true(faccessat(f->root_fd, "made", F_OK, AT_SYMLINK_NOFOLLOW) < 0);
}

/* The walk's "mkdir -p" of PATH's parents. */
static int mkdir_parents(int root_fd, const char *path, mode_t mode)
{
	struct path_walk_opts o = { .create_parents = true,
				    .parent_mode = mode,
				    .last = PATH_LAST_PARENT };
	struct path_walk_result res;
	int r = path_walk(root_fd, path, &o, &res);

	if (r == 0)
		path_walk_result_free(&res);
	return r;
}

static void test_parent_walk(void **state)
{
	struct fixture *f = *state;
	struct path_walk_opts o = {
		.create_parents = true,
		.parent_mode = 0711,
		.last = PATH_LAST_PARENT,
	};
	struct path_walk_result res;
	char target[64];

	assert_int_equal(path_walk(f->root_fd, "p/q/link", &o, &res), 0);
	assert_int_equal(res.fd, -1);
	assert_string_equal(res.name, "link");
	assert_int_equal(symlinkat("/nowhere", res.parent_fd, res.name), 0);
	path_walk_result_free(&res);
	assert_int_equal(mode_of(f, "p/q"), S_IFDIR | 0711);
	/* The last component is not followed. */
	assert_int_equal(path_walk(f->root_fd, "p/q/link", &o, &res), 0);
	assert_true(res.fd >= 0);
	assert_int_equal(readlinkat(res.parent_fd, res.name, target, sizeof(target)), 8);
	path_walk_result_free(&res);
	/* A last "NAME/" is a parent: made with the parents' mode, and the result is in it. */
	assert_int_equal(mkdir_parents(f->root_fd, "p/made/", 0701), 0);
	assert_int_equal(mode_of(f, "p/made"), S_IFDIR | 0701);
	assert_int_equal(path_walk(f->root_fd, "p/made//", &o, &res), 0);
	assert_true(res.fd >= 0);
	assert_string_equal(res.name, "made");
	path_walk_result_free(&res);
	assert_int_equal(mkdir_parents(f->root_fd, "etc/f/", 0701), -ENOTDIR);
	/* Past a dangling link: done when nothing of the path's own is left to make (bwrap's
	 * mkdir -p ignores the EEXIST), else ENOENT; nothing is made through the link. */
	assert_int_equal(path_walk(f->root_fd, "dangling/x", &o, &res), 0);
	assert_int_equal(res.fd, -1);
	assert_int_equal(res.parent_fd, -1);
	path_walk_result_free(&res);
	assert_int_equal(mkdir_parents(f->root_fd, "dangling/", 0701), 0);
	assert_int_equal(mkdir_parents(f->root_fd, "dangling/x/y", 0701), -ENOENT);
	assert_true(faccessat(f->root_fd, "made", F_OK, AT_SYMLINK_NOFOLLOW) < 0);
	/* The root itself. */
	assert_int_equal(path_walk(f->root_fd, "/", &o, &res), 0);
	assert_string_equal(res.name, ".");
	path_walk_result_free(&res);
}

/* "/nnn.../nnn": LEN bytes in components of at most 200 bytes (the last at least 2). */
static char *long_path(size_t len)
{
	char *p = calloc(1, len + 1);
	size_t at = 0;

	while (at < len) {
		size_t n = len - at - 1 > 200 ? 200 : len - at - 1;

		if (len - at - 1 - n == 1)
			n--;
		p[at++] = '/';
		memset(p + at, 'n', n);
		at += n;
	}
	return p;
}

/* Paths are refused where the kernel refuses the name: PATH must stay under PATH_MAX,
 * the walk (openat2's fallback) included. A destination's parents are each opened by
 * their own prefix, so only that prefix counts there. */
static void test_name_limit(void **state)
{
	struct fixture *f = *state;
	char *fits = long_path(PATH_MAX - 1), *over = long_path(PATH_MAX);
	char *name = NULL;
	int fd;

	assert_int_equal(path_open(f->root_fd, over, O_PATH), -ENAMETOOLONG);
	path_force_fallback(); /* for the rest of this program: the last fixture test */
	assert_int_equal(path_open(f->root_fd, over, O_PATH), -ENAMETOOLONG);
	fd = path_dest_parent(f->root_fd, fits, 0755, &name);
	assert_true(fd >= 0);
	assert_int_equal(mkdirat(fd, name, 0755), 0);
	close(fd);
	free(name);
	fd = path_open(f->root_fd, fits, O_PATH | O_DIRECTORY);
	assert_true(fd >= 0);
	close(fd);
	free(fits);
	free(over);
}

static void test_parent_mode(void **state)
{
	static const struct {
		bool has;
		mode_t perms, expect;
	} cases[] = {
		{ false, 0, 0755 },    { true, 0700, 0700 }, { true, 0750, 0750 },
		{ true, 0705, 0705 },  { true, 0640, 0750 }, { true, 0604, 0705 },
		{ true, 0000, 0700 },  { true, 0777, 0755 }, { true, 0001, 0705 },
		{ true, 07777, 0755 }, { true, 0070, 0750 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(path_parent_mode(cases[i].has, cases[i].perms), cases[i].expect);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_open_escapes_stay_inside, setup, teardown),
		cmocka_unit_test_setup_teardown(test_walk_escapes_stay_inside, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resolve_dir, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loops_and_magic, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_symlinks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dest_parent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parent_walk, setup, teardown),
		cmocka_unit_test_setup_teardown(test_name_limit, setup, teardown),
		cmocka_unit_test(test_parent_mode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
