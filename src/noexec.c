/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * noexec.c: see noexec.h. The model: writable content is a set of regions, each
 * a directory or file of one filesystem named by its device and its path inside
 * that filesystem (mount root + path below the mount point), so that every
 * alias of it, through any mount of that filesystem, is found. Every visible
 * mount whose root lies in a region becomes noexec; a visible, uncovered alias
 * of a region inside a mount rooted above it is covered by a bind of itself,
 * which the next pass (over a fresh mountinfo) then finds rooted in the region.
 */
#include "config.h"

#include "noexec.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "macros.h"
#include "mount.h"
#include "mountinfo.h"
#include "path.h"
#include "syscall.h"
#include "util.h"

/* Each pass covers the aliases the one before found; a cover can only reveal aliases
 * in copies of submounts below it, so a few passes settle any real tree. */
#define NOEXEC_MAX_PASSES 8
/* Overlay spreading rounds: one per overlay stacked on another. */
#define NOEXEC_MAX_ROUNDS 32

struct layer {
	dev_t dev;
	char *fspath;
	bool upper;
};

struct mnt {
	struct mountinfo_entry e; /* points into line */
	char *line;
	dev_t dev;
	bool in_tree;  /* mounted at or below root_path */
	bool writable; /* neither the mount nor its superblock is read-only */
	bool noexec;
	bool mark;	     /* to become noexec */
	signed char visible; /* -1: not looked up yet */
	bool layers_read;
	bool layer_unknown;   /* a layer named by another process's fd */
	struct layer *layers; /* overlayfs only */
	size_t n_layers;
};

struct region {
	dev_t dev;
	char *fspath;
	char *origin; /* for messages: "--landlock-rw '/ws'" */
};

struct cover {
	char *path; /* current view */
	const struct mnt *m;
	const char *origin;
};

struct ctx {
	const char *root_path, *proc_path;
	const struct noexec_fds *own;
	char *const *rw, *const *exec;
	int root_fd;
	struct mnt *m;
	size_t n;
	struct region *g;
	size_t n_g;
	struct cover *cv;
	size_t n_cv;
};

#define nx_fail(err, ...) error_fail_closed(err, error_set(err, __VA_ARGS__))
#define nx_fail_plain(err, ...) error_fail_closed(err, error_set_plain(err, __VA_ARGS__))

/* ---- paths ---- */

/* The part of path below top ("" when equal, "/x" below), or NULL when outside. */
static const char *suffix_below(const char *path, const char *top)
{
	if (!path_is_below(path, top))
		return NULL;
	if (strcmp(top, "/") == 0)
		return path[1] ? path : "";
	return path + strlen(top);
}

static char *join_below(const char *base, const char *suffix)
{
	if (!*suffix)
		return xstrdup(base);
	return strcmp(base, "/") == 0 ? xstrdup(suffix) : xconcat(base, suffix);
}

enum noexec_overlap noexec_overlap(const char *mountpoint, const char *mount_root,
				   const char *fspath, char **alias)
{
	const char *s;

	if (path_is_below(mount_root, fspath))
		return NOEXEC_INSIDE;
	s = suffix_below(fspath, mount_root);
	if (!s)
		return NOEXEC_DISJOINT;
	*alias = join_below(mountpoint, s);
	return NOEXEC_ALIAS;
}

/* A current-view path as the command will see it, for messages. */
static const char *shown(const struct ctx *c, const char *cur)
{
	const char *s = suffix_below(cur, c->root_path);

	return !s ? cur : *s ? s : "/";
}

/* Whether the lookup of path (current view) ends on mount id. A path that cannot be
 * looked up for want of it (covered by a mount without it, a symlink in the way, a
 * directory nobody may search) is unreachable; other failures count as reachable, so
 * that covering it is tried and fails closed. */
static bool path_on_mount(const char *path, unsigned long long id)
{
	struct statx stx;

	if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT, STATX_MNT_ID, &stx) < 0)
		return !(errno == ENOENT || errno == ENOTDIR || errno == ELOOP || errno == EACCES);
	return stx.stx_mnt_id == id;
}

/* ---- the mount table ---- */

