/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cli.c: argv to struct plan with bwrap 0.11's observable behaviour. The sorted table
 * is bsearched, a generic loop checks arity, and one small handler per option family
 * fills the plan. Modifier state (--perms, --size, --overlay-src) lives in struct
 * cli_state and is checked after every other option. Pure: I/O only via the io callbacks.
 */
#include "config.h"

#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "caps.h"
#include "util.h"

const struct cli_option cli_options[] = {
#define CLI_OPTION_ROW(id, name, arity, group, flags, args, help) \
	{ OPT_##id, name, arity, group, flags, args, help },
	NSRUN_OPTIONS(CLI_OPTION_ROW)
#undef CLI_OPTION_ROW
};
const size_t cli_n_options = ARRAY_SIZE(cli_options);

/* bwrap caps --size at SIZE_MAX / 2 so that the tmpfs option string cannot overflow. */
#define CLI_MAX_TMPFS_BYTES (SIZE_MAX / 2)

static const char overlay_src_dangling[] =
	"--overlay-src must be followed by another --overlay-src or one of --overlay, "
	"--tmp-overlay, or --ro-overlay";

struct cli_state {
	struct plan *plan;
	const struct cli_io *io;
	size_t total_args; /* argv plus every --args entry, against PLAN_MAX_ARGS */
	bool in_file;	   /* parsing an --args buffer */
	bool stop;	   /* --help, --version or --landlock-abi seen */
	bool seen[OPT_MAX];
	bool has_perms, has_size;
	mode_t perms;
	uint64_t size;
	char **overlay_srcs; /* pending --overlay-src values, first given first */
	int seccomp_fd;	     /* the last --seccomp FD, read after parsing; -1 if none */
};

typedef int (*cli_handler)(struct cli_state *st, const struct cli_option *opt, char *const *a,
			   struct nsrun_error *err);

static int parse_vector(struct cli_state *st, size_t argc, char *const *argv, size_t *ret_cmd,
			struct nsrun_error *err);

static int cmp_option(const void *key, const void *elem)
{
	return strcmp(key, ((const struct cli_option *)elem)->name);
}

const struct cli_option *cli_find_option(const char *name)
{
	return bsearch(name, cli_options, cli_n_options, sizeof(cli_options[0]), cmp_option);
}

const char *cli_group_name(enum cli_group group)
{
	static const char *const names[OPTG_MAX] = {
		[OPTG_GENERAL] = "general",
		[OPTG_NAMESPACE] = "namespace",
		[OPTG_FILESYSTEM] = "filesystem",
		[OPTG_PROCESS] = "process",
		[OPTG_SECURITY] = "security",
		[OPTG_STATUS] = "status",
		[OPTG_HIDE] = "hide",
		[OPTG_LANDLOCK] = "landlock",
	};

	return (unsigned)group < OPTG_MAX ? names[group] : "unknown";
}

/* bwrap's wording differs per option: "one argument" for a few, and --ro-bind-fd
 * reports itself as --bind-fd. */
static int missing_args(const struct cli_option *opt, struct nsrun_error *err)
{
	static const char *const words[] = { "no arguments", "an argument", "two arguments",
					     "three arguments" };
	const char *name = opt->name, *what = words[opt->arity];

	if (opt->id == OPT_ARGV0 || opt->id == OPT_CHDIR || opt->id == OPT_REMOUNT_RO)
		what = "one argument";
	else if (opt->id == OPT_RO_BIND_FD)
		name = "--bind-fd";
	return error_set(err, 0, "%s takes %s", name, what);
}

static void warn_last(struct cli_state *st, const struct cli_option *opt)
{
	char *msg;

	if (!st->seen[opt->id])
		return;
	msg = xasprintf("Only the last %s option will take effect", opt->name);
	strv_push(&st->plan->warnings, msg);
	free(msg);
}

static int get_fd(const char *s, int *fd, struct nsrun_error *err)
{
	if (parse_fd(s, fd) < 0)
		return error_set(err, 0, "Invalid fd: %s", s);
	return 0;
}

static int read_input(struct cli_state *st, int fd, size_t max, char **data, size_t *len)
{
	if (!st->io || !st->io->read_fd)
		return -ENOSYS;
	*data = NULL;
	*len = 0;
	return st->io->read_fd(st->io->userdata, fd, max, data, len);
}

static int h_flag(struct cli_state *st, const struct cli_option *opt, char *const *a,
		  struct nsrun_error *err)
{
	struct plan *p = st->plan;
	enum cli_option_id id = opt->id;

	(void)a;
	(void)err;
	if (id == OPT_HELP || id == OPT_VERSION || id == OPT_LANDLOCK_ABI) {
		p->mode = id == OPT_HELP    ? PLAN_HELP :
			  id == OPT_VERSION ? PLAN_VERSION :
					      PLAN_LANDLOCK_ABI;
		st->stop = true;
	} else if (id == OPT_DOCTOR) {
		/* Not a stop: "--doctor --json" reads on. */
		p->mode = PLAN_DOCTOR;
	} else if (id == OPT_JSON) {
		p->json = true;
	} else if (id == OPT_LEVEL_PREFIX) {
		p->level_prefix = true;
	} else if (id == OPT_CLEARENV) {
		strv_free(p->proc.envp);
		p->proc.envp = xcalloc(1, sizeof(char *));
	} else if (id == OPT_NEW_SESSION) {
		p->proc.new_session = true;
	} else if (id == OPT_DIE_WITH_PARENT) {
		p->proc.die_with_parent = true;
	} else if (id == OPT_AS_PID_1) {
		p->proc.as_pid_1 = true;
	} else if (id == OPT_LANDLOCK_ONLY) {
		p->landlock.enabled = p->landlock.only = true;
	} else if (id == OPT_LANDLOCK_SCOPE) {
		p->landlock.enabled = p->landlock.scope = true;
	} else if (id == OPT_LANDLOCK_DENY_UNIX) {
		p->landlock.enabled = p->landlock.deny_unix = true;
	}
	return 0;
}

/* --unshare-all and the -try forms never downgrade an explicit --unshare-X. */
static void request_try(enum ns_request *r)
{
	if (*r == NS_NO)
		*r = NS_TRY;
}

static int h_namespace(struct cli_state *st, const struct cli_option *opt, char *const *a,
		       struct nsrun_error *err)
{
	struct ns_config *ns = &st->plan->ns;
	enum cli_option_id id = opt->id;

	(void)a;
	(void)err;
	if (id == OPT_UNSHARE_ALL) {
		request_try(&ns->user);
		request_try(&ns->cgroup);
		ns->ipc = ns->pid = ns->net = ns->uts = true;
	} else if (id == OPT_UNSHARE_USER) {
		ns->user = NS_YES;
	} else if (id == OPT_UNSHARE_USER_TRY) {
		request_try(&ns->user);
	} else if (id == OPT_UNSHARE_CGROUP) {
		ns->cgroup = NS_YES;
	} else if (id == OPT_UNSHARE_CGROUP_TRY) {
		request_try(&ns->cgroup);
	} else if (id == OPT_UNSHARE_IPC) {
		ns->ipc = true;
	} else if (id == OPT_UNSHARE_PID) {
		ns->pid = true;
	} else if (id == OPT_UNSHARE_NET) {
		ns->net = true;
	} else if (id == OPT_SHARE_NET) {
		ns->net = false;
	} else if (id == OPT_UNSHARE_UTS) {
		ns->uts = true;
	} else if (id == OPT_DISABLE_USERNS) {
		ns->disable_userns = true;
	} else if (id == OPT_ASSERT_USERNS_DISABLED) {
		ns->assert_userns_disabled = true;
	}
	return 0;
}

static int *fd_field(struct plan *p, enum cli_option_id id)
{
	if (id == OPT_USERNS)
		return &p->ns.userns_fd;
	if (id == OPT_USERNS2)
		return &p->ns.userns2_fd;
	if (id == OPT_PIDNS)
		return &p->ns.pidns_fd;
	if (id == OPT_SYNC_FD)
		return &p->sync.sync_fd;
	if (id == OPT_BLOCK_FD)
		return &p->sync.block_fd;
	if (id == OPT_USERNS_BLOCK_FD)
		return &p->sync.userns_block_fd;
	if (id == OPT_INFO_FD)
		return &p->sync.info_fd;
	return &p->sync.json_status_fd;
}

static int h_fd(struct cli_state *st, const struct cli_option *opt, char *const *a,
		struct nsrun_error *err)
{
	warn_last(st, opt);
	return get_fd(a[0], fd_field(st->plan, opt->id), err);
}

static int h_id(struct cli_state *st, const struct cli_option *opt, char *const *a,
		struct nsrun_error *err)
{
	struct ns_config *ns = &st->plan->ns;
	bool uid = opt->id == OPT_UID;
	int v;

	warn_last(st, opt);
	/* bwrap parses ids with strtol into an int: 0..INT_MAX, decimal. */
	if (parse_fd(a[0], &v) < 0)
		return error_set(err, 0, "Invalid %s: %s", uid ? "uid" : "gid", a[0]);
	if (uid) {
		ns->has_uid = true;
		ns->uid = (uid_t)v;
	} else {
		ns->has_gid = true;
		ns->gid = (gid_t)v;
	}
	return 0;
}

static void replace_str(char **field, const char *value)
{
	free(*field);
	*field = xstrdup(value);
}

static int h_string(struct cli_state *st, const struct cli_option *opt, char *const *a,
		    struct nsrun_error *err)
{
	struct plan *p = st->plan;
	enum cli_option_id id = opt->id;

	if (id == OPT_ARGV0) {
		if (p->proc.argv0)
			return error_set(err, 0, "--argv0 used multiple times");
		replace_str(&p->proc.argv0, a[0]);
		return 0;
	}
	warn_last(st, opt);
	if (id == OPT_CHDIR) {
		replace_str(&p->proc.chdir, a[0]);
	} else if (id == OPT_HOSTNAME) {
		replace_str(&p->ns.hostname, a[0]);
	} else {
		/* SELinux is checked at parse time in bwrap too. */
		if (!st->io->selinux_enabled)
			return error_set(err, 0, "labeling not supported on this system");
		replace_str(id == OPT_EXEC_LABEL ? &p->proc.exec_label : &p->proc.file_label, a[0]);
	}
	return 0;
}

static int h_env(struct cli_state *st, const struct cli_option *opt, char *const *a,
		 struct nsrun_error *err)
{
	bool set = opt->id == OPT_SETENV;

	/* setenv(3) rejects these names; bwrap dies with its plain message. */
	if (!a[0][0] || strchr(a[0], '='))
		return error_set(err, 0, "%s failed", set ? "setenv" : "unsetenv");
	if (set)
		env_set(&st->plan->proc.envp, a[0], a[1]);
	else
		env_unset(&st->plan->proc.envp, a[0]);
	return 0;
}

static int h_cap(struct cli_state *st, const struct cli_option *opt, char *const *a,
		 struct nsrun_error *err)
{
	struct caps_config *c = &st->plan->caps;
	struct cap_op *op;
	int cap = caps_parse_name(a[0]);

	if (cap < 0 && cap != CAP_OP_ALL)
		return error_set(err, 0, "unknown cap: %s", a[0]);
	op = xappend(&c->ops, &c->n_ops, sizeof(*op));
	op->add = opt->id == OPT_CAP_ADD;
	op->cap = cap;
	return 0;
}

static int read_seccomp(struct cli_state *st, int fd, struct seccomp_prog *prog,
			struct nsrun_error *err)
{
	char *data;
	size_t len;
	int r;

	r = read_input(st, fd, PLAN_MAX_SECCOMP_BYTES, &data, &len);
	if (r < 0)
		return error_set(err, -r, "Can't read seccomp data");
	/* An empty program is bwrap's to refuse in the sandbox (prctl says EINVAL), after
	 * the option conflicts and a second read of the closed fd have been reported. */
	if (len % 8 != 0) {
		free(data);
		return error_set(err, 0, "Invalid seccomp data, must be multiple of 8");
	}
	prog->data = (unsigned char *)data;
	prog->len = len;
	return 0;
}

/* --add-seccomp-fd is read at once; --seccomp only records its fd (the last one wins)
 * and is read when parsing is over, as bwrap does, so "cannot be combined" and the
 * usage errors come first. */
static int h_seccomp(struct cli_state *st, const struct cli_option *opt, char *const *a,
		     struct nsrun_error *err)
{
	struct seccomp_config *sc = &st->plan->seccomp;
	struct seccomp_prog prog;
	int fd, r;

	if (opt->id == OPT_ADD_SECCOMP_FD) {
		if (st->seccomp_fd >= 0)
			return error_set(err, 0,
					 "--add-seccomp-fd cannot be combined with --seccomp");
		r = get_fd(a[0], &fd, err);
		if (r < 0)
			return r;
		r = read_seccomp(st, fd, &prog, err);
		if (r < 0)
			return r;
		*(struct seccomp_prog *)xappend(&sc->progs, &sc->n_progs, sizeof(prog)) = prog;
		return 0;
	}
	if (sc->n_progs > 0)
		return error_set(err, 0, "--seccomp cannot be combined with --add-seccomp-fd");
	warn_last(st, opt);
	r = get_fd(a[0], &fd, err);
	if (r < 0)
		return r;
	st->seccomp_fd = fd;
	return 0;
}

static int read_deferred_seccomp(struct cli_state *st, struct nsrun_error *err)
{
	struct seccomp_config *sc = &st->plan->seccomp;
	struct seccomp_prog prog;
	int r;

	if (st->seccomp_fd < 0)
		return 0;
	r = read_seccomp(st, st->seccomp_fd, &prog, err);
	if (r < 0)
		return r;
	*(struct seccomp_prog *)xappend(&sc->progs, &sc->n_progs, sizeof(prog)) = prog;
	sc->from_seccomp_opt = true;
	return 0;
}

static int h_perms(struct cli_state *st, const struct cli_option *opt, char *const *a,
		   struct nsrun_error *err)
{
	(void)opt;
	if (st->has_perms)
		return error_set(err, 0, "--perms given twice for the same action");
	if (parse_octal_mode(a[0], &st->perms) < 0)
		return error_set(err, 0, "--perms takes an octal argument <= 07777");
	st->has_perms = true;
	return 0;
}

static int h_size(struct cli_state *st, const struct cli_option *opt, char *const *a,
		  struct nsrun_error *err)
{
	uint64_t v;

	(void)opt;
	if (st->has_size)
		return error_set(err, 0, "--size given twice for the same action");
	/* strtoull base 0 (so 0x and octal work); no sign, no leading space, not 0. */
	if (parse_u64(a[0], 0, &v) < 0 || v == 0)
		return error_set(err, 0, "--size takes a non-zero number of bytes");
	if (v > CLI_MAX_TMPFS_BYTES)
		return error_set(err, 0, "--size (for tmpfs) is limited to %zu",
				 (size_t)CLI_MAX_TMPFS_BYTES);
	st->size = v;
	st->has_size = true;
	return 0;
}

static int h_overlay_src(struct cli_state *st, const struct cli_option *opt, char *const *a,
			 struct nsrun_error *err)
{
	(void)opt;
	(void)err;
	strv_push(&st->overlay_srcs, a[0]);
	return 0;
}

/* Which op an option creates, its -try flag and its default mode (bwrap's values). */
static const struct op_row {
	enum cli_option_id id;
	enum op_type type;
	unsigned flags;
	mode_t default_perms; /* 0: --perms does not apply */
} op_rows[] = {
	{ OPT_BIND, OP_BIND, 0, 0 },
	{ OPT_BIND_TRY, OP_BIND, OP_F_TRY, 0 },
	{ OPT_RO_BIND, OP_RO_BIND, 0, 0 },
	{ OPT_RO_BIND_TRY, OP_RO_BIND, OP_F_TRY, 0 },
	{ OPT_DEV_BIND, OP_DEV_BIND, 0, 0 },
	{ OPT_DEV_BIND_TRY, OP_DEV_BIND, OP_F_TRY, 0 },
	{ OPT_BIND_FD, OP_BIND_FD, 0, 0 },
	{ OPT_RO_BIND_FD, OP_RO_BIND_FD, 0, 0 },
	{ OPT_REMOUNT_RO, OP_REMOUNT_RO, 0, 0 },
	{ OPT_PROC, OP_PROC, 0, 0 },
	{ OPT_DEV, OP_DEV, 0, 0 },
	{ OPT_TMPFS, OP_TMPFS, 0, 0755 },
	{ OPT_MQUEUE, OP_MQUEUE, 0, 0 },
	{ OPT_DIR, OP_DIR, 0, 0755 },
	{ OPT_FILE, OP_FILE, 0, 0666 },
	{ OPT_BIND_DATA, OP_BIND_DATA, 0, 0600 },
	{ OPT_RO_BIND_DATA, OP_RO_BIND_DATA, 0, 0600 },
	{ OPT_SYMLINK, OP_SYMLINK, 0, 0 },
	{ OPT_CHMOD, OP_CHMOD, 0, 0 },
	{ OPT_OVERLAY, OP_OVERLAY, 0, 0 },
	{ OPT_TMP_OVERLAY, OP_TMP_OVERLAY, 0, 0 },
	{ OPT_RO_OVERLAY, OP_RO_OVERLAY, 0, 0 },
};

static const struct op_row *find_op_row(enum cli_option_id id)
{
	for (size_t i = 0; i < ARRAY_SIZE(op_rows); i++)
		if (op_rows[i].id == id)
			return &op_rows[i];
	return NULL;
}

static int check_overlay_srcs(struct cli_state *st, enum cli_option_id id, struct nsrun_error *err)
{
	size_t need = id == OPT_RO_OVERLAY ? 2 : 1;
	const char *name = id == OPT_OVERLAY	 ? "--overlay" :
			   id == OPT_TMP_OVERLAY ? "--tmp-overlay" :
						   "--ro-overlay";

	if (strv_length(st->overlay_srcs) < need)
		return error_set(err, 0, "%s requires at least %s --overlay-src", name,
				 need == 2 ? "two" : "one");
	return 0;
}

/* Every filesystem option: one op, in command-line order, taking pending modifiers. */
static int h_op(struct cli_state *st, const struct cli_option *opt, char *const *a,
		struct nsrun_error *err)
{
	const struct op_row *row = find_op_row(opt->id);
	enum op_type t = row ? row->type : OP_MAX;
	bool is_overlay = t == OP_OVERLAY || t == OP_TMP_OVERLAY || t == OP_RO_OVERLAY;
	bool has_fd = t == OP_BIND_FD || t == OP_RO_BIND_FD || t == OP_FILE || t == OP_BIND_DATA ||
		      t == OP_RO_BIND_DATA;
	mode_t mode = 0;
	struct op *op;
	int fd = -1, r = 0;

	if (!row)
		return -EINVAL; /* the handler table and op_rows disagree: a bug */
	if (has_fd)
		r = get_fd(a[0], &fd, err);
	else if (is_overlay)
		r = check_overlay_srcs(st, opt->id, err);
	else if (t == OP_CHMOD && parse_octal_mode(a[0], &mode) < 0)
		r = error_set(err, 0, "--chmod takes an octal argument <= 07777");
	if (r < 0)
		return r;
	op = plan_add_op(st->plan, t);
	if (!op)
		return error_set(err, 0, "Too many filesystem operations (at most %d)",
				 PLAN_MAX_OPS);
	op->flags = row->flags;
	op->fd = fd;
	op->perms = mode;
	if (is_overlay)
		op->layers = TAKE_PTR(st->overlay_srcs);
	if (row->default_perms) {
		op->perms = st->has_perms ? st->perms : row->default_perms;
		op->flags |= st->has_perms ? OP_F_HAS_PERMS : 0;
		st->has_perms = false;
	}
	if (t == OP_TMPFS && st->has_size) {
		op->size = st->size;
		op->flags |= OP_F_HAS_SIZE;
		st->has_size = false;
	}
	if (opt->arity == 1) {
		op->dest = xstrdup(a[0]);
	} else if (opt->arity == 3) {
		op->source = xstrdup(a[0]);
		op->workdir = xstrdup(a[1]);
		op->dest = xstrdup(a[2]);
	} else {
		op->source = has_fd || t == OP_CHMOD ? NULL : xstrdup(a[0]);
		op->dest = xstrdup(a[1]);
	}
	return 0;
}

static int h_lock_file(struct cli_state *st, const struct cli_option *opt, char *const *a,
		       struct nsrun_error *err)
{
	(void)opt;
	(void)err;
	strv_push(&st->plan->sync.lock_files, a[0]);
	return 0;
}

/* Splits a NUL-terminated copy of an --args buffer in place, as bwrap does: empty
 * entries count, and so does a trailing unterminated piece. */
static int split_args(struct cli_state *st, char *buf, size_t len, char ***ret, size_t *ret_n,
		      struct nsrun_error *err)
{
	char *p = buf, *end = buf + len;
	size_t n = 0;

	while (p < end) {
		char *nul = memchr(p, '\0', (size_t)(end - p));

		if (++st->total_args > PLAN_MAX_ARGS)
			return error_set(err, 0, "Exceeded maximum number of arguments %d",
					 PLAN_MAX_ARGS);
		*ret = xrealloc(*ret, (n + 2) * sizeof(char *));
		(*ret)[n++] = p;
		(*ret)[n] = NULL;
		p = nul ? nul + 1 : end;
	}
	*ret_n = n;
	return 0;
}

/* --args FD: the buffer is parsed as its own vector. A COMMAND inside it ends that
 * vector; bwrap then drops the rest of the buffer silently, so one stray entry (an empty
 * string from an unset variable) would drop every later option, --unshare-net or
 * --seccomp included. nsrun refuses it instead: COMMAND belongs on the command line. */
static int h_args(struct cli_state *st, const struct cli_option *opt, char *const *a,
		  struct nsrun_error *err)
{
	_cleanup_free_ char *data = NULL, *buf = NULL;
	_cleanup_free_ char **vec = NULL;
	size_t len, n = 0, cmd;
	int fd, r;

	(void)opt;
	r = get_fd(a[0], &fd, err);
	if (r < 0)
		return r;
	r = read_input(st, fd, PLAN_MAX_ARGS_BYTES, &data, &len);
	if (r < 0)
		return error_set(err, -r, "Can't read --args data");
	buf = xmalloc(len + 1);
	if (len > 0)
		memcpy(buf, data, len);
	buf[len] = '\0';
	r = split_args(st, buf, len, &vec, &n, err);
	if (r < 0)
		return r;
	st->in_file = true;
	r = parse_vector(st, n, vec, &cmd, err);
	st->in_file = false;
	if (r >= 0 && !st->stop && cmd < n)
		r = error_set(err, 0,
			      "Unexpected argument '%s' in --args data: COMMAND must be given on "
			      "the command line",
			      vec[cmd]);
	return r;
}

static int h_hide(struct cli_state *st, const struct cli_option *opt, char *const *a,
		  struct nsrun_error *err)
{
	struct hide_config *h = &st->plan->hide;

	if (!a[0][0])
		return error_set(err, 0, "%s requires a non-empty NAME or PATH", opt->name);
	if (strv_length(h->hide) + strv_length(h->allow) >= PLAN_MAX_HIDE)
		return error_set(err, 0,
				 "Too many --overlay-hide and --overlay-allow options "
				 "(at most %d)",
				 PLAN_MAX_HIDE);
	strv_push(opt->id == OPT_OVERLAY_HIDE ? &h->hide : &h->allow, a[0]);
	return 0;
}

static size_t landlock_rules(const struct landlock_config *l)
{
	return strv_length(l->rw) + strv_length(l->exec) + l->n_connect_tcp + l->n_bind_tcp;
}

static int h_landlock(struct cli_state *st, const struct cli_option *opt, char *const *a,
		      struct nsrun_error *err)
{
	struct landlock_config *l = &st->plan->landlock;
	bool connect = opt->id == OPT_LANDLOCK_CONNECT_TCP;
	uint64_t port;

	if (landlock_rules(l) >= PLAN_MAX_LANDLOCK_RULES)
		return error_set(err, 0, "Too many --landlock-* rules (at most %d)",
				 PLAN_MAX_LANDLOCK_RULES);
	l->enabled = true;
	if (opt->id == OPT_LANDLOCK_RW || opt->id == OPT_LANDLOCK_EXEC) {
		/* Rules are opened in the final root, where a relative path means nothing. */
		if (a[0][0] != '/')
			return error_set(err, 0, "%s requires an absolute path", opt->name);
		strv_push(opt->id == OPT_LANDLOCK_RW ? &l->rw : &l->exec, a[0]);
		return 0;
	}
	if (parse_u64(a[0], 10, &port) < 0 || port > 65535)
		return error_set(err, 0, "Invalid port: %s", a[0]);
	if (connect) {
		*(uint16_t *)xappend(&l->connect_tcp, &l->n_connect_tcp, sizeof(uint16_t)) =
			(uint16_t)port;
		l->has_connect_tcp = true;
	} else {
		*(uint16_t *)xappend(&l->bind_tcp, &l->n_bind_tcp, sizeof(uint16_t)) =
			(uint16_t)port;
		l->has_bind_tcp = true;
	}
	return 0;
}

static const cli_handler handlers[OPT_MAX] = {
	[OPT_ADD_SECCOMP_FD] = h_seccomp,
	[OPT_ARGS] = h_args,
	[OPT_ARGV0] = h_string,
	[OPT_AS_PID_1] = h_flag,
	[OPT_ASSERT_USERNS_DISABLED] = h_namespace,
	[OPT_BIND] = h_op,
	[OPT_BIND_DATA] = h_op,
	[OPT_BIND_FD] = h_op,
	[OPT_BIND_TRY] = h_op,
	[OPT_BLOCK_FD] = h_fd,
	[OPT_CAP_ADD] = h_cap,
	[OPT_CAP_DROP] = h_cap,
	[OPT_CHDIR] = h_string,
	[OPT_CHMOD] = h_op,
	[OPT_CLEARENV] = h_flag,
	[OPT_DEV] = h_op,
	[OPT_DEV_BIND] = h_op,
	[OPT_DEV_BIND_TRY] = h_op,
	[OPT_DIE_WITH_PARENT] = h_flag,
	[OPT_DIR] = h_op,
	[OPT_DISABLE_USERNS] = h_namespace,
	[OPT_DOCTOR] = h_flag,
	[OPT_EXEC_LABEL] = h_string,
	[OPT_FILE] = h_op,
	[OPT_FILE_LABEL] = h_string,
	[OPT_GID] = h_id,
	[OPT_HELP] = h_flag,
	[OPT_HOSTNAME] = h_string,
	[OPT_INFO_FD] = h_fd,
	[OPT_JSON] = h_flag,
	[OPT_JSON_STATUS_FD] = h_fd,
	[OPT_LANDLOCK_ABI] = h_flag,
	[OPT_LANDLOCK_BIND_TCP] = h_landlock,
	[OPT_LANDLOCK_CONNECT_TCP] = h_landlock,
	[OPT_LANDLOCK_DENY_UNIX] = h_flag,
	[OPT_LANDLOCK_EXEC] = h_landlock,
	[OPT_LANDLOCK_ONLY] = h_flag,
	[OPT_LANDLOCK_RW] = h_landlock,
	[OPT_LANDLOCK_SCOPE] = h_flag,
	[OPT_LEVEL_PREFIX] = h_flag,
	[OPT_LOCK_FILE] = h_lock_file,
	[OPT_MQUEUE] = h_op,
	[OPT_NEW_SESSION] = h_flag,
	[OPT_OVERLAY] = h_op,
	[OPT_OVERLAY_ALLOW] = h_hide,
	[OPT_OVERLAY_HIDE] = h_hide,
	[OPT_OVERLAY_SRC] = h_overlay_src,
	[OPT_PERMS] = h_perms,
	[OPT_PIDNS] = h_fd,
	[OPT_PROC] = h_op,
	[OPT_REMOUNT_RO] = h_op,
	[OPT_RO_BIND] = h_op,
	[OPT_RO_BIND_DATA] = h_op,
	[OPT_RO_BIND_FD] = h_op,
	[OPT_RO_BIND_TRY] = h_op,
	[OPT_RO_OVERLAY] = h_op,
	[OPT_SECCOMP] = h_seccomp,
	[OPT_SETENV] = h_env,
	[OPT_SHARE_NET] = h_namespace,
	[OPT_SIZE] = h_size,
	[OPT_SYMLINK] = h_op,
	[OPT_SYNC_FD] = h_fd,
	[OPT_TMP_OVERLAY] = h_op,
	[OPT_TMPFS] = h_op,
	[OPT_UID] = h_id,
	[OPT_UNSETENV] = h_env,
	[OPT_UNSHARE_ALL] = h_namespace,
	[OPT_UNSHARE_CGROUP] = h_namespace,
	[OPT_UNSHARE_CGROUP_TRY] = h_namespace,
	[OPT_UNSHARE_IPC] = h_namespace,
	[OPT_UNSHARE_NET] = h_namespace,
	[OPT_UNSHARE_PID] = h_namespace,
	[OPT_UNSHARE_USER] = h_namespace,
	[OPT_UNSHARE_USER_TRY] = h_namespace,
	[OPT_UNSHARE_UTS] = h_namespace,
	[OPT_USERNS] = h_fd,
	[OPT_USERNS_BLOCK_FD] = h_fd,
	[OPT_USERNS2] = h_fd,
	[OPT_VERSION] = h_flag,
};

/* bwrap checks pending modifiers after every option except the modifiers themselves
 * (--overlay-src counts as an ordinary option for --perms and --size). */
static int check_modifiers(struct cli_state *st, enum cli_option_id id, struct nsrun_error *err)
{
	bool modifier = id == OPT_PERMS || id == OPT_SIZE;

	if (!modifier && st->has_perms)
		return error_set(err, 0,
				 "--perms must be followed by an option that creates a file");
	if (!modifier && st->has_size)
		return error_set(err, 0, "--size must be followed by --tmpfs");
	if (id != OPT_OVERLAY_SRC && st->overlay_srcs)
		return error_set(err, 0, "%s", overlay_src_dangling);
	return 0;
}

/* Parses options until COMMAND ("--" or the first argument not starting with '-');
 * *ret_cmd is COMMAND's index (argc if none). A COMMAND ends the loop before the
 * modifier check, which is why a dangling --perms before it is silently ignored. */
static int parse_vector(struct cli_state *st, size_t argc, char *const *argv, size_t *ret_cmd,
			struct nsrun_error *err)
{
	size_t i = 0;
	int r;

	while (i < argc && !st->stop) {
		const char *arg = argv[i];
		const struct cli_option *opt;

		if (strcmp(arg, "--") == 0) {
			i++;
			break;
		}
		if (arg[0] != '-')
			break;
		opt = cli_find_option(arg);
		if (!opt)
			return error_set(err, 0, "Unknown option %s", arg);
		if (opt->id == OPT_ARGS && st->in_file)
			return error_set(err, 0, "--args not supported in arguments file");
		if (argc - i - 1 < opt->arity)
			return missing_args(opt, err);
		r = handlers[opt->id](st, opt, argv + i + 1, err);
		if (r < 0)
			return r;
		st->seen[opt->id] = true;
		if (st->stop)
			break;
		r = check_modifiers(st, opt->id, err);
		if (r < 0)
			return r;
		i += 1 + opt->arity;
	}
	*ret_cmd = i;
	return 0;
}

/* bwrap ignores a --sync-fd, --block-fd or --userns-block-fd that is not open (the read
 * fails, the sandbox starts at once): a closed block fd would defeat the caller's
 * synchronisation without a word. Checked once a command is known, before anything runs. */
static int check_sync_fds(const struct cli_state *st, struct nsrun_error *err)
{
	const struct sync_config *s = &st->plan->sync;
	const struct {
		const char *name;
		int fd;
		bool read;
	} fds[] = {
		{ "--sync-fd", s->sync_fd, false },
		{ "--block-fd", s->block_fd, true },
		{ "--userns-block-fd", s->userns_block_fd, true },
	};

	if (!st->io || !st->io->check_fd)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(fds); i++) {
		int r = fds[i].fd < 0 ? 0 :
					st->io->check_fd(st->io->userdata, fds[i].fd, fds[i].read);

		if (r < 0)
			return error_set(err, -r, "Can't use %s %d", fds[i].name, fds[i].fd);
	}
	return 0;
}

