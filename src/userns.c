/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * userns.c: user namespace layout, ID maps and joins. bwrap's maps are a single
 * line onto one outside id, which is all an unprivileged writer may map; the
 * layout decides when a second, nested namespace is needed to show the caller's
 * chosen ids after uid 0 was required for setup (devpts) or nesting is capped.
 * --uid-map/--gid-map's ranges are written by root itself, or for a user by the
 * setuid newuidmap/newgidmap, run by a process forked before NO_NEW_PRIVS; --idmap's
 * mappings are user namespaces of their own, one line each.
 */
#include "config.h"

#include "userns.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "macros.h"
#include "util.h"

/* One range of count 1 onto own, or no map (bwrap's line onto the caller's id). */
static bool own_line(const struct id_map *map, unsigned long own)
{
	return map->n == 0 || (map->n == 1 && map->v[0].count == 1 && map->v[0].outside == own);
}

/* --uid-map / --gid-map: the caller's maps, no devpts trick and no nested namespace
 * (--disable-userns is refused with them): devpts mounts where the maps hold ids 0. */
static void custom_layout(const struct userns_request *req, struct userns_layout *ret)
{
	long long u = userns_map_inside(req->uid_map, req->real_uid);
	long long g = userns_map_inside(req->gid_map, req->real_gid);

	ret->custom = true;
	ret->uid_map = req->uid_map;
	ret->gid_map = req->gid_map;
	/* What the caller's ids show as once the maps are written (sandbox_* for a side
	 * without a map: its line is sandbox -> real). */
	if (req->uid_map->n)
		ret->ns_uid = u >= 0 ? (uid_t)u : (uid_t)-1;
	if (req->gid_map->n)
		ret->ns_gid = g >= 0 ? (gid_t)g : (gid_t)-1;
	ret->self_maps =
		req->effective_uid == req->real_uid && req->effective_gid == req->real_gid &&
		own_line(req->uid_map, req->real_uid) && own_line(req->gid_map, req->real_gid);
	ret->helper = !ret->self_maps && req->effective_uid != 0;
	ret->switch_ids = ret->ns_uid != req->sandbox_uid || ret->ns_gid != req->sandbox_gid;
}

void userns_layout(const struct userns_request *req, struct userns_layout *ret)
{
	memset(ret, 0, sizeof(*ret));
	ret->ns_uid = req->sandbox_uid;
	ret->ns_gid = req->sandbox_gid;
	if (!req->unshare || req->maps_external)
		return;
	ret->write_maps = true;
	if (req->uid_map && req->gid_map && (req->uid_map->n || req->gid_map->n))
		return custom_layout(req, ret);
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

/* The next decimal of *s, past separators in seps and ending at one of the grammar's;
 * -1 at the end, -2 when malformed. */
static long long next_number(const char **s, const char *seps)
{
	const char *p = *s + strspn(*s, seps);
	unsigned long long v = 0;

	if (!*p)
		return -1;
	if (*p < '0' || *p > '9')
		return -2;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (unsigned)(*p - '0');
		if (v > UINT32_MAX)
			return -2;
	}
	if (*p && !strchr(" \t\n:,", *p))
		return -2;
	*s = p;
	return (long long)v;
}

static bool ranges_overlap(uint32_t a, uint32_t b, uint32_t count_a, uint32_t count_b)
{
	return (uint64_t)a < (uint64_t)b + count_b && (uint64_t)b < (uint64_t)a + count_a;
}

/* The kernel reads a map in one write shorter than a page: 4096 bytes is the smallest. */
#define MAP_TEXT_MAX 4095

static int add_range(const char *opt, struct id_map *map, const struct id_range *r,
		     struct nsrun_error *err)
{
	char line[3 * NUM_BUF_SIZE + 4];
	size_t text =
		(size_t)userns_format_map(line, sizeof(line), r->inside, r->outside, r->count);

