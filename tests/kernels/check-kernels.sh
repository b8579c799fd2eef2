#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# check-kernels.sh NSRUN LOGDIR [KERNEL...]: `make check-kernels`. Boots each of Debian's
# kernels (default 5.10 6.1 6.12 7.2: Debian 11 to 14) under qemu with this machine's
# userland, through run-on-kernel from ../shared/kernels (NSRUN_RUN_ON_KERNEL names
# another), and runs guest-checks.sh there as root and uid 65534. Passes only when every
# kernel boots and every case passes; a kernel that cannot boot is a failure, not a skip.
# On the kernels in NSRUN_KERNELS_UPSTREAM (default 5.10 6.1, where they once differed;
# "all" for every one) bubblewrap 0.12.0's own test-run.sh runs there too, nsrun's result
# for every case compared with bubblewrap 0.13.1's (tests/compat/check-upstream.sh; it needs the
# oracle build, NSRUN_ORACLE_OUT). Without qemu or the harness it skips (77) with the
# reason, unless NSRUN_MUST_WORK=1 (CI), which fails instead.
set -u
nsrun=$(realpath "$1")
logs=$2
shift 2
kernels=("$@")
[ "${#kernels[@]}" -gt 0 ] || kernels=(5.10 6.1 6.12 7.2)
here=$(cd "$(dirname "$0")" && pwd)
rok=${NSRUN_RUN_ON_KERNEL:-}
if [ -z "$rok" ]; then
	for d in "$here/../../../shared/kernels" "$here/../../shared/kernels"; do
		[ -x "$d/run-on-kernel" ] && rok=$d/run-on-kernel && break
	done
fi
skip_or_fail() {
	echo "check-kernels: $*" >&2
	[ "${NSRUN_MUST_WORK:-0}" = 1 ] && exit 1
	echo "check-kernels: SKIP" >&2
	exit 77
}
if [ -z "$rok" ] || [ ! -x "$rok" ]; then
	skip_or_fail "no run-on-kernel (../shared/kernels beside the tree, or NSRUN_RUN_ON_KERNEL)"
fi
command -v qemu-system-x86_64 >/dev/null || skip_or_fail "qemu-system-x86_64 is not installed"
[ "$(id -u)" = 0 ] || skip_or_fail "run-on-kernel needs root (its 9p export of /)"
upstream=${NSRUN_KERNELS_UPSTREAM:-5.10 6.1}
oracle_out=${NSRUN_ORACLE_OUT:-}
oracle=${NSRUN_ORACLE_BIN:-} # bubblewrap 0.11.1, to compare with where kernels refuse
mkdir -p "$logs"
status=0
# guest-checks' AppArmor case: code a caller preloads (built here; compiling under TCG is slow)
${CC:-cc} -shared -fPIC -o "$logs/preload-probe.so" "$here/preload-probe.c" || exit 1
for k in "${kernels[@]}"; do
	SECONDS=0
	for try in 1 2; do
		"$rok" --timeout 1200 "$k" -- bash "$here/guest-checks.sh" "$nsrun" "$oracle" \
			"$(dirname "$nsrun")/tests/helpers/force-enosys" "$logs/preload-probe.so" \
			>"$logs/$k.log" 2>&1
		rc=$?
		# The guest never got to the checks (software emulation here sometimes panics a
		# kernel at boot): one more boot. Any result of the checks counts as it is.
		grep -q '^# kernel ' "$logs/$k.log" && break
		[ "$try" = 1 ] && echo "check-kernels: $k did not boot (exit $rc); booting it again"
	done
	pass=$(grep -c '^ok ' "$logs/$k.log")
	fail=$(grep -c '^not ok ' "$logs/$k.log")
	printf 'check-kernels: %-5s %s; %d pass, %d fail, exit %d (%ds)\n' "$k" \
		"$(sed -n 's/^# kernel //p' "$logs/$k.log" | head -n1)" "$pass" "$fail" "$rc" "$SECONDS"
	if [ "$rc" -ne 0 ] || [ "$fail" -ne 0 ] || [ "$pass" -eq 0 ]; then
		status=1
		grep -A3 '^not ok ' "$logs/$k.log" | sed 's/^/    /'
		[ "$pass" -eq 0 ] && tail -n 15 "$logs/$k.log" | sed 's/^/    | /'
	fi
	case " $upstream " in *" $k "* | " all ") ;; *) continue ;; esac
	if [ ! -x "$oracle_out/bwrap" ] || [ ! -d "$oracle_out-0.12.0/src/tests" ]; then
		echo "check-kernels: $k: no oracle builds (NSRUN_ORACLE_OUT, and its -0.12.0 beside it) for bubblewrap's test-run.sh"
		status=1
		continue
	fi
	SECONDS=0
	"$rok" --timeout 1800 --env NSRUN_UPSTREAM_SUITES=test-run.sh "$k" -- \
		bash "$here/../compat/check-upstream.sh" "$nsrun" "$oracle_out" /tmp/check-upstream \
		"$oracle_out-0.12.0/src/tests" >"$logs/$k-upstream.log" 2>&1
	rc=$?
	printf 'check-kernels: %-5s bubblewrap test-run.sh, nsrun against the oracle: exit %d (%ds)\n' \
		"$k" "$rc" "$SECONDS"
	grep -E '^(root|unpriv) |^ +nsrun:|^    ' "$logs/$k-upstream.log" | sed 's/^/    /'
	[ "$rc" -eq 0 ] || status=1
done
echo "check-kernels: $([ $status = 0 ] && echo PASS || echo FAIL); logs in $logs"
exit "$status"
