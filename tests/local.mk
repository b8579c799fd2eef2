# SPDX-License-Identifier: LGPL-2.1-or-later
# Tests: cmocka unit tests (exit-status driver), TAP shell suites, helpers, fuzz replay.
# Each area owns one list below; add a file to your area's list only.

# ---- helpers (payload probe and test tools) ----------------------------------
test_helpers = \
	tests/helpers/nsrun-probe \
	tests/helpers/seccomp-deny \
	tests/helpers/force-enosys \
	tests/helpers/fake-landlock \
	tests/helpers/list-options \
	tests/helpers/plan-dump \
	tests/helpers/sec-attack \
	tests/helpers/seccomp-guard \
	tests/helpers/env-filter
# issue 36: --report-fd's side effect on a command's own seccomp listener
test_helpers += tests/helpers/seccomp-listen
tests_helpers_seccomp_listen_LDADD =
# bwrap 0.12/0.13 additions: a FUSE mount that cannot be remounted (--not-a-security-boundary)
test_helpers += tests/helpers/fuse-broken
test_helpers += tests/helpers/report-attack
# issue 36: switches audit on in a throwaway guest (tests/kernels), never on a host
test_helpers += tests/helpers/audit-enable
tests_helpers_audit_enable_LDADD =
check_PROGRAMS += $(test_helpers)
# The probe is static and uninstrumented so it runs in a sandbox with no /usr.
tests_helpers_nsrun_probe_CFLAGS = $(WARN_CFLAGS)
tests_helpers_nsrun_probe_LDFLAGS = -static
tests_helpers_nsrun_probe_LDADD =
tests_helpers_seccomp_deny_LDADD =
tests_helpers_env_filter_LDADD =
# The attacks: dynamic (the ld.so attack runs a copy of itself) and uninstrumented.
tests_helpers_sec_attack_CFLAGS = $(WARN_CFLAGS)
tests_helpers_sec_attack_LDFLAGS =
tests_helpers_sec_attack_LDADD = -ldl -lpthread

# ---- unit tests (cmocka) -------------------------------------------------------
unit_tests =
if HAVE_CMOCKA
unit_tests += \
	tests/unit/test-util \
	tests/unit/test-cli \
	tests/unit/test-plan \
	tests/unit/test-rules \
	tests/unit/test-userns \
	tests/unit/test-landlock \
	tests/unit/test-hide \
	tests/unit/test-status \
	tests/unit/test-path \
	tests/unit/test-noexec \
	tests/unit/test-seccomp \
	tests/unit/test-supervise
# area: distribution
unit_tests += tests/unit/test-doctor tests/unit/test-apparmor
unit_tests += tests/unit/test-explain
unit_tests += tests/unit/test-report
unit_tests += tests/unit/test-audit
endif
check_PROGRAMS += $(unit_tests)
AM_CFLAGS += $(CMOCKA_CFLAGS)

# ---- integration tests (TAP, real namespaces) ---------------------------------
integration_tests =
# area: core (namespaces, mounts, files, /dev, /proc, process, errors)
integration_tests += tests/integration/t-ns.sh tests/integration/t-mounts.sh tests/integration/t-files.sh \
	tests/integration/t-devproc.sh tests/integration/t-process.sh tests/integration/t-errors.sh \
	tests/integration/t-agent.sh tests/integration/t-security.sh tests/integration/t-sec-launch.sh \
	tests/integration/t-sec-proc.sh tests/integration/t-debug.sh tests/integration/t-sys.sh
# area: fds, seccomp, caps, overlay, userns
integration_tests += tests/integration/t-fds.sh tests/integration/t-seccomp.sh tests/integration/t-caps.sh \
	tests/integration/t-overlay.sh
