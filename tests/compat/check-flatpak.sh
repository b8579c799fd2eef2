#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# check-flatpak.sh NSRUN ORACLE_OUT LOGDIR [ci|sandbox|full|TEST...]: `make check-flatpak`.
# Runs Flatpak's own installed tests (Debian's flatpak-tests, /usr/libexec/installed-tests/
# Flatpak; nothing of them is in this tree) and this tree's flatpak-e2e.sh with
# FLATPAK_BWRAP naming, in turn, the oracle (bubblewrap 0.13.1 from ORACLE_OUT), nsrun
# itself and a symlink named bwrap to nsrun (the three at once), as root and as uid 65534
# (as the current user only, when not root). It prints a per-test table and fails when a
# test passes with the oracle and not with nsrun or the symlink.
#
# ci (the default, what CI runs, about five minutes): as root test-run@user, test-seccomp
# and flatpak-e2e; as uid 65534 flatpak-e2e (joining a running sandbox as the same user).
# These must pass with the oracle too, else the comparison would be empty and the check
# fails. sandbox: every test that starts sandboxes (SANDBOX below), in both modes.
# full: every installed test, in both modes, only compared. TEST...: those, both modes.
# FLATPAK_CHECK_MODES overrides the modes (say "root"). Logs stay in LOGDIR.
set -u
nsrun=$1
oracle=$2
logs=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
INSTALLED=${FLATPAK_INSTALLED_TESTS:-/usr/share/installed-tests/Flatpak}
UNPRIV=65534
TEST_TIMEOUT=${FLATPAK_TEST_TIMEOUT:-900}
# The tests that start sandboxes: `flatpak run` of apps and runtimes, custom runtimes,
# extensions, overrides, seccomp; flatpak-e2e is this tree's tests/compat/flatpak-e2e.sh
# (run --sandbox, enter, portal Spawn with sandbox flags).
SANDBOX=("test-run@user,nodeltas.wrap" test-run-custom@user.wrap test-extensions.sh test-info@user.wrap
	test-override.sh test-seccomp.sh flatpak-e2e)
CI_ROOT=("test-run@user,nodeltas.wrap" test-seccomp.sh flatpak-e2e)
CI_UNPRIV=(flatpak-e2e)
LIBEXEC=${FLATPAK_INSTALLED_LIBEXEC:-/usr/libexec/installed-tests/Flatpak}

die() {
	echo "check-flatpak: $*" >&2
	exit 2
}

[ -d "$INSTALLED" ] ||
	die "Flatpak's installed tests are missing ($INSTALLED): apt-get install flatpak flatpak-tests"
[ -x "$oracle/bwrap" ] ||
	die "no oracle in '$oracle' (it needs ../shared/oracle, or NSRUN_ORACLE_BWRAP naming that folder)"
[ -x "$nsrun" ] || die "no nsrun at '$nsrun'"

selection=${1:-ci}
strict=0
case $# in 0 | 1) ;; *) selection=list ;; esac
case $selection in
ci) strict=1 ;;
sandbox) TESTS=("${SANDBOX[@]}") ;;
full)
	mapfile -t TESTS < <(cd "$INSTALLED" && ls -- *.test | sed 's/\.test$//')
	TESTS+=(flatpak-e2e)
	;;
*)
	selection=list
	TESTS=("$@")
	;;
esac
if [ -n "${FLATPAK_CHECK_MODES:-}" ]; then
	read -ra MODES <<<"$FLATPAK_CHECK_MODES"
elif [ "$(id -u)" = 0 ]; then
	MODES=(root unpriv)
else
	MODES=(user)
fi
# tests_for MODE: the tests of one mode.
tests_for() {
	if [ "$selection" != ci ]; then
		printf '%s\n' "${TESTS[@]}"
	elif [ "$1" = unpriv ]; then
		printf '%s\n' "${CI_UNPRIV[@]}"
	else
		printf '%s\n' "${CI_ROOT[@]}"
	fi
}
TOOLS=(oracle nsrun link)

