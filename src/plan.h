/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * plan.h: the table of contents. Every option nsrun accepts becomes data in a
 * struct plan; cli.c fills it without syscalls, rules.c checks what involves several
 * options, and the engine (sandbox.c, setup.c) carries it out.
 * A plan owns all its strings; fds in it are only numbers until the engine uses them.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "error.h"

/* ---- limits (each has a unit test) ---- */
#define PLAN_MAX_ARGS 9000		  /* bwrap's cap, on the command line itself */
#define PLAN_MAX_FILE_ARGS 1000000	  /* entries of every --args buffer together */
#define PLAN_MAX_ARGS_BYTES (64u << 20)	  /* bytes of every --args buffer together */
#define PLAN_MAX_OPS 500000		  /* filesystem operations (each takes 2+ arguments) */
#define PLAN_MAX_LANDLOCK_RULES 4096	  /* paths + ports together */
#define PLAN_MAX_FILE_DATA (256ull << 20) /* --file / --bind-data payload */
#define PLAN_MAX_SECCOMP_BYTES (1u << 20) /* one compiled cBPF program */
#define PLAN_MAX_HIDE 65536		  /* --overlay-hide + --overlay-allow */
#define PLAN_MAX_BRIDGES 64		  /* --bridge: one message of listener fds */
#define PLAN_MAX_REPORT_ENTRIES 1000	  /* --report-fd lines; later refusals are only counted */
/* --monotonic/--boottime, either sign: the kernel keeps a clock below KTIME_SEC_MAX / 2. */
#define PLAN_MAX_CLOCK_OFFSET 4611686018LL
#define PLAN_MAX_ID_RANGES 340 /* --uid-map / --gid-map: the kernel's lines per map (4.15) */

/* ---- filesystem operations, run in command-line order ---- */
enum op_type {
	OP_BIND,	 /* --bind[-try] SRC DEST */
	OP_RO_BIND,	 /* --ro-bind[-try] SRC DEST */
	OP_DEV_BIND,	 /* --dev-bind[-try] SRC DEST */
	OP_BIND_FD,	 /* --bind-fd FD DEST */
	OP_RO_BIND_FD,	 /* --ro-bind-fd FD DEST */
	OP_REMOUNT_RO,	 /* --remount-ro DEST */
	OP_PROC,	 /* --proc DEST */
	OP_DEV,		 /* --dev DEST */
	OP_TMPFS,	 /* --tmpfs DEST (with --perms, --size) */
	OP_MQUEUE,	 /* --mqueue DEST */
	OP_DIR,		 /* --dir DEST (with --perms) */
	OP_FILE,	 /* --file FD DEST (with --perms, default 0666) */
	OP_BIND_DATA,	 /* --bind-data FD DEST (with --perms, default 0600) */
	OP_RO_BIND_DATA, /* --ro-bind-data FD DEST (with --perms, default 0600) */
	OP_SYMLINK,	 /* --symlink TARGET DEST: source = TARGET */
	OP_CHMOD,	 /* --chmod OCTAL PATH: perms = OCTAL, dest = PATH */
	OP_OVERLAY,	 /* --overlay RWSRC WORKDIR DEST: source = RWSRC */
	OP_TMP_OVERLAY,	 /* --tmp-overlay DEST */
	OP_RO_OVERLAY,	 /* --ro-overlay DEST */
	OP_SYS,		 /* --sys DEST (nsrun extension) */
	OP_MAX
};

enum op_flags {
	OP_F_TRY = 1u << 0,	  /* -try variant: a missing source skips the op */
	OP_F_HAS_PERMS = 1u << 1, /* --perms given: perms is valid */
	OP_F_HAS_SIZE = 1u << 2,  /* --size given: size is valid */
	OP_F_IDMAP = 1u << 3,	  /* --idmap: a bind that writes as the caller's ids (issue 39) */
};

struct op {
	enum op_type type;
	unsigned flags;
	char *source;  /* host path for binds and overlay upper; link target for symlink */
	char *dest;    /* path inside the sandbox */
	char *workdir; /* --overlay WORKDIR (host path) */
	char **layers; /* --overlay-src paths in command-line order (first = bottom), NULL-terminated */
	int fd;	       /* --file, --bind-data, --ro-bind-data, --bind-fd, --ro-bind-fd; else -1 */
	mode_t perms;  /* OP_F_HAS_PERMS, or OP_CHMOD's mode */
	uint64_t size; /* OP_F_HAS_SIZE: tmpfs size in bytes */
};

/* ---- namespaces ---- */
enum ns_request {
	NS_NO = 0,
	NS_YES, /* --unshare-X: fail if impossible */
	NS_TRY, /* --unshare-X-try / --unshare-all: skip if unsupported */
};