	/* The kernel's bound: first + count must not pass 2^32 - 1, which is no id. */
	if (r->count == 0)
		return error_set(err, 0, "%s: a range of 0 ids", opt);
	if ((uint64_t)r->inside + r->count > UINT32_MAX ||
	    (uint64_t)r->outside + r->count > UINT32_MAX)
		return error_set(err, 0, "%s: range %u:%u:%u goes past id 4294967294", opt,
				 r->inside, r->outside, r->count);
	for (size_t i = 0; i < map->n; i++) {
		const struct id_range *o = &map->v[i];

		text += (size_t)userns_format_map(line, sizeof(line), o->inside, o->outside,
						  o->count);
		if (ranges_overlap(o->inside, r->inside, o->count, r->count) ||
		    ranges_overlap(o->outside, r->outside, o->count, r->count))
			return error_set(err, 0, "%s: range %u:%u:%u overlaps %u:%u:%u", opt,
					 r->inside, r->outside, r->count, o->inside, o->outside,
					 o->count);
	}
	if (map->n >= PLAN_MAX_ID_RANGES)
		return error_set(err, 0, "%s: at most %d ranges (the kernel's limit)", opt,
				 PLAN_MAX_ID_RANGES);
	if (text > MAP_TEXT_MAX)
		return error_set(err, 0,
				 "%s: its lines pass the %d bytes the kernel reads (fewer ranges, "
				 "or smaller ids)",
				 opt, MAP_TEXT_MAX);
	*(struct id_range *)xappend(&map->v, &map->n, sizeof(*r)) = *r;
	return 0;
}

int userns_parse_map(const char *opt, const char *arg, struct id_map *map, struct nsrun_error *err)
{
	const char *s = arg;
	long long f[3];
	bool any = false;

	for (;;) {
		for (int i = 0; i < 3; i++) {
			/* ':' only inside a range; blanks anywhere, ',' only between ranges. */
			f[i] = next_number(&s, i == 0 ? " \t\n," : " \t\n:");
			if (f[i] == -1 && i == 0 && any)
				return 0;
			if (f[i] < 0)
				return error_set(err, 0, "%s takes INSIDE:OUTSIDE:COUNT (got '%s')",
						 opt, arg);
		}
		if (add_range(opt, map,
			      &(struct id_range){ (uint32_t)f[0], (uint32_t)f[1], (uint32_t)f[2] },
			      err) < 0)
			return -EINVAL;
		any = true;
	}
}

long long userns_map_inside(const struct id_map *map, unsigned long outside)
{
	for (size_t i = 0; i < map->n; i++) {
		const struct id_range *r = &map->v[i];

		if (outside >= r->outside && outside - r->outside < r->count)
			return (long long)r->inside + (long long)(outside - r->outside);
	}
	return -1;
}

unsigned long userns_map_outside(const struct id_map *map, unsigned long inside,
				 unsigned long otherwise)
{
	for (size_t i = 0; i < map->n; i++)
		if (inside >= map->v[i].inside && inside - map->v[i].inside < map->v[i].count)
			return map->v[i].outside + (inside - map->v[i].inside);
	return otherwise;
}

bool userns_map_has(const struct id_map *map, unsigned long inside)
{
	for (size_t i = 0; i < map->n; i++)
		if (inside >= map->v[i].inside && inside - map->v[i].inside < map->v[i].count)
			return true;
	return false;
}

int userns_pick_id(const struct id_map *map, bool has, unsigned long given, unsigned long real,
		   const char *what, unsigned long *ret, struct nsrun_error *err)
{
	long long own = userns_map_inside(map, real);

	if (map->n == 0) {
		*ret = has ? given : real;
		return 0;
	}
	if (has && !userns_map_has(map, given))
		return error_set(err, 0, "--%s %lu is not an inside id of --%s-map", what, given,
				 what);
	if (!has && own < 0)
		return error_set(err, 0,
				 "--%s-map maps no inside id onto your %s %lu: name the one the "
				 "command runs as with --%s",
				 what, what, real, what);
	*ret = has ? given : (unsigned long)own;
	return 0;
}

/* The map a side gets: the caller's ranges, or bwrap's one line ns -> real. */
static const struct id_map *side_map(const struct id_map *given, struct id_map *one,
				     struct id_range *line, unsigned long ns_id, unsigned long real)
{
	if (given->n)
		return given;
	*line = (struct id_range){ (uint32_t)ns_id, (uint32_t)real, 1 };
	*one = (struct id_map){ line, 1 };
	return one;
}

