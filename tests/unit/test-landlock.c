/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test-landlock: the pure part of the Landlock module: rights per ABI, the
 * file-rights-subset invariant (a violation makes landlock_add_rule fail with
 * EINVAL), and requested-versus-supported decisions with a fake ABI.
 */
#include "config.h"

#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "landlock-interp.h"
#include "landlock.h"
#include "syscall.h"

#define ABI_MAX_TESTED 12

#define MAKE_ALL                                                                  \
	(NSRUN_LL_FS_MAKE_CHAR | NSRUN_LL_FS_MAKE_DIR | NSRUN_LL_FS_MAKE_REG |    \
	 NSRUN_LL_FS_MAKE_SOCK | NSRUN_LL_FS_MAKE_FIFO | NSRUN_LL_FS_MAKE_BLOCK | \
	 NSRUN_LL_FS_MAKE_SYM)
#define ABI1_WRITE \
	(NSRUN_LL_FS_WRITE_FILE | NSRUN_LL_FS_REMOVE_DIR | NSRUN_LL_FS_REMOVE_FILE | MAKE_ALL)
#define ABI1_ALL (ABI1_WRITE | NSRUN_LL_FS_EXECUTE | NSRUN_LL_FS_READ_FILE | NSRUN_LL_FS_READ_DIR)
/* What the kernel accepts on a rule for a non-directory (LANDLOCK_ACCESS_FILE). */
#define KERNEL_FILE_ACCESS                                                      \
	(NSRUN_LL_FS_EXECUTE | NSRUN_LL_FS_WRITE_FILE | NSRUN_LL_FS_READ_FILE | \
	 NSRUN_LL_FS_TRUNCATE | NSRUN_LL_FS_IOCTL_DEV | NSRUN_LL_FS_RESOLVE_UNIX)

static void test_write_rights_per_abi(void **state)
{
	(void)state;
	assert_int_equal(landlock_fs_write_rights(-1), 0);
	assert_int_equal(landlock_fs_write_rights(0), 0);
	assert_int_equal(landlock_fs_write_rights(1), ABI1_WRITE);
	assert_int_equal(landlock_fs_write_rights(2), ABI1_WRITE | NSRUN_LL_FS_REFER);
	for (int abi = 3; abi <= 8; abi++)
		assert_int_equal(landlock_fs_write_rights(abi),
				 ABI1_WRITE | NSRUN_LL_FS_REFER | NSRUN_LL_FS_TRUNCATE);
	/* unknown future ABIs behave as the highest known one */
	assert_int_equal(landlock_fs_write_rights(9), landlock_fs_write_rights(8));
	assert_int_equal(landlock_fs_write_rights(1000), landlock_fs_write_rights(8));
}

static void test_write_rights_never_read_or_exec(void **state)
{
	(void)state;
	for (int abi = 1; abi <= ABI_MAX_TESTED; abi++) {
		uint64_t w = landlock_fs_write_rights(abi);

		assert_int_equal(w & (NSRUN_LL_FS_READ_FILE | NSRUN_LL_FS_READ_DIR |
				      NSRUN_LL_FS_EXECUTE | NSRUN_LL_FS_IOCTL_DEV),
				 0);
	}
}

static void test_file_rights_per_abi(void **state)
{
	(void)state;
	assert_int_equal(landlock_fs_file_rights(0), 0);
	assert_int_equal(landlock_fs_file_rights(1), NSRUN_LL_FS_WRITE_FILE);
	assert_int_equal(landlock_fs_file_rights(2), NSRUN_LL_FS_WRITE_FILE);
	for (int abi = 3; abi <= ABI_MAX_TESTED; abi++)
		assert_int_equal(landlock_fs_file_rights(abi),
				 NSRUN_LL_FS_WRITE_FILE | NSRUN_LL_FS_TRUNCATE);
}