/* --uid-map / --gid-map: ranges INSIDE OUTSIDE COUNT, as the kernel's map lines. */
struct id_range {
	uint32_t inside, outside, count;
};

struct id_map {
	struct id_range *v;
	size_t n; /* 0: not given, bwrap's one-line map */
};

struct ns_config {
	enum ns_request user; /* decided finally by the engine: unprivileged implies NS_YES */
	enum ns_request cgroup;
	bool ipc, pid, net, uts;
	bool time; /* --unshare-time (nsrun extension; not in --unshare-all) */
	bool has_monotonic, has_boottime; /* --monotonic, --boottime given */
	long long monotonic, boottime;	  /* their offsets in seconds */
	bool unshare_all;    /* --unshare-all was given (for messages; the rest says what it set) */
	int userns_fd;	     /* --userns, -1 if unset */
	int userns2_fd;	     /* --userns2 */
	int pidns_fd;	     /* --pidns */
	int mountns_fd;	     /* --mountns (nsrun extension): the mounts the sandbox starts from */
	bool disable_userns; /* --disable-userns */
	bool assert_userns_disabled;
	bool has_uid, has_gid;
	uid_t uid;
	gid_t gid;
	struct id_map uid_map, gid_map; /* --uid-map, --gid-map (nsrun, issue 39) */
	char *hostname;
};

/* ---- the payload process ---- */
struct proc_config {
	char **argv; /* COMMAND ARGS..., NULL-terminated; NULL when no command */
	char *argv0; /* --argv0 */
	char *chdir; /* --chdir */
	char **envp; /* environment after --setenv/--unsetenv/--clearenv, in order */
	bool die_with_parent;
	bool new_session;
	bool as_pid_1;
	char *exec_label; /* --exec-label */
	char *file_label; /* --file-label */
};

/* ---- synchronisation and status fds ---- */
struct sync_config {
	int *sync_fds; /* --sync-fd, each one (bwrap 0.13.1); n_sync_fds of them */
	size_t n_sync_fds;
	int block_fd;	     /* --block-fd */
	int userns_block_fd; /* --userns-block-fd */
	int info_fd;	     /* --info-fd */
	int json_status_fd;  /* --json-status-fd */
	int report_fd;	     /* --report-fd (issue 36) */
	char **lock_files;   /* --lock-file paths (in the sandbox), NULL-terminated */
};

/* ---- capabilities, applied in argument order ---- */
#define CAP_OP_ALL (-1)
struct cap_op {
	bool add;
	int cap; /* CAP_* number, or CAP_OP_ALL */
};

struct caps_config {
	struct cap_op *ops;
	size_t n_ops;
};

/* ---- seccomp: compiled cBPF programs read at parse time ---- */
struct seccomp_prog {
	unsigned char *data;
	size_t len; /* a multiple of 8 */
};

struct seccomp_config {
	struct seccomp_prog *progs; /* applied in order */
	size_t n_progs;
	bool from_seccomp_opt; /* set by --seccomp (only the last counts), vs --add-seccomp-fd */
};

/* ---- Landlock (nsrun extension) ---- */
/* One port list per Landlock network right, in the order of plan_landlock_port_option(). */
enum landlock_port_kind {
	LL_PORT_CONNECT_TCP, /* --landlock-connect-tcp */
	LL_PORT_BIND_TCP,    /* --landlock-bind-tcp */
	LL_PORT_CONNECT_UDP, /* --landlock-connect-udp */
	LL_PORT_BIND_UDP,    /* --landlock-bind-udp */
	LL_PORT_KINDS
};

struct landlock_ports {
	uint16_t *v;
	size_t n;
	bool has; /* the option was given: the right is handled (no port at all: none allowed) */
};

struct landlock_config {
	bool enabled; /* any --landlock-* option other than --landlock-abi was given */
	bool only;    /* --landlock-only: no namespaces, exec in place */
	char **rw;    /* --landlock-rw paths, NULL-terminated */
	char **exec;  /* --landlock-exec paths, NULL-terminated */
	struct landlock_ports ports[LL_PORT_KINDS];
	bool scope;	/* --landlock-scope */
	bool deny_unix; /* --landlock-deny-unix: no pathname UNIX connects outside rw paths */
	/* --bridge's ports (not an option of its own): where the ABI has TCP rules, the
	 * command's connects are held to them and to --landlock-connect-tcp's */
	struct landlock_ports bridge;
};