static char *map_text(const struct id_map *map)
{
	char *text = xcalloc(map->n, 3 * NUM_BUF_SIZE + 4);
	size_t n = 0;

	for (size_t i = 0; i < map->n; i++)
		n += (size_t)userns_format_map(text + n, 3 * NUM_BUF_SIZE + 4, map->v[i].inside,
					       map->v[i].outside, map->v[i].count);
	return text;
}

/* The shadow helpers are setuid (or hold file capabilities): nsrun runs one only from
 * where a distribution installs it, never by $PATH, with no environment at all. */
static const char *find_helper(const char *name, char *buf, size_t size)
{
	static const char *const dirs[] = { "/usr/bin", "/usr/sbin", "/bin", "/sbin",
					    "/run/wrappers/bin" };

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		struct stat st;

		if ((size_t)snprintf(buf, size, "%s/%s", dirs[i], name) >= size)
			continue;
		if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0)
			return buf;
	}
	return NULL;
}

static int run_helper(const char *name, pid_t pid, const struct id_map *map,
		      struct nsrun_error *err)
{
	char path[64], num[NUM_BUF_SIZE];
	char **argv = xcalloc(map->n * 3 + 3, sizeof(char *));
	char *const envp[] = { NULL };
	int st = 0;
	pid_t child;

	if (!find_helper(name, path, sizeof(path)))
		return error_fail_closed(
			err,
			error_set_plain(err, ENOENT,
					"%s is needed to write a map of several ids as uid %u, "
					"and is not in /usr/bin, /usr/sbin, /bin, /sbin or "
					"/run/wrappers/bin (install shadow's uidmap)",
					name, (unsigned)getuid()));
	argv[0] = path;
	argv[1] = xstrdup(num_str(num, (unsigned long long)pid, 10));
	for (size_t i = 0; i < map->n; i++) {
		argv[2 + 3 * i] = xstrdup(num_str(num, map->v[i].inside, 10));
		argv[3 + 3 * i] = xstrdup(num_str(num, map->v[i].outside, 10));
		argv[4 + 3 * i] = xstrdup(num_str(num, map->v[i].count, 10));
	}
	child = fork();
	if (child == 0) {
		execve(path, argv, envp);
		_exit(127);
	}
	for (size_t i = 1; argv[i]; i++)
		free(argv[i]);
	free(argv);
	if (child < 0)
		return error_set(err, errno, "fork %s", path);
	while (waitpid(child, &st, 0) < 0)
		if (errno != EINTR)
			return error_set(err, errno, "waitpid %s", path);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	return error_fail_closed(
		err,
		error_set_plain(err, EPERM,
				"%s refused the map (status %d): its outside ids must be yours "
				"or delegated to uid %u in %s",
				path, WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st),
				(unsigned)getuid(),
				strcmp(name, "newuidmap") == 0 ? "/etc/subuid" : "/etc/subgid"));
}

static int write_side(int proc_fd, pid_t pid, const char *file, const char *helper,
		      const struct id_map *map, bool use_helper, struct nsrun_error *err)
{
	_cleanup_free_ char *text = NULL;
	int r;

	if (use_helper)
		return run_helper(helper, pid, map, err);
	text = map_text(map);
	r = write_proc_file(proc_fd, pid, file, text, err);
	if (r < 0)
		return error_fail_closed(err, error_set(err, -r, "setting up %s", file));
	return 0;
}

int userns_write_custom_maps(int proc_fd, pid_t pid, const struct userns_layout *l, uid_t real_uid,
			     gid_t real_gid, struct nsrun_error *err)
{
	struct id_range line;
	struct id_map one;
	int r;

	r = write_side(proc_fd, pid, "uid_map", "newuidmap",
		       side_map(l->uid_map, &one, &line, l->ns_uid, real_uid), l->helper, err);
	if (r < 0)
		return r;
	return write_side(proc_fd, pid, "gid_map", "newgidmap",
			  side_map(l->gid_map, &one, &line, l->ns_gid, real_gid), l->helper, err);
}

