/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * explain.c: the answer before running. Pure: paths are resolved lexically ("." and ".."
 * removed, the plan's --symlink ops followed; the host's own symlinks are not, which the
 * answer cannot see without opening them). Each layer answers "refused", or passes the
 * question on; the first to refuse in the kernel's order is the answer, and an access
 * every layer lets through names the rule that allowed it, if one did.
 */
#include "config.h"

#include "explain.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "hide-plan.h"
#include "syscall.h"
#include "util.h"

#define EXPLAIN_MAX_SYMLINKS 40

/* ---- paths, lexically ---- */

/* The first n bytes of s. */
static char *cut(const char *s, size_t n)
{
	char *r = xmalloc(n + 1);

	memcpy(r, s, n);
	r[n] = '\0';
	return r;
}

/* The canonical form of path (relative to base when it does not start with '/'). */
static char *normalize(const char *base, const char *path)
{
	_cleanup_free_ char *in = path[0] == '/' ? xstrdup(path) : path_join(base, path);
	char *out = xmalloc(strlen(in) + 2), *save = NULL;
	size_t n = 0;

	for (char *c = strtok_r(in, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (strcmp(c, ".") == 0)
			continue;
		if (strcmp(c, "..") == 0) {
			while (n > 0 && out[--n] != '/')
				;
			continue;
		}
		out[n++] = '/';
		memcpy(out + n, c, strlen(c));
		n += strlen(c);
	}
	if (n == 0)
		out[n++] = '/';
	out[n] = '\0';
	return out;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash == path ? xstrdup("/") : cut(path, (size_t)(slash - path));
}

static bool op_mounts(enum op_type t)
{
	return t != OP_DIR && t != OP_FILE && t != OP_SYMLINK && t != OP_CHMOD &&
	       t != OP_REMOUNT_RO;
}

/* The --symlink op that makes prefix a link, if no later mount covers it. */
static const struct op *symlink_at(const struct plan *plan, const char *prefix)
{
	const struct op *found = NULL;

	for (size_t i = 0; i < plan->n_ops; i++) {
		const struct op *op = &plan->ops[i];
		_cleanup_free_ char *dest = normalize("/", op->dest);

		if (op->type == OP_SYMLINK && strcmp(dest, prefix) == 0)
			found = op;
		else if (found && op_mounts(op->type) && path_is_below(prefix, dest))
			found = NULL;
	}
	return found;
}

/* Replaces the first prefix of path that a --symlink op made by the link's target. */
static bool follow_once(const struct plan *plan, char **path)
{
	for (char *p = *path + 1;; p++) {
		if (*p == '/' || *p == '\0') {
			_cleanup_free_ char *prefix = cut(*path, (size_t)(p - *path));
			const struct op *link = symlink_at(plan, prefix);

			if (link) {
				_cleanup_free_ char *dir = dir_of(prefix);
				_cleanup_free_ char *to = normalize(dir, link->source);
				char *next = normalize(to, *p ? p + 1 : ".");

				free(*path);
				*path = next;
				return true;
			}
		}
		if (*p == '\0')
			return false;
	}
}

static char *resolve(const struct plan *plan, const char *base, const char *path)
{
	char *r = normalize(base ? base : "/", path);

	for (int i = 0; i < EXPLAIN_MAX_SYMLINKS && !plan->landlock.only && follow_once(plan, &r);
	     i++)
		;
	return r;
}

/* ---- the answer ---- */

static bool refuse(struct explain_answer *a, enum explain_layer layer, const char *option,
		   const char *rule, const char *error, char *why)
{
	a->allowed = false;
	a->layer = layer;
	a->option = option;
	a->rule = rule ? xstrdup(rule) : NULL;
	a->error = error;
	a->why = why;
	return true;
}

static void allow(struct explain_answer *a, enum explain_layer layer, const char *option,
		  const char *rule, char *why)
{
	refuse(a, layer, option, rule, NULL, why);
	a->allowed = true;
}

/* ---- layer: hide ---- */

/* Whether arg names dir/name: "PATH" (a glob in its last component), or "NAME" in one of
 * the PATH directories. *names_dir: arg names something in dir at all. */
static bool hide_matches(const char *arg, const char *path_env, const char *dir, const char *name,
			 bool *names_dir)
{
	const char *slash = strrchr(arg, '/');

	if (slash) {
		_cleanup_free_ char *adir = dir_of(arg);
		_cleanup_free_ char *cdir = normalize("/", adir);

		*names_dir = strcmp(cdir, dir) == 0;
		return *names_dir && fnmatch(slash + 1, name, FNM_PERIOD) == 0;
	}
	_cleanup_free_ char *copy = xstrdup(path_env ? path_env : HIDE_DEFAULT_PATH);
	char *save = NULL;

	*names_dir = false;
	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		_cleanup_free_ char *cd = d[0] == '/' ? normalize("/", d) : NULL;

		if (cd && strcmp(cd, dir) == 0)
			*names_dir = true;
	}
	return *names_dir && fnmatch(arg, name, FNM_PERIOD) == 0;
}

