#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# bench/hide.sh: what --overlay-hide / --overlay-allow add to a sandbox's start-up, as
# root and unprivileged (uid/gid 65534, no groups, on a 0755 copy): the same
# `--ro-bind / / --dev /dev` sandbox plain, hiding one name, 100 and 1000 explicit
# --overlay-hide /usr/bin/NAME, and an allowlist of five in /usr/bin (all the rest
# hidden). The cases run interleaved round by round (bench/pair.c), so machine drift
# lands on all alike. Prints per case the median and min wall ms, the median CPU ms of
# the whole tree, and the median overhead over plain, wall and CPU. The payload is
# `sh -c :` everywhere, because `true` is itself hidden by the allowlist.
# NAME-form rules apply to every PATH directory, so PATH is fixed (Debian's default; set
# BENCH_PATH to compare another, e.g. "$PATH").
# Usage: bench/hide.sh [NSRUN] (default ./nsrun); RUNS=N (default 100), MODES="root unpriv".
# Needs root, cc and python3. Not a test. Benchmark a build without sanitizers.
# shellcheck disable=SC2010,SC2012 # /usr/bin names are plain
set -eu

MODES=${MODES:-root unpriv}
PATH=${BENCH_PATH:-/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin}
export PATH
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_init hide 100 "${1:-}"

BASE="$NS --ro-bind / / --dev /dev"
PAYLOAD="/bin/sh -c :"
ALLOW=""
for a in ls cat sh python3 env; do ALLOW="$ALLOW --overlay-allow $a"; done
# Explicit names as word files (pair's @FILE): one word per line. Names with glob
# characters ("[") are left out: as a rule they are patterns, which lists the directory.
for n in 100 1000; do
	ls /usr/bin | grep -vx -e sh -e dash | grep -v '[][*?\\]' | head -n "$n" |
		while read -r name; do printf -- '--overlay-hide\n/usr/bin/%s\n' "$name"; done \
			>"$OUT/hide$n.words"
	chmod 0644 "$OUT/hide$n.words"
done

run_mode() {
	local mode=$1 u=()
	[ "$mode" = unpriv ] && u=(-u 65534)
	bench_table "$mode" "${u[@]}" \
		plain "$BASE $PAYLOAD" \
		"hide-1" "$BASE --overlay-hide rm $PAYLOAD" \
		"hide-100" "$BASE @$OUT/hide100.words $PAYLOAD" \
		"hide-1000" "$BASE @$OUT/hide1000.words $PAYLOAD" \
		"allow-5" "$BASE $ALLOW $PAYLOAD"
}

echo "load: $(cut -d' ' -f1-3 /proc/loadavg); /usr/bin holds $(ls /usr/bin | wc -l) names; $RUNS rounds"
echo "PATH=$PATH"
for m in $MODES; do run_mode "$m"; done
echo "(+wall: median of the per-round differences to plain; +cpu: difference of the medians)"