int cli_parse(int argc, char *const *argv, const struct cli_io *io, struct plan *plan,
	      struct nsrun_error *err)
{
	struct cli_state st = { .plan = plan, .io = io, .seccomp_fd = -1 };
	size_t n = argc > 1 ? (size_t)argc - 1 : 0, cmd = 0;
	int r = 0;

	plan_init(plan, io ? io->envp : NULL);
	st.total_args = n;
	if (n > PLAN_MAX_ARGS)
		r = error_set(err, 0, "Exceeded maximum number of arguments %d", PLAN_MAX_ARGS);
	if (r >= 0)
		r = parse_vector(&st, n, argv + 1, &cmd, err);
	if (r >= 0 && !st.stop && st.overlay_srcs)
		r = error_set(err, 0, "%s", overlay_src_dangling);
	if (r >= 0 && !st.stop && cmd < n) {
		plan->proc.argv = xcalloc(n - cmd + 1, sizeof(char *));
		for (size_t i = cmd; i < n; i++)
			plan->proc.argv[i - cmd] = xstrdup(argv[1 + i]);
	}
	if (r >= 0 && !st.stop)
		r = read_deferred_seccomp(&st, err);
	if (r >= 0 && !st.stop && plan->proc.argv)
		r = check_sync_fds(&st, err);
	strv_free(st.overlay_srcs);
	return r;
}

