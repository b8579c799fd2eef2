#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# bench/policy.sh: start-up with a large policy through --args (issue 39), as root and
# unprivileged (uid/gid 65534, no groups): an agent runner's deny list, N
# `--ro-bind /dev/null FILE` over distinct files; its allow list, N `--bind DIR DIR`; and
# N `--overlay-hide FILE`; each at N = 1000, 2000, 5000, 10000 and 20000, on the sandbox
# `--ro-bind / / --dev /dev` running /bin/true. bwrap 0.13.1 runs the binds beside nsrun
# where it can, below its 9000 arguments (1000, 2000 and 2900 binds of 3 arguments).
# The cases run interleaved round by round (bench/pair.c). Prints overhead.py's table
# per mode, then per family the cost per entry (least squares over N, wall and CPU of
# the whole tree), whether it stays linear (the cost per entry of the last step against
# the first; CPU is the steadier on a shared machine) and nsrun over bwrap.
# Usage: bench/policy.sh [NSRUN] (default ./nsrun); BWRAP=..., RUNS=N (default 7),
# MODES="root unpriv", SIZES="1000 2000 5000 10000 20000". Needs root, cc and python3.
# Not a test. Benchmark a build without sanitizers.
set -eu

MODES=${MODES:-root unpriv}
SIZES=${SIZES:-1000 2000 5000 10000 20000}
BWRAP_SIZES="1000 2000 2900"
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_init policy 7 "${1:-}"
if [ -z "${BWRAP:-}" ]; then
	BWRAP=$("$BENCH_LIB/../../shared/oracle/build-bwrap" --version 0.13.1 2>/dev/null ||
		command -v bwrap || true)
fi

# The fixture: as many files and directories as the largest N, readable by any user.
max=0
for n in $SIZES $BWRAP_SIZES; do [ "$n" -gt "$max" ] && max=$n; done
F="$OUT/fix"
mkdir -p "$F/deny" "$F/allow"
(cd "$F/deny" && seq -f 'f%.0f' 0 $((max - 1)) | xargs touch)
(cd "$F/allow" && seq -f 'd%.0f' 0 $((max - 1)) | xargs mkdir)
chmod -R a+rX "$F"
for n in $SIZES $BWRAP_SIZES; do
	printf -- "--ro-bind\0/dev/null\0$F/deny/f%s\0" $(seq 0 $((n - 1))) >"$F/deny$n"
	# shellcheck disable=SC2046 # numbers, one word each
	printf -- "--bind\0$F/allow/d%s\0$F/allow/d%s\0" $(seq 0 $((n - 1)) | sed p) >"$F/allow$n"
	printf -- "--overlay-hide\0$F/deny/f%s\0" $(seq 0 $((n - 1))) >"$F/hide$n"
done
chmod a+r "$F"/*

BASE="--ro-bind / / --dev /dev"
run_mode() {
	local mode=$1 u=() cases=(plain "$NS $BASE /bin/true")
	[ "$mode" = unpriv ] && u=(-u 65534)
	for kind in deny allow hide; do
		for n in $SIZES; do
			cases+=("$kind-$n" "fd3=$F/$kind$n $NS $BASE --args 3 /bin/true")
		done
	done
	if [ -n "$BWRAP" ]; then
		cases+=(bwrap "$BWRAP $BASE /bin/true")
		for kind in deny allow; do
			for n in $BWRAP_SIZES; do
				cases+=("nsrun-$kind-$n" "fd3=$F/$kind$n $NS $BASE --args 3 /bin/true"
					"bwrap-$kind-$n" "fd3=$F/$kind$n $BWRAP $BASE --args 3 /bin/true")
			done
		done
	fi
	bench_table "$mode" "${u[@]}" "${cases[@]}"
	python3 - "$OUT/$mode.raw" "$OUT/$mode.log" "$mode" <<'EOF'
import statistics as st
import sys

t = {l.split()[0]: st.median(float(x) for x in l.split()[1:]) for l in open(sys.argv[1])}
cpu = {p[0]: float(p[5]) for p in (l.split() for l in open(sys.argv[2])) if len(p) == 8 and p[0] in t}
mode = sys.argv[3]


def per_entry(kind, v):
    """Least-squares cost per entry, and the last step's against the first (1.00: linear)."""
    pts = sorted((int(k.split("-")[1]), x - v["plain"]) for k, x in v.items()
                 if k.startswith(kind + "-"))
    mx, my = st.mean(n for n, _ in pts), st.mean(y for _, y in pts)
    slope = sum((n - mx) * (y - my) for n, y in pts) / sum((n - mx) ** 2 for n, _ in pts)
    first = (pts[1][1] - pts[0][1]) / (pts[1][0] - pts[0][0])
    last = (pts[-1][1] - pts[-2][1]) / (pts[-1][0] - pts[-2][0])
    return slope * 1000, last / first, pts[0][0], pts[-1][0]


for kind in ("deny", "allow", "hide"):
    if sum(k.startswith(kind + "-") for k in t) < 2:
        continue
    w, wl, lo, hi = per_entry(kind, t)
    c, cl, _, _ = per_entry(kind, cpu)
    print(f"[{mode}] {kind}, N = {lo}..{hi}: {w:.1f} us wall and {c:.1f} us CPU per entry; "
          f"last step over first {wl:.2f}x wall, {cl:.2f}x CPU (1.00 is linear)")
for kind in ("deny", "allow"):
    for k in sorted((k for k in t if k.startswith(f"nsrun-{kind}-")), key=lambda k: int(k.split("-")[2])):
        b = "bwrap" + k[len("nsrun"):]
        if b in t:
            n = int(k.split("-")[2])
            print(f"[{mode}] {kind} {n} binds ({3 * n} arguments): nsrun {t[k]:.1f} ms, "
                  f"bwrap {t[b]:.1f} ms ({t[k] / t[b]:.2f}x); per bind over the plain "
                  f"sandbox: nsrun {(t[k] - t['plain']) / n * 1000:.1f} us, bwrap "
                  f"{(t[b] - t['bwrap']) / n * 1000:.1f} us")
EOF
}

echo "kernel $(uname -r); load: $(cut -d' ' -f1-3 /proc/loadavg); $RUNS rounds; bwrap: ${BWRAP:-none}"
for m in $MODES; do run_mode "$m"; done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "(+wall: median of the per-round differences to plain; +cpu: difference of the medians)"
