#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-timens.sh: --unshare-time, --monotonic and --boottime (nsrun extensions), as root,
# root without a user namespace and uid 65534: the clocks and /proc/uptime read inside
# against the host's read just before and after (the offsets, either sign; the real-time
# clock unchanged), the namespace itself (a time namespace other than the host's, shared
# by pid 1 and the command, with --as-pid-1 and without a pid namespace too; none with
# --unshare-all alone), the status documents' time-namespace, and the refusals: an offset
# without --unshare-time (1), a malformed one (1), one the kernel refuses and no time
# namespace left to make (126, the command never runs). tests/kernels/guest-checks.sh
# runs the effect on other kernels.
. "$top_srcdir/tests/integration/lib.sh"
need_ns
also_without_userns

PY=/usr/bin/python3
[ -x "$PY" ] || skip_all "no /usr/bin/python3"
[ -e /proc/self/ns/time ] || skip_all "this kernel has no time namespaces (Linux 5.6, CONFIG_TIME_NS)"

# One line: the monotonic, boot-time and real-time clocks, /proc/uptime's first field,
# and the time namespace, as this process sees them.
cat >"$TMP/clocks.py" <<'PY'
import os, time
with open("/proc/uptime") as f:
    up = float(f.read().split()[0])
print("%.3f %.3f %.3f %.3f %s" % (time.clock_gettime(time.CLOCK_MONOTONIC),
      time.clock_gettime(time.CLOCK_BOOTTIME), time.time(), up, os.readlink("/proc/self/ns/time")))
PY
HOST_NS=$(readlink /proc/self/ns/time)

# clocks ARGS...: runs clocks.py in a sandbox with ARGS between two readings on the host;
# sets RM RB RR RU to "LO HI", the range the offset of each clock (monotonic, boot-time,
# real-time, /proc/uptime) must lie in for the inside reading to fall between the host's
# two, NS to the namespace and RC to the status.
clocks() {
	local before after inside
	before=$("$PY" "$TMP/clocks.py")
	inside=$(nsrun "$@" --ro-bind / / -- "$PY" "$TMP/clocks.py" 2>&1)
	RC=$?
	after=$("$PY" "$TMP/clocks.py")
	read -r RM RB RR RU NS <<<"$(printf '%s\n%s\n%s\n' "$before" "$inside" "$after" | awk '
		NR == 1 { for (i = 1; i <= 4; i++) b[i] = $i }
		NR == 2 { for (i = 1; i <= 4; i++) v[i] = $i; ns = $5 }
		NR == 3 { for (i = 1; i <= 4; i++) printf "%.3f:%.3f ", v[i] - $i, v[i] - b[i]; print ns }')"
}

# offset_is WANT LO:HI: whether WANT seconds lies in the range (/proc/uptime has 10 ms).
offset_is() {
	awk -v w="$1" -v r="$2" 'BEGIN { split(r, a, ":"); exit !(r != "" && w >= a[1] - 0.02 && w <= a[2] + 0.02) }'
}

