#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# bench/limits.sh: what the cgroup v2 limits add to start-up, as root (nsrun's default
# parent, /sys/fs/cgroup/nsrun) and unprivileged (uid/gid 65534 with --cgroup-parent, a
# delegated cgroup this script makes), beside bwrap running the same sandbox: bench/run.sh's
# desktop-app sandbox plain, with --memory-max, and with all four limits. The cases run
# interleaved round by round (bench/pair.c). Prints per case the median and min wall ms,
# the median CPU ms of the whole tree and the median overhead over plain nsrun (target:
# at most +1 ms). Needs a host with cgroup v2 controllers: this machine has cgroup v1,
# so run it on one of Debian's kernels, e.g.
#   ../shared/kernels/run-on-kernel 6.12 -- bench/limits.sh _build-bench/nsrun
# (there everything runs 15-20 times slower under qemu's emulation; compare ratios).
# Usage: bench/limits.sh [NSRUN] (default ./nsrun); BWRAP=..., RUNS=N (default 100),
# MODES="root unpriv". Needs root, cc and python3. Not a test.
set -eu

MODES=${MODES:-root unpriv}
BWRAP=${BWRAP:-$(command -v bwrap || true)}
CGD=/sys/fs/cgroup/nsrun-bench
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
[ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ] ||
	{ echo "bench/limits.sh: no cgroup v2 at /sys/fs/cgroup (see the header)" >&2; exit 1; }
bench_cleanup() {
	echo "$$" >/sys/fs/cgroup/cgroup.procs
	rmdir "$CGD/caller" "$CGD" 2>/dev/null
}
bench_init limits 100 "${1:-}"
# The caller in a delegated cgroup, as systemd places a user's processes.
echo "+memory +pids +cpu" >/sys/fs/cgroup/cgroup.subtree_control
mkdir -p "$CGD/caller"
echo "+memory +pids +cpu" >"$CGD/cgroup.subtree_control"
chown -R 65534:65534 "$CGD"
echo "$$" >"$CGD/caller/cgroup.procs"

APP="--ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib --symlink usr/lib64 /lib64"
APP="$APP --proc /proc --dev /dev --unshare-all --die-with-parent"
MEM="--memory-max 1G"
ALL="--memory-max 1G --memory-swap-max 0 --pids-max 1000 --cpu-max 2"

run_mode() {
	local mode=$1 u=() p=""
	[ "$mode" = unpriv ] && u=(-u 65534) && p="--cgroup-parent $CGD"
	local cases=(plain "$NS $APP /bin/true"
		memory "$NS $APP $MEM $p /bin/true"
		all "$NS $APP $ALL $p /bin/true")
	[ -n "$BWRAP" ] && cases+=(bwrap "$BWRAP $APP /bin/true")
	bench_table "$mode" "${u[@]}" "${cases[@]}"
}

echo "kernel $(uname -r); load: $(cut -d' ' -f1-3 /proc/loadavg); $RUNS rounds"
for m in $MODES; do run_mode "$m"; done
echo "(+wall: median of the per-round differences to plain nsrun; +cpu: difference of the medians)"
