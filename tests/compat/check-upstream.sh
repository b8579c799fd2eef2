#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# check-upstream.sh NSRUN REFERENCE LOGDIR TESTS_DIR...: `make check-upstream`. Runs the
# test suites of bubblewrap's releases (each TESTS_DIR is one release's src/tests, unpacked
# by the oracle build; nothing of them is in this tree: 0.12.0's test-run.sh,
# test-specifying-*.sh, test-seccomp.py and test-sandbox.py, and 0.11.1's first four)
# against nsrun through a symlink named bwrap, and against REFERENCE (the directory of the
# bwrap nsrun follows, 0.13.1) on the same machine, as root and as uid 65534 (as the
# current user only, when not root). It passes only when nsrun's per-case results equal
# the reference's: every case passes, fails or skips as it does for bwrap.
# Logs and the per-case results stay in LOGDIR. With NSRUN_FORCE_ENOSYS=GROUPS (make
# check-legacy) each suite runs under the force-enosys helper (NSRUN_HELPERS), which both
# bwraps inherit, so that nsrun takes its legacy mount(2) path.
set -u
nsrun=$1
oracle=$2
logs=$3
shift 3
test_dirs=("$@")
here=$(cd "$(dirname "$0")" && pwd)
ALL_SUITES=(test-run.sh test-specifying-userns.sh test-specifying-pidns.sh test-seccomp.py test-sandbox.py)
# NSRUN_UPSTREAM_SUITES="test-run.sh": a subset (check-kernels runs that one per kernel)
if [ -n "${NSRUN_UPSTREAM_SUITES:-}" ]; then
	read -r -a ALL_SUITES <<<"$NSRUN_UPSTREAM_SUITES"
fi
UNPRIV=65534
SUITE_TIMEOUT=${NSRUN_UPSTREAM_TIMEOUT:-600}

die() {
	echo "check-upstream: $*" >&2
	exit 2
}

[ -x "$oracle/bwrap" ] ||
	die "no reference bwrap in '$oracle' (it needs ../shared/oracle, or NSRUN_ORACLE_BWRAP naming that folder)"
[ "${#test_dirs[@]}" -gt 0 ] || die "no TESTS_DIR given"
for d in "${test_dirs[@]}"; do
	[ -d "$d" ] || die "no upstream tests in '$d' (the oracle build puts them there)"
done
[ -x "$nsrun" ] || die "no nsrun at '$nsrun'"

# What the suites need, so that a missing tool does not pass as a skip on both sides.
PY=
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null && "$p" -c 'import seccomp' 2>/dev/null; then
		PY=$(command -v "$p")
		break
	fi
done
missing=
[ -n "$PY" ] || missing+=" python3-seccomp"
command -v capsh >/dev/null || [ -x /usr/sbin/capsh ] || missing+=" libcap2-bin"
command -v strace >/dev/null || missing+=" strace"
command -v findmnt >/dev/null || missing+=" util-linux(findmnt)"
[ -z "$missing" ] || die "missing:$missing"

if [ "$(id -u)" = 0 ]; then
	MODES=(root unpriv)
else
	MODES=(user)
fi