# area: hide
integration_tests += tests/integration/t-hide.sh
# area: landlock
integration_tests += tests/integration/t-landlock.sh tests/integration/t-sec-landlock.sh
# issue 36 prototype: the answer before running agrees with the run
integration_tests += tests/integration/t-explain.sh
# issue 36: --report-fd, the denial report
integration_tests += tests/integration/t-report.sh
integration_tests += tests/integration/t-sec-report.sh
# area: seccomp guards
integration_tests += tests/integration/t-sec-exec.sh
# area: noexec under --landlock-exec
integration_tests += tests/integration/t-sec-noexec.sh
# area: malformed inputs found by fuzzing and review
integration_tests += tests/integration/t-inputs.sh
# issue 39: policies past bwrap's 9000 arguments
integration_tests += tests/integration/t-policy.sh
# area: bwrap callers' argument shapes (compat)
integration_tests += tests/integration/t-bwrap-shapes.sh
# area: bwrap 0.12 and 0.13's additions
integration_tests += tests/integration/t-bwrap13.sh
# area: destinations planted with symlinks, CVE-2026-87766
integration_tests += tests/integration/t-sec-dest.sh
# Supervision: signals, timeouts, resource limits, --netns.
integration_tests += tests/integration/t-supervise.sh
integration_tests += tests/integration/t-keyboard.sh
integration_tests += tests/integration/t-timens.sh
integration_tests += tests/integration/t-mountns.sh
integration_tests += tests/integration/t-limits.sh
# area: distribution, --doctor
integration_tests += tests/integration/t-doctor.sh
# area: the environments users run in (issue 35)
integration_tests += tests/integration/t-envs.sh
integration_tests += tests/integration/t-fallback.sh
# area: network egress through the caller's proxy (issue 37)
integration_tests += tests/integration/t-bridge.sh
# area: several ids in the user namespace, idmapped binds (issue 39)
integration_tests += tests/integration/t-idmap.sh

compat_tests = tests/compat/t-compat.sh tests/compat/t-flatpak.sh tests/compat/t-allowlist.sh
meta_tests = tests/meta/t-docs.sh tests/meta/t-layers.sh tests/meta/t-claims.sh tests/meta/t-man-render.sh tests/meta/t-completion.sh \
	tests/meta/t-rules.sh
# fuzz: each target's corpus replays in `make check`, built by any compiler.
fuzz_common = tests/fuzz/fuzz-common.c tests/fuzz/fuzz-common.h
fuzz_tests = tests/fuzz/fuzz-cli-replay tests/fuzz/fuzz-args-replay tests/fuzz/fuzz-seccomp-replay \
	tests/fuzz/fuzz-file-replay
check_PROGRAMS += $(fuzz_tests)
tests_fuzz_fuzz_cli_replay_SOURCES = tests/fuzz/fuzz-cli.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_fuzz_cli_replay_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_TARGET='"cli"'
tests_fuzz_fuzz_args_replay_SOURCES = tests/fuzz/fuzz-args.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_fuzz_args_replay_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_TARGET='"args"'
tests_fuzz_fuzz_seccomp_replay_SOURCES = tests/fuzz/fuzz-seccomp.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_fuzz_seccomp_replay_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_TARGET='"seccomp"'
tests_fuzz_fuzz_file_replay_SOURCES = tests/fuzz/fuzz-file.c tests/fuzz/replay.c $(fuzz_common)
tests_fuzz_fuzz_file_replay_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_TARGET='"file"'

TESTS = $(unit_tests) $(integration_tests) $(compat_tests) $(meta_tests) $(fuzz_tests)
TEST_EXTENSIONS = .sh
SH_LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
AM_TESTS_ENVIRONMENT = \
	NSRUN='$(NSRUN_UNDER_TEST)'; export NSRUN; \
	NSRUN_PROBE='$(abs_top_builddir)/tests/helpers/nsrun-probe'; export NSRUN_PROBE; \
	NSRUN_HELPERS='$(abs_top_builddir)/tests/helpers'; export NSRUN_HELPERS; \
	top_srcdir='$(abs_top_srcdir)'; export top_srcdir; \
	top_builddir='$(abs_top_builddir)'; export top_builddir; \
	ASAN_OPTIONS=detect_leaks=1; export ASAN_OPTIONS; \
	UBSAN_OPTIONS=print_stacktrace=1; export UBSAN_OPTIONS; \
	NSRUN_FORCE_ENOSYS='$(NSRUN_FORCE_ENOSYS)'; export NSRUN_FORCE_ENOSYS; \
	NSRUN_ORACLE_OUT='$(COMPAT_ORACLE)'; export NSRUN_ORACLE_OUT;