/* The option that hides dir/name, and its argument. */
static const char *hidden_by(const struct plan *plan, const char *dir, const char *name,
			     const char **arg)
{
	const char *path_env = env_get(plan->proc.envp, "PATH");
	bool names_dir, allow_dir = false, allowed = false;

	for (size_t i = 0; plan->hide.allow && plan->hide.allow[i]; i++) {
		allowed |= hide_matches(plan->hide.allow[i], path_env, dir, name, &names_dir);
		if (names_dir && !allow_dir)
			*arg = plan->hide.allow[i];
		allow_dir |= names_dir;
	}
	if (allowed)
		return NULL;
	if (allow_dir)
		return "--overlay-allow";
	for (size_t i = 0; plan->hide.hide && plan->hide.hide[i]; i++)
		if (hide_matches(plan->hide.hide[i], path_env, dir, name, &names_dir))
			return *arg = plan->hide.hide[i], "--overlay-hide";
	return NULL;
}

/* Every component is looked up, so a hidden directory hides what is beneath it. A new
 * entry's own name is not: creating it is the mount's question. */
static bool check_hide(const struct plan *plan, bool new_entry, const char *path,
		       struct explain_answer *a)
{
	size_t len = strlen(path);

	for (size_t end = 1; len > 1 && end <= len; end++) {
		const char *opt, *arg = NULL;

		if (end < len && path[end] != '/')
			continue;
		if (end == len && new_entry)
			break;
		_cleanup_free_ char *prefix = cut(path, end);
		_cleanup_free_ char *dir = dir_of(prefix);
		opt = hidden_by(plan, dir, strrchr(prefix, '/') + 1, &arg);
		if (opt)
			return refuse(a, EXPLAIN_L_HIDE, opt, arg, "ENOENT",
				      xasprintf("'%s' is hidden from the sandbox: the name does "
						"not exist there",
						prefix));
	}
	return false;
}

/* ---- layer: the sandbox's mounts ---- */

struct cover {
	const struct op *op;	/* the last mount op over the path; NULL: the root tmpfs */
	const struct op *ro_op; /* the op that makes it read-only, or NULL */
};

/* The last mount op before ops[end] that path is on; NULL: the root tmpfs. */
static const struct op *mount_before(const struct plan *plan, size_t end, const char *path)
{
	const struct op *found = NULL;

	for (size_t i = 0; i < end; i++) {
		_cleanup_free_ char *dest = normalize("/", plan->ops[i].dest);

		if (op_mounts(plan->ops[i].type) && path_is_below(path, dest))
			found = &plan->ops[i];
	}
	return found;
}

/* --remount-ro DEST changes the one mount at DEST, not those beneath it made before
 * (mount_setattr without AT_RECURSIVE): path is read-only by it only where it is on the
 * same mount as DEST. */
static struct cover cover_of(const struct plan *plan, const char *path)
{
	struct cover c = { NULL, NULL };

	for (size_t i = 0; i < plan->n_ops; i++) {
		const struct op *op = &plan->ops[i];
		_cleanup_free_ char *dest = normalize("/", op->dest);

		if (!path_is_below(path, dest))
			continue;
		if (op->type == OP_REMOUNT_RO) {
			if (mount_before(plan, i, dest) == c.op)
				c.ro_op = op;
		} else if (op_mounts(op->type)) {
			c.op = op;
			c.ro_op = op_desc(op->type)->read_only ? op : NULL;
		}
	}
	return c;
}

/* On an empty tmpfs (the root, or --tmpfs) only what nsrun made exists: the mount point,
 * the parents of later destinations, and those destinations. */
