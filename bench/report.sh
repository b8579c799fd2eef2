#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# bench/report.sh: what --report-fd costs (issue 36), interleaved round by round
# (bench/pair.c) against the same sandbox without it, in namespace mode and with
# --landlock-only, as root and as uid 65534:
#   start     /bin/true: installing the observer and handing its fd over;
#   build     cc -c of nsrun's own sources into the workspace (headers read, which is
#             never trapped; objects written, which is);
#   files     a worst case: 10,000 files created, written and removed in the workspace,
#             every create and remove trapped (and allowed: no entry is written);
#   refused   1,000 creates outside --landlock-rw, each an entry (one name each).
# The report goes to /dev/null through the same wrapper in every case, so that the
# wrapper's cost cancels out. The trapped calls each workload makes are counted with
# strace -f -c where strace exists, to give a cost per trapped call.
# Usage: bench/report.sh [NSRUN] (default ./nsrun); RUNS=N (default 30 for start,
# a fifth of it for the workloads), MODES="root unpriv". Needs root, cc, python3.
# Not a test. Benchmark a build without sanitizers.
set -eu

MODES=${MODES:-root unpriv}
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_init report 30 "${1:-}"
src=$(cd "$BENCH_LIB/../src" && pwd -P)

WS="$OUT/ws"
mkdir -p "$WS/src" "$WS/out" "$WS/tmp" "$OUT/outside"
cp "$src"/*.c "$src"/*.h "$WS/src/"
# config.h as the build wrote it, from the configured tree nsrun was built in.
cfg=$(dirname "$NSRUN")/config.h
[ -f "$cfg" ] || bench_die "no config.h beside $NSRUN (benchmark a build tree's nsrun)"
cp "$cfg" "$WS/src/"
chmod -R a+rwX "$WS"
chmod 0755 "$OUT/outside"
printf '%s\n' 'import os, sys' 'd = sys.argv[1]' 'for i in range(10000):' \
	'    p = os.path.join(d, "f%d" % i)' '    with open(p, "w") as f:' '        f.write("x")' \
	'    os.unlink(p)' >"$OUT/files.py"
printf '%s\n' 'import os, sys' 'for i in range(1000):' '    try:' \
	'        open(os.path.join(sys.argv[1], "r%d" % i), "w")' '    except OSError:' \
	'        pass' >"$OUT/refused.py"
cflags=$(pkg-config --cflags mount libcap 2>/dev/null || true)
printf '%s\n' '#!/bin/sh' "cd $WS/out && rm -f ./*.o && TMPDIR=$WS/tmp exec cc -c -O0 -I$WS/src $cflags \$(ls $WS/src/*.c)" \
	>"$OUT/build.sh"
# The fd the report is written to, opened the same way for every case.
printf '%s\n' '#!/bin/sh' 'exec "$@" 3>/dev/null' >"$OUT/fd3"
chmod 0755 "$OUT"/*.py "$OUT/build.sh" "$OUT/fd3"

NSB="--ro-bind / / --dev /dev --proc /proc --bind $WS $WS --unshare-all --die-with-parent"
NSB="$NSB --landlock-rw $WS --chdir $WS"
LLB="--landlock-only --landlock-rw $WS --die-with-parent --chdir $WS"

workloads() {
	printf '%s\n' "start /bin/true" "build $OUT/build.sh" "files python3 $OUT/files.py $WS" \
		"refused python3 $OUT/refused.py $OUT/outside"
}

run_mode() {
	local mode=$1 u=() name cmd runs
	[ "$mode" = unpriv ] && u=(-u 65534)
	while read -r name cmd; do
		runs=$RUNS
		[ "$name" = start ] || runs=$(((RUNS + 4) / 5))
		RUNS=$runs bench_table "$mode-$name" -w 1 "${u[@]}" \
			ns "$OUT/fd3 $NS $NSB $cmd" \
			ns-report "$OUT/fd3 $NS $NSB --report-fd 3 $cmd"
		RUNS=$runs bench_table "$mode-$name-ll" -w 1 "${u[@]}" \
			ll "$OUT/fd3 $NS $LLB $cmd" \
			ll-report "$OUT/fd3 $NS $LLB --report-fd 3 $cmd"
	done < <(workloads)
}

TRAPPED=open,openat,openat2,creat,mkdir,mkdirat,mknod,mknodat,unlink,unlinkat,rmdir
TRAPPED=$TRAPPED,rename,renameat,renameat2,link,linkat,symlink,symlinkat,truncate

# The calls the observer traps in these sandboxes (no --landlock-exec: execs are not):
# opens for writing, creating or truncating, and the calls that make or remove names.
count_calls() {
	command -v strace >/dev/null || { echo "(no strace: the trapped calls are not counted)"; return; }
	local name cmd
	echo "trapped calls per run, counted outside the sandbox with strace -f:"
	while read -r name cmd; do
		# shellcheck disable=SC2086 # cmd is words
		(cd "$WS" && strace -f -qq -o "$OUT/$name.strace" -e trace=$TRAPPED $cmd \
			>/dev/null 2>&1 || true)
		printf '  %-8s %s\n' "$name" "$(grep -v -E '^[0-9]+ +(open|openat|openat2)\(' "$OUT/$name.strace" |
			grep -c -E '^[0-9]+ +[a-z0-9]+\(' || true) names made or removed, $(grep -E \
			'^[0-9]+ +(open|openat|openat2)\(.*(O_WRONLY|O_RDWR|O_CREAT|O_TRUNC)' "$OUT/$name.strace" |
			wc -l) opens for writing"
	done < <(workloads)
}

echo "kernel $(uname -r); load: $(cut -d' ' -f1-3 /proc/loadavg); $RUNS rounds (workloads: a fifth)"
for m in $MODES; do run_mode "$m"; done
count_calls
echo "(+wall: median of the per-round differences to the first case; +cpu: difference of the medians)"
