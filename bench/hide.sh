#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# bench/hide.sh: what --overlay-hide / --overlay-allow add to a sandbox's start-up, as
# root and unprivileged (setpriv to 65534 on a 0755 copy): the same `--ro-bind / / --dev
# /dev` sandbox plain, hiding one name, an allowlist of five in /usr/bin (all the rest
# hidden) and 1000 explicit --overlay-hide /usr/bin/NAME. Prints median and min per case
# and the median overhead over plain in ms. The payload is `sh -c :` everywhere, because
# `true` is itself hidden by the allowlist.
# NAME-form rules apply to every PATH directory, so PATH is fixed (Debian's default; set
# BENCH_PATH to compare another, e.g. "$PATH").
# Usage: bench/hide.sh [NSRUN] (default ./nsrun); RUNS=N (default 150), MODES="root unpriv".
# Needs root (for setpriv), hyperfine and python3. Not a test.
# shellcheck disable=SC2010,SC2012 # /usr/bin names are plain
set -eu

NSRUN=$(readlink -f "${1:-${NSRUN:-./nsrun}}")
RUNS=${RUNS:-150}
MODES=${MODES:-root unpriv}
PATH=${BENCH_PATH:-/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin}
export PATH
[ "$(id -u)" = 0 ] || { echo "bench/hide.sh: run as root" >&2; exit 1; }
command -v hyperfine >/dev/null || { echo "bench/hide.sh: hyperfine missing" >&2; exit 1; }
[ -x "$NSRUN" ] || { echo "bench/hide.sh: no $NSRUN" >&2; exit 1; }

OUT=$(mktemp -d /tmp/nsrun-bench-hide.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
chmod 0755 "$OUT"
cp "$NSRUN" "$OUT/nsrun"
NS="$OUT/nsrun"

BASE=(--ro-bind / / --dev /dev)
PAYLOAD=(sh -c :)
ALLOW=()
for a in ls cat sh python3 env; do ALLOW+=(--overlay-allow "$a"); done
HIDE1000=()
while read -r n; do HIDE1000+=(--overlay-hide "/usr/bin/$n"); done \
	< <(ls /usr/bin | grep -vx -e sh -e dash | head -n 1000)

q() { printf '%q ' "$@"; }

run_mode() {
	local mode=$1 pre=()
	[ "$mode" = unpriv ] && pre=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
	hyperfine -N --warmup 10 --runs "$RUNS" --export-json "$OUT/$mode.json" \
		-n plain "$(q "${pre[@]}" "$NS" "${BASE[@]}" "${PAYLOAD[@]}")" \
		-n "hide 1 (rm)" "$(q "${pre[@]}" "$NS" "${BASE[@]}" --overlay-hide rm "${PAYLOAD[@]}")" \
		-n "allow 5 (/usr/bin)" "$(q "${pre[@]}" "$NS" "${BASE[@]}" "${ALLOW[@]}" "${PAYLOAD[@]}")" \
		-n "hide 1000 explicit" "$(q "${pre[@]}" "$NS" "${BASE[@]}" "${HIDE1000[@]}" "${PAYLOAD[@]}")" \
		>"$OUT/$mode.log" 2>&1 || { cat "$OUT/$mode.log" >&2; return 1; }
	python3 - "$OUT/$mode.json" "$mode" <<'EOF'
import json, statistics, sys
res = json.load(open(sys.argv[1]))["results"]
med = [statistics.median(r["times"]) * 1e3 for r in res]
print(f"[{sys.argv[2]}] {'case':<22} {'median ms':>10} {'min ms':>8} {'overhead ms':>12}")
for r, m in zip(res, med):
    print(f"[{sys.argv[2]}] {r['command']:<22} {m:10.2f} {min(r['times']) * 1e3:8.2f} "
          f"{m - med[0]:12.2f}")
EOF
}

echo "load: $(cut -d' ' -f1-3 /proc/loadavg); /usr/bin holds $(ls /usr/bin | wc -l) names; $RUNS runs"
echo "PATH=$PATH"
for m in $MODES; do run_mode "$m"; done