static void test_file_rights_subset_of_handled(void **state)
{
	(void)state;
	for (int abi = 1; abi <= ABI_MAX_TESTED; abi++) {
		uint64_t file = landlock_fs_file_rights(abi);
		uint64_t handled = landlock_fs_write_rights(abi);

		assert_int_equal(file & ~handled, 0);
		assert_int_equal(file & ~KERNEL_FILE_ACCESS, 0);
		assert_int_equal(handled & ~landlock_fs_all_rights(abi), 0);
		/* with --landlock-exec the handled set grows, the file set stays valid */
		assert_int_equal(NSRUN_LL_FS_EXECUTE & ~landlock_fs_all_rights(abi), 0);
		assert_true(file != 0);
	}
}

static void test_all_rights_per_abi(void **state)
{
	(void)state;
	assert_int_equal(landlock_fs_all_rights(0), 0);
	assert_int_equal(landlock_fs_all_rights(1), ABI1_ALL);
	assert_int_equal(landlock_fs_all_rights(2), ABI1_ALL | NSRUN_LL_FS_REFER);
	assert_int_equal(landlock_fs_all_rights(3),
			 ABI1_ALL | NSRUN_LL_FS_REFER | NSRUN_LL_FS_TRUNCATE);
	assert_int_equal(landlock_fs_all_rights(4), landlock_fs_all_rights(3));
	for (int abi = 5; abi <= 8; abi++)
		assert_int_equal(landlock_fs_all_rights(abi),
				 landlock_fs_all_rights(3) | NSRUN_LL_FS_IOCTL_DEV);
	assert_int_equal(landlock_fs_all_rights(8), 0xffff);
	for (int abi = 9; abi <= ABI_MAX_TESTED; abi++)
		assert_int_equal(landlock_fs_all_rights(abi), 0xffff | NSRUN_LL_FS_RESOLVE_UNIX);
}

/* resolve_unix: bit 16, Landlock ABI 9 (Linux 7.1); a right valid on a file rule too. */
static void test_unix_rights_per_abi(void **state)
{
	(void)state;
	assert_int_equal(NSRUN_LL_FS_RESOLVE_UNIX, 1ULL << 16);
	for (int abi = -1; abi <= 8; abi++)
		assert_int_equal(landlock_fs_unix_rights(abi), 0);
	for (int abi = 9; abi <= ABI_MAX_TESTED; abi++) {
		assert_int_equal(landlock_fs_unix_rights(abi), NSRUN_LL_FS_RESOLVE_UNIX);
		assert_int_equal(landlock_fs_unix_rights(abi) & ~KERNEL_FILE_ACCESS, 0);
		/* not a write right: --landlock-abi's file-rights adds it separately */
		assert_int_equal(landlock_fs_write_rights(abi) & NSRUN_LL_FS_RESOLVE_UNIX, 0);
	}
}

static void test_net_and_scope_per_abi(void **state)
{
	(void)state;
	for (int abi = 0; abi <= 3; abi++)
		assert_int_equal(landlock_net_rights(abi), 0);
	for (int abi = 4; abi <= ABI_MAX_TESTED; abi++)
		assert_int_equal(landlock_net_rights(abi),
				 NSRUN_LL_NET_BIND_TCP | NSRUN_LL_NET_CONNECT_TCP |
					 (abi >= 10 ? NSRUN_LL_NET_BIND_UDP |
							      NSRUN_LL_NET_CONNECT_SEND_UDP :
						      0));
	for (int abi = 0; abi <= 5; abi++)
		assert_int_equal(landlock_scope_rights(abi), 0);
	for (int abi = 6; abi <= ABI_MAX_TESTED; abi++)
		assert_int_equal(landlock_scope_rights(abi),
				 NSRUN_LL_SCOPE_ABSTRACT_UNIX_SOCKET | NSRUN_LL_SCOPE_SIGNAL);
}

static void test_ruleset_attr_size(void **state)
{
	(void)state;
	for (int abi = 1; abi <= 3; abi++)
		assert_int_equal(landlock_ruleset_attr_size(abi), 8);
	assert_int_equal(landlock_ruleset_attr_size(4), 16);
	assert_int_equal(landlock_ruleset_attr_size(5), 16);
	for (int abi = 6; abi <= ABI_MAX_TESTED; abi++)
		assert_int_equal(landlock_ruleset_attr_size(abi), 24);
}