# Copies any user can run (the build tree may be 0700), in a private directory.
work=$(mktemp -d "${TMPDIR:-/tmp}/nsrun-flatpak.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$work"' EXIT
chmod 0755 "$work"
mkdir "$work/oracle" "$work/nsrun" "$work/link" "$work/runs" "$work/e2e"
cp "$oracle/bwrap" "$work/oracle/bwrap"
cp "$nsrun" "$work/nsrun/nsrun"
ln -s ../nsrun/nsrun "$work/link/bwrap"
# flatpak-e2e.sh sources libtest.sh and runs make-test-*.sh from its own directory.
ln -s "$LIBEXEC"/* "$work/e2e/"
cp "$here/flatpak-e2e.sh" "$work/e2e/test-nsrun-e2e.sh"
chmod -R a+rX "$work"
chmod 1777 "$work/runs"
rm -rf "$logs"
mkdir -p "$logs"

# bin TOOL: what FLATPAK_BWRAP names for TOOL.
bin() {
	case $1 in
	oracle) echo "$work/oracle/bwrap" ;;
	nsrun) echo "$work/nsrun/nsrun" ;;
	link) echo "$work/link/bwrap" ;;
	esac
}

# run_test MODE TOOL TEST: runs one installed test as its .test file says, in a fresh
# empty directory (libtest.sh insists), and leaves LOGDIR/MODE-TOOL-TEST.{log,res}.
run_test() {
	local mode=$1 tool=$2 test=$3 base=$logs/$1-$2-$3 exe dir rc cmd
	if [ "$test" = flatpak-e2e ]; then
		exe="env G_TEST_SRCDIR=$work/e2e G_TEST_BUILDDIR=$work/e2e bash $work/e2e/test-nsrun-e2e.sh --tap"
	else
		exe=$(sed -n 's/^Exec=//p' "$INSTALLED/$test.test" 2>/dev/null)
	fi
	[ -n "$exe" ] || { echo "error no-such-test" >"$base.res"; return; }
	dir=$(mktemp -d "$work/runs/$mode-$tool.XXXXXX")
	cmd=(env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8
		HOME=/nonexistent FLATPAK_BWRAP="$(bin "$tool")" ASAN_OPTIONS=detect_leaks=0
		UBSAN_OPTIONS=print_stacktrace=1 timeout -k 10 "$TEST_TIMEOUT" sh -c "$exe")
	if [ "$mode" = unpriv ]; then
		chown "$UNPRIV:$UNPRIV" "$dir"
		cmd=(setpriv "--reuid=$UNPRIV" "--regid=$UNPRIV" --clear-groups -- "${cmd[@]}")
	fi
	(cd "$dir" && "${cmd[@]}" >"$base.log" 2>&1 </dev/null)
	rc=$?
	rm -rf "$dir"
	result "$base.log" "$rc" >"$base.res"
}

# reap: sandboxes a failed test left running (found by executable: this run's copies).
reap() {
	local p exe
	for p in /proc/[0-9]*; do
		exe=$(readlink "$p/exe" 2>/dev/null) || continue
		case $exe in "$work"/oracle/bwrap | "$work"/nsrun/nsrun) kill -9 "${p#/proc/}" 2>/dev/null ;; esac
	done
	return 0
}

# result LOG RC: "pass N", "skip REASON", "fail N/M" or "error rc=N" for one test's TAP.
result() {
	local okn notok plan
	okn=$(grep -cE '^ok\b' "$1")
	notok=$(grep -cE '^not ok\b' "$1")
	plan=$(grep -m1 -E '^1\.\.[0-9]+' "$1")
	if [[ $plan == 1..0* ]]; then
		echo "skip ${plan#*# SKIP}"
	elif [ "$2" = 0 ] && [ "$notok" = 0 ] && [ "$okn" = "${plan#1..}" ]; then
		echo "pass $okn"
	elif [ "$notok" != 0 ]; then
		echo "fail $notok/${plan#1..}"
	else
		echo "error rc=$2 ($okn/${plan#1..} ok)"
	fi
}

echo "check-flatpak: Flatpak $(flatpak --version 2>/dev/null | sed 's/^Flatpak //')'s installed tests;" \
	"FLATPAK_BWRAP = oracle ($("$work/oracle/bwrap" --version)), nsrun, a symlink bwrap -> nsrun"
printf '%-7s %-34s %-16s %-16s %-16s %s\n' mode test oracle nsrun "bwrap->nsrun" verdict
status=0
start=$SECONDS
for mode in "${MODES[@]}"; do
	mapfile -t mode_tests < <(tests_for "$mode")
	for test in "${mode_tests[@]}"; do
		t0=$SECONDS
		# The three runs at once: each has its own directories, bus and web server.
		for tool in "${TOOLS[@]}"; do
			run_test "$mode" "$tool" "$test" &
		done
		wait
		reap
		o=$(cat "$logs/$mode-oracle-$test.res")
		verdict=same
		if [ "$strict" = 1 ] && [[ $o != pass* ]]; then
			verdict=ORACLE-FAILS
			status=1
		fi
		for tool in nsrun link; do
			r=$(cat "$logs/$mode-$tool-$test.res")
			if [[ $o == pass* && $r != pass* ]]; then
				verdict=REGRESSION
				status=1
			elif [ "$verdict" = same ] && [ "$r" != "$o" ]; then
				verdict=differs
			fi
		done
		printf '%-7s %-34s %-16s %-16s %-16s %s (%ss)\n' "$mode" "$test" "$o" \
			"$(cat "$logs/$mode-nsrun-$test.res")" "$(cat "$logs/$mode-link-$test.res")" \
			"$verdict" "$((SECONDS - t0))"
		if [ "$verdict" = REGRESSION ] || [ "$verdict" = ORACLE-FAILS ]; then
			for tool in "${TOOLS[@]}"; do
				grep -E '^not ok|^Bail out' "$logs/$mode-$tool-$test.log" | sed "s/^/    $tool: /"
			done
			echo "    logs: $logs/$mode-{oracle,nsrun,link}-$test.log"
		fi
	done
done
echo "check-flatpak: $((SECONDS - start))s; logs in $logs"
if [ "$status" = 0 ]; then
	echo "check-flatpak: PASS (every test that passes with the oracle passes with nsrun)"
else
	echo "check-flatpak: FAIL (a test passes with the oracle and not with nsrun, or the oracle failed one of the CI set)"
fi
exit "$status"
