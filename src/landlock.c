/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * landlock.c: the --landlock-* boundary. Rights come from the ABI the kernel reports
 * (asked by syscall, never guessed from uname) through fall-through switches, and
 * every requested guarantee either holds or the command does not run (status 126):
 * there is no silent degrade. Rule paths are opened in the caller's current root,
 * so the engine calls landlock_apply() after the final pivot.
 */
#include "config.h"

#include "landlock.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/kcmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "landlock-interp.h"
#include "path.h"
#include "reaper.h"
#include "syscall.h"
#include "util.h"

#define LL_FS_MAKE_ALL                                                            \
	(NSRUN_LL_FS_MAKE_CHAR | NSRUN_LL_FS_MAKE_DIR | NSRUN_LL_FS_MAKE_REG |    \
	 NSRUN_LL_FS_MAKE_SOCK | NSRUN_LL_FS_MAKE_FIFO | NSRUN_LL_FS_MAKE_BLOCK | \
	 NSRUN_LL_FS_MAKE_SYM)
#define LL_FS_WRITE_ALL                                                              \
	(NSRUN_LL_FS_WRITE_FILE | NSRUN_LL_FS_REMOVE_DIR | NSRUN_LL_FS_REMOVE_FILE | \
	 LL_FS_MAKE_ALL | NSRUN_LL_FS_REFER | NSRUN_LL_FS_TRUNCATE)
#define LL_FS_EVERY                                                                             \
	(LL_FS_WRITE_ALL | NSRUN_LL_FS_EXECUTE | NSRUN_LL_FS_READ_FILE | NSRUN_LL_FS_READ_DIR | \
	 NSRUN_LL_FS_IOCTL_DEV)

/* Device files kept writable so that `2>/dev/null` and terminal output keep working;
 * each only when it is that very device (a link planted there gains nothing). */
static const struct {
	const char *path;
	unsigned major, minor;
} writable_devices[] = {
	{ "/dev/null", 1, 3 },
	{ "/dev/zero", 1, 5 },
	{ "/dev/full", 1, 7 },
	{ "/dev/tty", 5, 0 },
};

#define ll_fail(err, ...) error_fail_closed(err, error_set(err, __VA_ARGS__))
#define ll_fail_plain(err, ...) error_fail_closed(err, error_set_plain(err, __VA_ARGS__))

/* ---- pure per-ABI computations ---- */

uint64_t landlock_fs_write_rights(int abi)
{
	uint64_t r = LL_FS_WRITE_ALL;

	if (abi < 1)
		return 0;
	switch (abi) {
	case 1:
		r &= ~NSRUN_LL_FS_REFER;
		_fallthrough_;
	case 2:
		r &= ~NSRUN_LL_FS_TRUNCATE;
		break;
	default: /* 3..9 add no write-type right nsrun knows; a newer ABI is taken as 9 */
		break;
	}
	return r;
}

uint64_t landlock_fs_file_rights(int abi)
{
	/* Only these are valid on a non-directory; REMOVE_*, MAKE_* and REFER make
	 * landlock_add_rule fail with EINVAL there. */
	return landlock_fs_write_rights(abi) & (NSRUN_LL_FS_WRITE_FILE | NSRUN_LL_FS_TRUNCATE);
}

uint64_t landlock_fs_all_rights(int abi)
{
	uint64_t r;

	if (abi < 1)
		return 0;
	/* The write rights carry the per-ABI fall-through; of the rest only IOCTL_DEV is
	 * newer than ABI 1. */
	r = landlock_fs_write_rights(abi) | (LL_FS_EVERY & ~LL_FS_WRITE_ALL) |
	    landlock_fs_unix_rights(abi);
	if (abi < 5)
		r &= ~NSRUN_LL_FS_IOCTL_DEV;
	return r;
}

uint64_t landlock_fs_unix_rights(int abi)
{
	/* resolve_unix (Linux 7.1): connect(2) and sendmsg(2) to a pathname UNIX socket.
	 * Sockets are files, so it is also valid on a rule for a non-directory. */
	return abi >= 9 ? NSRUN_LL_FS_RESOLVE_UNIX : 0;
}

