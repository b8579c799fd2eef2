#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# check-kernels.sh NSRUN LOGDIR [KERNEL...]: `make check-kernels`. Boots each of Debian's
# kernels (default 5.10 6.1 6.12 7.2: Debian 11 to 14) under qemu with this machine's
# userland, through run-on-kernel from ../shared/kernels (NSRUN_RUN_ON_KERNEL names
# another), and runs guest-checks.sh there as root and uid 65534. Passes only when every
# kernel boots and every case passes; a kernel that cannot boot is a failure, not a skip.
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
if [ -z "$rok" ] || [ ! -x "$rok" ]; then
	echo "check-kernels: no run-on-kernel (../shared/kernels beside the tree, or NSRUN_RUN_ON_KERNEL)" >&2
	exit 2
fi
oracle=${NSRUN_ORACLE_BIN:-} # bubblewrap 0.11.1, to compare with where kernels refuse
mkdir -p "$logs"
status=0
for k in "${kernels[@]}"; do
	SECONDS=0
	"$rok" --timeout 1200 "$k" -- bash "$here/guest-checks.sh" "$nsrun" $oracle \
		>"$logs/$k.log" 2>&1
	rc=$?
	pass=$(grep -c '^ok ' "$logs/$k.log")
	fail=$(grep -c '^not ok ' "$logs/$k.log")
	printf 'check-kernels: %-5s %s; %d pass, %d fail, exit %d (%ds)\n' "$k" \
		"$(sed -n 's/^# kernel //p' "$logs/$k.log" | head -n1)" "$pass" "$fail" "$rc" "$SECONDS"
	if [ "$rc" -ne 0 ] || [ "$fail" -ne 0 ] || [ "$pass" -eq 0 ]; then
		status=1
		grep -A3 '^not ok ' "$logs/$k.log" | sed 's/^/    /'
		[ "$pass" -eq 0 ] && tail -n 15 "$logs/$k.log" | sed 's/^/    | /'
	fi
done
echo "check-kernels: $([ $status = 0 ] && echo PASS || echo FAIL); logs in $logs"
exit "$status"