static bool exists_on_empty(const struct plan *plan, const struct cover *c, const char *path)
{
	_cleanup_free_ char *top = c->op ? normalize("/", c->op->dest) : xstrdup("/");

	if (strcmp(top, path) == 0)
		return true;
	for (size_t i = 0; i < plan->n_ops; i++) {
		_cleanup_free_ char *dest = normalize("/", plan->ops[i].dest);

		if (path_is_below(dest, path))
			return true;
	}
	return false;
}

static char *op_rule(const struct op *op)
{
	if (op->source && op_desc(op->type)->args & OP_A_SOURCE)
		return xconcat(op->source, " ", op->dest);
	return xstrdup(op->dest);
}

static bool refuse_by_op(struct explain_answer *a, const struct op *op, const char *error,
			 char *why)
{
	_cleanup_free_ char *rule = op_rule(op);

	return refuse(a, EXPLAIN_L_MOUNT, op_type_name(op->type), rule, error, why);
}

/* Whether path, on the sysfs of the --sys op, is below one of its masks. */
static bool sys_hidden(const struct op *op, const char *path)
{
	_cleanup_free_ char *dest = normalize("/", op->dest);
	size_t n = strcmp(dest, "/") == 0 ? 0 : strlen(dest);

	return path[n] == '/' && files_sys_hidden(path + n + 1);
}

/* where: the path itself, or for a new or removed entry its directory. A refusal goes to
 * a; the mount that lets the access through to *by, in case no later layer decides. */
static bool check_mount(const struct plan *plan, bool new_entry, bool writes, const char *path,
			const char *where, struct explain_answer *by, struct explain_answer *a)
{
	struct cover c = cover_of(plan, where);
	const char *must_exist = new_entry ? where : path;

	if ((!c.op || c.op->type == OP_TMPFS) && !exists_on_empty(plan, &c, must_exist))
		return refuse(a, EXPLAIN_L_MOUNT, NULL, NULL, "ENOENT",
			      xasprintf("no option puts '%s' in the sandbox: it is on %s",
					must_exist,
					c.op ? "an empty --tmpfs" : "the sandbox's empty root"));
	if (c.op && c.op->type == OP_SYS && sys_hidden(c.op, must_exist))
		return refuse_by_op(a, c.op, "ENOENT",
				    xasprintf("'%s' is below a part of the sysfs that --sys masks",
					      must_exist));
	if (writes && c.ro_op)
		return refuse_by_op(a, c.ro_op, "EROFS",
				    xasprintf("'%s' is on a read-only mount", where));
	if (c.op) {
		_cleanup_free_ char *rule = op_rule(c.op);

		allow(by, EXPLAIN_L_MOUNT, op_type_name(c.op->type), rule,
		      xasprintf("'%s' is on the mount %s makes%s", where, op_type_name(c.op->type),
				c.op->source && !writes ? "; whether it exists is the host's" :
							  ""));
	}
	return false;
}

/* ---- layer: Landlock (and the seccomp guards standing in for it) ---- */

static const char *const writable_devices[] = { "/dev/null", "/dev/zero", "/dev/full", "/dev/tty",
						NULL };

/* The first of paths (NULL-terminated) that where lies beneath, or NULL. */
static const char *beneath(char *const *paths, const char *where)
{
	for (size_t i = 0; paths && paths[i]; i++) {
		_cleanup_free_ char *rule = normalize("/", paths[i]);

		if (path_is_below(where, rule))
			return paths[i];
	}
	return NULL;
}

static bool check_landlock_write(const struct plan *plan, const struct landlock_desc *desc,
				 enum explain_access acc, const char *where,
				 struct explain_answer *a)
{
	const char *rw = beneath(plan->landlock.rw, where);

	if (acc == EXPLAIN_TRUNCATE && !(desc->handled_fs & NSRUN_LL_FS_TRUNCATE))
		return refuse(a, EXPLAIN_L_SECCOMP, "--landlock-rw", NULL, "EACCES",
			      xasprintf("Landlock ABI %d cannot restrict truncation, so nsrun's "
					"seccomp guard refuses truncate(2) and O_TRUNC opens without "
					"write access everywhere",
					desc->abi));
	if ((acc == EXPLAIN_WRITE || acc == EXPLAIN_TRUNCATE) && !rw &&
	    beneath((char *const *)writable_devices, where))
		return allow(a, EXPLAIN_L_LANDLOCK, NULL, where,
			     xasprintf("'%s' is one of the devices nsrun keeps writable", where)),
		       true;
	if (!rw)
		return refuse(a, EXPLAIN_L_LANDLOCK, "--landlock-rw", NULL, "EACCES",
			      xasprintf("'%s' is not beneath a --landlock-rw path", where));
	allow(a, EXPLAIN_L_LANDLOCK, "--landlock-rw", rw,
	      xasprintf("'%s' is beneath --landlock-rw '%s'", where, rw));
	return true;
}