_noreturn_ static void writer_main(const struct userns_layout *l, uid_t uid, gid_t gid, bool keep,
				   int in, int out)
{
	static struct nsrun_error err; /* see error.h: one per process, in .bss */
	int fds[] = { in, out };
	pid_t child;
	int r;

	(void)prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	fd_close_all_except(fds, ARRAY_SIZE(fds));
	/* keep: --fallback's next attempts come after the monitor's no_new_privs. */
	do {
		if (read_full(in, &child, sizeof(child)) != (ssize_t)sizeof(child))
			_exit(0); /* the monitor gave up before clone, or is done */
		err = (struct nsrun_error){ 0 };
		r = userns_write_custom_maps(-1, child, l, uid, gid, &err);
		if (write_all(out, &r, sizeof(r)) < 0 || write_all(out, &err, sizeof(err)) < 0)
			_exit(1);
	} while (keep);
	_exit(0);
}

static const char nnp_msg[] =
	"newuidmap/newgidmap cannot get their privileges: no_new_privs is already set";

int userns_writer_start(const struct userns_layout *l, uid_t real_uid, gid_t real_gid,
			struct userns_writer *w, struct nsrun_error *err)
{
	int to[2], from[2], r;

	if (!l->helper || w->pid > 0)
		return 0;
	*w = (struct userns_writer){ 0, -1, -1, w->keep };
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1) /* not the helpers' "not delegated" */
		return error_fail_closed(err, error_set_plain(err, EPERM, "%s", nnp_msg));
	r = pipe2_pair(to, from);
	if (r < 0)
		return error_set(err, -r, "pipe");
	w->pid = fork();
	if (w->pid == 0)
		writer_main(l, real_uid, real_gid, w->keep, to[0], from[1]);
	close(to[0]);
	close(from[1]);
	w->to = to[1];
	w->from = from[0];
	if (w->pid < 0) {
		w->pid = 0;
		userns_writer_stop(w);
		return error_set(err, errno, "fork");
	}
	return 0;
}

int userns_writer_run(struct userns_writer *w, pid_t child, struct nsrun_error *err)
{
	int r = -1;

	if (write_all(w->to, &child, sizeof(child)) < 0 ||
	    read_full(w->from, &r, sizeof(r)) != (ssize_t)sizeof(r))
		return error_fail_closed(err, error_set_plain(err, EIO,
							      "the process running newuidmap and "
							      "newgidmap ended without an answer"));
	if (r < 0 && read_full(w->from, err, sizeof(*err)) != (ssize_t)sizeof(*err))
		error_set_plain(err, EIO, "newuidmap/newgidmap failed");
	return r < 0 ? error_fail_closed(err, r) : 0;
}

void userns_writer_stop(struct userns_writer *w)
{
	if (w->to >= 0)
		close(w->to);
	if (w->from >= 0)
		close(w->from);
	w->to = w->from = -1;
	if (w->pid > 0)
		while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
			;
	w->pid = 0;
}

int userns_idmap_fd(int proc_fd, uid_t disk_uid, uid_t uid, gid_t disk_gid, gid_t gid,
		    struct nsrun_error *err)
{
	char num[NUM_BUF_SIZE];
	_cleanup_free_ char *path = NULL;
	int up[2], down[2], fd = -1, r;
	pid_t pid;

	r = pipe2_pair(up, down);
	if (r < 0)
		return error_set(err, -r, "pipe");
	pid = fork();
	if (pid == 0) {
		/* Holds the namespace until the monitor has its fd: then down closes. */
		char c = unshare(CLONE_NEWUSER) == 0 ? 'y' : 'n';

		close(down[1]);
		(void)write_all(up[1], &c, 1);
		(void)read_byte(down[0]);
		_exit(0);
	}
	close(up[1]);
	close(down[0]);
	r = pid < 0 ? error_set(err, errno, "fork") : read_byte(up[0]) == 'y' ? 0 : -1;
	if (pid > 0 && r < 0)
		error_set_plain(err, EPERM, "creating the user namespace of the idmapping failed");
	if (r == 0)
		r = userns_write_maps(proc_fd, pid, disk_uid, uid, disk_gid, gid, true, err);
	if (r == 0) {
		path = xconcat(num_str(num, (unsigned long long)pid, 10), "/ns/user");
		fd = openat(proc_fd, path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			r = error_set(err, errno, "opening the user namespace of the idmapping");
	}
	close(up[0]);
	close(down[1]);
	if (pid > 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	return r < 0 ? r : fd;
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
