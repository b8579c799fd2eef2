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

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "syscall.h"
#include "util.h"

#define MAX_INTERPRETERS 32
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ELFDATA_NATIVE ELFDATA2LSB
#else
#define ELFDATA_NATIVE ELFDATA2MSB
#endif

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

/* Device files kept writable so that `2>/dev/null` and terminal output keep working. */
static const char *const writable_devices[] = { "/dev/null", "/dev/zero", "/dev/full", "/dev/tty" };

/* Every failure to build the boundary exits 126, so it can be told from the command's own. */
static int fail_closed(struct nsrun_error *err, int r)
{
	if (err)
		err->status = LANDLOCK_EXIT_STATUS;
	return r;
}
#define ll_fail(err, ...) fail_closed(err, error_set(err, __VA_ARGS__))
#define ll_fail_plain(err, ...) fail_closed(err, error_set_plain(err, __VA_ARGS__))

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
	default: /* 3..8 add no write-type right nsrun knows; a newer ABI is taken as 8 */
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
	r = landlock_fs_write_rights(abi) | (LL_FS_EVERY & ~LL_FS_WRITE_ALL);
	if (abi < 5)
		r &= ~NSRUN_LL_FS_IOCTL_DEV;
	return r;
}

uint64_t landlock_net_rights(int abi)
{
	return abi >= 4 ? NSRUN_LL_NET_BIND_TCP | NSRUN_LL_NET_CONNECT_TCP : 0;
}

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
	ret->handled_fs = landlock_fs_write_rights(abi);
	if (has_paths(cfg->exec))
		ret->handled_fs |= NSRUN_LL_FS_EXECUTE;
	if ((cfg->has_connect_tcp || cfg->has_bind_tcp) && abi < 4)
		return ll_fail_plain(
			err, EOPNOTSUPP,
			"%s needs Landlock ABI 4 (Linux 6.7+) but this kernel offers ABI "
			"%d; refusing to run without the requested TCP restriction",
			cfg->has_connect_tcp ? "--landlock-connect-tcp" : "--landlock-bind-tcp",
			abi);
	if (cfg->has_connect_tcp)
		ret->handled_net |= NSRUN_LL_NET_CONNECT_TCP;
	if (cfg->has_bind_tcp)
		ret->handled_net |= NSRUN_LL_NET_BIND_TCP;
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
	"execute",   "write_file", "read_file", "read_dir",  "remove_dir", "remove_file",
	"make_char", "make_dir",   "make_reg",	"make_sock", "make_fifo",  "make_block",
	"make_sym",  "refer",	   "truncate",	"ioctl_dev",
};
static const char *const net_right_names[] = { "bind_tcp", "connect_tcp" };
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
	print_rights(out, "handled-fs", landlock_fs_write_rights(abi), fs_right_names,
		     ARRAY_SIZE(fs_right_names));
	print_rights(out, "file-rights", landlock_fs_file_rights(abi), fs_right_names,
		     ARRAY_SIZE(fs_right_names));
	print_rights(out, "exec-fs", NSRUN_LL_FS_EXECUTE, fs_right_names,
		     ARRAY_SIZE(fs_right_names));
	print_rights(out, "kernel-fs", landlock_fs_all_rights(abi), fs_right_names,
		     ARRAY_SIZE(fs_right_names));
	print_rights(out, "handled-net", landlock_net_rights(abi), net_right_names,
		     ARRAY_SIZE(net_right_names));
	print_rights(out, "scoped", landlock_scope_rights(abi), scope_names,
		     ARRAY_SIZE(scope_names));
	return fflush(out) == 0 ? 0 : error_set(err, errno, "writing the Landlock ABI report");
}

/* ---- ELF interpreters of --landlock-exec files ---- */

/* Reads PT_INTERP of the file open at fd into buf. Returns 1 when found, 0 for a
 * file with none (not ELF, static, unreadable), never an error: a missing
 * interpreter rule only makes the boundary stricter. */