void cli_usage(FILE *out, const char *argv0)
{
	static const char *const titles[OPTG_MAX] = {
		[OPTG_GENERAL] = "General options:",
		[OPTG_NAMESPACE] = "Namespaces:",
		[OPTG_FILESYSTEM] = "Filesystem:",
		[OPTG_PROCESS] = "Process:",
		[OPTG_SECURITY] = "Security:",
		[OPTG_STATUS] = "Status and synchronisation:",
		[OPTG_HIDE] = "Overlay-hide (nsrun extension):",
		[OPTG_LANDLOCK] = "Landlock (nsrun extension):",
	};

	fprintf(out, "usage: %s [OPTIONS...] [--] COMMAND [ARGS...]\n", argv0);
	for (unsigned g = 0; g < OPTG_MAX; g++) {
		fprintf(out, "\n%s\n", titles[g]);
		for (size_t i = 0; i < cli_n_options; i++) {
			const struct cli_option *o = &cli_options[i];
			char left[64];

			if (o->group != (enum cli_group)g)
				continue;
			snprintf(left, sizeof(left), "%s%s%s", o->name, o->args[0] ? " " : "",
				 o->args);
			fprintf(out, "    %-28s %s\n", left, o->help);
		}
	}
}

int cli_read_fd_default(void *userdata, int fd, size_t max, char **ret, size_t *len)
{
	int r;

	(void)userdata;
	r = read_all(fd, max, ret, len);
	close(fd);
	return r;
}

int cli_check_fd_default(void *userdata, int fd, bool read)
{
	int flags = fcntl(fd, F_GETFL);

	(void)userdata;
	if (flags < 0)
		return -errno;
	/* read(2) on an O_PATH or write-only fd fails with EBADF. */
	if (read && ((flags & O_PATH) || (flags & O_ACCMODE) == O_WRONLY))
		return -EBADF;
	return 0;
}