/* ---- describe with a fake ABI ---- */

static char *no_paths[] = { NULL };
static char usr_bin[] = "/usr/bin";
static char *some_exec[] = { usr_bin, NULL };
static uint16_t port_80 = 80;

static struct landlock_config base_cfg(void)
{
	return (struct landlock_config){ .enabled = true, .rw = no_paths, .exec = no_paths };
}

static void test_describe_disabled_is_noop(void **state)
{
	struct landlock_config cfg = { .enabled = false };
	struct landlock_desc d = { .abi = 42 };
	struct nsrun_error err = { 0 };

	(void)state;
	/* even an unavailable Landlock is fine when nothing was asked */
	assert_int_equal(landlock_describe_abi(&cfg, -ENOSYS, &d, &err), 0);
	assert_int_equal(d.abi, 0);
	assert_int_equal(err.status, 0);
}

static void test_describe_rw_only(void **state)
{
	struct landlock_config cfg = base_cfg();
	struct landlock_desc d;
	struct nsrun_error err = { 0 };

	(void)state;
	for (int abi = 1; abi <= ABI_MAX_TESTED; abi++) {
		assert_int_equal(landlock_describe_abi(&cfg, abi, &d, &err), 0);
		assert_int_equal(d.abi, abi);
		assert_int_equal(d.handled_fs,
				 landlock_fs_write_rights(abi) | landlock_fs_unix_rights(abi));
		assert_int_equal(d.handled_net, 0);
		assert_int_equal(d.scoped, 0);
	}
}

static void test_describe_exec_adds_execute(void **state)
{
	struct landlock_config cfg = base_cfg();
	struct landlock_desc d;
	struct nsrun_error err = { 0 };

	(void)state;
	cfg.exec = some_exec;
	for (int abi = 1; abi <= ABI_MAX_TESTED; abi++) {
		assert_int_equal(landlock_describe_abi(&cfg, abi, &d, &err), 0);
		assert_int_equal(d.handled_fs, landlock_fs_write_rights(abi) |
						       landlock_fs_unix_rights(abi) |
						       NSRUN_LL_FS_EXECUTE);
		assert_int_equal(landlock_fs_file_rights(abi) & ~d.handled_fs, 0);
	}
}

static void expect_fail(const struct landlock_config *cfg, int abi, const char *needle)
{
	struct landlock_desc d;
	struct nsrun_error err = { 0 };

	assert_true(landlock_describe_abi(cfg, abi, &d, &err) < 0);
	assert_int_equal(err.status, NSRUN_EXIT_FAIL_CLOSED);
	if (!strstr(err.msg, needle))
		fail_msg("message '%s' lacks '%s'", err.msg, needle);
	assert_non_null(strstr(err.msg, "refusing to run"));
}

static void test_describe_unavailable(void **state)
{
	struct landlock_config cfg = base_cfg();

	(void)state;
	expect_fail(&cfg, -ENOSYS, "not supported by this kernel (ENOSYS)");
	expect_fail(&cfg, -ENOSYS, "5.13");
	expect_fail(&cfg, -EOPNOTSUPP, "lsm=");
	expect_fail(&cfg, -EOPNOTSUPP, "disabled");
	expect_fail(&cfg, -EPROTONOSUPPORT, "--disable-landlock");
	expect_fail(&cfg, -EPERM, "Operation not permitted");
	expect_fail(&cfg, 0, "ABI 0");
}