EXTRA_DIST += $(integration_tests) $(compat_tests) $(meta_tests) \
	tests/tap.sh tests/modes.sh tests/integration/lib.sh tests/integration/envs.sh tests/unit/unit-parse.h tests/fuzz/corpus \
	tests/compat/oracle.sh tests/compat/allowlist.sh tests/compat/since.sh tests/compat/oracle-build.sh \
	tests/compat/check-upstream.sh tests/compat/upstream-unittest.py

# libFuzzer builds: CC=clang ../configure --enable-fuzzing; then `make fuzz` runs every
# target for FUZZ_SECONDS (default 60) each, FUZZ_FLAGS passed through (e.g. -jobs=2).
fuzz_targets = cli args seccomp file
if ENABLE_FUZZING
AM_LDFLAGS += $(FUZZ_LDFLAGS)
noinst_PROGRAMS = tests/fuzz/fuzz-cli tests/fuzz/fuzz-args tests/fuzz/fuzz-seccomp tests/fuzz/fuzz-file
tests_fuzz_fuzz_cli_SOURCES = tests/fuzz/fuzz-cli.c $(fuzz_common)
tests_fuzz_fuzz_cli_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_fuzz_args_SOURCES = tests/fuzz/fuzz-args.c $(fuzz_common)
tests_fuzz_fuzz_args_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_fuzz_seccomp_SOURCES = tests/fuzz/fuzz-seccomp.c $(fuzz_common)
tests_fuzz_fuzz_seccomp_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_fuzz_file_SOURCES = tests/fuzz/fuzz-file.c $(fuzz_common)
tests_fuzz_fuzz_file_LDFLAGS = -fsanitize=fuzzer
fuzz: $(noinst_PROGRAMS)
	@for t in $(fuzz_targets); do \
		mkdir -p fuzz-corpus-$$t || exit 1; \
		./tests/fuzz/fuzz-$$t -max_total_time=$${FUZZ_SECONDS:-60} $(FUZZ_FLAGS) \
			fuzz-corpus-$$t $(top_srcdir)/tests/fuzz/corpus/$$t || exit 1; \
	done
	@echo "new inputs are in fuzz-corpus-*/; add crashers to tests/fuzz/corpus/<target>/"
endif
clean-local:
	-rm -rf $(fuzz_targets:%=fuzz-corpus-%) bwrap-oracle bwrap-oracle-* check-upstream check-upstream-* check-kernels

# check-legacy: the filesystem suites again with the new mount API answering ENOSYS,
# so the legacy mount(2) path runs for real.
NSRUN_FORCE_ENOSYS =
# bubblewrap's own suite runs that way too (both bwraps under the same filter).
check-legacy: all
	$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(legacy_tests)' NSRUN_FORCE_ENOSYS=mount-api
	$(MAKE) $(AM_MAKEFLAGS) check-upstream NSRUN_FORCE_ENOSYS=mount-api
legacy_tests = tests/integration/t-mounts.sh tests/integration/t-files.sh tests/integration/t-devproc.sh tests/integration/t-hide.sh \
	tests/integration/t-sec-noexec.sh tests/integration/t-sec-proc.sh tests/integration/t-bwrap-shapes.sh \
	tests/integration/t-debug.sh tests/integration/t-mountns.sh tests/integration/t-sys.sh

