/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * hide-plan.c: the --overlay-hide / --overlay-allow planner. Pure: every look at the
 * sandbox goes through struct hide_fs. Each directory's rules are collected first
 * (literals looked up with bsearch, globs scanned), then resolved against one listing,
 * so the cost is O(rules + entries) however many names are hidden.
 */
#include "config.h"

#include "hide-plan.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "macros.h"
#include "util.h"

/* A growable, counted vector of names; owned copies unless made by refs_add. */
struct names {
	char **v;
	size_t n, cap;
	bool borrowed;
};

static void names_push(struct names *s, char *name)
{
	if (s->n + 1 >= s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->v = xrealloc(s->v, s->cap * sizeof(char *));
	}
	s->v[s->n++] = name;
	s->v[s->n] = NULL;
}

static void names_add(struct names *s, const char *name)
{
	names_push(s, xstrdup(name));
}

/* Collects pointers into strings that outlive s (a listing, rules); packed at the end. */
static void refs_add(struct names *s, const char *name)
{
	s->borrowed = true;
	names_push(s, (char *)name);
}

static void names_free(struct names *s)
{
	for (size_t i = 0; !s->borrowed && i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	*s = (struct names){ 0 };
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void names_sort_unique(struct names *s)
{
	size_t j = 0;

	if (s->n == 0)
		return;
	/* Rules from a listing or `ls` output mostly arrive sorted: check before sorting. */
	for (size_t i = 1; i < s->n; i++) {
		if (strcmp(s->v[i - 1], s->v[i]) > 0) {
			qsort(s->v, s->n, sizeof(char *), cmp_str);
			break;
		}
	}
	for (size_t i = 1; i < s->n; i++) {
		if (strcmp(s->v[i], s->v[j]) != 0)
			s->v[++j] = s->v[i];
		else if (!s->borrowed)
			free(s->v[i]);
	}
	s->n = j + 1;
	s->v[s->n] = NULL;
}

static bool names_has(const struct names *s, const char *name)
{
	return s->n && bsearch(&name, s->v, s->n, sizeof(char *), cmp_str);
}

char **hide_pack_names(const char *buf, size_t len, size_t n)
{
	char **v = xmalloc((n + 1) * sizeof(char *) + len);
	char *strings = (char *)(v + n + 1);

	if (len) /* buf may be NULL for an empty directory */
		memcpy(strings, buf, len);

	for (size_t i = 0; i < n; i++) {
		v[i] = strings;
		strings += strlen(strings) + 1;
	}
	v[n] = NULL;
	return v;
}

/* Sorted, unique, packed copy of s (one allocation, as hide_plan_free expects). */
static char **names_pack(struct names *s, size_t *ret_n)
{
	size_t len = 0;
	char *buf, *o;
	char **v;

	names_sort_unique(s);
	for (size_t i = 0; i < s->n; i++)
		len += strlen(s->v[i]) + 1;
	o = buf = xmalloc(len + 1);
	for (size_t i = 0; i < s->n; i++)
		o = stpcpy(o, s->v[i]) + 1;
	v = hide_pack_names(buf, len, s->n);
	*ret_n = s->n;
	free(buf);
	names_free(s);
	return v;
}

static bool is_glob(const char *pat)
{
	return strpbrk(pat, "*?[\\") != NULL;
}

static bool glob_any(const struct names *globs, const char *name)
{
	for (size_t i = 0; i < globs->n; i++)
		if (fnmatch(globs->v[i], name, FNM_PERIOD) == 0)
			return true;
	return false;
}

/* A listing from hide_fs: one allocation, sorted in place. */
struct listing {
	char **v; /* NULL: not listed */
	size_t n;
};

static int listing_read(const struct hide_fs *fs, const char *dir, struct listing *l)
{
	int r = fs->list_dir(fs->ctx, dir, &l->v);

	if (r < 0)
		return r;
	l->n = strv_length(l->v);
	qsort(l->v, l->n, sizeof(char *), cmp_str);
	return 0;
}

static bool listing_has(const struct listing *l, const char *name)
{
	return l->n && bsearch(&name, l->v, l->n, sizeof(char *), cmp_str);
}

/* One directory the rules touch. Literal rules are looked up with bsearch, globs scanned. */
struct pdir {
	char *dir;
	bool allowlist;
	struct names allow_lit, allow_glob;
	struct names hide_always;  /* PATH form literals: whited out even when absent */
	struct names hide_present; /* NAME form literals, checked present */
	struct names hide_glob;
	struct listing list;  /* read only when globs need it */
	struct names present; /* not listed: the allowed names found to exist */
};

struct planner {
	const struct hide_fs *fs;
	struct pdir *dirs;
	size_t n_dirs;
	const char *path_env;
	bool path_resolved; /* path_dirs are looked up on the first NAME-form rule only */
	char **path_dirs;   /* canonical, existing, unique PATH directories */
	size_t n_path_dirs;
	struct listing *path_lists; /* listings of path_dirs, read when many names probe them */
	bool list_path_dirs;
	char *last_raw, *last_canon; /* consecutive PATH-form rules mostly share a parent */
	char **missing;		     /* see struct hide_plan */
	/* The literal allows, checked once the chase has probed them: their argument and,
	 * for the PATH form, their directory ("" for the NAME form) and name. */
	struct names allow_args, allow_dirs, allow_bases;
	char **missing_allow;
};

/* Whether NAME form literal name exists in PATH directory i: one lstat per name, or one
 * listing per directory when many names ask (the bench hides 1000). */
static bool path_dir_has(struct planner *p, size_t i, const char *name)
{
	_cleanup_free_ char *target = NULL;

	if (!p->list_path_dirs)
		return p->fs->read_link(p->fs->ctx, p->path_dirs[i], name, &target) != -ENOENT;
	if (!p->path_lists[i].v && listing_read(p->fs, p->path_dirs[i], &p->path_lists[i]) < 0)
		p->path_lists[i].v = xcalloc(1, sizeof(char *)); /* unreadable: nothing to probe */
	return listing_has(&p->path_lists[i], name);
}

static struct pdir *find_dir(struct planner *p, const char *dir)
{
	for (size_t i = 0; i < p->n_dirs; i++)
		if (strcmp(p->dirs[i].dir, dir) == 0)
			return &p->dirs[i];
	return NULL;
}

static struct pdir *get_dir(struct planner *p, const char *dir)
{
	struct pdir *d = find_dir(p, dir);

	if (!d) {
		d = xappend(&p->dirs, &p->n_dirs, sizeof(*d));
		d->dir = xstrdup(dir);
	}
	return d;
}

static void resolve_path_dirs(struct planner *p, const char *path_env)
{
	_cleanup_free_ char *copy = xstrdup(path_env ? path_env : HIDE_DEFAULT_PATH);
	char *save = NULL;

	/* Relative and empty entries name no fixed directory of the sandbox: skipped. */
	for (char *e = strtok_r(copy, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
		char *canon = NULL;
		bool dup = false;

		if (e[0] != '/' || p->fs->resolve_dir(p->fs->ctx, e, &canon) < 0)
			continue;
		for (size_t i = 0; i < p->n_path_dirs && !dup; i++)
			dup = strcmp(p->path_dirs[i], canon) == 0;
		if (dup) {
			free(canon);
			continue;
		}
		p->path_dirs = xrealloc(p->path_dirs, (p->n_path_dirs + 1) * sizeof(char *));
		p->path_dirs[p->n_path_dirs++] = canon;
	}
}

static void add_rule(struct pdir *d, const char *pat, bool allow, bool path_form)
{
	if (allow) {
		d->allowlist = true;
		names_add(is_glob(pat) ? &d->allow_glob : &d->allow_lit, pat);
	} else if (is_glob(pat)) {
		names_add(&d->hide_glob, pat);
	} else {
		names_add(path_form ? &d->hide_always : &d->hide_present, pat);
	}
}

/* A literal allow, for find_missing_allows(); DIR "" for the NAME form (every PATH
 * directory). Not probed here: the chase probes every allowed name anyway. */
static void note_allow(struct planner *p, const char *arg, const char *dir, const char *base)
{
	names_add(&p->allow_args, arg);
	names_add(&p->allow_dirs, dir);
	names_add(&p->allow_bases, base);
}

/* A PATH-form rule; a literal hidden name that does not exist is whited out anyway (it
 * cannot appear later either), and reported. */
static void add_path_rule(struct planner *p, const char *canon, const char *base, const char *arg,
			  bool allow)
{
	_cleanup_free_ char *target = NULL;

	add_rule(get_dir(p, canon), base, allow, true);
	if (allow && !is_glob(base))
		note_allow(p, arg, canon, base);
	else if (!allow && !is_glob(base) &&
		 p->fs->read_link(p->fs->ctx, canon, base, &target) == -ENOENT)
		strv_push(&p->missing, arg);
}

/* Splits one --overlay-hide/--overlay-allow argument and records it in its directories. */
static int add_arg(struct planner *p, const char *arg, bool allow, struct nsrun_error *err)
{
	const char *opt = allow ? "--overlay-allow" : "--overlay-hide";
	_cleanup_free_ char *copy = xstrdup(arg);
	_cleanup_free_ char *canon = NULL;
	char *slash, *base;
	size_t len = strlen(copy);
	int r;

	while (len > 1 && copy[len - 1] == '/')
		copy[--len] = '\0';
	slash = strrchr(copy, '/');
	base = slash ? slash + 1 : copy;
	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return error_set(err, 0, "%s: '%s' does not name a directory entry", opt, arg);
	if (!slash) {
		if (!p->path_resolved) {
			resolve_path_dirs(p, p->path_env);
			p->path_lists = xcalloc(p->n_path_dirs + 1, sizeof(*p->path_lists));
			p->path_resolved = true;
		}
		bool found = false;

		for (size_t i = 0; i < p->n_path_dirs; i++) {
			/* Most PATH directories lack a given name: leave those alone. */
			if (!allow && !is_glob(base) && !path_dir_has(p, i, base))
				continue;
			found = true;
			add_rule(get_dir(p, p->path_dirs[i]), base, allow, false);
		}
		if (!found && !allow && !is_glob(base))
			strv_push(&p->missing, arg);
		if (allow && !is_glob(base))
			note_allow(p, arg, "", base);
		return 0;
	}
	if (copy[0] != '/')
		return error_set(err, 0, "%s: '%s' must be an absolute path or a name without '/'",
				 opt, arg);
	*slash = '\0';
	if (p->last_raw && strcmp(p->last_raw, slash == copy ? "/" : copy) == 0) {
		add_path_rule(p, p->last_canon, base, arg, allow);
		return 0;
	}
	r = p->fs->resolve_dir(p->fs->ctx, slash == copy ? "/" : copy, &canon);
	if (r < 0)
		return error_set(err, -r, "%s: directory '%s' of '%s' in the sandbox", opt,
				 slash == copy ? "/" : copy, arg);
	add_path_rule(p, canon, base, arg, allow);
	free(p->last_raw);
	free(p->last_canon);
	p->last_raw = xstrdup(slash == copy ? "/" : copy);
	p->last_canon = TAKE_PTR(canon);
	return 0;
}

static bool is_allowed(const struct pdir *d, const char *name)
{
	return names_has(&d->allow_lit, name) || glob_any(&d->allow_glob, name);
}

/* Each allowed name of a literal allowlist is probed once, by the chase below: the ones
 * that exist are kept. */
static void mark_present(struct planner *p, const char *dir, const char *name)
{
	struct pdir *d = find_dir(p, dir);

	if (d && d->allowlist && !d->list.v)
		names_add(&d->present, name);
}

/* Keeps every link of the chain dir/name -> ... visible where it passes through a planned
 * directory, so allowing "sh" does not leave a dangling link to a hidden "dash". */
static void allow_link_chain(struct planner *p, const char *dir, const char *name)
{
	_cleanup_free_ char *cur_dir = xstrdup(dir), *cur = xstrdup(name);

	for (int hop = 0; hop < HIDE_MAX_SYMLINKS; hop++) {
		_cleanup_free_ char *target = NULL, *full = NULL, *canon = NULL;
		struct pdir *t;
		char *slash;
		size_t len;
		int r = p->fs->read_link(p->fs->ctx, cur_dir, cur, &target);

		if (r == 0 || r == -EINVAL)
			mark_present(p, cur_dir, cur);
		if (r < 0)
			return;
		full = target[0] == '/' ? xstrdup(target) : path_join(cur_dir, target);
		len = strlen(full);
		while (len > 1 && full[len - 1] == '/')
			full[--len] = '\0';
		slash = strrchr(full, '/');
		if (!slash[1] || strcmp(slash + 1, ".") == 0 || strcmp(slash + 1, "..") == 0)
			return;
		*slash = '\0';
		if (p->fs->resolve_dir(p->fs->ctx, slash == full ? "/" : full, &canon) < 0)
			return;
		t = find_dir(p, canon);
		if (t && !is_allowed(t, slash + 1)) {
			names_add(&t->allow_lit, slash + 1);
			names_sort_unique(&t->allow_lit);
		}
		free(cur_dir);
		free(cur);
		cur_dir = TAKE_PTR(canon);
		cur = xstrdup(slash + 1);
	}
}

/* A directory is listed only when a glob must be matched against its entries: an allowlist
 * of literal names hides everything else whatever the listing says. */
static int list_dirs(struct planner *p, struct nsrun_error *err)
{
	for (size_t i = 0; i < p->n_dirs; i++) {
		struct pdir *d = &p->dirs[i];
		int r = 0;

		if (d->allowlist ? d->allow_glob.n : d->hide_glob.n)
			r = listing_read(p->fs, d->dir, &d->list);
		if (r < 0)
			return error_set(err, -r, "--overlay-hide: list '%s' in the sandbox",
					 d->dir);
		names_sort_unique(&d->allow_lit);
		names_sort_unique(&d->hide_always);
		names_sort_unique(&d->hide_present);
	}
	return 0;
}

/* Allowed entries are few: each is copied, so chasing may grow any allow_lit. */
static void chase_links(struct planner *p)
{
	struct names seeds = { 0 }, seed_dirs = { 0 };

	for (size_t i = 0; i < p->n_dirs; i++) {
		struct pdir *d = &p->dirs[i];
		char **v = d->list.v ? d->list.v : d->allow_lit.v;
		size_t n = d->list.v ? d->list.n : d->allow_lit.n;

		for (size_t j = 0; j < n; j++) {
			if (d->list.v && !is_allowed(d, v[j]))
				continue;
			names_add(&seeds, v[j]);
			refs_add(&seed_dirs, d->dir);
		}
	}
	for (size_t i = 0; i < seeds.n; i++)
		allow_link_chain(p, seed_dirs.v[i], seeds.v[i]);
	names_free(&seeds);
	names_free(&seed_dirs);
}

static void add_hide_dir(struct hide_plan *plan, const char *dir, struct names *out,
			 struct names *keep)
{
	struct hide_dir *hd = xappend(&plan->dirs, &plan->n_dirs, sizeof(*hd));

	hd->dir = xstrdup(dir);
	hd->method = keep ? HIDE_KEEP_ONLY : HIDE_WHITEOUTS;
	if (keep)
		hd->keep = names_pack(keep, &hd->n_keep);
	hd->names = out ? names_pack(out, &hd->n_names) : xcalloc(1, sizeof(char *));
}

/* An allowlist of literal names keeps just those that exist: O(allowed), no listing. With
 * a listing, the smaller side decides: whiteouts for the hidden or binds for the kept. */
static void finish_dir(struct pdir *d, struct hide_plan *plan)
{
	struct names out = { 0 }, keep = { 0 };

	if (d->allowlist && !d->list.v) {
		add_hide_dir(plan, d->dir, NULL, &d->present);
		return;
	}
	for (size_t i = 0; i < d->list.n; i++) {
		const char *n = d->list.v[i];

		if (is_allowed(d, n))
			refs_add(&keep, n);
		else if (d->allowlist || glob_any(&d->hide_glob, n))
			refs_add(&out, n);
	}
	for (size_t i = 0; i < d->hide_always.n; i++)
		if (!is_allowed(d, d->hide_always.v[i]))
			refs_add(&out, d->hide_always.v[i]);
	for (size_t i = 0; i < d->hide_present.n; i++)
		if (!is_allowed(d, d->hide_present.v[i]))
			refs_add(&out, d->hide_present.v[i]);
	if (out.n && d->allowlist && out.n > keep.n)
		add_hide_dir(plan, d->dir, NULL, &keep);
	else if (out.n)
		add_hide_dir(plan, d->dir, &out, NULL);
	names_free(&out);
	names_free(&keep);
}

static void planner_free(struct planner *p)
{
	for (size_t i = 0; i < p->n_dirs; i++) {
		struct pdir *d = &p->dirs[i];

		free(d->dir);
		names_free(&d->allow_lit);
		names_free(&d->allow_glob);
		names_free(&d->hide_always);
		names_free(&d->hide_present);
		names_free(&d->hide_glob);
		names_free(&d->present);
		free(d->list.v);
	}
	free(p->dirs);
	for (size_t i = 0; i < p->n_path_dirs; i++) {
		free(p->path_dirs[i]);
		free(p->path_lists[i].v);
	}
	free(p->path_dirs);
	free(p->path_lists);
	names_free(&p->allow_args);
	names_free(&p->allow_dirs);
	names_free(&p->allow_bases);
	strv_free(p->missing_allow);
	free(p->last_raw);
	free(p->last_canon);
	strv_free(p->missing);
}

static int cmp_hide_dir(const void *a, const void *b)
{
	return strcmp(((const struct hide_dir *)a)->dir, ((const struct hide_dir *)b)->dir);
}

/* Whether the allowed NAME was found in DIR: by the chase's probe, or in its listing. */
static bool allowed_exists(struct planner *p, const char *dir, const char *name)
{
	struct pdir *d = find_dir(p, dir);

	if (!d)
		return false;
	if (d->list.v)
		return listing_has(&d->list, name);
	names_sort_unique(&d->present);
	return names_has(&d->present, name);
}

/* A literal allow that names no entry leaves the tool out like any other: a typo
 * ("pyhton3") is reported, as a literal hide's is. */
static void find_missing_allows(struct planner *p)
{
	for (size_t i = 0; i < p->allow_args.n; i++) {
		const char *dir = p->allow_dirs.v[i], *base = p->allow_bases.v[i];
		bool found = *dir && allowed_exists(p, dir, base);

		for (size_t j = 0; !*dir && !found && j < p->n_path_dirs; j++)
			found = allowed_exists(p, p->path_dirs[j], base);
		if (!found)
			strv_push(&p->missing_allow, p->allow_args.v[i]);
	}
}

static void finish_plan(struct planner *p, struct hide_plan *ret)
{
	chase_links(p);
	find_missing_allows(p);
	for (size_t i = 0; i < p->n_dirs; i++)
		finish_dir(&p->dirs[i], ret);
	if (ret->n_dirs)
		qsort(ret->dirs, ret->n_dirs, sizeof(*ret->dirs), cmp_hide_dir);
}

int hide_plan_build(const struct hide_config *cfg, const char *path_env, const struct hide_fs *fs,
		    struct hide_plan *ret, struct nsrun_error *err)
{
	struct planner p = { .fs = fs, .path_env = path_env };
	int r = 0;

	*ret = (struct hide_plan){ 0 };
	p.list_path_dirs = strv_length(cfg->hide) > 16;
	for (size_t i = 0; cfg->hide && cfg->hide[i] && r == 0; i++)
		r = add_arg(&p, cfg->hide[i], false, err);
	for (size_t i = 0; cfg->allow && cfg->allow[i] && r == 0; i++)
		r = add_arg(&p, cfg->allow[i], true, err);
	if (r == 0)
		r = list_dirs(&p, err);
	if (r == 0) {
		finish_plan(&p, ret);
		ret->missing = TAKE_PTR(p.missing);
		ret->missing_allow = TAKE_PTR(p.missing_allow);
	}
	planner_free(&p);
	if (r < 0)
		hide_plan_free(ret);
	return r;
}

bool hide_dir_hides(const struct hide_dir *hd, const char *name)
{
	return hd->n_names && bsearch(&name, hd->names, hd->n_names, sizeof(char *), cmp_str);
}

void hide_plan_free(struct hide_plan *plan)
{
	for (size_t i = 0; i < plan->n_dirs; i++) {
		free(plan->dirs[i].dir);
		free(plan->dirs[i].names); /* packed: the strings share the allocation */
		free(plan->dirs[i].keep);
	}
	free(plan->dirs);
	strv_free(plan->missing);
	strv_free(plan->missing_allow);
	*plan = (struct hide_plan){ 0 };
}