static void table_free(struct ctx *c)
{
	for (size_t i = 0; i < c->n; i++) {
		for (size_t j = 0; j < c->m[i].n_layers; j++)
			free(c->m[i].layers[j].fspath);
		free(c->m[i].layers);
		free(c->m[i].line);
	}
	free(c->m);
	c->m = NULL;
	c->n = 0;
	for (size_t i = 0; i < c->n_g; i++) {
		free(c->g[i].fspath);
		free(c->g[i].origin);
	}
	free(c->g);
	c->g = NULL;
	c->n_g = 0;
	for (size_t i = 0; i < c->n_cv; i++)
		free(c->cv[i].path);
	free(c->cv);
	c->cv = NULL;
	c->n_cv = 0;
}

static int add_line(struct ctx *c, const char *line)
{
	struct mnt m = { .visible = -1, .line = xstrdup(line) };

	if (mountinfo_parse_line(m.line, &m.e) < 0) {
		free(m.line);
		return -EBADMSG;
	}
	m.dev = makedev(m.e.major, m.e.minor);
	m.in_tree = path_is_below(m.e.mountpoint, c->root_path);
	m.writable = !mountinfo_has_opt(m.e.mount_opts, "ro") &&
		     !mountinfo_has_opt(m.e.super_opts, "ro");
	m.noexec = mountinfo_has_opt(m.e.mount_opts, "noexec");
	*(struct mnt *)xappend(&c->m, &c->n, sizeof(m)) = m;
	return 0;
}

static int table_read(struct ctx *c, struct nsrun_error *err)
{
	_cleanup_free_ char *path = xconcat(c->proc_path, "/self/mountinfo");
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;
	FILE *f = fopen(path, "re");
	int r = 0;

	if (!f)
		return nx_fail(err, errno, "--landlock-exec: reading '%s'", path);
	while (r == 0 && getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		r = add_line(c, line);
	}
	fclose(f);
	if (r < 0)
		return nx_fail_plain(err, -r, "--landlock-exec: malformed line in '%s': %s", path,
				     line);
	return 0;
}

static bool visible(struct mnt *m)
{
	if (m->visible < 0)
		m->visible = m->in_tree && path_on_mount(m->e.mountpoint, m->e.id);
	return m->visible;
}

static struct mnt *find_id(struct ctx *c, unsigned long long id)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->m[i].e.id == id)
			return &c->m[i];
	return NULL;
}

/* Where the file open at fd lives: its mount, and its path inside the filesystem
 * (mount root + its path below the mount point, which /proc/self/fd shows). */
static int locate_fd(struct ctx *c, int fd, struct mnt **ret_m, char **ret_fspath)
{
	char num[NUM_BUF_SIZE];
	_cleanup_free_ char *lp =
		xconcat(c->proc_path, "/self/fd/", num_str(num, (unsigned)fd, 10));
	char buf[PATH_MAX];
	struct statx stx;
	const char *suffix;
	struct mnt *m;
	ssize_t k;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) < 0)
		return -errno;
	if (!(stx.stx_mask & STATX_MNT_ID))
		return -EOPNOTSUPP; /* Linux < 5.8; Landlock needs 5.13 anyway */
	k = readlink(lp, buf, sizeof(buf) - 1);
	if (k < 0)
		return -errno;
	buf[k] = '\0';
	m = find_id(c, stx.stx_mnt_id);
	suffix = m ? suffix_below(buf, m->e.mountpoint) : NULL;
	if (!suffix)
		return -ESTALE; /* not where mountinfo says its mount is */
	*ret_m = m;
	*ret_fspath = join_below(m->e.root, suffix);
	return 0;
}

/* path is inside the command's tree (rules are opened there, symlinks followed). */
static int locate_in_root(struct ctx *c, const char *path, struct mnt **ret_m, char **ret_fspath)
{
	_cleanup_close_ int fd = path_open(c->root_fd, path, O_PATH | O_CLOEXEC);

	if (fd < 0)
		return fd;
	return locate_fd(c, fd, ret_m, ret_fspath);
}

/* ---- regions ---- */

/* Adds unless an existing region already holds it. Returns whether it was added. */
static bool region_add(struct ctx *c, dev_t dev, const char *fspath, const char *origin)
{
	struct region *g;

	for (size_t i = 0; i < c->n_g; i++)
		if (c->g[i].dev == dev && path_is_below(fspath, c->g[i].fspath))
			return false;
	g = xappend(&c->g, &c->n_g, sizeof(*g));
	g->dev = dev;
	g->fspath = xstrdup(fspath);
	g->origin = xstrdup(origin);
	return true;
}

