/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test-hide.c: the overlay-hide planner against a fake sandbox tree (a table of
 * paths and symlinks), so which directory loses which names is checked without
 * namespaces: PATH handling, symlinked directories, globs, allowlists, precedence, and
 * the choice between whiteouts and a directory of kept entries.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "hide-plan.h"
#include "path.h"
#include "util.h"

/* The fake tree's paths are short; truncation there cannot happen. */
#ifndef __clang__ /* clang has no such warning, and -Werror refuses the unknown name */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

/* The fake tree: a path and, for symlinks, the link target. Directories end in '/'. */
static const struct {
	const char *path;
	const char *target;
} fake[] = {
	{ "/bin", "usr/bin" },
	{ "/sbin", "usr/sbin" },
	{ "/usr/", NULL },
	{ "/usr/bin/", NULL },
	{ "/usr/sbin/", NULL },
	{ "/usr/local/", NULL },
	{ "/usr/local/bin/", NULL },
	{ "/usr/local/bin/rm", NULL },
	{ "/usr/share/", NULL },
	{ "/usr/share/doc/", NULL },
	{ "/usr/share/doc/x", NULL },
	{ "/usr/bin/ls", NULL },
	{ "/usr/bin/cat", NULL },
	{ "/usr/bin/rm", NULL },
	{ "/usr/bin/dash", NULL },
	{ "/usr/bin/sh", "dash" },
	{ "/usr/bin/python3", "python3.11" },
	{ "/usr/bin/python3.11", NULL },
	{ "/usr/bin/python3-config", NULL },
	{ "/usr/bin/.hidden", NULL },
	{ "/usr/bin/editor", "/etc/alternatives/editor" },
	{ "/usr/bin/vim.basic", NULL },
	{ "/usr/sbin/rm", NULL },
	{ "/etc/", NULL },
	{ "/etc/alternatives/", NULL },
	{ "/etc/alternatives/editor", "../../usr/bin/vim.basic" },
	{ "/loop", "loop" },
};

/* Index of path in fake[] (with or without the directory's trailing '/'), or -1. */
static int lookup(const char *path)
{
	size_t len = strlen(path);

	for (size_t i = 0; i < ARRAY_SIZE(fake); i++)
		if (strncmp(fake[i].path, path, len) == 0 &&
		    (fake[i].path[len] == '\0' ||
		     (fake[i].path[len] == '/' && !fake[i].path[len + 1])))
			return (int)i;
	return -1;
}

static bool is_dir(int i)
{
	return fake[i].path[strlen(fake[i].path) - 1] == '/';
}

/* The fake table as a tree for path.c's walk: handle 0 is the root, i + 1 is fake[i]. */
static int tree_open(void *ctx, int dir, const char *name)
{
	char path[4096];
	const char *d = dir ? fake[dir - 1].path : "";
	int i;

	(void)ctx;
	if (strcmp(name, ".") == 0)
		return dir;
	snprintf(path, sizeof(path), "%.*s/%s", (int)(strlen(d) - (dir && is_dir(dir - 1))), d,
		 name);
	i = lookup(path);
	return i < 0 ? -ENOENT : i + 1;
}

static int tree_mode(void *ctx, int h, mode_t *mode)
{
	(void)ctx;
	if (h == 0 || is_dir(h - 1))
		*mode = S_IFDIR | 0755;
	else
		*mode = fake[h - 1].target ? S_IFLNK | 0777 : S_IFREG | 0644;
	return 0;
}

static int tree_readlink(void *ctx, int h, char *buf, size_t size)
{
	(void)ctx;
	if (h == 0 || !fake[h - 1].target)
		return -EINVAL;
	return snprintf(buf, size, "%s", fake[h - 1].target);
}

static int tree_dup(void *ctx, int h)
{
	(void)ctx;
	return h;
}

static void tree_close(void *ctx, int h)
{
	(void)ctx;
	(void)h;
}

static const struct path_tree tree = {
	.open = tree_open,
	.mode = tree_mode,
	.readlink = tree_readlink,
	.dup = tree_dup,
	.close = tree_close,
};

static int fake_resolve(void *ctx, const char *path, char **ret)
{
	(void)ctx;
	return path_resolve_dir(&tree, 0, path, ret);
}