test_timens() {
	clocks --unshare-time --monotonic 1000000 --boottime 2000000 --unshare-pid
	check_eq "offsets: exit 0" 0 "$RC"
	check "--monotonic 1000000: CLOCK_MONOTONIC inside is the host's + 1000000 s ($RM)" \
		offset_is 1000000 "$RM"
	check "--boottime 2000000: CLOCK_BOOTTIME inside is the host's + 2000000 s ($RB)" \
		offset_is 2000000 "$RB"
	check "--boottime 2000000: /proc/uptime inside is the host's + 2000000 s ($RU)" \
		offset_is 2000000 "$RU"
	check "the real-time clock does not move ($RR)" offset_is 0 "$RR"
	check "a time namespace other than the host's ($NS)" test -n "$NS" -a "$NS" != "$HOST_NS"
	clocks --unshare-time --monotonic -2 --unshare-pid
	check "--monotonic -2: CLOCK_MONOTONIC inside is 2 s behind ($RM)" offset_is -2 "$RM"
	check "--monotonic alone: CLOCK_BOOTTIME unchanged ($RB)" offset_is 0 "$RB"
	# pid 1 is the command, which was never forked after the namespace was made.
	clocks --unshare-time --boottime 300 --unshare-pid --as-pid-1
	check "--as-pid-1: the command (pid 1) has the offset ($RB)" offset_is 300 "$RB"
	clocks --unshare-time --boottime 300
	check "without a pid namespace (the command is nsrun's child's exec) ($RB)" \
		offset_is 300 "$RB"
	clocks --unshare-time --unshare-pid
	check "--unshare-time alone: a new namespace ($NS)" test -n "$NS" -a "$NS" != "$HOST_NS"
	check "--unshare-time alone: CLOCK_MONOTONIC unchanged ($RM)" offset_is 0 "$RM"
	check "--unshare-time alone: CLOCK_BOOTTIME unchanged ($RB)" offset_is 0 "$RB"
	# --userns: the time namespace is owned by a user namespace the caller made, where
	# the sandbox's process has CAP_SYS_ADMIN as its owner's.
	if [ -z "${NOUSERNS:-}" ]; then
		local holder
		as_user unshare -U --map-root-user sleep 30 &
		holder=$!
		sleep 0.3
		clocks --userns 3 --unshare-time --boottime 700 --unshare-pid 3</proc/"$(pgrep -P "$holder" -x sleep || echo "$holder")"/ns/user
		check "--userns: the offset holds in the joined user namespace ($RC, $RB)" offset_is 700 "$RB"
		kill "$holder" 2>/dev/null
		wait "$holder" 2>/dev/null
	fi
	clocks --unshare-all
	check_eq "--unshare-all makes no time namespace (bubblewrap's set)" "$HOST_NS" "$NS"

	# The status documents: the namespace the command is in, after bubblewrap's fields.
	local d info json ino
	d=$(mode_dir timens)
	nsrun --unshare-time --unshare-pid --info-fd 3 --json-status-fd 4 --ro-bind / / \
		--bind "$d" "$d" sh -c "readlink /proc/self/ns/time > $d/ns" 3>"$d/info" 4>"$d/json"
	ino=$(sed -n 's/^time:\[\([0-9]*\)\]$/\1/p' "$d/ns")
	check "the command's namespace is known ($ino)" test -n "$ino"
	info=$(cat "$d/info")
	json=$(head -n1 "$d/json")
	check_eq "--info-fd: time-namespace is the command's" "$ino" "$(jkey time-namespace "$info")"
	check_eq "--json-status-fd: time-namespace is the command's" "$ino" "$(jkey time-namespace "$json")"
	check_match "--info-fd: time-namespace comes after bubblewrap's fields" \
		'"pid-namespace": [0-9]*, *"time-namespace": [0-9]*}$' "$(tr -d '\n' <"$d/info")"
	nsrun --unshare-pid --info-fd 3 --ro-bind / / true 3>"$d/info2"
	check_nomatch "without --unshare-time: no time-namespace (bubblewrap's document)" \
		time-namespace "$(cat "$d/info2")"

	err_case "--monotonic without --unshare-time" "bwrap: --monotonic requires --unshare-time" \
		--monotonic 5 --ro-bind / / --bind "$(mode_dir err)" "$(mode_dir err)"
	err_case "--boottime without --unshare-time" "bwrap: --boottime requires --unshare-time" \
		--boottime 5 --ro-bind / / --bind "$(mode_dir err)" "$(mode_dir err)"
	err_case "--monotonic 1.5" \
		"bwrap: --monotonic takes whole seconds from -4611686018 to 4611686018, not '1.5'" \
		--unshare-time --monotonic 1.5
	err_case "--boottime past the range" \
		"bwrap: --boottime takes whole seconds from -4611686018 to 4611686018, not '4611686019'" \
		--unshare-time --boottime 4611686019
	# The sandbox's process cannot make the namespace (here: none left to the user
	# namespace nsrun runs in): 126, the command never runs. Root of that namespace
	# makes no nested one of its own, so the limit applies.
	if [ -z "${NOUSERNS:-}" ]; then
		d=$(mode_dir no-timens-left)
		fail_closed "no time namespace left (max_time_namespaces 0)" \
			"Can't create the time namespace: No space left on device" \
			as_user unshare -Ur sh -c 'echo 0 >/proc/sys/user/max_time_namespaces && exec "$@"' \
			sh "$BIN/nsrun" --unshare-time --ro-bind / / --bind "$d" "$d" "$PROBE" write "$d/marker"
	fi
	# Below zero: only the kernel can say, at run time.
	d=$(mode_dir kernel-refuses)
	fail_closed "--monotonic taking the clock below zero" \
		"Can't set the time namespace's offsets .*Numerical result out of range" \
		nsrun --unshare-time --monotonic -4611686018 --ro-bind / / --bind "$d" "$d" \
		"$PROBE" write "$d/marker"
}
for_each_mode test_timens

done_testing