uint64_t landlock_net_rights(int abi)
{
	uint64_t r = abi >= 4 ? NSRUN_LL_NET_BIND_TCP | NSRUN_LL_NET_CONNECT_TCP : 0;

	return r | (abi >= 10 ? NSRUN_LL_NET_BIND_UDP | NSRUN_LL_NET_CONNECT_SEND_UDP : 0);
}

uint32_t landlock_restrict_flags(int abi)
{
	/* nsrun is single-threaded when it restricts itself; with TSYNC the kernel makes
	 * that a fact (a thread a preloaded library started is restricted too). The
	 * self-test's refusals before exec are expected: with audit on, they would land in
	 * the system's audit log on every run. */
	return (abi >= 8 ? NSRUN_LL_RESTRICT_SELF_TSYNC : 0) |
	       (abi >= 7 ? NSRUN_LL_RESTRICT_SELF_LOG_SAME_EXEC_OFF : 0);
}

/* --report-fd's kernel source: the command's refusals after exec are logged too (the
 * self-test's before it still are not). */
static uint32_t restrict_flags(const struct landlock_desc *desc)
{
	return landlock_restrict_flags(desc->abi) |
	       (desc->log_exec ? NSRUN_LL_RESTRICT_SELF_LOG_NEW_EXEC_ON : 0);
}

/* The network right each --landlock-*-PORT option handles, and the ABI it needs. */
static const struct {
	uint64_t right;
	int abi;
	const char *since;
	const char *proto;
} port_rights[LL_PORT_KINDS] = {
	[LL_PORT_CONNECT_TCP] = { NSRUN_LL_NET_CONNECT_TCP, 4, "Linux 6.7+", "TCP" },
	[LL_PORT_BIND_TCP] = { NSRUN_LL_NET_BIND_TCP, 4, "Linux 6.7+", "TCP" },
	[LL_PORT_CONNECT_UDP] = { NSRUN_LL_NET_CONNECT_SEND_UDP, 10, "Linux 7.2+", "UDP" },
	[LL_PORT_BIND_UDP] = { NSRUN_LL_NET_BIND_UDP, 10, "Linux 7.2+", "UDP" },
};

uint64_t landlock_scope_rights(int abi)
{
	return abi >= 6 ? NSRUN_LL_SCOPE_ABSTRACT_UNIX_SOCKET | NSRUN_LL_SCOPE_SIGNAL : 0;
}

size_t landlock_ruleset_attr_size(int abi)
{
	if (abi >= 6)
		return sizeof(struct nsrun_landlock_ruleset_attr);
	if (abi >= 4)
		return offsetof(struct nsrun_landlock_ruleset_attr, scoped);
	return offsetof(struct nsrun_landlock_ruleset_attr, handled_access_net);
}

/* ---- the ABI and what a configuration needs from it ---- */

int landlock_query_abi(void)
{
#ifdef HAVE_LANDLOCK
	int abi = sys_landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);

	if (abi < 0)
		return -errno;
	return abi;
#else
	return -EPROTONOSUPPORT;
#endif
}

static int unavailable(int code, bool running, struct nsrun_error *err)
{
	const char *tail =
		running ? "; the --landlock-* boundary cannot be built, refusing to run" : "";

	switch (code) {
	case ENOSYS:
		return ll_fail_plain(
			err, code,
			"Landlock is not supported by this kernel (ENOSYS): it needs Linux "
			"5.13+ built with CONFIG_SECURITY_LANDLOCK=y%s",
			tail);
	case EOPNOTSUPP:
		return ll_fail_plain(
			err, code,
			"Landlock is disabled on this kernel (EOPNOTSUPP): boot with "
			"lsm=...,landlock (the current list is in /sys/kernel/security/lsm)%s",
			tail);
	case EPROTONOSUPPORT:
		return ll_fail_plain(err, code,
				     "Landlock support was left out of this nsrun build "
				     "(--disable-landlock)%s",
				     tail);
	default:
		return ll_fail_plain(err, code, "querying the Landlock ABI: %s%s", strerror(code),
				     tail);
	}
}

static bool has_paths(char *const *v)
{
	return v && v[0];
}