/* Landlock grants a rule's rights to every path whose walk up to "/" meets the rule's
 * inode, across mount boundaries: writable mounts below an alias of a rw path are
 * writable as a whole. */
static void add_submounts(struct ctx *c, const char *alias, const char *origin)
{
	for (size_t i = 0; i < c->n; i++) {
		struct mnt *m = &c->m[i];

		if (m->writable && m->in_tree && strcmp(m->e.mountpoint, alias) != 0 &&
		    path_is_below(m->e.mountpoint, alias) && visible(m))
			region_add(c, m->dev, m->e.root, origin);
	}
}

/* One rw path: its own content counts when one of its reachable aliases is on a writable
 * mount; what is mounted below any of them counts when writable. */
static int collect_rw(struct ctx *c, const char *rw, struct nsrun_error *err)
{
	_cleanup_free_ char *fspath = NULL, *origin = xconcat("--landlock-rw '", rw, "'");
	struct mnt *x;
	bool live = false;
	int r = locate_in_root(c, rw, &x, &fspath);

	if (r == -ENOENT)
		return 0; /* Landlock refuses to run then, naming the path */
	if (r < 0)
		return nx_fail(err, -r, "--landlock-exec: can't locate --landlock-rw '%s'", rw);
	for (size_t i = 0; i < c->n; i++) {
		struct mnt *m = &c->m[i];
		_cleanup_free_ char *alias = NULL;
		enum noexec_overlap o;

		if (m->dev != x->dev || !visible(m))
			continue;
		o = noexec_overlap(m->e.mountpoint, m->e.root, fspath, &alias);
		if (o == NOEXEC_INSIDE && strcmp(m->e.root, fspath) == 0)
			alias = xstrdup(m->e.mountpoint); /* the mount's root is the rule's inode */
		else if (o != NOEXEC_ALIAS || !path_on_mount(alias, m->e.id))
			continue;
		live |= m->writable;
		add_submounts(c, alias, origin);
	}
	if (live)
		region_add(c, x->dev, fspath, origin);
	return 0;
}

/* ---- overlays ---- */

/* A layer named /proc/self/fd/N (bwrap 0.12+, nsrun) resolves here only for an overlay
 * nsrun made (by its device) and one of the fds it holds for them; any other overlay's N
 * is another process's fd, whatever number it has. */
static bool fd_name_known(const struct ctx *c, const struct mnt *o, const char *name)
{
	static const char prefix[] = "/proc/self/fd/";
	bool own = false;
	int fd;

	if (strncmp(name, prefix, sizeof(prefix) - 1) != 0)
		return true;
	for (size_t i = 0; i < c->own->n_devs; i++)
		own |= c->own->devs[i] == o->dev;
	if (!own || parse_fd(name + sizeof(prefix) - 1, &fd) < 0)
		return false;
	for (size_t i = 0; i < c->own->n; i++)
		if (c->own->fds[i] == fd)
			return true;
	return false;
}

/* A layer's name in the view it was given in: fd names here; paths in the host's, else in
 * the staging root's, where nsrun's own --tmp-overlay and hide directories are named. */
static int open_layer(const struct ctx *c, const char *name)
{
	_cleanup_free_ char *path = NULL;
	int fd;

	if (str_has_prefix(name, "/proc/self/fd/"))
		return open(name, O_PATH | O_CLOEXEC);
	path = xconcat(c->own->host_root, name);
	fd = open(path, O_PATH | O_CLOEXEC);
	return fd >= 0 || !c->own->host_root[0] ? fd : open(name, O_PATH | O_CLOEXEC);
}

/* Layers are named by paths in the mounter's view; nsrun's and the host's are this
 * one. A layer that no longer resolves is skipped: nothing reaches it by path. */
static void read_layers(struct ctx *c, struct mnt *o)
{
	_cleanup_strv_free_ char **lowers = NULL, **uppers = NULL;

	o->layers_read = true;
	mountinfo_overlay_layers(o->e.super_opts, &lowers, &uppers);
	for (size_t pass = 0; pass < 2; pass++) {
		char **v = pass ? uppers : lowers;

		for (size_t i = 0; v && v[i]; i++) {
			_cleanup_close_ int fd = -1;
			struct layer l = { .upper = pass == 1 };
			struct mnt *m;

			if (!fd_name_known(c, o, v[i])) {
				o->layer_unknown = true;
				continue;
			}
			fd = open_layer(c, v[i]);

			if (fd >= 0 && locate_fd(c, fd, &m, &l.fspath) == 0) {
				l.dev = m->dev;
				*(struct layer *)xappend(&o->layers, &o->n_layers, sizeof(l)) = l;
			}
		}
	}
}