lint:
	cd $(top_srcdir) && shellcheck -S warning -x -e SC1091,SC2317,SC2154 tests/integration/*.sh tests/compat/*.sh tests/kernels/*.sh \
		tests/tap.sh tests/modes.sh tests/meta/*.sh bench/*.sh completions/bash/nsrun .ci/run \
		.ci/deb .ci/trixie packaging/build-deb.sh packaging/debian/tests/smoke packaging/debian/tests/smoke-root \
		packaging/debian/tests/bwrap-dropin packaging/debian/tests/installcheck \
		packaging/debian/nsrun.postinst packaging/debian/nsrun-bwrap.preinst packaging/debian/nsrun-bwrap.postrm
	mandoc -Tlint -Wwarning $(top_srcdir)/man/nsrun.1

format-check:
	cd $(top_srcdir) && clang-format --style=file -n --Werror src/*.[ch]

# bench: bench/run.sh on this build's nsrun (as root, on a build without sanitizers):
# start-up p50/p99, sandboxes per second, peak RSS and per-submount cost against
# bubblewrap 0.13.1 (and crun where installed); the summary and an SVG land in OUT.
# RUNS, SUBRUNS, RATE_BATCH, RATE_ROUNDS, OUT, BWRAP and CRUN pass on from make's
# command line or the environment.
bench: nsrun$(EXEEXT)
	bash $(top_srcdir)/bench/run.sh '$(abs_top_builddir)/nsrun$(EXEEXT)'
# Each file by name: a directory named here would be a prerequisite of distdir, which
# the phony target of the same name would then run.
EXTRA_DIST += bench/lib.sh bench/run.sh bench/fallback.sh bench/hide.sh bench/limits.sh bench/policy.sh \
	bench/supervise.sh bench/bridge.sh bench/report.sh bench/pair.c bench/floor.c bench/rate.c \
	bench/overhead.py bench/report.py bench/plot.py

# The reference bwraps for tests/compat and check-upstream, built once per `make check`
# into the build tree from ../shared/oracle beside the source tree, or
# from NSRUN_ORACLE_BWRAP (that folder, or a bwrap binary; environment or make variable).
# Without either, tests/compat use the system bwrap. Never built inside shared/.
# bwrap-oracle is bubblewrap 0.13.1, the release nsrun follows; 0.12.0 and 0.11.1 are
# built beside it for their own test suites (check-upstream) and the older differential runs.
ORACLE_OUT = $(abs_top_builddir)/bwrap-oracle
ORACLE_OLD = 0.12.0 0.11.1
# The reference the suites compare with (check-compat-releases names the older ones).
COMPAT_ORACLE = $(ORACLE_OUT)
check_DATA = oracle-build
oracle-build:
	@$(SHELL) $(top_srcdir)/tests/compat/oracle-build.sh \
		"$${NSRUN_ORACLE_BWRAP:-$(abs_top_srcdir)/../shared/oracle}" '$(ORACLE_OUT)'
	@src="$${NSRUN_ORACLE_BWRAP:-$(abs_top_srcdir)/../shared/oracle}"; \
	if [ -d "$$src" ]; then for v in $(ORACLE_OLD); do \
		$(SHELL) $(top_srcdir)/tests/compat/oracle-build.sh "$$src" '$(ORACLE_OUT)'-$$v $$v || exit 1; \
	done; fi

# check-upstream: the test suites of bubblewrap 0.12.0 and 0.11.1 against nsrun (as bwrap)
# and against bubblewrap 0.13.1, as root and uid 65534; passes when nsrun's per-case
# results equal 0.13.1's.
UPSTREAM_TESTS = $(ORACLE_OLD:%=$(ORACLE_OUT)-%/src/tests)
check-upstream: all oracle-build
	NSRUN_FORCE_ENOSYS='$(NSRUN_FORCE_ENOSYS)' \
	NSRUN_HELPERS='$(abs_top_builddir)/tests/helpers' \
	$(SHELL) $(top_srcdir)/tests/compat/check-upstream.sh '$(abs_top_builddir)/nsrun' \
		'$(ORACLE_OUT)' '$(abs_top_builddir)/check-upstream$(NSRUN_FORCE_ENOSYS:%=-%)' \
		$(UPSTREAM_TESTS)

# check-compat-releases: the differential suites against bubblewrap 0.12.0 and 0.11.1 too,
# where those releases behave as 0.13.1 does (tests/compat/since.sh skips the rest).
check-compat-releases: all oracle-build
	@for v in $(ORACLE_OLD); do \
		echo "check-compat-releases: against bubblewrap $$v"; \
		$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(compat_tests)' COMPAT_ORACLE='$(ORACLE_OUT)'-$$v \
			NSRUN_MUST_WORK=1 || exit 1; \
	done
.PHONY: check-compat-releases

# check-kernels: tests/kernels/guest-checks.sh on Debian's real kernels under
# qemu (../shared/kernels/run-on-kernel; root). NSRUN_KERNELS picks them (default: all four).
NSRUN_KERNELS =
check-kernels: all oracle-build
	NSRUN_ORACLE_BIN='$(ORACLE_OUT)/bwrap' NSRUN_ORACLE_OUT='$(ORACLE_OUT)' \
	$(SHELL) $(top_srcdir)/tests/kernels/check-kernels.sh '$(abs_top_builddir)/nsrun' \
		'$(abs_top_builddir)/check-kernels' $(NSRUN_KERNELS)
.PHONY: check-kernels
EXTRA_DIST += tests/kernels/check-kernels.sh tests/kernels/guest-checks.sh tests/kernels/preload-probe.c \
	tests/integration/initramfs-run.py tests/integration/has-autokill.py

# ---- distribution ---------------------------------------------------------
# The binary the suites test: this build's, or an installed one (make installcheck).
NSRUN_UNDER_TEST = $(abs_top_builddir)/nsrun
# check-build: what a package build can run (no root, no namespaces): unit, meta, fuzz replay.
check-build: all
	$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(unit_tests) $(meta_tests) $(fuzz_tests)'
# distcheck-build: distcheck whose check in the unpacked tarball runs check-build's suites
# and the one integration suite its installcheck runs, whose logs distclean must know
# (CI: the whole suite ran on the same sources, .ci/deb runs integration suites from the
# tarball, and check-dist-files proves the tarball has every tracked file it should).
distcheck-build:
	$(MAKE) $(AM_MAKEFLAGS) distcheck \
		TESTS='$(unit_tests) $(meta_tests) $(fuzz_tests) tests/integration/t-doctor.sh'
# check-dist-files: every file git tracks is in the release tarball, but for the list of
# what stays out of it (CI, the packaging's own copies, git's files); needs a git checkout.
check-dist-files: dist
	$(SHELL) $(top_srcdir)/tests/meta/dist-files.sh $(top_srcdir) $(DIST_ARCHIVES)
.PHONY: distcheck-build check-dist-files
EXTRA_DIST += tests/meta/dist-files.sh
# installcheck: the integration suites against the installed nsrun, with this tree's
# helpers; NSRUN_INSTALLCHECK_TESTS (a configure variable) narrows the list.
installcheck-local:
	$(MAKE) $(AM_MAKEFLAGS) check NSRUN_UNDER_TEST='$(DESTDIR)$(bindir)/nsrun' \
		TESTS='$(or $(NSRUN_INSTALLCHECK_TESTS),$(integration_tests))'
# deb: both Debian packages from the release tarball, into deb/ (packaging/build-deb.sh).
deb: dist
	$(SHELL) $(top_srcdir)/packaging/build-deb.sh '$(abs_top_builddir)/$(PACKAGE)-$(VERSION).tar.xz' \
		'$(abs_top_builddir)/deb'
EXTRA_DIST += packaging
.PHONY: check-build deb

.PHONY: fuzz check-legacy lint format-check oracle-build check-upstream bench

# check-flatpak: Flatpak 1.14's installed tests (Debian's flatpak-tests) and
# tests/compat/flatpak-e2e.sh with FLATPAK_BWRAP = the oracle, nsrun, and a symlink named
# bwrap to nsrun, as root and uid 65534; fails when a test passes with the oracle and not
# with nsrun. FLATPAK_TESTS=sandbox runs every test that starts sandboxes (default: the CI
# set, about five minutes), or names tests; check-flatpak-full runs every installed one.
EXTRA_DIST += tests/compat/check-flatpak.sh tests/compat/flatpak-e2e.sh
FLATPAK_TESTS =
check-flatpak: all oracle-build
	bash $(top_srcdir)/tests/compat/check-flatpak.sh '$(abs_top_builddir)/nsrun' \
		'$(ORACLE_OUT)' '$(abs_top_builddir)/check-flatpak' $(FLATPAK_TESTS)
check-flatpak-full: all oracle-build
	bash $(top_srcdir)/tests/compat/check-flatpak.sh '$(abs_top_builddir)/nsrun' \
		'$(ORACLE_OUT)' '$(abs_top_builddir)/check-flatpak' full
clean-local: clean-check-flatpak
clean-check-flatpak:
	-rm -rf check-flatpak
.PHONY: check-flatpak check-flatpak-full clean-check-flatpak