static void test_describe_tcp(void **state)
{
	struct landlock_config cfg = base_cfg();
	struct landlock_desc d;
	struct nsrun_error err = { 0 };

	(void)state;
	cfg.ports[LL_PORT_CONNECT_TCP] = (struct landlock_ports){ &port_80, 1, true };
	for (int abi = 1; abi <= 3; abi++)
		expect_fail(&cfg, abi, "--landlock-connect-tcp needs Landlock ABI 4");
	assert_int_equal(landlock_describe_abi(&cfg, 4, &d, &err), 0);
	assert_int_equal(d.handled_net, NSRUN_LL_NET_CONNECT_TCP);

	cfg = base_cfg();
	cfg.ports[LL_PORT_BIND_TCP].has = true; /* no port at all: binding is denied everywhere */
	expect_fail(&cfg, 3, "--landlock-bind-tcp needs Landlock ABI 4");
	assert_int_equal(landlock_describe_abi(&cfg, 7, &d, &err), 0);
	assert_int_equal(d.handled_net, NSRUN_LL_NET_BIND_TCP);

	cfg.ports[LL_PORT_CONNECT_TCP].has = true;
	assert_int_equal(landlock_describe_abi(&cfg, 4, &d, &err), 0);
	assert_int_equal(d.handled_net, NSRUN_LL_NET_BIND_TCP | NSRUN_LL_NET_CONNECT_TCP);
}

/* UDP (ABI 10): only the requested rights are handled; older ABIs refuse, naming 10. */
static void test_describe_udp(void **state)
{
	struct landlock_config cfg = base_cfg();
	struct landlock_desc d;
	struct nsrun_error err = { 0 };

	(void)state;
	cfg.ports[LL_PORT_CONNECT_UDP] = (struct landlock_ports){ &port_80, 1, true };
	for (int abi = 1; abi <= 9; abi++)
		expect_fail(&cfg, abi,
			    "--landlock-connect-udp needs Landlock ABI 10 (Linux 7.2+) but this "
			    "kernel offers ABI");
	assert_int_equal(landlock_describe_abi(&cfg, 10, &d, &err), 0);
	assert_int_equal(d.handled_net, NSRUN_LL_NET_CONNECT_SEND_UDP);

	cfg = base_cfg();
	cfg.ports[LL_PORT_BIND_UDP].has = true;
	expect_fail(&cfg, 9, "--landlock-bind-udp needs Landlock ABI 10");
	assert_int_equal(landlock_describe_abi(&cfg, 10, &d, &err), 0);
	assert_int_equal(d.handled_net, NSRUN_LL_NET_BIND_UDP);
	assert_int_equal(landlock_net_rights(9), NSRUN_LL_NET_BIND_TCP | NSRUN_LL_NET_CONNECT_TCP);
	assert_int_equal(landlock_net_rights(10), 0xf);
}

/* TSYNC from ABI 8; truncation is Landlock's from ABI 3, seccomp's below. */
static void test_mechanisms(void **state)
{
	struct landlock_config cfg = base_cfg();
	struct landlock_desc d;
	struct nsrun_error err = { 0 };

	(void)state;
	assert_int_equal(landlock_restrict_flags(6), 0);
	assert_int_equal(landlock_restrict_flags(7), NSRUN_LL_RESTRICT_SELF_LOG_SAME_EXEC_OFF);
	assert_int_equal(landlock_restrict_flags(8),
			 NSRUN_LL_RESTRICT_SELF_TSYNC | NSRUN_LL_RESTRICT_SELF_LOG_SAME_EXEC_OFF);
	assert_int_equal(landlock_describe_abi(&cfg, 2, &d, &err), 0);
	assert_true(landlock_truncate_needs_seccomp(&d));
	assert_string_equal(landlock_truncate_name(&d), "seccomp");
	assert_string_equal(landlock_threads_name(&d), "calling");
	assert_int_equal(landlock_describe_abi(&cfg, 8, &d, &err), 0);
	assert_false(landlock_truncate_needs_seccomp(&d));
	assert_string_equal(landlock_truncate_name(&d), "landlock");
	assert_string_equal(landlock_threads_name(&d), "all");
}

static void test_describe_scope(void **state)
{
	struct landlock_config cfg = base_cfg();
	struct landlock_desc d;
	struct nsrun_error err = { 0 };

	(void)state;
	cfg.scope = true;
	for (int abi = 1; abi <= 5; abi++)
		expect_fail(&cfg, abi, "--landlock-scope needs Landlock ABI 6");
	for (int abi = 6; abi <= ABI_MAX_TESTED; abi++) {
		assert_int_equal(landlock_describe_abi(&cfg, abi, &d, &err), 0);
		assert_int_equal(d.scoped,
				 NSRUN_LL_SCOPE_ABSTRACT_UNIX_SOCKET | NSRUN_LL_SCOPE_SIGNAL);
		assert_int_equal(d.handled_net, 0);
	}
}