/* Region content in a layer shows in the overlay; a writable overlay with region
 * content writes it to its upper (and work) directory. Returns whether regions grew. */
static bool spread_overlay(struct ctx *c, struct mnt *o)
{
	bool grew = false, has_region = false;

	if (!o->layers_read)
		read_layers(c, o);
	if (o->layer_unknown)
		grew |= region_add(c, o->dev, "/", "an overlay whose layers another process named");
	for (size_t k = 0; k < o->n_layers; k++) {
		const struct layer *l = &o->layers[k];

		for (size_t i = 0; i < c->n_g; i++) {
			const char *s;

			if (c->g[i].dev != l->dev || l->upper)
				continue;
			if (path_is_below(l->fspath, c->g[i].fspath))
				grew |= region_add(c, o->dev, "/", c->g[i].origin);
			else if ((s = suffix_below(c->g[i].fspath, l->fspath)))
				grew |= region_add(c, o->dev, s, c->g[i].origin);
		}
	}
	for (size_t i = 0; i < c->n_g && !has_region; i++)
		has_region = c->g[i].dev == o->dev;
	for (size_t k = 0;
	     has_region && !mountinfo_has_opt(o->e.super_opts, "ro") && k < o->n_layers; k++)
		if (o->layers[k].upper)
			grew |= region_add(c, o->layers[k].dev, o->layers[k].fspath,
					   "a writable overlay");
	return grew;
}

/* Layers belong to the superblock: one of its mounts in the tree is enough. */
static bool first_overlay_of_sb(const struct ctx *c, size_t i)
{
	const struct mnt *o = &c->m[i];

	if (!o->in_tree || strcmp(o->e.fstype, "overlay") != 0)
		return false;
	for (size_t j = 0; j < i; j++)
		if (c->m[j].dev == o->dev && c->m[j].in_tree &&
		    strcmp(c->m[j].e.fstype, "overlay") == 0)
			return false;
	return true;
}

static int spread_overlays(struct ctx *c, struct nsrun_error *err)
{
	for (size_t round = 0; round < NOEXEC_MAX_ROUNDS; round++) {
		bool grew = false;

		for (size_t i = 0; i < c->n; i++)
			if (first_overlay_of_sb(c, i))
				grew |= spread_overlay(c, &c->m[i]);
		if (!grew)
			return 0;
	}
	return nx_fail_plain(err, ELOOP,
			     "--landlock-exec: overlays stacked too deep to tell what is writable");
}

/* ---- exposures ---- */

/* An exec path inside writable content cannot be saved: it would lose exec. */
static int check_exec(struct ctx *c, struct nsrun_error *err)
{
	for (size_t e = 0; c->exec && c->exec[e]; e++) {
		_cleanup_free_ char *fspath = NULL;
		struct mnt *m;
		int r = locate_in_root(c, c->exec[e], &m, &fspath);

		if (r == -ENOENT)
			continue; /* Landlock refuses to run then, naming the path */
		if (r < 0)
			return nx_fail(err, -r, "--landlock-exec: can't locate '%s'", c->exec[e]);
		for (size_t i = 0; i < c->n_g; i++)
			if (c->g[i].dev == m->dev && path_is_below(fspath, c->g[i].fspath))
				return nx_fail_plain(
					err, EPERM,
					"--landlock-exec '%s' is writable through %s: the command "
					"could run what it wrote; refusing to run (list only "
					"places it cannot write as exec paths)",
					c->exec[e], c->g[i].origin);
	}
	return 0;
}

static void plan_region(struct ctx *c, const struct region *g)
{
	for (size_t i = 0; i < c->n; i++) {
		struct mnt *m = &c->m[i];
		_cleanup_free_ char *alias = NULL;
		struct cover *cv;

		if (m->dev != g->dev || m->noexec || !visible(m))
			continue;
		switch (noexec_overlap(m->e.mountpoint, m->e.root, g->fspath, &alias)) {
		case NOEXEC_INSIDE:
			m->mark = true;
			break;
		case NOEXEC_ALIAS:
			if (!path_on_mount(alias, m->e.id))
				break;
			cv = xappend(&c->cv, &c->n_cv, sizeof(*cv));
			*cv = (struct cover){ .path = TAKE_PTR(alias),
					      .m = m,
					      .origin = g->origin };
			break;
		case NOEXEC_DISJOINT:
		default:
			break;
		}
	}
}