/* ---- --fallback (nsrun extension): what the sandbox may do without, in order ---- */
enum fallback_item {
	FALLBACK_NET,	   /* the host's network instead of a new network namespace */
	FALLBACK_PROC,	   /* the host's /proc, bound, instead of a fresh procfs */
	FALLBACK_USERNS,   /* (root) no user namespace */
	FALLBACK_LANDLOCK, /* "namespaces": none at all, --landlock-only */
	FALLBACK_ITEMS
};

struct fallback_config {
	unsigned char items[FALLBACK_ITEMS]; /* enum fallback_item, in the caller's order */
	size_t n;			     /* 0: no --fallback, nothing is ever given up */
	unsigned gave_up; /* a rung's plan (fallback_rung): 1u << the items it runs without */
};

/* ---- overlay-hide (nsrun extension) ---- */
struct hide_config {
	char **hide;  /* --overlay-hide NAME|PATH (globs in the last component), NULL-terminated */
	char **allow; /* --overlay-allow NAME|PATH, NULL-terminated */
};

/* ---- --bridge (nsrun extension): the new network namespace's only way out ---- */
enum bridge_kind {
	BRIDGE_UNIX, /* unix:/ABS/PATH, a UNIX stream socket on the host */
	BRIDGE_TCP,  /* tcp:HOST:PORT, HOST a loopback address of the host */
};

struct plan_bridge {
	uint16_t port; /* 127.0.0.1:port in the sandbox */
	char *target;  /* TARGET as given: the status and the printers show it */
	enum bridge_kind kind;
	char *path;	      /* BRIDGE_UNIX: the socket's absolute path */
	char *host;	      /* BRIDGE_TCP: numeric, "127.0.0.1" for localhost */
	uint16_t target_port; /* BRIDGE_TCP */
};

/* ---- bwrap 0.12/0.13: developer switches and the fail-open mode ---- */
struct debug_config {
	bool force_mount_fallback;    /* --debug-opt=force-mount-setattr-fallback: mount(2) path */
	bool force_openat_fallback;   /* --debug-opt=force-openat-fallback: no openat2() */
	bool not_a_security_boundary; /* --not-a-security-boundary: submount remounts may fail */
};

/* ---- supervision (nsrun extension): signals, time and resource limits, netns ---- */
#define PLAN_MAX_RLIMITS 32 /* --rlimit options (one per resource is enough; repeats count) */

struct plan_rlimit {
	int resource;		 /* RLIMIT_* */
	bool has_soft, has_hard; /* SOFT: and :HARD leave the other limit as it is */
	uint64_t soft, hard;	 /* RLIM_INFINITY for "unlimited" */
};

struct supervise_config {
	bool forward_signals;	      /* --forward-signals */
	bool ignore_keyboard_signals; /* --ignore-keyboard-signals: the monitor ignores INT, QUIT */
	uint64_t timeout_ms;	      /* --timeout, 0: none */
	uint64_t kill_after_ms;	      /* --kill-after (default 5s) */
	bool has_kill_after;
	struct plan_rlimit *rlimits; /* --rlimit, in order (a later one for a resource wins) */
	size_t n_rlimits;
	int netns_fd; /* --netns, -1 if unset */
};

/* cgroup v2 limits (nsrun extension): a value counts when its has_ bit is set. The
 * sandbox gets a cgroup of its own only when one of them is. */
struct limits_config {
	uint64_t memory_max;	  /* --memory-max, bytes */
	uint64_t memory_swap_max; /* --memory-swap-max, bytes (0 with --memory-max alone) */
	uint64_t pids_max;	  /* --pids-max */
	uint64_t cpu_quota_us;	  /* --cpu-max, microseconds per LIMITS_CPU_PERIOD_US */
	bool has_memory_max, has_memory_swap_max, has_pids_max, has_cpu_max;
	char *cgroup_parent; /* --cgroup-parent, NULL: nsrun's default */
};

#define LIMITS_CPU_PERIOD_US 100000

/* The cgroup limits as data, one row per cgroup v2 file, which cgroup.c writes and the
 * status reports: a new limit is its option row (cli-options.h), its fields above and
 * its row in plan_limits[] (plan.c). */
struct plan_limit {
	const char *option; /* "--memory-max"; without "--", its key in the JSON status */
	const char *file;   /* "memory.max": "<controller>.<name>" */
	size_t value, has;  /* offsets in struct limits_config: uint64_t, bool */
	size_t zero_with;   /* a has that, without this one, writes it as 0 (best effort:
			     * --memory-max bounds swap too); PLAN_LIMIT_NONE: none */
	unsigned period;    /* not 0: the file takes "VALUE PERIOD" (cpu.max) */
};
#define PLAN_LIMIT_NONE SIZE_MAX