static int fake_list(void *ctx, const char *dir, char ***ret)
{
	char buf[4096];
	size_t ld = strcmp(dir, "/") ? strlen(dir) : 0, len = 0, n = 0;

	(void)ctx;
	for (size_t i = 0; i < ARRAY_SIZE(fake); i++) {
		const char *p = fake[i].path, *slash;
		if (strncmp(p, dir, ld) != 0 || p[ld] != '/' || !p[ld + 1])
			continue;
		slash = strchr(p + ld + 1, '/');
		if (slash && slash[1])
			continue; /* deeper than one level */
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%.*s",
					(int)strcspn(p + ld + 1, "/"), p + ld + 1) +
		       1;
		n++;
	}
	*ret = hide_pack_names(buf, len, n);
	return 0;
}

static int fake_read_link(void *ctx, const char *dir, const char *name, char **ret)
{
	_cleanup_free_ char *path = path_join(dir, name);
	int i = lookup(path);

	(void)ctx;
	if (i < 0)
		return -ENOENT;
	if (!fake[i].target)
		return -EINVAL;
	*ret = xstrdup(fake[i].target);
	return 0;
}

static const struct hide_fs fs = {
	.resolve_dir = fake_resolve,
	.list_dir = fake_list,
	.read_link = fake_read_link,
};

/* Builds a plan and renders it as "dir:hidden,hidden;dir=kept,kept;..." (':' for whiteouts,
 * '=' for a keep-only directory) for compact assertions. */
static int plan_text(const char *const *hide, const char *const *allow, const char *path_env,
		     char *out, size_t size, struct nsrun_error *err)
{
	_cleanup_strv_free_ char **h = strv_copy((char *const *)hide);
	_cleanup_strv_free_ char **a = strv_copy((char *const *)allow);
	struct hide_config cfg = { .hide = h, .allow = a };
	struct hide_plan plan;
	int r = hide_plan_build(&cfg, path_env, &fs, &plan, err);
	size_t len = 0;

	out[0] = '\0';
	if (r < 0)
		return r;
	for (size_t i = 0; i < plan.n_dirs; i++) {
		const struct hide_dir *d = &plan.dirs[i];
		bool keep = d->method == HIDE_KEEP_ONLY;
		char **v = keep ? d->keep : d->names;
		size_t n = keep ? d->n_keep : d->n_names;

		len += (size_t)snprintf(out + len, size - len, "%s%s%s", i ? ";" : "", d->dir,
					keep ? "=" : ":");
		for (size_t j = 0; j < n; j++)
			len += (size_t)snprintf(out + len, size - len, "%s%s", j ? "," : "", v[j]);
		assert_null(v[n]);
		assert_true(keep ? d->n_names == 0 && !d->names[0] : d->n_names > 0 && !d->keep);
	}
	hide_plan_free(&plan);
	return 0;
}

#define HIDE(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define NONE ((const char *const *)NULL)

static void expect_plan(const char *const *hide, const char *const *allow, const char *path_env,
			const char *want)
{
	struct nsrun_error err = { 0 };
	char out[8192];

	assert_int_equal(plan_text(hide, allow, path_env, out, sizeof(out), &err), 0);
	assert_string_equal(out, want);
}

static void expect_error(const char *const *hide, const char *const *allow, const char *path_env,
			 int code, const char *needle)
{
	struct nsrun_error err = { 0 };
	char out[8192];

	assert_int_equal(plan_text(hide, allow, path_env, out, sizeof(out), &err), -code);
	assert_non_null(strstr(err.msg, needle));
}

/* path.c's walk, the one the engine runs, over the fake tree: links resolve inside the
 * root, ".." never climbs above it, and each failure keeps its errno. */
static void assert_resolves(const char *path, const char *want)
{
	char *canon = NULL;

	assert_int_equal(path_resolve_dir(&tree, 0, path, &canon), 0);
	assert_string_equal(canon, want);
	free(canon);
}

static void test_resolve_walk(void **state)
{
	char *canon = NULL;

	(void)state;
	assert_resolves("/", "/");
	assert_resolves("/bin", "/usr/bin");
	assert_resolves("/bin/", "/usr/bin");
	assert_resolves("//usr/./local//bin/..", "/usr/local");
	assert_resolves("/../../usr/../..", "/");
	assert_resolves("/etc/alternatives/../../bin/../sbin", "/usr/sbin");
	assert_int_equal(path_resolve_dir(&tree, 0, "/nope", &canon), -ENOENT);
	assert_int_equal(path_resolve_dir(&tree, 0, "/usr/bin/ls", &canon), -ENOTDIR);
	assert_int_equal(path_resolve_dir(&tree, 0, "/usr/bin/editor/..", &canon), -ENOTDIR);
	assert_int_equal(path_resolve_dir(&tree, 0, "/loop/x", &canon), -ELOOP);
	assert_null(canon);
}