static bool check_landlock_exec(const struct plan *plan, const struct landlock_desc *desc,
				const char *path, struct explain_answer *a)
{
	const char *exec = beneath(plan->landlock.exec, path);

	if (!(desc->handled_fs & NSRUN_LL_FS_EXECUTE))
		return false;
	if (!exec)
		return refuse(a, EXPLAIN_L_LANDLOCK, "--landlock-exec", NULL, "EACCES",
			      xasprintf("'%s' is not beneath a --landlock-exec path (the ELF "
					"interpreters of allowed programs are allowed too)",
					path));
	allow(a, EXPLAIN_L_LANDLOCK, "--landlock-exec", exec,
	      xasprintf("'%s' is beneath --landlock-exec '%s'", path, exec));
	return true;
}

static bool is_write(enum explain_access acc)
{
	return acc == EXPLAIN_WRITE || acc == EXPLAIN_CREATE || acc == EXPLAIN_REMOVE ||
	       acc == EXPLAIN_RENAME || acc == EXPLAIN_TRUNCATE;
}

static bool is_new_entry(enum explain_access acc)
{
	return acc == EXPLAIN_CREATE || acc == EXPLAIN_REMOVE || acc == EXPLAIN_RENAME;
}

static void decide_path(const struct plan *plan, const struct landlock_desc *desc,
			enum explain_access acc, const char *path, struct explain_answer *a)
{
	_cleanup_free_ char *parent = dir_of(path);
	const char *where = is_new_entry(acc) ? parent : path;
	struct explain_answer by = { 0 };
	bool ll = plan->landlock.enabled;

	if ((!plan->landlock.only &&
	     (check_hide(plan, is_new_entry(acc), path, a) ||
	      check_mount(plan, is_new_entry(acc), is_write(acc), path, where, &by, a))) ||
	    (ll && is_write(acc) && check_landlock_write(plan, desc, acc, where, a)) ||
	    (ll && acc == EXPLAIN_EXECUTE && check_landlock_exec(plan, desc, path, a))) {
		explain_answer_free(&by);
		return;
	}
	if (by.why) {
		by.path = a->path;
		*a = by;
		return;
	}
	allow(a, EXPLAIN_L_NONE, NULL, NULL,
	      xasprintf("no rule of nsrun's restricts %s on '%s'", explain_access_name(acc), path));
}

/* ---- network, UNIX sockets, signals ---- */

static enum landlock_port_kind port_kind(const struct explain_query *q)
{
	if (q->access == EXPLAIN_BIND)
		return q->udp ? LL_PORT_BIND_UDP : LL_PORT_BIND_TCP;
	/* TCP has no send check of its own: a send goes where the connect went. */
	return q->udp ? LL_PORT_CONNECT_UDP : LL_PORT_CONNECT_TCP;
}

static bool only_loopback(const struct plan *plan)
{
	return !plan->landlock.only && plan->ns.net && plan->sup.netns_fd < 0;
}

/* Landlock's hook runs in connect(2) and bind(2) before the route lookup, so a port rule
 * refuses before the empty network namespace would. */
static void decide_port(const struct plan *plan, const struct explain_query *q,
			struct explain_answer *a)
{
	enum landlock_port_kind k = port_kind(q);
	const struct landlock_ports *ports = &plan->landlock.ports[k];
	const char *opt = plan_landlock_port_option(k);
	char buf[NUM_BUF_SIZE];
	const char *num = num_str(buf, q->port, 10);
	bool listed = false;