static int elf_interp(int fd, char *buf, size_t size)
{
	union {
		Elf32_Ehdr e32;
		Elf64_Ehdr e64;
	} eh;
	union {
		Elf32_Phdr p32;
		Elf64_Phdr p64;
	} ph;
	ssize_t n = pread(fd, &eh, sizeof(eh), 0);
	bool is64;
	uint64_t phoff, off, len;
	size_t phentsize, phnum;

	if (n < (ssize_t)sizeof(eh.e32) || memcmp(eh.e32.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e32.e_ident[EI_DATA] != ELFDATA_NATIVE)
		return 0;
	is64 = eh.e32.e_ident[EI_CLASS] == ELFCLASS64;
	if (is64 && n < (ssize_t)sizeof(eh.e64))
		return 0;
	phoff = is64 ? eh.e64.e_phoff : eh.e32.e_phoff;
	phnum = is64 ? eh.e64.e_phnum : eh.e32.e_phnum;
	phentsize = is64 ? eh.e64.e_phentsize : eh.e32.e_phentsize;
	if (phentsize != (is64 ? sizeof(ph.p64) : sizeof(ph.p32)) ||
	    phoff > (uint64_t)INT64_MAX / 2)
		return 0;
	for (size_t i = 0; i < phnum && i < 512; i++) {
		if (pread(fd, &ph, phentsize, (off_t)(phoff + i * phentsize)) != (ssize_t)phentsize)
			return 0;
		if ((is64 ? ph.p64.p_type : ph.p32.p_type) != PT_INTERP)
			continue;
		off = is64 ? ph.p64.p_offset : ph.p32.p_offset;
		len = is64 ? ph.p64.p_filesz : ph.p32.p_filesz;
		if (len < 2 || len > size || off > (uint64_t)INT64_MAX)
			return 0;
		if (pread(fd, buf, len, (off_t)off) != (ssize_t)len)
			return 0;
		if (buf[len - 1] != '\0' || buf[0] != '/' || strlen(buf) != len - 1)
			return 0;
		return 1;
	}
	return 0;
}

struct interp_set {
	char *paths[MAX_INTERPRETERS];
	size_t n;
};

static void interp_set_free(struct interp_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->paths[i]);
	s->n = 0;
}

/* Adds the interpreter of the executable at dirfd/name, if any. A listed file is
 * followed if it is a symlink (the rule lands on its target too); directory entries
 * are not, as a symlink's target outside the directory is not executable anyway. */
static void interp_collect(struct interp_set *s, int dirfd, const char *name, bool follow)
{
	char buf[PATH_MAX];
	struct stat st;
	int fd = openat(dirfd, name,
			O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (follow ? 0 : O_NOFOLLOW));

	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && elf_interp(fd, buf, sizeof(buf)) == 1) {
		size_t i;

		for (i = 0; i < s->n && strcmp(s->paths[i], buf) != 0; i++)
			;
		if (i == s->n && s->n < MAX_INTERPRETERS)
			s->paths[s->n++] = xstrdup(buf);
	}
	close(fd);
}

/* Directory rules allow everything beneath, but only the ELF files directly inside
 * are read for interpreters: a recursive walk could be arbitrarily expensive. */
static void interp_collect_dir(struct interp_set *s, int pathfd)
{
	int dfd = openat(pathfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *de;
	DIR *d;

	if (dfd < 0)
		return;
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return;
	}
	while ((de = readdir(d)))
		if (de->d_type == DT_REG || de->d_type == DT_UNKNOWN)
			interp_collect(s, dirfd(d), de->d_name, false);
	closedir(d);
}

/* ---- building the ruleset ---- */

struct rules_ctx {
	int rfd;
	const struct landlock_desc *desc;
	struct stat root_st;
	bool root_rw; /* "/" itself is rw-listed: the self-test has nothing to probe */
};

static int add_path_rule(struct rules_ctx *c, int fd, uint64_t access, const char *opt,
			 const char *path, struct nsrun_error *err)
{
	struct nsrun_landlock_path_beneath_attr pb = {
		.allowed_access = access,
		.parent_fd = fd,
	};

	if (sys_landlock_add_rule(c->rfd, NSRUN_LANDLOCK_RULE_PATH_BENEATH, &pb, 0) < 0)
		return ll_fail(err, errno, "adding the Landlock rule for %s '%s'", opt, path);
	return 0;
}

static int open_rule_path(const char *opt, const char *path, struct stat *st,
			  struct nsrun_error *err)
{
	int fd = open(path, O_PATH | O_CLOEXEC);

	if (fd < 0 || fstat(fd, st) < 0) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return ll_fail_plain(err, e,
				     "%s '%s': %s; a Landlock rule path must exist in the "
				     "sandbox's final tree, refusing to run",
				     opt, path, strerror(e));
	}
	return fd;
}

static int add_rw_rules(struct rules_ctx *c, char *const *paths, struct nsrun_error *err)
{
	uint64_t dir_rights = c->desc->handled_fs & landlock_fs_write_rights(c->desc->abi);
	uint64_t file_rights = c->desc->handled_fs & landlock_fs_file_rights(c->desc->abi);

	for (size_t i = 0; paths && paths[i]; i++) {
		struct stat st;
		_cleanup_close_ int fd = open_rule_path("--landlock-rw", paths[i], &st, err);
		int r;

		if (fd < 0)
			return fd;
		r = add_path_rule(c, fd, S_ISDIR(st.st_mode) ? dir_rights : file_rights,
				  "--landlock-rw", paths[i], err);
		if (r < 0)
			return r;
		if (st.st_dev == c->root_st.st_dev && st.st_ino == c->root_st.st_ino)
			c->root_rw = true;
	}
	return 0;
}

/* Convenience rules, not guarantees: a device that is absent (or is not a character
 * device in this tree) is simply not made writable. */