int landlock_describe_abi(const struct landlock_config *cfg, int abi, struct landlock_desc *ret,
			  struct nsrun_error *err)
{
	*ret = (struct landlock_desc){ 0 };
	if (!cfg->enabled)
		return 0;
	if (abi < 0)
		return unavailable(-abi, true, err);
	if (abi == 0)
		return ll_fail_plain(err, EINVAL,
				     "the kernel reported Landlock ABI 0; the --landlock-* "
				     "boundary cannot be built, refusing to run");
	ret->abi = abi;
	/* Connecting to a host service's socket (a D-Bus, docker or ssh-agent socket) is a
	 * way to write outside the boundary: handled whenever the kernel can. */
	ret->handled_fs = landlock_fs_write_rights(abi) | landlock_fs_unix_rights(abi);
	if (landlock_fs_unix_rights(abi))
		ret->unix_connect = LANDLOCK_UNIX_LANDLOCK;
	else if (cfg->deny_unix)
		ret->unix_connect = LANDLOCK_UNIX_SECCOMP; /* landlock_unix_needs_seccomp() */
	if (has_paths(cfg->exec))
		ret->handled_fs |= NSRUN_LL_FS_EXECUTE;
	for (int k = 0; k < LL_PORT_KINDS; k++) {
		if (!cfg->ports[k].has)
			continue;
		if (abi < port_rights[k].abi)
			return ll_fail_plain(err, EOPNOTSUPP,
					     "%s needs Landlock ABI %d (%s) but this kernel offers "
					     "ABI %d; refusing to run without the requested %s "
					     "restriction",
					     plan_landlock_port_option(k), port_rights[k].abi,
					     port_rights[k].since, abi, port_rights[k].proto);
		ret->handled_net |= port_rights[k].right;
	}
	/* --bridge: the ports are the only way out of the network namespace; where the ABI
	 * has TCP rules, Landlock holds connects to them as a second layer. Without, the
	 * namespace alone holds, so a lower ABI is no reason to refuse. */
	if (cfg->bridge.has && abi >= port_rights[LL_PORT_CONNECT_TCP].abi)
		ret->handled_net |= port_rights[LL_PORT_CONNECT_TCP].right;
	if (cfg->scope && abi < 6)
		return ll_fail_plain(
			err, EOPNOTSUPP,
			"--landlock-scope needs Landlock ABI 6 (Linux 6.12+) but this kernel "
			"offers ABI %d; refusing to run without the requested scoping",
			abi);
	if (cfg->scope)
		ret->scoped = landlock_scope_rights(abi);
	return 0;
}

bool landlock_unix_needs_seccomp(const struct landlock_desc *desc,
				 const struct landlock_config *cfg)
{
	return cfg->enabled && cfg->deny_unix && !(desc->handled_fs & NSRUN_LL_FS_RESOLVE_UNIX);
}

bool landlock_truncate_needs_seccomp(const struct landlock_desc *desc)
{
	return !(desc->handled_fs & NSRUN_LL_FS_TRUNCATE);
}

const char *landlock_truncate_name(const struct landlock_desc *desc)
{
	return landlock_truncate_needs_seccomp(desc) ? "seccomp" : "landlock";
}

const char *landlock_threads_name(const struct landlock_desc *desc)
{
	return landlock_restrict_flags(desc->abi) & NSRUN_LL_RESTRICT_SELF_TSYNC ? "all" :
										   "calling";
}

const char *landlock_unix_connect_name(enum landlock_unix_connect how)
{
	static const char *const names[LANDLOCK_UNIX_MAX] = {
		[LANDLOCK_UNIX_UNRESTRICTED] = "unrestricted",
		[LANDLOCK_UNIX_LANDLOCK] = "landlock",
		[LANDLOCK_UNIX_SECCOMP] = "seccomp",
	};

	return (unsigned)how < LANDLOCK_UNIX_MAX ? names[how] : "unrestricted";
}

int landlock_describe(const struct landlock_config *cfg, struct landlock_desc *ret,
		      struct nsrun_error *err)
{
	if (!cfg->enabled) {
		*ret = (struct landlock_desc){ 0 };
		return 0;
	}
	return landlock_describe_abi(cfg, landlock_query_abi(), ret, err);
}

/* ---- --landlock-abi ---- */