enum plan_limit_state {
	PLAN_LIMIT_UNSET,
	PLAN_LIMIT_GIVEN,
	PLAN_LIMIT_IMPLIED, /* written as 0 for its zero_with */
};

extern const struct plan_limit plan_limits[];
extern const size_t plan_n_limits;

/* Whether L sets LIMIT, and to what (*value). */
enum plan_limit_state plan_limit_value(const struct plan_limit *limit,
				       const struct limits_config *l, uint64_t *value);
/* The text LIMIT's file takes for VALUE: "67108864", or "50000 100000" for cpu.max. */
void plan_limit_text(const struct plan_limit *limit, uint64_t value, char *buf, size_t size);

enum plan_mode {
	PLAN_RUN = 0,
	PLAN_HELP,	     /* --help: usage on stdout, exit 0 */
	PLAN_VERSION,	     /* --version */
	PLAN_LANDLOCK_ABI,   /* --landlock-abi: print what this kernel offers */
	PLAN_ASSUMED_KERNEL, /* --debug-opt=print-assumed-kernel */
	PLAN_DOCTOR,	     /* --doctor: check this machine (doctor.c) */
	PLAN_EXPLAIN,	     /* --explain: answer the questions in explain, start nothing */
	PLAN_MODE_MAX
};

struct plan {
	enum plan_mode mode;
	struct op *ops;
	size_t n_ops;
	struct ns_config ns;
	struct proc_config proc;
	struct sync_config sync;
	struct caps_config caps;
	struct seccomp_config seccomp;
	struct landlock_config landlock;
	struct hide_config hide;
	struct debug_config debug;
	struct supervise_config sup;
	struct limits_config limits;
	struct fallback_config fallback;
	struct plan_bridge *bridges; /* --bridge, in order; n_bridges of them */
	size_t n_bridges;
	bool level_prefix;
	bool json;	/* --json: --doctor prints JSON */
	char **explain; /* --explain ACCESS:TARGET, in order, each checked as it was parsed */
	char **warnings; /* messages the parser wants printed (e.g. "Only the last --chdir ..."), NULL-terminated */
};

/* Initialises an empty plan (all fds -1). envp is copied as the starting environment. */
void plan_init(struct plan *plan, char *const *envp);
void plan_free(struct plan *plan);

/* Appends a zeroed op of the given type (fd = -1) and returns it; NULL past PLAN_MAX_OPS. */
struct op *plan_add_op(struct plan *plan, enum op_type type);

/* Name of the option that creates an op type, e.g. "--ro-bind" (for messages and dumps). */
/* What a filesystem op is, in one table that the parser (cli.c), the plan's printers
 * (plan.c) and the engine (rootfs.c) all read, so a default cannot drift between them. */
enum op_arg {
	OP_A_SOURCE = 1u << 0,	/* takes a host path (or symlink target) before DEST */
	OP_A_FD = 1u << 1,	/* takes a caller fd before DEST */
	OP_A_MODE = 1u << 2,	/* takes an octal mode before DEST (--chmod) */
	OP_A_WORKDIR = 1u << 3, /* --overlay RWSRC WORKDIR DEST */
	OP_A_TRY = 1u << 4,	/* has a -try variant */
	OP_A_IDMAP = 1u << 5,	/* a bind of a host path that --idmap may apply to */
};

struct op_desc {
	const char *name;     /* the option, without "-try" */
	unsigned args;	      /* enum op_arg */
	mode_t default_perms; /* mode without --perms; 0: --perms does not apply */
	unsigned min_layers;  /* --overlay-src layers it needs; 0: takes none */
	bool read_only;	      /* a read-only mount */
	bool devices;	      /* device nodes work (no nodev) */
};

/* The descriptor of type (a "--unknown" one for OP_MAX or beyond). */
const struct op_desc *op_desc(enum op_type type);
/* The op an option NAME ("--bind-try") creates, and whether it is the -try variant;
 * false when NAME is no filesystem op. */
bool op_lookup(const char *name, enum op_type *type, bool *try);
const char *op_type_name(enum op_type type);

/* "--landlock-connect-tcp" for LL_PORT_CONNECT_TCP, and so on. */
const char *plan_landlock_port_option(enum landlock_port_kind kind);

/* Whether --landlock-only runs the command as nsrun's child rather than in place: a
 * status document or a report needs someone left outside the command to write it. */
bool plan_in_place_child(const struct plan *plan);

/* Whether a cgroup limit was asked for (--cgroup-parent alone is refused). */
bool plan_has_limits(const struct plan *plan);

/* The first cgroup option given (the limits before --cgroup-parent), or NULL: what a
 * refusal names. */
const char *plan_cgroup_option(const struct plan *plan);