static void test_name_in_every_path_dir(void **state)
{
	(void)state;
	/* /bin and /usr/bin are one directory: one entry; /usr/sbin via /sbin too. */
	expect_plan(HIDE("rm"), NONE, "/usr/local/bin:/usr/bin:/bin:/sbin",
		    "/usr/bin:rm;/usr/local/bin:rm;/usr/sbin:rm");
}

static void test_name_only_where_present(void **state)
{
	(void)state;
	expect_plan(HIDE("cat"), NONE, "/usr/local/bin:/usr/bin", "/usr/bin:cat");
	expect_plan(HIDE("nonexistent"), NONE, "/usr/local/bin:/usr/bin", "");
}

/* Literal hides that name nothing are reported (a typo: "crul"); globs are not. */
static void test_missing_reported(void **state)
{
	_cleanup_strv_free_ char **h =
		strv_copy((char *const *)HIDE("crul", "cat", "cur[l]", "/usr/bin/nope", "/bin/rm",
					      "nothing*"));
	_cleanup_strv_free_ char **cat = strv_copy((char *const *)HIDE("cat"));
	struct hide_config cfg = { .hide = h };
	struct nsrun_error err = { 0 };
	struct hide_plan plan;

	(void)state;
	assert_int_equal(hide_plan_build(&cfg, "/usr/local/bin:/usr/bin", &fs, &plan, &err), 0);
	assert_non_null(plan.missing);
	assert_string_equal(plan.missing[0], "crul");
	assert_string_equal(plan.missing[1], "/usr/bin/nope");
	assert_null(plan.missing[2]);
	hide_plan_free(&plan);
	cfg.hide = cat;
	assert_int_equal(hide_plan_build(&cfg, "/usr/bin", &fs, &plan, &err), 0);
	assert_null(plan.missing);
	hide_plan_free(&plan);
}

/* Literal allows that name nothing are reported too: the tool meant is simply absent.
 * Without a glob the chase's probes tell (a link, sh or editor, exists); with one the
 * listings do; a glob that matches nothing is not reported. */
static void test_missing_allow_reported(void **state)
{
	_cleanup_strv_free_ char **a = strv_copy(
		(char *const *)HIDE("sh", "pyhton3", "/usr/bin/ls", "/usr/bin/nope", "editor"));
	_cleanup_strv_free_ char **listed =
		strv_copy((char *const *)HIDE("rm", "c*", "x[y]", "lss"));
	struct hide_config cfg = { .allow = a };
	struct nsrun_error err = { 0 };
	struct hide_plan plan;

	(void)state;
	assert_int_equal(hide_plan_build(&cfg, "/usr/local/bin:/usr/bin", &fs, &plan, &err), 0);
	assert_null(plan.missing);
	assert_non_null(plan.missing_allow);
	assert_string_equal(plan.missing_allow[0], "pyhton3");
	assert_string_equal(plan.missing_allow[1], "/usr/bin/nope");
	assert_null(plan.missing_allow[2]);
	hide_plan_free(&plan);
	/* With a glob the directories are listed: rm (in both) is found there, lss is not. */
	cfg.allow = listed;
	assert_int_equal(hide_plan_build(&cfg, "/usr/local/bin:/usr/bin", &fs, &plan, &err), 0);
	assert_non_null(plan.missing_allow);
	assert_string_equal(plan.missing_allow[0], "lss");
	assert_null(plan.missing_allow[1]);
	hide_plan_free(&plan);
}

static void test_path_skips_relative_empty_missing(void **state)
{
	(void)state;
	expect_plan(HIDE("rm"), NONE, "::bin:./usr/local/bin:/nonexistent:/usr/bin/ls:/usr/bin",
		    "/usr/bin:rm");
}

static void test_default_path(void **state)
{
	(void)state;
	expect_plan(HIDE("rm"), NONE, NULL, "/usr/bin:rm");
	assert_string_equal(HIDE_DEFAULT_PATH, "/bin:/usr/bin");
}

static void test_path_form(void **state)
{
	(void)state;
	expect_plan(HIDE("/bin/rm"), NONE, "", "/usr/bin:rm");
	expect_plan(HIDE("/usr/share/doc/"), NONE, "", "/usr/share:doc");
	expect_plan(HIDE("/usr/local/../bin/./rm"), NONE, "", "/usr/bin:rm");
	/* A missing entry is whited out anyway: it stays absent. */
	expect_plan(HIDE("/usr/bin/nonexistent"), NONE, "", "/usr/bin:nonexistent");
	expect_plan(HIDE("/etc"), NONE, "", "/:etc");
}

