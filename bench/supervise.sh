#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# bench/supervise.sh: what the supervision options add to start-up, as root and
# unprivileged (uid/gid 65534, no groups, on a 0755 copy): bench/run.sh's
# desktop-app sandbox (the seed sandbox) plain, with --timeout, with
# --forward-signals, with two --rlimit, and with all of them. The cases run
# interleaved round by round (bench/pair.c), so machine drift lands on all alike.
# Prints per case the median and min wall ms, the median CPU ms of the whole tree,
# and the median overhead over plain (target: at most +0.3 ms).
# Usage: bench/supervise.sh [NSRUN] (default ./nsrun); RUNS=N (default 200),
# MODES="root unpriv". Needs root, cc and python3. Not a test. Benchmark a build
# without sanitizers.
set -eu

MODES=${MODES:-root unpriv}
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_init supervise 200 "${1:-}"

# bench/run.sh's APP, the payload last (pair splits on spaces).
APP="--ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib --symlink usr/lib64 /lib64"
APP="$APP --proc /proc --dev /dev --unshare-all --die-with-parent"
RL="--rlimit nofile=1024 --rlimit as=4G"

run_mode() {
	local mode=$1 u=()
	[ "$mode" = unpriv ] && u=(-u 65534)
	bench_table "$mode" "${u[@]}" \
		plain "$NS $APP /bin/true" \
		timeout "$NS $APP --timeout 60 /bin/true" \
		forward "$NS $APP --forward-signals /bin/true" \
		rlimit "$NS $APP $RL /bin/true" \
		all "$NS $APP --timeout 60 --forward-signals $RL /bin/true"
}

echo "load: $(cut -d' ' -f1-3 /proc/loadavg); $RUNS rounds"
for m in $MODES; do run_mode "$m"; done
echo "(+wall: median of the per-round differences to plain; +cpu: difference of the medians)"
