# shellcheck shell=bash disable=SC2034 # NS, RUNS and OUT are the sourcing script's
# SPDX-License-Identifier: LGPL-2.1-or-later
# bench/lib.sh: what the bench scripts share (sourced, not run).
#   bench_init NAME DEFAULT_RUNS [NSRUN]: NSRUN (argument, else $NSRUN, else ./nsrun),
#     a plain build of it (sanitizers cost 10x and would be measured), root unless
#     BENCH_ANY_USER=1, RUNS (default DEFAULT_RUNS), and OUT: a scratch directory any
#     user can enter, removed at exit unless the caller named it (OUT=DIR). NS is a copy
#     of nsrun in OUT, as a build tree may be 0700 to other users. A script that
#     starts servers or changes the host defines bench_cleanup, which runs first at exit.
#   bench_table NAME [PAIR OPTIONS] LABEL CMD [LABEL CMD ...]: the cases interleaved
#     round by round (bench/pair.c, so that machine drift lands on every case alike),
#     then overhead.py's table of each case against the first.
BENCH_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)

bench_die() {
	echo "bench/$BENCH.sh: $*" >&2
	exit 1
}

bench_exit() {
	if declare -F bench_cleanup >/dev/null; then bench_cleanup || true; fi
	if [ -n "${BENCH_RM_OUT:-}" ]; then rm -rf "$OUT"; fi
}

bench_init() {
	BENCH=$1
	RUNS=${RUNS:-$2}
	NSRUN=$(readlink -f "${3:-${NSRUN:-./nsrun}}")
	[ -n "${BENCH_ANY_USER:-}" ] || [ "$(id -u)" = 0 ] || bench_die "run as root"
	[ -x "$NSRUN" ] || bench_die "no $NSRUN"
	if ldd "$NSRUN" 2>/dev/null | grep -q 'libasan\|libubsan'; then
		bench_die "$NSRUN is a sanitizer build; configure a plain one"
	fi
	if [ -z "${OUT:-}" ]; then
		OUT=$(mktemp -d "/tmp/nsrun-bench-$BENCH.XXXXXX")
		BENCH_RM_OUT=1
	fi
	mkdir -p "$OUT"
	trap bench_exit EXIT
	chmod 0755 "$OUT"
	cp "$NSRUN" "$OUT/nsrun"
	NS="$OUT/nsrun"
}

bench_table() {
	local name=$1
	shift
	[ -x "$OUT/pair" ] || cc -O2 -o "$OUT/pair" "$BENCH_LIB/pair.c"
	"$OUT/pair" -w 5 -n "$RUNS" -o "$OUT/$name.raw" "$@" >"$OUT/$name.log" 2>&1 ||
		{ cat "$OUT/$name.log" >&2; return 1; }
	python3 "$BENCH_LIB/overhead.py" "$OUT/$name.raw" "$OUT/$name.log" "$name"
}