static void test_path_form_errors(void **state)
{
	(void)state;
	expect_error(HIDE("/nonexistent/rm"), NONE, "", ENOENT, "'/nonexistent'");
	expect_error(HIDE("/usr/bin/ls/x"), NONE, "", ENOTDIR, "'/usr/bin/ls'");
	expect_error(HIDE("/loop/x"), NONE, "", ELOOP, "/loop");
	expect_error(HIDE("usr/bin/rm"), NONE, "", EINVAL, "absolute path");
	expect_error(HIDE("/"), NONE, "", EINVAL, "does not name");
	expect_error(HIDE(""), NONE, "", EINVAL, "does not name");
	expect_error(HIDE(".."), NONE, "", EINVAL, "does not name");
	expect_error(HIDE("/usr/.."), NONE, "", EINVAL, "does not name");
	expect_error(NONE, HIDE("/nonexistent/ls"), "", ENOENT, "--overlay-allow");
}

static void test_globs(void **state)
{
	(void)state;
	expect_plan(HIDE("/usr/bin/python3*"), NONE, "",
		    "/usr/bin:python3,python3-config,python3.11");
	expect_plan(HIDE("python3.?"), NONE, "/usr/bin", "");
	expect_plan(HIDE("python3.??"), NONE, "/usr/bin", "/usr/bin:python3.11");
	expect_plan(HIDE("[cl]*"), NONE, "/usr/bin", "/usr/bin:cat,ls");
	/* '*' does not match a leading dot (FNM_PERIOD), ".*" does. */
	expect_plan(HIDE("/usr/local/bin/*"), NONE, "", "/usr/local/bin:rm");
	expect_plan(HIDE(".*"), NONE, "/usr/bin", "/usr/bin:.hidden");
	expect_plan(HIDE("nomatch*"), NONE, "/usr/bin", "");
}

static void test_two_dirs_sorted_unique(void **state)
{
	(void)state;
	expect_plan(HIDE("/usr/share/doc", "/bin/rm", "/usr/bin/rm", "rm", "/usr/bin/ls"), NONE,
		    "/usr/bin", "/usr/bin:ls,rm;/usr/share:doc");
}

static void test_allowlist_seed_example(void **state)
{
	(void)state;
	/* The seed: include ls, cat, sh, python3; exclude rm. Links they go through stay. */
	expect_plan(HIDE("rm"), HIDE("ls", "cat", "sh", "python3"), "/usr/bin:/bin",
		    "/usr/bin=cat,dash,ls,python3,python3.11,sh");
}

static void test_allow_names_every_path_dir(void **state)
{
	(void)state;
	expect_plan(NONE, HIDE("ls"), "/usr/local/bin:/usr/sbin:/nonexistent",
		    "/usr/local/bin=;/usr/sbin=");
}

static void test_allow_path_form(void **state)
{
	(void)state;
	/* Literal allows are not checked against a listing: the directory is rebuilt. */
	expect_plan(NONE, HIDE("/usr/share/doc"), "", "/usr/share=doc");
	expect_plan(NONE, HIDE("/usr/local/bin/rm"), "", "/usr/local/bin=rm");
	/* A glob needs the listing; a directory that loses nothing is left alone. */
	expect_plan(NONE, HIDE("/usr/share/*"), "", "");
	expect_plan(NONE, HIDE("/usr/bin/l*", "/usr/bin/c*", "/usr/bin/.hidden"), "",
		    "/usr/bin=.hidden,cat,ls");
	expect_plan(NONE, HIDE("/usr/bin/*"), "", "/usr/bin:.hidden");
}

static void test_include_wins(void **state)
{
	(void)state;
	expect_plan(HIDE("ls", "rm"), HIDE("/usr/bin/ls"), "/usr/bin", "/usr/bin=ls");
	expect_plan(HIDE("/usr/bin/python3*"), HIDE("python3"), "/usr/bin",
		    "/usr/bin=python3,python3.11");
	expect_plan(HIDE("/usr/bin/rm"), HIDE("/usr/bin/r?"), "", "/usr/bin=rm");
	/* Whiteouts (the allowlist keeps most): a hidden but allowed name is not whited out. */
	expect_plan(HIDE("/usr/bin/rm", "/usr/bin/cat"), HIDE("/usr/bin/[a-r]*"), "",
		    "/usr/bin:.hidden,sh");
}