	for (size_t i = 0; i < ports->n; i++)
		listed |= ports->v[i] == q->port;
	if (ports->has && !listed)
		refuse(a, EXPLAIN_L_LANDLOCK, opt, NULL, "EACCES",
		       xasprintf("port %s is not among the %s ports", num, opt));
	else if (q->access != EXPLAIN_BIND && !q->loopback && only_loopback(plan))
		refuse(a, EXPLAIN_L_NETNS, "--unshare-net", NULL, "ENETUNREACH",
		       xstrdup("the sandbox's network namespace has only loopback"));
	else if (ports->has)
		allow(a, EXPLAIN_L_LANDLOCK, opt, num,
		      xasprintf("port %s is allowed by %s", num, opt));
	else
		allow(a, EXPLAIN_L_NONE, NULL, NULL,
		      xasprintf("no rule of nsrun's restricts %s to port %s",
				explain_access_name(q->access), num));
}

/* The seccomp guard refuses socket(AF_UNIX) itself, before any path is looked up. */
static void decide_unix(const struct plan *plan, const struct landlock_desc *desc,
			const struct explain_query *q, struct explain_answer *a)
{
	if (plan->landlock.enabled && desc->unix_connect == LANDLOCK_UNIX_SECCOMP) {
		refuse(a, EXPLAIN_L_SECCOMP, "--landlock-deny-unix", NULL, "EACCES",
		       xasprintf("Landlock ABI %d cannot restrict pathname UNIX sockets, so "
				 "nsrun's seccomp guard refuses creating any UNIX socket",
				 desc->abi));
		return;
	}
	if (q->access == EXPLAIN_BIND) {
		decide_path(plan, desc, EXPLAIN_CREATE, a->path, a);
		return;
	}
	if (!plan->landlock.only && (check_hide(plan, false, a->path, a)))
		return;
	if (plan->landlock.enabled && desc->unix_connect == LANDLOCK_UNIX_LANDLOCK) {
		const char *rw = beneath(plan->landlock.rw, a->path);

		if (!rw)
			refuse(a, EXPLAIN_L_LANDLOCK, "--landlock-rw", NULL, "EACCES",
			       xasprintf("'%s' is not beneath a --landlock-rw path, and Landlock "
					 "restricts pathname UNIX sockets to those",
					 a->path));
		else
			allow(a, EXPLAIN_L_LANDLOCK, "--landlock-rw", rw,
			      xasprintf("'%s' is beneath --landlock-rw '%s'", a->path, rw));
		return;
	}
	allow(a, EXPLAIN_L_NONE, NULL, NULL,
	      xasprintf("no rule of nsrun's restricts connecting to '%s'", a->path));
}

/* A pid outside is not found before Landlock's scope is asked. */
static void decide_signal(const struct plan *plan, const struct landlock_desc *desc,
			  const struct explain_query *q, struct explain_answer *a)
{
	if (q->outside && !plan->landlock.only && plan->ns.pid)
		refuse(a, EXPLAIN_L_PIDNS, "--unshare-pid", NULL, "ESRCH",
		       xstrdup("processes outside the sandbox's pid namespace cannot be named"));
	else if (q->outside && plan->landlock.enabled && (desc->scoped & NSRUN_LL_SCOPE_SIGNAL))
		refuse(a, EXPLAIN_L_LANDLOCK, "--landlock-scope", NULL, "EPERM",
		       xstrdup("Landlock refuses signals to processes outside the sandbox"));
	else
		allow(a, EXPLAIN_L_NONE, NULL, NULL,
		      xstrdup(q->outside ? "no rule of nsrun's restricts signalling a process "
					   "outside the sandbox" :
					   "processes in the sandbox may signal each other"));
}

int explain_decide(const struct plan *plan, const struct landlock_desc *desc, const char *cwd,
		   const struct explain_query *q, struct explain_answer *a, struct nsrun_error *err)
{
	*a = (struct explain_answer){ 0 };
	if (q->path && q->path[0] != '/' && !plan->proc.chdir && !cwd)
		return error_set(err, 0, "--explain: the relative path '%s' needs --chdir",
				 q->path);
	if (q->path)
		a->path = resolve(plan, plan->proc.chdir ? plan->proc.chdir : cwd, q->path);
	switch (q->kind) {
	case EXPLAIN_T_PROCESS:
		decide_signal(plan, desc, q, a);
		break;
	case EXPLAIN_T_PORT:
		decide_port(plan, q, a);
		break;
	case EXPLAIN_T_UNIX:
		decide_unix(plan, desc, q, a);
		break;
	case EXPLAIN_T_PATH:
	default:
		decide_path(plan, desc, q->access, a->path, a);
		break;
	}
	return 0;
}
