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
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bridge.h"
#include "caps.h"
#include "explain-parse.h"
#include "fallback.h"
#include "rules.h"
#include "supervise-parse.h"
#include "userns.h"
#include "util.h"

const struct cli_option cli_options[] = {
#define CLI_OPTION_ROW(id, name, arity, group, flags, action, args, help) \
	{ OPT_##id, name, arity, group, flags, args, help },
	NSRUN_OPTIONS(CLI_OPTION_ROW)
#undef CLI_OPTION_ROW
};
const size_t cli_n_options = ARRAY_SIZE(cli_options);

/* bwrap caps --size at SIZE_MAX / 2 so that the tmpfs option string cannot overflow. */
#define CLI_MAX_TMPFS_BYTES (SIZE_MAX / 2)

static const char idmap_dangling[] = "--idmap must be followed by --bind, --ro-bind or --dev-bind";
static const char overlay_src_dangling[] =
	"--overlay-src must be followed by another --overlay-src or one of --overlay, "
	"--tmp-overlay, or --ro-overlay";

struct cli_state {
	struct plan *plan;
	const struct cli_io *io;
	size_t file_args;	/* entries of every --args buffer, against PLAN_MAX_FILE_ARGS */
	size_t file_bytes;	/* their bytes, against PLAN_MAX_ARGS_BYTES */
	size_t n_hide, n_allow; /* lengths of plan->hide's two lists */
	bool in_file;		/* parsing an --args buffer */
	bool stop;		/* --help, --version or --landlock-abi seen */
	bool seen[OPT_MAX];
	bool has_perms, has_size, has_idmap;
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
		[OPTG_SUPERVISE] = "supervise",
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

/* What each option does when parsed: a handler and, for the plain setters, the plan field
 * they set (its offset) or the value they store. Filled from the option table's action
 * column, so an option without an action does not compile. */
struct cli_action {
	cli_handler fn;
	size_t arg;
	size_t has;	 /* typed values: the bool set when given, or OPTION_NO_HAS */
	uint64_t lo, hi; /* typed values: SIZE's minimum, COUNT's range */
};

static const struct cli_action *action_of(enum cli_option_id id);

static void *plan_at(struct cli_state *st, size_t off)
{
	return (char *)st->plan + off;
}

/* The plan field an option's action names. */
static void *field(struct cli_state *st, const struct cli_option *opt)
{
	return plan_at(st, action_of(opt->id)->arg);
}

static int h_on(struct cli_state *st, const struct cli_option *opt, char *const *a,
		struct nsrun_error *err)
{
	(void)a;
	(void)err;
	*(bool *)field(st, opt) = true;
	return 0;
}

static int h_off(struct cli_state *st, const struct cli_option *opt, char *const *a,
		 struct nsrun_error *err)
{
	(void)a;
	(void)err;
	*(bool *)field(st, opt) = false;
	return 0;
}

/* --help, --version, --landlock-abi: what to do instead of running; parsing stops. */
static int h_mode(struct cli_state *st, const struct cli_option *opt, char *const *a,
		  struct nsrun_error *err)
{
	(void)a;
	(void)err;
	st->plan->mode = (enum plan_mode)action_of(opt->id)->arg;
	st->stop = true;
	return 0;
}

static int h_clearenv(struct cli_state *st, const struct cli_option *opt, char *const *a,
		      struct nsrun_error *err)
{
	(void)opt;
	(void)a;
	(void)err;
	strv_free(st->plan->proc.envp);
	st->plan->proc.envp = xcalloc(1, sizeof(char *));
	return 0;
}

/* A Landlock switch also turns the boundary on. */
static int h_landlock_on(struct cli_state *st, const struct cli_option *opt, char *const *a,
			 struct nsrun_error *err)
{
	st->plan->landlock.enabled = true;
	return h_on(st, opt, a, err);
}

/* --unshare-all and the -try forms never downgrade an explicit --unshare-X. */
static void request_try(enum ns_request *r)
{
	if (*r == NS_NO)
		*r = NS_TRY;
}

static int h_ns_yes(struct cli_state *st, const struct cli_option *opt, char *const *a,
		    struct nsrun_error *err)
{
	(void)a;
	(void)err;
	*(enum ns_request *)field(st, opt) = NS_YES;
	return 0;
}

static int h_ns_try(struct cli_state *st, const struct cli_option *opt, char *const *a,
		    struct nsrun_error *err)
{
	(void)a;
	(void)err;
	request_try(field(st, opt));
	return 0;
}

static int h_unshare_all(struct cli_state *st, const struct cli_option *opt, char *const *a,
			 struct nsrun_error *err)
{
	struct ns_config *ns = &st->plan->ns;

	(void)opt;
	(void)a;
	(void)err;
	request_try(&ns->user);
	request_try(&ns->cgroup);
	ns->ipc = ns->pid = ns->net = ns->uts = true;
	ns->unshare_all = true;
	return 0;
}

/* --monotonic, --boottime: whole seconds, either sign (util-linux unshare's offsets). */
static int h_clock_offset(struct cli_state *st, const struct cli_option *opt, char *const *a,
			  struct nsrun_error *err)
{
	struct ns_config *ns = &st->plan->ns;
	bool boot = opt->id == OPT_BOOTTIME, neg = a[0][0] == '-';
	uint64_t v;

	warn_last(st, opt);
	if (parse_u64(a[0] + (neg || a[0][0] == '+'), 10, &v) < 0 ||
	    v > (uint64_t)PLAN_MAX_CLOCK_OFFSET)
		return error_set(err, 0, "%s takes whole seconds from -%lld to %lld, not '%s'",
				 opt->name, PLAN_MAX_CLOCK_OFFSET, PLAN_MAX_CLOCK_OFFSET, a[0]);
	*(boot ? &ns->boottime : &ns->monotonic) = neg ? -(long long)v : (long long)v;
	*(boot ? &ns->has_boottime : &ns->has_monotonic) = true;
	return 0;
}

static int h_fd(struct cli_state *st, const struct cli_option *opt, char *const *a,
		struct nsrun_error *err)
{
	warn_last(st, opt);
	return get_fd(a[0], field(st, opt), err);
}

/* ---- the typed values (cli-options.h): each setter stores only a valid value ---- */

static void mark_given(struct cli_state *st, const struct cli_option *opt)
{
	size_t has = action_of(opt->id)->has;

	if (has != OPTION_NO_HAS)
		*(bool *)plan_at(st, has) = true;
}

static int store_u64(struct cli_state *st, const struct cli_option *opt, uint64_t v)
{
	*(uint64_t *)field(st, opt) = v;
	mark_given(st, opt);
	return 0;
}

/* The SIZE text of V: 1048576 is "1M". */
static void size_text(uint64_t v, char *buf, size_t size)
{
	static const char *const suffixes[] = { "", "K", "M", "G", "T" };
	size_t k = 0;

	while (v >= 1024 && v % 1024 == 0 && k + 1 < ARRAY_SIZE(suffixes))
		v /= 1024, k++;
	snprintf(buf, size, "%llu%s", (unsigned long long)v, suffixes[k]);
}

static int h_size_value(struct cli_state *st, const struct cli_option *opt, char *const *a,
			struct nsrun_error *err)
{
	uint64_t v, min = action_of(opt->id)->lo;
	char text[32];

	warn_last(st, opt);
	if (supervise_parse_size(a[0], &v) < 0)
		return error_set(err, 0, "%s takes a SIZE in bytes such as 512M or 2G, not '%s'",
				 opt->name, a[0]);
	if (v < min) {
		size_text(min, text, sizeof(text));
		return error_set(err, 0, "%s: '%s' is below %s", opt->name, a[0], text);
	}
	return store_u64(st, opt, v);
}

static int h_count(struct cli_state *st, const struct cli_option *opt, char *const *a,
		   struct nsrun_error *err)
{
	const struct cli_action *act = action_of(opt->id);
	uint64_t v;

	warn_last(st, opt);
	if (parse_u64(a[0], 10, &v) < 0 || v < act->lo || v > act->hi)
		return error_set(err, 0, "%s takes a number from %llu to %llu, not '%s'", opt->name,
				 (unsigned long long)act->lo, (unsigned long long)act->hi, a[0]);
	return store_u64(st, opt, v);
}

static int h_fraction(struct cli_state *st, const struct cli_option *opt, char *const *a,
		      struct nsrun_error *err)
{
	uint64_t v;

	warn_last(st, opt);
	if (supervise_parse_cpu(a[0], &v) < 0)
		return error_set(
			err, 0,
			"%s takes a FRACTION of one CPU from 0.01 to %llu (0.5, 2), not '%s'",
			opt->name, SUPERVISE_MAX_CPUS, a[0]);
	return store_u64(st, opt, v);
}

static int h_duration(struct cli_state *st, const struct cli_option *opt, char *const *a,
		      struct nsrun_error *err)
{
	uint64_t v;
	int r;

	warn_last(st, opt);
	r = supervise_parse_duration(a[0], &v);
	if (r == -ERANGE)
		return error_set(err, 0, "%s: '%s' is longer than the maximum, 1000d", opt->name,
				 a[0]);
	if (r < 0)
		return error_set(err, 0, "%s takes a DURATION such as 10, 1.5 or 2m, not '%s'",
				 opt->name, a[0]);
	return store_u64(st, opt, v);
}

/* bwrap parses ids with strtol into an int: 0..INT_MAX, decimal; its message names the
 * option without "--" ("Invalid uid: x"). */
static int h_id(struct cli_state *st, const struct cli_option *opt, char *const *a,
		struct nsrun_error *err)
{
	int v;

	warn_last(st, opt);
	if (parse_fd(a[0], &v) < 0)
		return error_set(err, 0, "Invalid %s: %s", opt->name + strlen("--"), a[0]);
	*(uid_t *)field(st, opt) = (uid_t)v;
	mark_given(st, opt);
	return 0;
}

static void replace_str(char **field, const char *value)
{
	free(*field);
	*field = xstrdup(value);
}

static int h_argv0(struct cli_state *st, const struct cli_option *opt, char *const *a,
		   struct nsrun_error *err)
{
	(void)opt;
	(void)err;
	replace_str(&st->plan->proc.argv0, a[0]);
	return 0;
}

static int h_str(struct cli_state *st, const struct cli_option *opt, char *const *a,
		 struct nsrun_error *err)
{
	(void)err;
	warn_last(st, opt);
	replace_str(field(st, opt), a[0]);
	return 0;
}

static int h_label(struct cli_state *st, const struct cli_option *opt, char *const *a,
		   struct nsrun_error *err)
{
	/* SELinux is checked at parse time in bwrap too. */
	if (!st->io->selinux_enabled)
		return error_set(err, 0, "labeling not supported on this system");
	return h_str(st, opt, a, err);
}

/* setenv(3) rejects these names; bwrap dies with its plain message. */
static bool bad_env_name(const char *name)
{
	return !name[0] || strchr(name, '=');
}

static int h_setenv(struct cli_state *st, const struct cli_option *opt, char *const *a,
		    struct nsrun_error *err)
{
	(void)opt;
	if (bad_env_name(a[0]))
		return error_set(err, 0, "setenv failed");
	env_set(&st->plan->proc.envp, a[0], a[1]);
	return 0;
}

static int h_unsetenv(struct cli_state *st, const struct cli_option *opt, char *const *a,
		      struct nsrun_error *err)
{
	(void)opt;
	if (bad_env_name(a[0]))
		return error_set(err, 0, "unsetenv failed");
	env_unset(&st->plan->proc.envp, a[0]);
	return 0;
}

static int add_cap_op(struct cli_state *st, const char *name, bool add, struct nsrun_error *err)
{
	struct caps_config *c = &st->plan->caps;
	struct cap_op *op;
	int cap = caps_parse_name(name);

	if (cap == -ELIBACC)
		return error_set(err, ELIBACC, "loading libcap to read the capability name %s",
				 name);
	if (cap < 0 && cap != CAP_OP_ALL)
		return error_set(err, 0, "unknown cap: %s", name);
	op = xappend(&c->ops, &c->n_ops, sizeof(*op));
	op->add = add;
	op->cap = cap;
	return 0;
}

static int h_cap_add(struct cli_state *st, const struct cli_option *opt, char *const *a,
		     struct nsrun_error *err)
{
	(void)opt;
	return add_cap_op(st, a[0], true, err);
}

static int h_cap_drop(struct cli_state *st, const struct cli_option *opt, char *const *a,
		      struct nsrun_error *err)
{
	(void)opt;
	return add_cap_op(st, a[0], false, err);
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
 * and is read when parsing is over, as bwrap does, so "cannot be combined" (rules.c, as
 * each is parsed) and the usage errors come first. */
static int h_add_seccomp_fd(struct cli_state *st, const struct cli_option *opt, char *const *a,
			    struct nsrun_error *err)
{
	struct seccomp_config *sc = &st->plan->seccomp;
	struct seccomp_prog prog;
	int fd, r;

	(void)opt;
	r = get_fd(a[0], &fd, err);
	if (r < 0)
		return r;
	r = read_seccomp(st, fd, &prog, err);
	if (r < 0)
		return r;
	*(struct seccomp_prog *)xappend(&sc->progs, &sc->n_progs, sizeof(prog)) = prog;
	return 0;
}

static int h_seccomp(struct cli_state *st, const struct cli_option *opt, char *const *a,
		     struct nsrun_error *err)
{
	int fd, r;

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

/* --idmap: the next bind of a host path is idmapped (issue 39). */
static int h_idmap(struct cli_state *st, const struct cli_option *opt, char *const *a,
		   struct nsrun_error *err)
{
	(void)opt;
	(void)a;
	if (st->has_idmap)
		return error_set(err, 0, "--idmap given twice for the same action");
	st->has_idmap = true;
	return 0;
}

/* --uid-map / --gid-map: ranges added to the map, checked as the kernel would. */
static int h_id_map(struct cli_state *st, const struct cli_option *opt, char *const *a,
		    struct nsrun_error *err)
{
	struct ns_config *ns = &st->plan->ns;

	return userns_parse_map(opt->name, a[0],
				opt->id == OPT_UID_MAP ? &ns->uid_map : &ns->gid_map, err);
}

static int h_overlay_src(struct cli_state *st, const struct cli_option *opt, char *const *a,
			 struct nsrun_error *err)
{
	(void)opt;
	(void)err;
	strv_push(&st->overlay_srcs, a[0]);
	return 0;
}

static int check_overlay_srcs(struct cli_state *st, const struct op_desc *d,
			      struct nsrun_error *err)
{
	if (strv_length(st->overlay_srcs) < d->min_layers)
		return error_set(err, 0, "%s requires at least %s --overlay-src", d->name,
				 d->min_layers == 2 ? "two" : "one");
	return 0;
}

/* Every filesystem option: one op, in command-line order, taking pending modifiers. */
static int h_op(struct cli_state *st, const struct cli_option *opt, char *const *a,
		struct nsrun_error *err)
{
	const struct op_desc *d;
	enum op_type t;
	bool try;
	mode_t mode = 0;
	struct op *op;
	int fd = -1, r = 0;

	if (!op_lookup(opt->name, &t, &try))
		return -EINVAL; /* the handler table names a non-op: a bug */
	d = op_desc(t);
	if (d->args & OP_A_FD)
		r = get_fd(a[0], &fd, err);
	else if (d->min_layers)
		r = check_overlay_srcs(st, d, err);
	else if ((d->args & OP_A_MODE) && parse_octal_mode(a[0], &mode) < 0)
		r = error_set(err, 0, "--chmod takes an octal argument <= 07777");
	if (r < 0)
		return r;
	op = plan_add_op(st->plan, t);
	if (!op)
		return error_set(err, 0, "Too many filesystem operations (at most %d)",
				 PLAN_MAX_OPS);
	op->flags = try ? OP_F_TRY : 0;
	op->fd = fd;
	op->perms = mode;
	if (d->min_layers)
		op->layers = TAKE_PTR(st->overlay_srcs);
	if (d->default_perms) {
		op->perms = st->has_perms ? st->perms : d->default_perms;
		op->flags |= st->has_perms ? OP_F_HAS_PERMS : 0;
		st->has_perms = false;
	}
	if ((d->args & OP_A_IDMAP) && st->has_idmap) {
		op->flags |= OP_F_IDMAP;
		st->has_idmap = false;
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
		op->source = (d->args & OP_A_SOURCE) ? xstrdup(a[0]) : NULL;
		op->dest = xstrdup(a[1]);
	}
	return 0;
}

/* --debug-opt=NAME: bwrap 0.12+'s hidden switches for testing its fallbacks. nsrun keeps
 * every fallback built in, so forcing one always works. */
static int h_debug_opt(struct cli_state *st, const struct cli_option *opt, char *const *a,
		       struct nsrun_error *err)
{
	struct plan *p = st->plan;

	(void)opt;
	if (strcmp(a[0], "print-assumed-kernel") == 0) {
		p->mode = PLAN_ASSUMED_KERNEL;
		st->stop = true;
	} else if (strcmp(a[0], "force-mount-setattr-fallback") == 0) {
		p->debug.force_mount_fallback = true;
	} else if (strcmp(a[0], "force-openat-fallback") == 0) {
		p->debug.force_openat_fallback = true;
	} else {
		return error_set(err, 0, "Unknown --debug-opt value: %s", a[0]);
	}
	return 0;
}

/* bwrap 0.13.1 keeps every --sync-fd given, and ignores one that is not open. */
static int h_sync_fd(struct cli_state *st, const struct cli_option *opt, char *const *a,
		     struct nsrun_error *err)
{
	struct sync_config *s = &st->plan->sync;
	int fd, r = get_fd(a[0], &fd, err);

	(void)opt;
	if (r < 0)
		return r;
	if (st->io && st->io->check_fd && st->io->check_fd(st->io->userdata, fd, false) < 0)
		return 0;
	*(int *)xappend(&s->sync_fds, &s->n_sync_fds, sizeof(int)) = fd;
	return 0;
}

static int h_list(struct cli_state *st, const struct cli_option *opt, char *const *a,
		  struct nsrun_error *err)
{
	(void)err;
	strv_push(field(st, opt), a[0]);
	return 0;
}

/* Splits a NUL-terminated copy of an --args buffer in place, as bwrap does: empty
 * entries count, and so does a trailing unterminated piece. bwrap counts them with the
 * command line against its 9000; nsrun bounds them apart (PLAN_MAX_FILE_ARGS), so that a
 * policy of many thousand binds, which only --args can carry, still runs. */
static int split_args(struct cli_state *st, char *buf, size_t len, char ***ret, size_t *ret_n,
		      struct nsrun_error *err)
{
	char *p = buf, *end = buf + len;
	size_t n = 0, total = 0;

	for (char *q = buf; q < end; total++) {
		char *nul = memchr(q, '\0', (size_t)(end - q));

		q = nul ? nul + 1 : end;
	}
	if (total > PLAN_MAX_FILE_ARGS - st->file_args)
		return error_set(err, 0, "Too many arguments in --args data (at most %d)",
				 PLAN_MAX_FILE_ARGS);
	st->file_args += total;
	*ret = xcalloc(total + 1, sizeof(char *));
	while (p < end) {
		char *nul = memchr(p, '\0', (size_t)(end - p));

		(*ret)[n++] = p;
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
	r = read_input(st, fd, PLAN_MAX_ARGS_BYTES - st->file_bytes, &data, &len);
	if (r < 0)
		return error_set(err, -r, "Can't read --args data");
	st->file_bytes += len;
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
	/* Counted here, not measured: strv_length per name made 10,000 names quadratic. */
	size_t *n = opt->id == OPT_OVERLAY_HIDE ? &st->n_hide : &st->n_allow;

	if (!a[0][0])
		return error_set(err, 0, "%s requires a non-empty NAME or PATH", opt->name);
	if (st->n_hide + st->n_allow >= PLAN_MAX_HIDE)
		return error_set(err, 0,
				 "Too many --overlay-hide and --overlay-allow options "
				 "(at most %d)",
				 PLAN_MAX_HIDE);
	strv_append(field(st, opt), n, a[0]);
	return 0;
}

static size_t landlock_rules(const struct landlock_config *l)
{
	size_t n = strv_length(l->rw) + strv_length(l->exec);

	for (int k = 0; k < LL_PORT_KINDS; k++)
		n += l->ports[k].n;
	return n;
}

static int landlock_room(const struct landlock_config *l, struct nsrun_error *err)
{
	if (landlock_rules(l) >= PLAN_MAX_LANDLOCK_RULES)
		return error_set(err, 0, "Too many --landlock-* rules (at most %d)",
				 PLAN_MAX_LANDLOCK_RULES);
	return 0;
}

static int h_landlock_path(struct cli_state *st, const struct cli_option *opt, char *const *a,
			   struct nsrun_error *err)
{
	int r = landlock_room(&st->plan->landlock, err);

	if (r < 0)
		return r;
	/* Rules are opened in the final root, where a relative path means nothing. */
	if (a[0][0] != '/')
		return error_set(err, 0, "%s requires an absolute path", opt->name);
	st->plan->landlock.enabled = true;
	strv_push(field(st, opt), a[0]);
	return 0;
}

/* --landlock-{connect,bind}-{tcp,udp} PORT */
static int h_landlock_port(struct cli_state *st, const struct cli_option *opt, char *const *a,
			   struct nsrun_error *err)
{
	struct landlock_config *l = &st->plan->landlock;
	int k = 0, r = landlock_room(l, err);
	uint64_t port;

	if (r < 0)
		return r;
	while (k < LL_PORT_KINDS && strcmp(plan_landlock_port_option(k), opt->name) != 0)
		k++;
	if (k == LL_PORT_KINDS)
		abort(); /* an option row without a port kind */
	l->enabled = true;
	if (parse_u64(a[0], 10, &port) < 0 || port > 65535)
		return error_set(err, 0, "Invalid port: %s", a[0]);
	*(uint16_t *)xappend(&l->ports[k].v, &l->ports[k].n, sizeof(uint16_t)) = (uint16_t)port;
	l->ports[k].has = true;
	return 0;
}

static int h_rlimit(struct cli_state *st, const struct cli_option *opt, char *const *a,
		    struct nsrun_error *err)
{
	struct supervise_config *c = &st->plan->sup;
	struct plan_rlimit rl;
	int r;

	(void)opt;
	if (c->n_rlimits >= PLAN_MAX_RLIMITS)
		return error_set(err, 0, "Too many --rlimit options (at most %d)",
				 PLAN_MAX_RLIMITS);
	r = supervise_parse_rlimit(a[0], &rl, err);
	if (r < 0)
		return r;
	*(struct plan_rlimit *)xappend(&c->rlimits, &c->n_rlimits, sizeof(rl)) = rl;
	return 0;
}

/* Each port one bridge: a second would be refused by bind at run time, a 126 where the
 * mistake is in the arguments. */
static int h_bridge(struct cli_state *st, const struct cli_option *opt, char *const *a,
		    struct nsrun_error *err)
{
	struct plan *p = st->plan;
	struct landlock_ports *held = &p->landlock.bridge;
	struct plan_bridge b;
	int r;

	(void)opt;
	if (p->n_bridges >= PLAN_MAX_BRIDGES)
		return error_set(err, 0, "Too many --bridge options (at most %d)",
				 PLAN_MAX_BRIDGES);
	r = bridge_parse(a[0], a[1], &b, err);
	if (r < 0)
		return r;
	for (size_t i = 0; i < p->n_bridges; i++)
		if (p->bridges[i].port == b.port) {
			free(b.target);
			free(b.path);
			free(b.host);
			return error_set(err, 0, "--bridge: port %u is bridged twice",
					 (unsigned)b.port);
		}
	*(struct plan_bridge *)xappend(&p->bridges, &p->n_bridges, sizeof(b)) = b;
	/* Landlock holds connects to these too, where it has TCP rules (landlock.c). */
	*(uint16_t *)xappend(&held->v, &held->n, sizeof(uint16_t)) = b.port;
	held->has = true;
	return 0;
}

static int h_fallback(struct cli_state *st, const struct cli_option *opt, char *const *a,
		      struct nsrun_error *err)
{
	return fallback_parse(opt->name, a[0], &st->plan->fallback, err);
}

/* --doctor does not stop parsing: "--doctor --json" reads on. */
static int h_doctor(struct cli_state *st, const struct cli_option *opt, char *const *a,
		    struct nsrun_error *err)
{
	(void)opt;
	(void)a;
	(void)err;
	st->plan->mode = PLAN_DOCTOR;
	return 0;
}

/* --explain: a question is checked as it is read, so that bad input is a usage error;
 * main.c parses it again to answer it, once every option is known. */
static int h_explain(struct cli_state *st, const struct cli_option *opt, char *const *a,
		     struct nsrun_error *err)
{
	struct explain_query q;
	int r;

	(void)opt;
	r = explain_parse(a[0], &q, err);
	if (r < 0)
		return r;
	explain_query_free(&q);
	strv_push(&st->plan->explain, a[0]);
	st->plan->mode = PLAN_EXPLAIN;
	return 0;
}

/* The option table's action column: FN(handler) or a setter and its plan field. */
#define FIELD OPTION_FIELD
#define FN(h) h, 0
#define ON(f) h_on, FIELD(f, bool)
#define OFF(f) h_off, FIELD(f, bool)
#define FD(f) h_fd, FIELD(f, int)
#define STR(f) h_str, FIELD(f, char *)
#define LABEL(f) h_label, FIELD(f, char *)
#define LIST(f) h_list, FIELD(f, char **)
#define HIDE(f) h_hide, FIELD(f, char **)
#define NS(f) h_ns_yes, FIELD(f, enum ns_request)
#define NSTRY(f) h_ns_try, FIELD(f, enum ns_request)
#define LL(f) h_landlock_on, FIELD(f, bool)
#define LLPATH(f) h_landlock_path, FIELD(f, char **)
#define MODE(m) h_mode, (m)
#define SIZE(f, has, min) h_size_value, FIELD(f, uint64_t), FIELD(has, bool), (min)
#define COUNT(f, has, lo, hi) h_count, FIELD(f, uint64_t), FIELD(has, bool), (lo), (hi)
#define FRACTION(f, has) h_fraction, FIELD(f, uint64_t), FIELD(has, bool)
#define DURATION(...) \
	h_duration, FIELD(OPTION_VALUE(__VA_ARGS__), uint64_t), OPTION_HAS(__VA_ARGS__)
#define ID(f, has) h_id, FIELD(f, uid_t), FIELD(has, bool)
static const struct cli_action actions[OPT_MAX] = {
#define CLI_ACTION_ROW(id, name, arity, group, flags, action, args, help) [OPT_##id] = { action },
	NSRUN_OPTIONS(CLI_ACTION_ROW)
#undef CLI_ACTION_ROW
};
#undef FIELD
#undef FN
#undef ON
#undef OFF
#undef FD
#undef STR
#undef LABEL
#undef LIST
#undef HIDE
#undef NS
#undef NSTRY
#undef LL
#undef LLPATH
#undef MODE
#undef SIZE
#undef COUNT
#undef FRACTION
#undef DURATION
#undef ID

static const struct cli_action *action_of(enum cli_option_id id)
{
	return &actions[id];
}

/* bwrap checks pending modifiers after every option except the modifiers themselves
 * (--overlay-src counts as an ordinary option for --perms and --size). */
static int check_modifiers(struct cli_state *st, enum cli_option_id id, struct nsrun_error *err)
{
	bool modifier = id == OPT_PERMS || id == OPT_SIZE || id == OPT_IDMAP;

	if (!modifier && st->has_perms)
		return error_set(err, 0,
				 "--perms must be followed by an option that creates a file");
	if (!modifier && st->has_size)
		return error_set(err, 0, "--size must be followed by --tmpfs");
	if (id != OPT_OVERLAY_SRC && st->overlay_srcs)
		return error_set(err, 0, "%s", overlay_src_dangling);
	if (!modifier && st->has_idmap)
		return error_set(err, 0, "%s", idmap_dangling);
	return 0;
}

/* Metavariables that name a path. */
static bool metavar_is_path(const char *word, size_t len)
{
	static const char *const paths[] = { "SRC", "DEST", "DIR", "PATH", "RWSRC", "WORKDIR" };

	for (size_t i = 0; i < ARRAY_SIZE(paths); i++)
		if (strlen(paths[i]) == len && strncmp(word, paths[i], len) == 0)
			return true;
	return false;
}

/* bwrap 0.13 refuses an empty path at parse time: bwrap 0.11.1 bound the host's root over
 * the sandbox's for `--bind-try "$UNSET" "$UNSET"`. The table's metavariables say which
 * arguments are paths; nsrun's own options check theirs. */
static int check_empty_paths(const struct cli_option *opt, char *const *a, struct nsrun_error *err)
{
	const char *m = opt->args;

	if (opt->flags & OPTF_NSRUN)
		return 0;
	for (unsigned i = 0; i < opt->arity && *m; i++) {
		size_t len = strcspn(m, " ");

		if (!a[i][0] && metavar_is_path(m, len))
			return error_set(err, 0, "%s does not take an empty path argument",
					 opt->name);
		m += len + (m[len] == ' ');
	}
	return 0;
}

/* "--debug-opt=NAME" is the only form bwrap 0.13.1 takes ("--debug-opt NAME" is an unknown
 * option there); other options take no '='. */
static const struct cli_option *find_with_value(const char *arg, const char **value)
{
	static const char prefix[] = "--debug-opt=";

	*value = NULL;
	if (strcmp(arg, "--debug-opt") == 0)
		return NULL;
	if (strncmp(arg, prefix, sizeof(prefix) - 1) != 0)
		return cli_find_option(arg);
	*value = arg + sizeof(prefix) - 1;
	return cli_find_option("--debug-opt");
}

void cli_hint(struct nsrun_error *err)
{
	static const char unknown[] = "Unknown option ";
	const char *arg = err->msg + sizeof(unknown) - 1, *eq = strchr(arg, '=');
	const struct cli_option *opt = NULL;
	char name[64];

	if (strncmp(err->msg, unknown, sizeof(unknown) - 1) != 0)
		return;
	if (eq && (size_t)(eq - arg) < sizeof(name)) {
		snprintf(name, sizeof(name), "%.*s", (int)(eq - arg), arg);
		opt = cli_find_option(name);
	}
	if (strcmp(arg, "--debug-opt") == 0)
		error_append(err, ": it takes its value after '=' (--debug-opt=NAME)");
	else if (opt && opt->arity > 0)
		error_append(err, ": the value goes in the next argument (%s %s)", opt->name,
			     eq + 1);
	else
		error_append(err, " (see nsrun --help)");
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
		const char *arg = argv[i], *value;
		const struct cli_option *opt;
		char *const *a = argv + i + 1;
		unsigned arity;

		if (strcmp(arg, "--") == 0) {
			i++;
			break;
		}
		if (arg[0] != '-')
			break;
		opt = find_with_value(arg, &value);
		if (!opt)
			return error_set(err, 0, "Unknown option %s", arg);
		if (opt->id == OPT_ARGS && st->in_file)
			return error_set(err, 0, "--args not supported in arguments file");
		arity = value ? 0 : opt->arity;
		if (value)
			a = (char *const *)&value;
		if (argc - i - 1 < arity)
			return missing_args(opt, err);
		r = check_empty_paths(opt, a, err);
		if (r >= 0)
			r = rules_check_parsed(opt, st->seen, err);
		if (r >= 0)
			r = actions[opt->id].fn(st, opt, a, err);
		if (r < 0)
			return r;
		st->seen[opt->id] = true;
		if (st->stop)
			break;
		r = check_modifiers(st, opt->id, err);
		if (r < 0)
			return r;
		i += 1 + arity;
	}
	*ret_cmd = i;
	return 0;
}

/* bwrap ignores a --block-fd or --userns-block-fd that is not open (the read fails, the
 * sandbox starts at once): a closed block fd would defeat the caller's synchronisation
 * without a word. Checked once a command is known, before anything runs. */
static int check_sync_fds(const struct cli_state *st, struct nsrun_error *err)
{
	const struct sync_config *s = &st->plan->sync;
	const struct {
		const char *name;
		int fd;
		bool read;
	} fds[] = {
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
	/* The report is written by the monitor, before and while the command runs. */
	if (s->report_fd >= 0 && st->io->check_fd_writable) {
		int r = st->io->check_fd_writable(st->io->userdata, s->report_fd);

		if (r < 0)
			return error_set(err, -r, "Can't use --report-fd %d", s->report_fd);
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
	if (n > PLAN_MAX_ARGS)
		r = error_set(err, 0, "Exceeded maximum number of arguments %d", PLAN_MAX_ARGS);
	if (r >= 0)
		r = parse_vector(&st, n, argv + 1, &cmd, err);
	if (r >= 0 && !st.stop && st.overlay_srcs)
		r = error_set(err, 0, "%s", overlay_src_dangling);
	if (r >= 0 && !st.stop && st.has_idmap)
		r = error_set(err, 0, "%s", idmap_dangling);
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
		[OPTG_SUPERVISE] = "Supervision (nsrun extension):",
	};

	fprintf(out, "usage: %s [OPTIONS...] [--] COMMAND [ARGS...]\n", argv0);
	for (unsigned g = 0; g < OPTG_MAX; g++) {
		fprintf(out, "\n%s\n", titles[g]);
		for (size_t i = 0; i < cli_n_options; i++) {
			const struct cli_option *o = &cli_options[i];
			char left[64];

			if (o->group != (enum cli_group)g || (o->flags & OPTF_HIDDEN))
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

int cli_check_fd_writable_default(void *userdata, int fd)
{
	int flags = fcntl(fd, F_GETFL);

	(void)userdata;
	if (flags < 0)
		return -errno;
	/* write(2) on an O_PATH or read-only fd fails with EBADF. */
	if ((flags & O_PATH) || (flags & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	return 0;
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
