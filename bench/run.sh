#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# bench/run.sh: nsrun's start-up against bwrap 0.13.1 (the oracle, unpacked from
# ../shared/oracle beside the source tree, else BWRAP or the system bwrap) and util-linux unshare creating
# the same namespaces, interleaved round by round (bench/pair.c) so that the drift of a
# shared machine lands on all three alike:
#   1. the desktop-app sandbox, as root and unprivileged (uid/gid 65534, no groups:
#      what setpriv --reuid=65534 --regid=65534 --clear-groups does, done by the runner
#      so no extra exec is timed); unshare runs `-U -r -m -i -n -p -f -u -C /bin/true`
#      (the namespaces of --unshare-all, no filesystem at all: not a peer); and
#      bench/floor.c makes this very sandbox with nothing else (no parsing, checks,
#      confined walks or fail-closed launch): what the kernel asks for it here. The
#      floor is checked first to give the same mountinfo, ids, caps and /dev as nsrun,
#      else it is left out;
#   2. `--ro-bind / /` with N extra host submounts (N = 0 100 1000, root only), made in
#      a private mount namespace (unshare -m) in which both tools run;
#   3. peak RSS: the largest process of each tree (wait4's ru_maxrss), from the same runs.
# Reported per case: median and min wall ms, median CPU ms (user+system of the whole
# tree), and nsrun's ratios: of medians, and the median of the per-round ratios.
# Benchmark a build without sanitizers (they cost 10x):
#   mkdir _build-bench && cd _build-bench && ../configure && make nsrun && ../bench/run.sh
# Usage: bench/run.sh [NSRUN] (default ./nsrun); BWRAP=..., RUNS=N (default 100), OUT=DIR.
# Needs root, cc and python3. Not a test. --overlay-hide costs: bench/hide.sh.
set -eu

here=$(cd "$(dirname "$0")" && pwd -P)
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
# shellcheck source=bench/lib.sh
# The raw results stay for the reader (the last line names them).
OUT=${OUT:-$(mktemp -d /tmp/nsrun-bench.XXXXXX)}
. "$(dirname "$0")/lib.sh"
bench_init run 100 "${1:-}"
if [ -z "${BWRAP:-}" ]; then
	BWRAP=$("$here/../../shared/oracle/build-bwrap" --version 0.13.1 /tmp/bwrap-oracle-bench-0.13.1 2>/dev/null) ||
		BWRAP=$(command -v bwrap) || { echo "bench/run.sh: no bwrap" >&2; exit 1; }
fi
UNSHARE=$(command -v unshare)

cc -O2 -o "$OUT/pair" "$here/pair.c"
cc -O2 -o "$OUT/floor" "$here/floor.c"
# A copy any user can run (a build tree may be 0700), as bench_init made of nsrun.
cp "$BWRAP" "$OUT/bwrap"
BW="$OUT/bwrap"
FL="$OUT/floor"
SUMMARY="$OUT/summary.txt"
: >"$SUMMARY"

# One line, single spaces: pair splits commands on spaces.
APP="--ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib --symlink usr/lib64 /lib64"
APP="$APP --proc /proc --dev /dev --unshare-all --die-with-parent /bin/true"
UNS="$UNSHARE -U -r -m -i -n -p -f -u -C /bin/true"

# summarize NAME RAW LOG: one summary row from pair's raw times (nsrun's ratios against
# bwrap and, when present, unshare) plus the RSS and CPU columns of pair's own table.
summarize() {
	"$PY" - "$1" "$2" "$3" >>"$SUMMARY" <<'EOF'
import statistics as st, sys
name, raw, log = sys.argv[1:4]
t = {l.split()[0]: [float(x) for x in l.split()[1:]] for l in open(raw)}
cols = {}
for l in open(log):
    p = l.split()
    if len(p) == 8 and p[0] in t:
        cols[p[0]] = (float(p[5]), int(p[6]))
med = {k: st.median(v) for k, v in t.items()}
def ratio(a, b):
    if b not in t:
        return "-", "-"
    return ("%.3f" % (med[a] / med[b]),
            "%.3f" % st.median([x / y for x, y in zip(t[a], t[b])]))
rb, pb = ratio("nsrun", "bwrap")
ru, pu = ratio("nsrun", "unshare")
rf, _ = ratio("nsrun", "floor")
fu = "%.3f" % (med["floor"] / med["unshare"]) if "floor" in t and "unshare" in t else "-"
def cell(k, f):
    return f(k) if k in t else "-"
print("%-16s %8s %8s %8s | %7s %7s | %7s %7s | %7s %7s | %6s %6s %6s | %6s %6s %6s" % (
    name, "%.2f" % med["nsrun"], "%.2f" % med["bwrap"], cell("unshare", lambda k: "%.2f" % med[k]),
    rb, pb, ru, pu, rf, fu,
    "%.1f" % cols["nsrun"][0], "%.1f" % cols["bwrap"][0],
    cell("unshare", lambda k: "%.1f" % cols[k][0]),
    cols["nsrun"][1], cols["bwrap"][1], cell("unshare", lambda k: str(cols[k][1]))))
EOF
}