# Copies any user can read and run (the build tree may be 0700), in a private directory.
# Not under /tmp: test-sandbox.py runs its helper from here in sandboxes with a private /tmp.
work=$(mktemp -d /var/tmp/nsrun-upstream.XXXXXX) || die "mktemp failed"
trap 'rm -rf "$work"' EXIT
chmod 0755 "$work"
# Each release's tests under its version: tests-0.12.0, tests-0.11.1.
releases=()
for d in "${test_dirs[@]}"; do
	rel=$(basename "$(dirname "$(dirname "$d")")")
	rel=${rel#bwrap-oracle-}
	releases+=("$rel")
	cp -R "$d" "$work/tests-$rel"
done
cp "$here/upstream-unittest.py" "$work/unittest-tap.py"
mkdir "$work/oracle" "$work/nsrun"
cp "$oracle/bwrap" "$work/oracle/bwrap"
cp "$nsrun" "$work/nsrun/nsrun"
ln -s nsrun "$work/nsrun/bwrap"
enosys=${NSRUN_FORCE_ENOSYS:-}
if [ -n "$enosys" ]; then
	[ -x "${NSRUN_HELPERS:-}/force-enosys" ] || die "NSRUN_FORCE_ENOSYS needs the force-enosys helper"
	cp "$NSRUN_HELPERS/force-enosys" "$work/force-enosys"
fi
chmod -R a+rX "$work"
rm -rf "$logs"
mkdir -p "$logs"

# run_suite MODE TOOL RELEASE SUITE: runs one suite, leaves
# LOGDIR/MODE-TOOL-RELEASE-SUITE.{out,err,rc,res}.
run_suite() {
	local mode=$1 tool=$2 rel=$3 suite=$4 base=$logs/$1-$2-$3-$4 cmd
	cmd=(env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/ LANG=C.UTF-8
		BWRAP="$work/$tool/bwrap" BWRAP_MUST_WORK=1
		ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1
		timeout -k 10 "$SUITE_TIMEOUT")
	case $suite in
	*.py) cmd+=("$PY" "$work/unittest-tap.py" "$work/tests-$rel/$suite") ;;
	*) cmd+=(bash "$work/tests-$rel/$suite") ;;
	esac
	[ -n "$enosys" ] && cmd=("$work/force-enosys" "$enosys" -- "${cmd[@]}")
	[ "$mode" = unpriv ] && cmd=(setpriv "--reuid=$UNPRIV" "--regid=$UNPRIV" --clear-groups -- "${cmd[@]}")
	(cd / && "${cmd[@]}" >"$base.out" 2>"$base.err" </dev/null)
	echo $? >"$base.rc"
	# Per-case results: the TAP lines, the plan, the exit status.
	{
		grep -E '^(not )?ok\b|^1\.\.[0-9]+' "$base.out" | sed "s|$work/$tool/bwrap|BWRAP|g"
		echo "exit status $(cat "$base.rc")"
	} >"$base.res"
}

# summary RES: "N ok, N skip, N not ok" of one result file.
summary() {
	local okn skip notok
	okn=$(grep -cE '^ok\b' "$1")
	skip=$(grep -cE '^ok\b.*# SKIP' "$1")
	notok=$(grep -cE '^not ok\b' "$1")
	echo "$((okn - skip)) pass, $skip skip, $notok fail, $(tail -n1 "$1")"
}

ref_version=$("$work/oracle/bwrap" --version)
echo "check-upstream: the tests of bubblewrap ${releases[*]}, reference ($ref_version) vs nsrun as bwrap${enosys:+, both under force-enosys $enosys}"
status=0
start=$SECONDS
for mode in "${MODES[@]}"; do
	for rel in "${releases[@]}"; do
		for suite in "${ALL_SUITES[@]}"; do
			[ -e "$work/tests-$rel/$suite" ] || continue
			t0=$SECONDS
			run_suite "$mode" oracle "$rel" "$suite"
			run_suite "$mode" nsrun "$rel" "$suite"
			o=$logs/$mode-oracle-$rel-$suite n=$logs/$mode-nsrun-$rel-$suite
			if cmp -s "$o.res" "$n.res"; then
				result=same
			else
				result=DIFFERENT
				status=1
			fi
			printf '%-7s %-34s %-9s (%3ss)  oracle: %s\n%53s nsrun:  %s\n' "$mode" "$rel $suite" \
				"$result" "$((SECONDS - t0))" "$(summary "$o.res")" "" "$(summary "$n.res")"
			if [ "$result" = DIFFERENT ]; then
				diff "$o.res" "$n.res" | sed -n 's/^< /    oracle: /p;s/^> /    nsrun:  /p'
				echo "    nsrun's output: $n.{out,err}; the end of its stderr:"
				grep -v '^+' "$n.err" | tail -n 8 | sed 's/^/    | /'
			fi
		done
	done
done
echo "check-upstream: $((SECONDS - start))s; logs in $logs"
if [ "$status" = 0 ]; then
	echo "check-upstream: PASS (nsrun's results equal $ref_version's, case by case)"
else
	echo "check-upstream: FAIL (nsrun's results differ from $ref_version's)"
fi
exit "$status"