static const char *const fs_right_names[] = {
	"execute",   "write_file", "read_file", "read_dir",  "remove_dir",   "remove_file",
	"make_char", "make_dir",   "make_reg",	"make_sock", "make_fifo",    "make_block",
	"make_sym",  "refer",	   "truncate",	"ioctl_dev", "resolve_unix",
};
static const char *const net_right_names[] = { "bind_tcp", "connect_tcp", "bind_udp",
					       "connect_send_udp" };
static const char *const scope_names[] = { "abstract_unix_socket", "signal" };

static void print_rights(FILE *out, const char *key, uint64_t bits, const char *const *names,
			 size_t n_names)
{
	fprintf(out, "%s=0x%" PRIx64, key, bits);
	for (size_t i = 0; i < n_names; i++)
		if (bits & (1ULL << i))
			fprintf(out, " %s", names[i]);
	fputc('\n', out);
}

int landlock_print_abi(FILE *out, struct nsrun_error *err)
{
	int abi = landlock_query_abi();

	if (abi <= 0) {
		fprintf(out, "abi=0\n");
		fflush(out);
		if (abi == 0)
			return ll_fail_plain(err, EINVAL, "the kernel reported Landlock ABI 0");
		return unavailable(-abi, false, err);
	}
	fprintf(out, "abi=%d\n", abi);
	print_rights(out, "handled-fs",
		     landlock_fs_write_rights(abi) | landlock_fs_unix_rights(abi), fs_right_names,
		     ARRAY_SIZE(fs_right_names));
	print_rights(out, "file-rights",
		     landlock_fs_file_rights(abi) | landlock_fs_unix_rights(abi), fs_right_names,
		     ARRAY_SIZE(fs_right_names));
	print_rights(out, "exec-fs", NSRUN_LL_FS_EXECUTE, fs_right_names,
		     ARRAY_SIZE(fs_right_names));
	print_rights(out, "kernel-fs", landlock_fs_all_rights(abi), fs_right_names,
		     ARRAY_SIZE(fs_right_names));
	print_rights(out, "handled-net", landlock_net_rights(abi), net_right_names,
		     ARRAY_SIZE(net_right_names));
	print_rights(out, "scoped", landlock_scope_rights(abi), scope_names,
		     ARRAY_SIZE(scope_names));
	if (abi >= 3)
		fprintf(out, "truncate=landlock (truncating files outside the --landlock-rw "
			     "paths is refused by Landlock)\n");
	else
		fprintf(out,
			"truncate=seccomp (Landlock ABI %d cannot restrict truncation, "
			"ABI 3 (Linux 6.2) can; --landlock-rw refuses truncate(2) and "
			"O_TRUNC opens without write access everywhere with seccomp)\n",
			abi);
	if (landlock_restrict_flags(abi) & NSRUN_LL_RESTRICT_SELF_TSYNC)
		fprintf(out, "threads=all (TSYNC: the ruleset is enforced on every thread "
			     "of nsrun at once)\n");
	else
		fprintf(out,
			"threads=calling (Landlock ABI %d enforces on the calling "
			"thread only, ABI 8 on all; nsrun enforces while single-threaded)\n",
			abi);
	/* The gap that matters most for agents: say it on every kernel that has it. */
	if (landlock_fs_unix_rights(abi))
		fprintf(out, "unix-connect=landlock (pathname UNIX socket connects are "
			     "restricted to the --landlock-rw paths)\n");
	else
		fprintf(out,
			"unix-connect=unrestricted (Landlock ABI %d cannot restrict "
			"connecting to pathname UNIX sockets, ABI 9 (Linux 7.1) can; "
			"--landlock-deny-unix refuses socket(AF_UNIX) with seccomp instead)\n",
			abi);
	return fflush(out) == 0 ? 0 : error_set(err, errno, "writing the Landlock ABI report");
}

/* ---- building the ruleset ---- */

struct rules_ctx {
	int rfd;
	int root_fd; /* the caller's "/": rule paths are resolved beneath it */
	const struct landlock_desc *desc;
	bool in_place; /* --landlock-only: "/" is the system's, not a sandbox's */
};