# bench NAME PAIR-ARGS...: one interleaved run, its summary row.
bench() {
	local name=$1
	shift
	if ! "$@" >"$OUT/$name.log" 2>&1; then
		echo "bench: $name failed, see $OUT/$name.log" >&2
		printf '%-16s failed\n' "$name" >>"$SUMMARY"
		return 0
	fi
	summarize "$name" "$OUT/$name.raw" "$OUT/$name.log"
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
# same_sandbox SETPRIV...: whether the floor's sandbox shows what nsrun's does (mount ids,
# devices and peer groups aside).
same_sandbox() {
	local probe='cat /proc/self/mountinfo; grep -E "^(Cap|Uid|Gid|NoNewPriv)" /proc/self/status
		cat /proc/self/uid_map /proc/self/gid_map; ls -la /dev | sed 1d; echo $$'
	local a b
	a=$("$@" "$NS" ${APP% *} /bin/sh -c "$probe" 2>&1 | sed -E 's/^[0-9]+ [0-9]+ [0-9]+:[0-9]+ //')
	b=$("$@" "$FL" /bin/sh -c "$probe" 2>&1 | sed -E 's/^[0-9]+ [0-9]+ [0-9]+:[0-9]+ //')
	[ -n "$a" ] && [ "$a" = "$b" ]
}

echo "== 1. desktop-app sandbox ($RUNS rounds each)"
for mode in root unpriv; do
	u=() s=()
	[ "$mode" = unpriv ] && u=(-u 65534) s=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	floor=(floor "$FL")
	if ! same_sandbox "${s[@]}"; then
		echo "bench: the floor's $mode sandbox differs from nsrun's: left out" >&2
		floor=()
	fi
	bench "app-$mode" "$OUT/pair" -n "$RUNS" -w 5 "${u[@]}" -o "$OUT/app-$mode.raw" \
		nsrun "$NS $APP" bwrap "$BW $APP" unshare "$UNS" "${floor[@]}"
done

echo "== 2. --ro-bind / / with N host submounts (root)"
for n in 0 100 1000; do
	runs=$RUNS
	[ "$n" -ge 1000 ] && runs=$((RUNS / 3 > 10 ? RUNS / 3 : 10))
	# shellcheck disable=SC2016 # expanded by the inner bash
	bench "submounts-$n" unshare -m --propagation private bash -c '
		set -e
		mkdir -p "$1/sub"
		for ((i = 0; i < $2; i++)); do
			mkdir -p "$1/sub/$i"
			mount -t tmpfs -o size=64k "bench$i" "$1/sub/$i"
		done
		exec "${@:3}"' bench "$OUT" "$n" \
		"$OUT/pair" -n "$runs" -w 2 -o "$OUT/submounts-$n.raw" \
		nsrun "$NS --ro-bind / / /bin/true" bwrap "$BW --ro-bind / / /bin/true"
done

{
	echo
	echo "nsrun bench: $(uname -r), $(nproc) cpus, load $load_before -> $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "bwrap: $BWRAP ($("$BW" --version)); nsrun: $NSRUN ($("$NS" --version | head -n1))"
	echo "unshare: $UNS"
	printf '%-16s %8s %8s %8s | %15s | %15s | %15s | %20s | %20s\n' "" "median" "wall ms" "" \
		"nsrun/bwrap" "nsrun/unshare" "floor" "cpu ms (tree)" "peak RSS KiB"
	printf '%-16s %8s %8s %8s | %7s %7s | %7s %7s | %7s %7s | %6s %6s %6s | %6s %6s %6s\n' case \
		nsrun bwrap unshare median paired median paired ns/fl fl/uns nsrun bwrap unsh nsrun bwrap unsh
	cat "$SUMMARY"
	echo "(median: ratio of the medians; paired: median of the per-round ratios;"
	echo " ns/fl: nsrun over bench/floor.c, fl/uns: the floor over unshare, of the medians)"
	echo "raw results: $OUT"
} | tee "$OUT/report.txt"
