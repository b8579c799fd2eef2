#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# bench/run.sh: nsrun against the system bwrap, side by side in the same hyperfine runs.
#   1. the usual desktop-app sandbox, as root and unprivileged (setpriv);
#   2. `--ro-bind / /` with N extra host submounts (N = 0 100 500 1000), made inside a
#      private mount namespace (unshare -m) in which both tools run;
#   3. peak RSS of the launcher (GNU time %M: largest process of the tree);
#   4. the cost of --overlay-hide: one name, and ~all of /usr/bin hidden by five
#      --overlay-allow names (median of >= 100 runs each).
# Usage: bench/run.sh [NSRUN] (default ./nsrun); BWRAP=..., RUNS=N, OUT=DIR.
# Needs root (for setpriv and the submounts), hyperfine and python3. Not a test.
set -eu

NSRUN=$(readlink -f "${1:-${NSRUN:-./nsrun}}")
BWRAP=${BWRAP:-/usr/bin/bwrap}
RUNS=${RUNS:-50}
HIDE_RUNS=${HIDE_RUNS:-100}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
[ "$(id -u)" = 0 ] || { echo "bench/run.sh: run as root" >&2; exit 1; }
command -v hyperfine >/dev/null || { echo "bench/run.sh: hyperfine missing" >&2; exit 1; }
[ -x "$NSRUN" ] && [ -x "$BWRAP" ] || { echo "bench/run.sh: need $NSRUN and $BWRAP" >&2; exit 1; }

OUT=${OUT:-$(mktemp -d /tmp/nsrun-bench.XXXXXX)}
mkdir -p "$OUT"
chmod 0755 "$OUT"
# A copy any user can run (a build tree may be 0700).
cp "$NSRUN" "$OUT/nsrun"
NS="$OUT/nsrun"
UNPRIV=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
SUMMARY="$OUT/summary.txt"
: >"$SUMMARY"

APP=(--ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib --symlink usr/lib64 /lib64
	--proc /proc --dev /dev --unshare-all --die-with-parent)

# median JSON INDEX: the median in ms of hyperfine's INDEX-th command.
median() { "$PY" -c 'import json,sys; print("%.2f" % (json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]["median"]*1000))' "$1" "$2"; }
ratio() { "$PY" -c 'import sys; print("%.2f" % (float(sys.argv[1]) / float(sys.argv[2])))' "$1" "$2"; }
q() { printf '%q ' "$@"; }

# pair NAME RUNS BWRAP-CMD NSRUN-CMD: both commands in one hyperfine run; a summary row.
pair() {
	local name=$1 runs=$2 json="$OUT/$1.json" b n
	hyperfine -N --warmup 3 --runs "$runs" --export-json "$json" \
		-n bwrap "$3" -n nsrun "$4" >"$OUT/$name.log" 2>&1 || {
		echo "bench: $name failed, see $OUT/$name.log" >&2
		printf '%-28s %10s %10s %8s\n' "$name" failed failed - >>"$SUMMARY"
		return 0
	}
	b=$(median "$json" 0)
	n=$(median "$json" 1)
	printf '%-28s %10s %10s %8s\n' "$name" "$b" "$n" "$(ratio "$n" "$b")" >>"$SUMMARY"
}

echo "== 1. desktop-app sandbox"
pair app-root "$RUNS" "$(q "$BWRAP" "${APP[@]}" /bin/true)" "$(q "$NS" "${APP[@]}" /bin/true)"
pair app-unpriv "$RUNS" "$(q "${UNPRIV[@]}" "$BWRAP" "${APP[@]}" /bin/true)" \
	"$(q "${UNPRIV[@]}" "$NS" "${APP[@]}" /bin/true)"