static int add_device_rules(struct rules_ctx *c, struct nsrun_error *err)
{
	uint64_t rights = c->desc->handled_fs & landlock_fs_file_rights(c->desc->abi);

	for (size_t i = 0; i < ARRAY_SIZE(writable_devices); i++) {
		_cleanup_close_ int fd = open(writable_devices[i], O_PATH | O_CLOEXEC);
		struct stat st;
		int r;

		if (fd < 0 || fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode))
			continue;
		r = add_path_rule(c, fd, rights, "device", writable_devices[i], err);
		if (r < 0)
			return r;
	}
	return 0;
}

static int add_exec_rules(struct rules_ctx *c, char *const *paths, struct nsrun_error *err)
{
	struct interp_set interps = { .n = 0 };
	int r = 0;

	for (size_t i = 0; paths && paths[i] && r == 0; i++) {
		struct stat st;
		_cleanup_close_ int fd = open_rule_path("--landlock-exec", paths[i], &st, err);

		if (fd < 0) {
			r = fd;
			break;
		}
		r = add_path_rule(c, fd, NSRUN_LL_FS_EXECUTE, "--landlock-exec", paths[i], err);
		if (S_ISDIR(st.st_mode))
			interp_collect_dir(&interps, fd);
		else
			interp_collect(&interps, AT_FDCWD, paths[i], true);
	}
	/* An interpreter that is missing here would make the exec fail anyway. */
	for (size_t i = 0; i < interps.n && r == 0; i++) {
		_cleanup_close_ int fd = open(interps.paths[i], O_PATH | O_CLOEXEC);

		if (fd >= 0)
			r = add_path_rule(c, fd, NSRUN_LL_FS_EXECUTE, "ELF interpreter",
					  interps.paths[i], err);
	}
	interp_set_free(&interps);
	return r;
}

static int add_port_rules(struct rules_ctx *c, const uint16_t *ports, size_t n, uint64_t right,
			  const char *opt, struct nsrun_error *err)
{
	for (size_t i = 0; i < n; i++) {
		struct nsrun_landlock_net_port_attr np = { .allowed_access = right,
							   .port = ports[i] };

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

	if (stat("/", &c->root_st) < 0)
		return ll_fail(err, errno, "stat '/' for the Landlock self-test");
	r = add_rw_rules(c, cfg->rw, err);
	if (r == 0)
		r = add_device_rules(c, err);
	if (r == 0 && has_paths(cfg->exec))
		r = add_exec_rules(c, cfg->exec, err);
	if (r == 0 && cfg->has_connect_tcp)
		r = add_port_rules(c, cfg->connect_tcp, cfg->n_connect_tcp,
				   NSRUN_LL_NET_CONNECT_TCP, "--landlock-connect-tcp", err);
	if (r == 0 && cfg->has_bind_tcp)
		r = add_port_rules(c, cfg->bind_tcp, cfg->n_bind_tcp, NSRUN_LL_NET_BIND_TCP,
				   "--landlock-bind-tcp", err);
	return r;
}

/* A seccomp filter or a broken kernel can make the Landlock calls "succeed" without
 * effect. Creating a directory in an uncovered "/" must now fail; when it does not,
 * the boundary is fiction. EROFS/EACCES from other layers are inconclusive, not errors. */
static int self_test(const struct rules_ctx *c, struct nsrun_error *err)
{
	char probe[64];

	if (!c->root_rw) {
		snprintf(probe, sizeof(probe), "/.nsrun-landlock-probe-%ld", (long)getpid());
		if (mkdir(probe, 0700) == 0) {
			rmdir(probe);
			return ll_fail_plain(err, 0,
					     "Landlock reported success but enforces nothing (the "
					     "self-test could create '%s'); refusing to run",
					     probe);
		}
	}
	if (landlock_query_abi() < 1)
		return ll_fail_plain(
			err, 0, "Landlock stopped answering after restrict_self; refusing to run");
	return 0;
}

int landlock_apply(const struct landlock_config *cfg, struct nsrun_error *err)
{
	struct landlock_desc desc;
	struct nsrun_landlock_ruleset_attr attr;
	_cleanup_close_ int rfd = -1;
	struct rules_ctx c = { .rfd = -1 };
	int r;

	if (!cfg->enabled)
		return 0;
	r = landlock_describe(cfg, &desc, err);
	if (r < 0)
		return r;
	attr = (struct nsrun_landlock_ruleset_attr){
		.handled_access_fs = desc.handled_fs,
		.handled_access_net = desc.handled_net,
		.scoped = desc.scoped,
	};
	rfd = sys_landlock_create_ruleset(&attr, landlock_ruleset_attr_size(desc.abi), 0);
	if (rfd < 0)
		return ll_fail(err, errno, "creating the Landlock ruleset (ABI %d)", desc.abi);
	c.rfd = rfd;
	c.desc = &desc;
	r = add_rules(&c, cfg, err);
	if (r < 0)
		return r;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return ll_fail(err, errno, "setting no_new_privs for Landlock");
	if (sys_landlock_restrict_self(rfd, 0) < 0)
		return ll_fail(err, errno,
			       "enforcing the Landlock ruleset (landlock_restrict_self)");
	return self_test(&c, err);
}