static int add_path_rule(struct rules_ctx *c, int fd, uint64_t access, const char *opt,
			 const char *path, struct nsrun_error *err)
{
	struct nsrun_landlock_path_beneath_attr pb = {
		.allowed_access = access,
		.parent_fd = fd,
	};

	log_debug("landlock: %s %s: access 0x%llx", opt, path, (unsigned long long)access);
	if (sys_landlock_add_rule(c->rfd, NSRUN_LANDLOCK_RULE_PATH_BENEATH, &pb, 0) < 0)
		return ll_fail(err, errno, "adding the Landlock rule for %s '%s'", opt, path);
	return 0;
}

/* The message names the resolved path, so that merged-/usr hosts (/lib -> usr/lib) can
 * be fixed by copying it. */
static int symlink_refused(const char *opt, const char *path, struct nsrun_error *err)
{
	_cleanup_free_ char *real = realpath(path, NULL);

	if (real && strcmp(real, path) != 0)
		return ll_fail_plain(err, ELOOP,
				     "%s '%s': the path goes through a symbolic link, which a "
				     "command could swap to move the rule; pass the resolved path "
				     "'%s' instead; refusing to run",
				     opt, path, real);
	return ll_fail_plain(err, ELOOP,
			     "%s '%s': the path goes through a symbolic link, which a command "
			     "could swap to move the rule; pass the path without symlinks (see "
			     "realpath(1)); refusing to run",
			     opt, path);
}

/* No symlink in any component: a command allowed to write beneath a rule path's parent
 * could otherwise replace the path (or a directory on the way) by a link, and have the
 * link's target allowed on the next run. */
static int open_rule_path(const struct rules_ctx *c, const char *opt, const char *path,
			  struct stat *st, struct nsrun_error *err)
{
	int fd = path_open_no_symlinks(c->root_fd, path, O_PATH);

	if (fd >= 0 && fstat(fd, st) < 0) {
		int e = errno;

		close(fd);
		fd = -e;
	}
	if (fd == -ELOOP)
		return symlink_refused(opt, path, err);
	if (fd < 0)
		return ll_fail_plain(
			err, -fd,
			"%s '%s': %s; a Landlock rule path must exist %s, refusing to run", opt,
			path, strerror(-fd),
			c->in_place ? "where the command runs" : "in the sandbox's final tree");
	return fd;
}