static void test_allow_follows_links_across_dirs(void **state)
{
	(void)state;
	/* editor -> /etc/alternatives/editor -> ../../usr/bin/vim.basic: the chain's
	 * entries in planned directories stay visible. */
	expect_plan(NONE, HIDE("/usr/bin/editor", "/etc/alternatives/x"), "",
		    "/etc/alternatives=editor;/usr/bin=editor,vim.basic");
}

static void test_many_names(void **state)
{
	char **hide = NULL;
	char out[65536];
	struct nsrun_error err = { 0 };

	(void)state;
	for (int i = 0; i < 1000; i++) {
		char name[32];

		snprintf(name, sizeof(name), "/usr/bin/n%04d", 999 - i);
		strv_push(&hide, name);
	}
	strv_push(&hide, "/usr/bin/n0000");
	assert_int_equal(plan_text((const char *const *)hide, NULL, "", out, sizeof(out), &err), 0);
	assert_true(str_has_prefix(out, "/usr/bin:n0000,n0001,n0002,"));
	assert_int_equal(strlen(out), strlen("/usr/bin:") + 1000 * 6 - 1);
	strv_free(hide);
}

static void test_many_names_listed(void **state)
{
	(void)state;
	/* Past 16 NAME rules the PATH directories are listed once instead of probed. */
	expect_plan(HIDE("a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "a10", "a11", "a12",
			 "a13", "a14", "a15", "rm", "cat", "sh", "python3.11"),
		    NONE, "/usr/local/bin:/bin:/nonexistent:/usr/sbin",
		    "/usr/bin:cat,python3.11,rm,sh;/usr/local/bin:rm;/usr/sbin:rm");
}

static void test_method_choice(void **state)
{
	(void)state;
	/* Explicit hides never keep-only, however many. */
	expect_plan(HIDE("/usr/bin/*"), NONE, "",
		    "/usr/bin:cat,dash,editor,ls,python3,"
		    "python3-config,python3.11,rm,sh,vim.basic");
	/* Literal allows: keep-only, O(allowed), whatever the directory holds. */
	expect_plan(NONE, HIDE("ls", "sh"), "/usr/bin", "/usr/bin=dash,ls,sh");
	expect_plan(NONE, HIDE("nonexistent"), "/usr/bin", "/usr/bin=");
	expect_plan(HIDE("l*", "rm"), HIDE("ls"), "/usr/bin", "/usr/bin=ls");
	/* Globs: counted; keep-only when it hides more than it keeps (3 kept, 8 hidden)... */
	expect_plan(NONE, HIDE("/usr/bin/p*"), "", "/usr/bin=python3,python3-config,python3.11");
	/* ...whiteouts otherwise (9 kept with editor -> vim.basic, 2 hidden). */
	expect_plan(NONE, HIDE("/usr/bin/[a-r]*"), "", "/usr/bin:.hidden,sh");
	/* Each directory chooses separately. */
	expect_plan(HIDE("/usr/share/doc"), HIDE("/usr/bin/ls", "/usr/local/bin/x"), "",
		    "/usr/bin=ls;/usr/local/bin=;/usr/share:doc");
	/* A link chain leaving and re-entering the directory keeps its target too. */
	expect_plan(NONE, HIDE("/usr/bin/ls", "/usr/bin/editor"), "",
		    "/usr/bin=editor,ls,vim.basic");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolve_walk),
		cmocka_unit_test(test_name_in_every_path_dir),
		cmocka_unit_test(test_missing_reported),
		cmocka_unit_test(test_name_only_where_present),
		cmocka_unit_test(test_missing_allow_reported),
		cmocka_unit_test(test_path_skips_relative_empty_missing),
		cmocka_unit_test(test_default_path),
		cmocka_unit_test(test_path_form),
		cmocka_unit_test(test_path_form_errors),
		cmocka_unit_test(test_globs),
		cmocka_unit_test(test_two_dirs_sorted_unique),
		cmocka_unit_test(test_allowlist_seed_example),
		cmocka_unit_test(test_allow_names_every_path_dir),
		cmocka_unit_test(test_allow_path_form),
		cmocka_unit_test(test_include_wins),
		cmocka_unit_test(test_allow_follows_links_across_dirs),
		cmocka_unit_test(test_many_names),
		cmocka_unit_test(test_many_names_listed),
		cmocka_unit_test(test_method_choice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