/* Pathname UNIX connects: handled by default from ABI 9; --landlock-deny-unix below it
 * asks the launcher for the seccomp fallback. */
static void test_describe_unix(void **state)
{
	struct landlock_config cfg = base_cfg();
	struct landlock_desc d;
	struct nsrun_error err = { 0 };

	(void)state;
	for (int abi = 1; abi <= ABI_MAX_TESTED; abi++) {
		bool ll = abi >= 9;

		cfg.deny_unix = false;
		assert_int_equal(landlock_describe_abi(&cfg, abi, &d, &err), 0);
		assert_int_equal(!!(d.handled_fs & NSRUN_LL_FS_RESOLVE_UNIX), ll);
		assert_int_equal(d.unix_connect,
				 ll ? LANDLOCK_UNIX_LANDLOCK : LANDLOCK_UNIX_UNRESTRICTED);
		assert_false(landlock_unix_needs_seccomp(&d, &cfg));
		cfg.deny_unix = true;
		assert_int_equal(landlock_describe_abi(&cfg, abi, &d, &err), 0);
		assert_int_equal(d.unix_connect,
				 ll ? LANDLOCK_UNIX_LANDLOCK : LANDLOCK_UNIX_SECCOMP);
		assert_int_equal(landlock_unix_needs_seccomp(&d, &cfg), !ll);
	}
	cfg.enabled = false;
	assert_int_equal(landlock_describe_abi(&cfg, 7, &d, &err), 0);
	assert_false(landlock_unix_needs_seccomp(&d, &cfg));
	assert_string_equal(landlock_unix_connect_name(LANDLOCK_UNIX_UNRESTRICTED), "unrestricted");
	assert_string_equal(landlock_unix_connect_name(LANDLOCK_UNIX_LANDLOCK), "landlock");
	assert_string_equal(landlock_unix_connect_name(LANDLOCK_UNIX_SECCOMP), "seccomp");
}

/* ---- ELF interpreters: what a planted file names is never trusted ---- */

/* Writes a minimal native ELF64 whose only program header is PT_INTERP naming interp. */
static void make_elf(const char *path, const char *interp)
{
	Elf64_Ehdr eh = { .e_phoff = sizeof(Elf64_Ehdr),
			  .e_phentsize = sizeof(Elf64_Phdr),
			  .e_phnum = 1 };
	Elf64_Phdr ph = { .p_type = PT_INTERP,
			  .p_offset = sizeof(eh) + sizeof(Elf64_Phdr),
			  .p_filesz = strlen(interp) + 1 };
	FILE *f = fopen(path, "w");

	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB;
	assert_non_null(f);
	assert_int_equal(fwrite(&eh, sizeof(eh), 1, f), 1);
	assert_int_equal(fwrite(&ph, sizeof(ph), 1, f), 1);
	assert_int_equal(fwrite(interp, strlen(interp) + 1, 1, f), 1);
	assert_int_equal(fclose(f), 0);
}