static int cover_cmp(const void *a, const void *b)
{
	size_t la = strlen(((const struct cover *)a)->path);
	size_t lb = strlen(((const struct cover *)b)->path);

	return la < lb ? -1 : la > lb;
}

/* Binds each alias over itself (with its submounts); the next pass finds the copy rooted
 * in the region. Aliases below one covered now wait for that pass. Returns how many. */
static int apply_covers(struct ctx *c, struct nsrun_error *err)
{
	int done = 0;

	if (c->n_cv == 0)
		return 0;
	qsort(c->cv, c->n_cv, sizeof(*c->cv), cover_cmp);
	for (size_t i = 0; i < c->n_cv; i++) {
		const struct cover *cv = &c->cv[i];
		_cleanup_close_ int fd = -1;
		bool nested = cv->m->mark;
		int r;

		for (size_t j = 0; j < i && !nested; j++)
			nested = !c->cv[j].m->mark && path_is_below(cv->path, c->cv[j].path);
		if (nested)
			continue;
		fd = open(cv->path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		r = fd < 0 ? -errno : mount_bind(fd, fd, true, 0);
		if (r < 0)
			return nx_fail(err, -r,
				       "--landlock-exec: can't make '%s' noexec (%s shows there "
				       "too, in an executable mount)",
				       shown(c, cv->path), cv->origin);
		done++;
	}
	return done;
}

static int apply_marks(struct ctx *c, struct nsrun_error *err)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct mnt *m = &c->m[i];
		_cleanup_close_ int fd = -1;
		int r;

		if (!m->mark)
			continue;
		fd = open(m->e.mountpoint, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		r = fd < 0 ? -errno : mount_set_attrs(fd, false, MOUNT_ATTR_NOEXEC);
		if (r < 0)
			return nx_fail(err, -r, "--landlock-exec: can't make mount '%s' noexec",
				       shown(c, m->e.mountpoint));
	}
	return 0;
}

/* ---- passes ---- */

/* One pass: returns 1 when it covered aliases (run again), 0 when done. */
static int pass(struct ctx *c, struct nsrun_error *err)
{
	int r = table_read(c, err);

	if (r < 0)
		return r;
	for (size_t i = 0; c->rw && c->rw[i] && r == 0; i++)
		r = collect_rw(c, c->rw[i], err);
	if (r == 0)
		r = spread_overlays(c, err);
	if (r == 0)
		r = check_exec(c, err);
	for (size_t i = 0; r == 0 && i < c->n_g; i++)
		plan_region(c, &c->g[i]);
	if (r == 0)
		r = apply_covers(c, err);
	/* after covers, the next pass marks what the new mounts show */
	if (r == 0)
		r = apply_marks(c, err);
	table_free(c);
	return r > 0 ? 1 : r;
}

static int run(struct ctx *c, struct nsrun_error *err)
{
	int r = 0;

	c->root_fd = open(c->root_path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (c->root_fd < 0)
		return nx_fail(err, errno, "--landlock-exec: can't open '%s'", c->root_path);
	for (size_t i = 0; i < NOEXEC_MAX_PASSES; i++) {
		r = pass(c, err);
		if (r <= 0)
			break;
	}
	close(c->root_fd);
	if (r > 0)
		return nx_fail_plain(err, ELOOP,
				     "--landlock-exec: writable places are still reachable "
				     "after %d rounds of covering them",
				     NOEXEC_MAX_PASSES);
	return r;
}

int noexec_apply(const char *root_path, const char *proc_path, const struct landlock_config *cfg,
		 const struct noexec_fds *own, struct nsrun_error *err)
{
	struct ctx c = {
		.root_path = root_path,
		.proc_path = proc_path,
		.own = own,
		.rw = cfg->rw,
		.exec = cfg->exec,
	};

	if (!noexec_wanted(cfg))
		return 0;
	return run(&c, err);
}

bool noexec_wanted(const struct landlock_config *cfg)
{
	/* Without rw paths Landlock denies every write but to a few character devices. */
	return cfg->exec && cfg->exec[0] && cfg->rw && cfg->rw[0];
}