echo "== 2. --ro-bind / / with N host submounts"
for n in 0 100 500 1000; do
	runs=$RUNS
	[ "$n" -ge 500 ] && runs=$((RUNS / 3 > 10 ? RUNS / 3 : 10))
	unshare -m --propagation private bash -c '
		set -e
		mkdir -p "$1/sub"
		for ((i = 0; i < $2; i++)); do
			mkdir -p "$1/sub/$i"
			mount -t tmpfs -o size=64k "bench$i" "$1/sub/$i"
		done
		exec "${@:3}"' bench "$OUT" "$n" \
		hyperfine -N --warmup 2 --runs "$runs" --export-json "$OUT/submounts-$n.json" \
		-n bwrap "$(q "$BWRAP" --ro-bind / / /bin/true)" -n nsrun "$(q "$NS" --ro-bind / / /bin/true)" \
		>"$OUT/submounts-$n.log" 2>&1 || echo "bench: submounts $n failed, see $OUT/submounts-$n.log" >&2
	if [ -s "$OUT/submounts-$n.json" ]; then
		b=$(median "$OUT/submounts-$n.json" 0)
		s=$(median "$OUT/submounts-$n.json" 1)
		printf '%-28s %10s %10s %8s\n' "submounts-$n" "$b" "$s" "$(ratio "$s" "$b")" >>"$SUMMARY"
	fi
done

echo "== 3. peak RSS"
# rss [WRAPPER...] -- CMD...: the largest peak RSS (KiB) of CMD's process tree over five
# runs. GNU time runs inside the wrapper (setpriv), so the wrapper's own memory before it
# execs CMD is not counted against either tool.
rss() {
	local pre=() best=0 v
	while [ "$1" != -- ]; do pre+=("$1"); shift; done
	shift
	for _ in 1 2 3 4 5; do
		v=$("${pre[@]}" /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n1)
		[ "$v" -gt "$best" ] 2>/dev/null && best=$v
	done
	echo "$best"
}
rb=$(rss -- "$BWRAP" "${APP[@]}" /bin/true)
rn=$(rss -- "$NS" "${APP[@]}" /bin/true)
rbu=$(rss "${UNPRIV[@]}" -- "$BWRAP" "${APP[@]}" /bin/true)
rnu=$(rss "${UNPRIV[@]}" -- "$NS" "${APP[@]}" /bin/true)

echo "== 4. overlay-hide cost (nsrun only)"
HP=(--setenv PATH /usr/bin)
ALLOW=()
for a in true sh ls cat env; do ALLOW+=(--overlay-allow "/usr/bin/$a"); done
hyperfine -N --warmup 5 --runs "$HIDE_RUNS" --export-json "$OUT/hide.json" \
	-n plain "$(q "$NS" "${APP[@]}" "${HP[@]}" /bin/true)" \
	-n hide-rm "$(q "$NS" "${APP[@]}" "${HP[@]}" --overlay-hide rm /bin/true)" \
	-n allow-5 "$(q "$NS" "${APP[@]}" "${HP[@]}" "${ALLOW[@]}" /bin/true)" \
	>"$OUT/hide.log" 2>&1 || echo "bench: overlay-hide failed, see $OUT/hide.log" >&2

{
	echo
	echo "nsrun bench: $(uname -r), $(nproc) cpus, bwrap: $("$BWRAP" --version), nsrun: $("$NS" --version)"
	printf '%-28s %10s %10s %8s\n' "case (median ms)" bwrap nsrun ratio
	cat "$SUMMARY"
	printf '%-28s %10s %10s %8s\n' "peak RSS root (KiB)" "$rb" "$rn" "$(ratio "$rn" "$rb")"
	printf '%-28s %10s %10s %8s\n' "peak RSS unpriv (KiB)" "$rbu" "$rnu" "$(ratio "$rnu" "$rbu")"
	if [ -s "$OUT/hide.json" ]; then
		p=$(median "$OUT/hide.json" 0)
		h=$(median "$OUT/hide.json" 1)
		a=$(median "$OUT/hide.json" 2)
		printf '%-28s %10s %10s %8s\n' "overlay-hide (median ms)" plain nsrun "vs plain"
		printf '%-28s %10s %10s %8s\n' "--overlay-hide rm" "$p" "$h" "$(ratio "$h" "$p")"
		printf '%-28s %10s %10s %8s\n' "--overlay-allow x5 (/usr/bin)" "$p" "$a" "$(ratio "$a" "$p")"
		echo "(/usr/bin holds $(ls /usr/bin | wc -l) names; the allowlist hides all but 5)"
	fi
	echo "raw results: $OUT"
} | tee "$OUT/report.txt"
