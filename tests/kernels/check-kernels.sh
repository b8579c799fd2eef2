#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# check-kernels.sh NSRUN LOGDIR [KERNEL...]: `make check-kernels`. Boots each of Debian's
# kernels (default 5.10 6.1 6.12 7.2: Debian 11 to 14) under qemu with this machine's
# userland, through run-on-kernel from ../shared/kernels (NSRUN_RUN_ON_KERNEL names
# another), and runs guest-checks.sh there as root and uid 65534. Passes only when every
# kernel boots and every case passes; a kernel that cannot boot is a failure, not a skip.
# On the kernels in NSRUN_KERNELS_UPSTREAM (default 5.10, the oldest, where nsrun's
# fallbacks run natively; 6.1 once differed too; "all" for every one) bubblewrap 0.12.0's own test-run.sh runs there too, nsrun's result
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
upstream=${NSRUN_KERNELS_UPSTREAM:-5.10}
oracle_out=${NSRUN_ORACLE_OUT:-}
oracle=${NSRUN_ORACLE_BIN:-} # bubblewrap 0.11.1, to compare with where kernels refuse
mkdir -p "$logs"
status=0
# guest-checks' AppArmor case: code a caller preloads (built here; compiling under TCG is slow)
${CC:-cc} -shared -fPIC -o "$logs/preload-probe.so" "$here/preload-probe.c" || exit 1
# guest LOG TIMEOUT KERNEL ARGS...: one guest run (run-on-kernel's options in rok_env), its
# output in LOG, booted once more when it never prints its first line, "# guest up", within
# BOOT_WAIT seconds: software emulation here sometimes panics a kernel at boot or stalls it
# there (RCU stalls with qemu idle, which would last the whole timeout). Whatever a guest
# prints after that line counts as it is.
BOOT_WAIT=${NSRUN_KERNELS_BOOT_WAIT:-420}
rok_env=()
guest() {
	local log=$1 timeout=$2 k=$3 pid waited
	shift 3
	for try in 1 2; do
		setsid "$rok" --timeout "$timeout" "${rok_env[@]}" "$k" -- \
			bash -c 'echo "# guest up"; exec "$@"' guest \
			"$@" >"$log" 2>&1 &
		pid=$!
		waited=0
		while kill -0 "$pid" 2>/dev/null && ! grep -q '^# guest up' "$log" &&
			[ "$waited" -lt "$BOOT_WAIT" ]; do
			sleep 5
			waited=$((waited + 5))
		done
		if ! grep -q '^# guest up' "$log" && kill -0 "$pid" 2>/dev/null; then
			kill -TERM -- "-$pid" 2>/dev/null
			sleep 2
			kill -KILL -- "-$pid" 2>/dev/null
		fi
		wait "$pid"
		rc=$?
		grep -q '^# guest up' "$log" && return 0
		[ "$try" = 1 ] && echo "check-kernels: $k did not boot (exit $rc, ${waited}s); booting it again"
	done
	return 0
}

for k in "${kernels[@]}"; do
	SECONDS=0
	guest "$logs/$k.log" 1200 "$k" bash "$here/guest-checks.sh" "$nsrun" "$oracle" \
		"$(dirname "$nsrun")/tests/helpers/force-enosys" "$logs/preload-probe.so"
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
	rok_env=(--env NSRUN_UPSTREAM_SUITES=test-run.sh)
	guest "$logs/$k-upstream.log" 1800 "$k" \
		bash "$here/../compat/check-upstream.sh" "$nsrun" "$oracle_out" /tmp/check-upstream \
		"$oracle_out-0.12.0/src/tests"
	rok_env=()
	printf 'check-kernels: %-5s bubblewrap test-run.sh, nsrun against the oracle: exit %d (%ds)\n' \
		"$k" "$rc" "$SECONDS"
	grep -E '^(root|unpriv) |^ +nsrun:|^    ' "$logs/$k-upstream.log" | sed 's/^/    /'
	[ "$rc" -eq 0 ] || status=1
done
echo "check-kernels: $([ $status = 0 ] && echo PASS || echo FAIL); logs in $logs"
exit "$status"