static void test_elf_interp_parse(void **state)
{
	char dir[] = "/tmp/test-landlock-XXXXXX", path[PATH_MAX], buf[PATH_MAX];
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/e", dir);
	make_elf(path, "/lib/ld.so");
	fd = open(path, O_RDONLY);
	assert_int_equal(landlock_elf_interp(fd, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "/lib/ld.so");
	close(fd);
	make_elf(path, "relative/ld.so");
	fd = open(path, O_RDONLY);
	assert_int_equal(landlock_elf_interp(fd, buf, sizeof(buf)), 0);
	close(fd);
	/* "/" parses: refusing it is the collector's job */
	make_elf(path, "/");
	fd = open(path, O_RDONLY);
	assert_int_equal(landlock_elf_interp(fd, buf, sizeof(buf)), 1);
	close(fd);
	unlink(path);
	rmdir(dir);
}

/* An exec directory full of planted ELF files naming "/", a directory, a symlink to
 * one, a fifo, a device and a magic link yields only the one regular interpreter. */
static void test_interps_only_regular_files(void **state)
{
	char dir[] = "/tmp/test-landlock-XXXXXX", cmd[1024], p[PATH_MAX];
	/* names starting with '@' are relative to the fixture directory */
	const char *bad[] = { "/",
			      "/tmp",
			      "@d",
			      "@dlink",
			      "@fifo",
			      "/dev/null",
			      "/proc/self/root",
			      "/proc/self/exe",
			      "@missing" };
	struct landlock_interps s = { .n = 0 };
	struct stat want, got;
	int root_fd, fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd),
		 "cd %s && mkdir d x && ln -s d dlink && mkfifo fifo && echo ld > target && "
		 "ln -s target tlink && mkfifo x/pipe && ln -s ../other x/sl",
		 dir);
	assert_int_equal(system(cmd), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char interp[PATH_MAX];

		if (bad[i][0] == '@')
			snprintf(interp, sizeof(interp), "%s/%s", dir, bad[i] + 1);
		else
			snprintf(interp, sizeof(interp), "%s", bad[i]);
		snprintf(p, sizeof(p), "%s/x/bad%zu", dir, i);
		make_elf(p, interp);
	}
	snprintf(p, sizeof(p), "%s/tlink", dir);
	snprintf(cmd, sizeof(cmd), "%s/x/good", dir);
	make_elf(cmd, p); /* through a symlink: allowed as the file it resolves to */
	snprintf(p, sizeof(p), "%s/target", dir);
	snprintf(cmd, sizeof(cmd), "%s/x/good2", dir);
	make_elf(cmd, p);
	snprintf(p, sizeof(p), "%s/other", dir); /* only reachable through the x/sl link */
	make_elf(p, "/etc/hostname");

	root_fd = open("/", O_PATH | O_DIRECTORY);
	snprintf(p, sizeof(p), "%s/x", dir);
	fd = open(p, O_PATH | O_DIRECTORY);
	landlock_interps_collect(&s, root_fd, fd, p);
	close(fd);
	assert_int_equal(s.n, 1);
	snprintf(p, sizeof(p), "%s/target", dir);
	assert_int_equal(stat(p, &want), 0);
	assert_int_equal(fstat(s.fds[0], &got), 0);
	assert_true(want.st_ino == got.st_ino && want.st_dev == got.st_dev);
	landlock_interps_free(&s);

	/* a file rule: the same checks */
	snprintf(p, sizeof(p), "%s/x/bad0", dir);
	fd = open(p, O_PATH);
	landlock_interps_collect(&s, root_fd, fd, p);
	close(fd);
	assert_int_equal(s.n, 0);
	snprintf(p, sizeof(p), "%s/x/good", dir);
	fd = open(p, O_PATH);
	landlock_interps_collect(&s, root_fd, fd, p);
	close(fd);
	assert_int_equal(s.n, 1);
	landlock_interps_free(&s);
	close(root_fd);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_rights_per_abi),
		cmocka_unit_test(test_write_rights_never_read_or_exec),
		cmocka_unit_test(test_file_rights_per_abi),
		cmocka_unit_test(test_file_rights_subset_of_handled),
		cmocka_unit_test(test_all_rights_per_abi),
		cmocka_unit_test(test_unix_rights_per_abi),
		cmocka_unit_test(test_net_and_scope_per_abi),
		cmocka_unit_test(test_ruleset_attr_size),
		cmocka_unit_test(test_describe_disabled_is_noop),
		cmocka_unit_test(test_describe_rw_only),
		cmocka_unit_test(test_describe_exec_adds_execute),
		cmocka_unit_test(test_describe_unavailable),
		cmocka_unit_test(test_describe_udp),
		cmocka_unit_test(test_mechanisms),
		cmocka_unit_test(test_describe_tcp),
		cmocka_unit_test(test_describe_scope),
		cmocka_unit_test(test_describe_unix),
		cmocka_unit_test(test_elf_interp_parse),
		cmocka_unit_test(test_interps_only_regular_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