static int add_rw_rules(struct rules_ctx *c, char *const *paths, struct nsrun_error *err)
{
	/* resolve_unix (ABI 9) lets the command use the sockets beneath its rw paths. */
	uint64_t unix_rights = c->desc->handled_fs & NSRUN_LL_FS_RESOLVE_UNIX;
	uint64_t dir_rights = (c->desc->handled_fs & landlock_fs_write_rights(c->desc->abi)) |
			      unix_rights;
	uint64_t file_rights = (c->desc->handled_fs & landlock_fs_file_rights(c->desc->abi)) |
			       unix_rights;

	for (size_t i = 0; paths && paths[i]; i++) {
		struct stat st;
		_cleanup_close_ int fd = open_rule_path(c, "--landlock-rw", paths[i], &st, err);
		int r;

		if (fd < 0)
			return fd;
		r = add_path_rule(c, fd, S_ISDIR(st.st_mode) ? dir_rights : file_rights,
				  "--landlock-rw", paths[i], err);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Convenience rules, not guarantees: a device that is absent, or is not the expected
 * character device in this tree, is simply not made writable. */
static int add_device_rules(struct rules_ctx *c, struct nsrun_error *err)
{
	uint64_t rights = c->desc->handled_fs & landlock_fs_file_rights(c->desc->abi);

	for (size_t i = 0; i < ARRAY_SIZE(writable_devices); i++) {
		_cleanup_close_ int fd = open(writable_devices[i].path, O_PATH | O_CLOEXEC);
		struct stat st;
		int r;

		if (fd < 0 || fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode) ||
		    major(st.st_rdev) != writable_devices[i].major ||
		    minor(st.st_rdev) != writable_devices[i].minor)
			continue;
		r = add_path_rule(c, fd, rights, "device", writable_devices[i].path, err);
		if (r < 0)
			return r;
	}
	return 0;
}

static int add_exec_rules(struct rules_ctx *c, char *const *paths, struct nsrun_error *err)
{
	struct landlock_interps interps = { .n = 0 };
	int r = 0;

	for (size_t i = 0; paths && paths[i] && r == 0; i++) {
		struct stat st;
		_cleanup_close_ int fd = open_rule_path(c, "--landlock-exec", paths[i], &st, err);

		if (fd < 0) {
			r = fd;
			break;
		}
		r = add_path_rule(c, fd, NSRUN_LL_FS_EXECUTE, "--landlock-exec", paths[i], err);
		if (r == 0)
			landlock_interps_collect(&interps, c->root_fd, fd, paths[i]);
	}
	/* Only the interpreter file: execute on anything else it could name (a directory,
	 * "/") would allow running everything beneath it. */
	for (size_t i = 0; i < interps.n && r == 0; i++)
		r = add_path_rule(c, interps.fds[i], NSRUN_LL_FS_EXECUTE, "ELF interpreter",
				  interps.paths[i], err);
	landlock_interps_free(&interps);
	return r;
}

static int add_port_rules(struct rules_ctx *c, const uint16_t *ports, size_t n, uint64_t right,
			  const char *opt, struct nsrun_error *err)
{
	for (size_t i = 0; i < n; i++) {
		struct nsrun_landlock_net_port_attr np = { .allowed_access = right,
							   .port = ports[i] };

		log_debug("landlock: %s %u", opt, (unsigned)ports[i]);
		if (sys_landlock_add_rule(c->rfd, NSRUN_LANDLOCK_RULE_NET_PORT, &np, 0) < 0)
			return ll_fail(err, errno, "adding the Landlock rule for %s %u", opt,
				       (unsigned)ports[i]);
	}
	return 0;
}

static int add_rules(struct rules_ctx *c, const struct landlock_config *cfg,
		     struct nsrun_error *err)
{
	int r;

	r = add_rw_rules(c, cfg->rw, err);
	if (r == 0)
		r = add_device_rules(c, err);
	if (r == 0 && has_paths(cfg->exec))
		r = add_exec_rules(c, cfg->exec, err);
	for (int k = 0; k < LL_PORT_KINDS && r == 0; k++)
		r = add_port_rules(c, cfg->ports[k].v, cfg->ports[k].n, port_rights[k].right,
				   plan_landlock_port_option(k), err);
	if (r == 0 && (c->desc->handled_net & port_rights[LL_PORT_CONNECT_TCP].right))
		r = add_port_rules(c, cfg->bridge.v, cfg->bridge.n,
				   port_rights[LL_PORT_CONNECT_TCP].right, "--bridge", err);
	return r;
}

/* ---- the self-test ---- */

/*
 * A seccomp filter or a broken kernel can make landlock_restrict_self() "succeed"
 * without effect. Whatever a ruleset handles, a Landlock domain denies its processes
 * ptrace-mode access, even read-only, to processes outside it; a helper started before
 * restricting is outside. So a read-only ptrace-mode call on the helper must work
 * before and fail with EPERM after. No file permission, read-only mount or rw rule has
 * a say in it (a probe write can be refused by those too, which proves nothing), so the
 * answer is conclusive in every mode: unprivileged, read-only root, --landlock-rw /.
 */
struct self_test {
	pid_t helper;
	int done_fd; /* closing it lets the helper exit */
	int method;  /* index into probes[] */
};

static int probe_robust_list(pid_t pid)
{
	void *head;
	size_t len;

	return sys_get_robust_list(pid, &head, &len) < 0 ? -errno : 0;
}

/* kcmp needs CONFIG_KCMP; the fallback when a filter refuses get_robust_list. */
static int probe_kcmp(pid_t pid)
{
	return sys_kcmp(getpid(), pid, KCMP_VM, 0, 0) < 0 ? -errno : 0;
}

static int (*const probes[])(pid_t) = { probe_robust_list, probe_kcmp };

/* The helper blocks until done_fd closes; exit signal 0, so no SIGCHLD reaches the
 * command, and it is reaped before landlock_apply() returns. */
_noreturn_ static void helper_main(int ready_fd, int done_fd)
{
	/* Ptrace-mode access needs a dumpable target; this changes the helper only. */
	(void)prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	(void)!write(ready_fd, "r", 1);
	(void)read_byte(done_fd);
	_exit(0);
}

static int self_test_start(struct self_test *t, struct nsrun_error *err)
{
	int ready[2], done[2], e;

	e = -pipe2_pair(ready, done);
	if (e > 0)
		return ll_fail(err, e, "creating a pipe for the Landlock self-test");
	t->helper = sys_clone_fork(0);
	e = errno;
	if (t->helper == 0) {
		close(ready[0]);
		close(done[1]);
		helper_main(ready[1], done[0]);
	}
	close(ready[1]);
	close(done[0]);
	t->done_fd = done[1];
	if (t->helper < 0 || read_byte(ready[0]) < 0) {
		close(ready[0]);
		return ll_fail(err, t->helper < 0 ? e : EPIPE,
			       "starting the Landlock self-test's helper process");
	}
	close(ready[0]);
	for (t->method = 0; t->method < (int)ARRAY_SIZE(probes); t->method++)
		if (probes[t->method](t->helper) == 0)
			return 0;
	return ll_fail_plain(err, EPERM,
			     "the Landlock self-test cannot run: get_robust_list(2) and kcmp(2) "
			     "are refused even before Landlock (by a seccomp filter or an LSM?), "
			     "so a working boundary could not be told from a fake; refusing to run");
}

static int self_test_check(const struct self_test *t, struct nsrun_error *err)
{
	int r = probes[t->method](t->helper);

	if (r == 0)
		return ll_fail_plain(err, 0,
				     "Landlock reported success but enforces nothing (after "
				     "landlock_restrict_self the self-test could still inspect a "
				     "process outside the boundary); refusing to run");
	if (r != -EPERM)
		return ll_fail_plain(err, -r,
				     "the Landlock self-test failed with %s instead of EPERM; "
				     "refusing to run",
				     strerror(-r));
	if (landlock_query_abi() < 1)
		return ll_fail_plain(
			err, 0, "Landlock stopped answering after restrict_self; refusing to run");
	return 0;
}

static void self_test_stop(struct self_test *t)
{
	if (t->done_fd >= 0)
		close(t->done_fd);
	if (t->helper > 0)
		(void)reaper_wait(t->helper, __WALL);
	*t = (struct self_test){ .helper = -1, .done_fd = -1 };
}

int landlock_apply(const struct landlock_config *cfg, const struct landlock_desc *desc,
		   struct nsrun_error *err)
{
	struct nsrun_landlock_ruleset_attr attr;
	_cleanup_close_ int rfd = -1, root_fd = -1;
	struct rules_ctx c = { .rfd = -1 };
	struct self_test t = { .helper = -1, .done_fd = -1 };
	int r;

	if (!cfg->enabled)
		return 0;
	attr = (struct nsrun_landlock_ruleset_attr){
		.handled_access_fs = desc->handled_fs,
		.handled_access_net = desc->handled_net,
		.scoped = desc->scoped,
	};
	log_debug("landlock: ABI %d, handled fs 0x%llx, net 0x%llx, scoped 0x%llx", desc->abi,
		  (unsigned long long)desc->handled_fs, (unsigned long long)desc->handled_net,
		  (unsigned long long)desc->scoped);
	rfd = sys_landlock_create_ruleset(&attr, landlock_ruleset_attr_size(desc->abi), 0);
	if (rfd < 0)
		return ll_fail(err, errno, "creating the Landlock ruleset (ABI %d)", desc->abi);
	root_fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root_fd < 0)
		return ll_fail(err, errno, "opening '/' for the Landlock rule paths");
	c = (struct rules_ctx){
		.rfd = rfd, .root_fd = root_fd, .desc = desc, .in_place = cfg->only
	};
	r = add_rules(&c, cfg, err);
	if (r == 0)
		r = self_test_start(&t, err);
	if (r == 0 && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		r = ll_fail(err, errno, "setting no_new_privs for Landlock");
	if (r == 0 && sys_landlock_restrict_self(rfd, restrict_flags(desc)) < 0)
		r = ll_fail(err, errno, "enforcing the Landlock ruleset (landlock_restrict_self)");
	if (r == 0)
		r = self_test_check(&t, err);
	self_test_stop(&t);
	if (r == 0)
		log_debug(
			"landlock: enforced (the self-test was refused a process outside the domain)");
	return r;
}
