#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-caps.sh: --cap-add/--cap-drop (names, ALL, argument order), nsrun run recursively
# inside its own sandbox, --userns/--pidns joining a running sandbox found through
# --info-fd, and --disable-userns/--assert-userns-disabled.
. "$top_srcdir/tests/integration/lib.sh"
need_ns

ZERO=0000000000000000
# The full set inside a userns: every capability the kernel knows.
LAST_CAP=$(cat /proc/sys/kernel/cap_last_cap)
FULL=$(printf '%016x' $(((1 << (LAST_CAP + 1)) - 1)))
# mask_without BIT: FULL minus one capability.
mask_without() { printf '%016x' $(((1 << (LAST_CAP + 1)) - 1 & ~(1 << $1))); }

# caps_are DESC EXPECTED-INH/PRM/EFF/BND/AMB ARGS...
caps_are() {
	local desc=$1 want=$2 out
	shift 2
	out=$(nsrun --ro-bind / / "$@" "$PROBE" caps 2>&1)
	check_eq "$desc" "$want" "$(get CapInh "$out") $(get CapPrm "$out") $(get CapEff "$out") $(get CapBnd "$out") $(get CapAmb "$out")"
}

test_unpriv_caps() {
	local net_admin=0000000000001000 chown=0000000000000001
	[ "$MODE" = unpriv ] || return 0
	caps_are "default: no capabilities" "$ZERO $ZERO $ZERO $ZERO $ZERO"
	caps_are "--cap-add CAP_NET_ADMIN: all five sets" \
		"$net_admin $net_admin $net_admin $net_admin $net_admin" --cap-add CAP_NET_ADMIN
	caps_are "--cap-add lower-case name" "$chown $chown $chown $chown $chown" --cap-add cap_chown
	caps_are "--cap-add ALL" "$FULL $FULL $FULL $FULL $FULL" --cap-add ALL
	local m
	m=$(mask_without 21)
	caps_are "--cap-add ALL --cap-drop CAP_SYS_ADMIN" "$m $m $m $m $m" --cap-add ALL --cap-drop CAP_SYS_ADMIN
	caps_are "--cap-drop CAP_SYS_ADMIN --cap-add ALL (order)" "$FULL $FULL $FULL $FULL $FULL" \
		--cap-drop CAP_SYS_ADMIN --cap-add ALL
	caps_are "--cap-drop ALL --cap-add CAP_CHOWN" "$chown $chown $chown $chown $chown" \
		--cap-drop ALL --cap-add CAP_CHOWN
	caps_are "--cap-add then --cap-drop ALL" "$ZERO $ZERO $ZERO $ZERO $ZERO" --cap-add CAP_CHOWN --cap-drop ALL
	caps_are "--cap-add with --unshare-all" "$net_admin $net_admin $net_admin $net_admin $net_admin" \
		--unshare-all --cap-add CAP_NET_ADMIN
}
for_each_mode test_unpriv_caps

test_root_caps() {
	local out host
	[ "$MODE" = root ] || return 0
	host=$("$PROBE" caps)
	out=$(nsrun --ro-bind / / --cap-drop ALL "$PROBE" caps 2>&1)
	check_eq "root --cap-drop ALL: nothing permitted or effective" "$ZERO $ZERO $ZERO" \
		"$(get CapPrm "$out") $(get CapEff "$out") $(get CapAmb "$out")"
	out=$(nsrun --ro-bind / / --cap-drop CAP_NET_RAW "$PROBE" caps 2>&1)
	check_eq "root --cap-drop CAP_NET_RAW: dropped from the effective set" 0 \
		$(((0x$(get CapEff "$out") >> 13) & 1))
	check_eq "root --cap-drop CAP_NET_RAW: the rest stays" \
		"$(printf '%016x' $((0x$(get CapEff "$host") & ~(1 << 13))))" "$(get CapEff "$out")"
	out=$(nsrun --ro-bind / / --cap-drop ALL --cap-add CAP_CHOWN "$PROBE" caps 2>&1)
	check_eq "root --cap-drop ALL --cap-add CAP_CHOWN" "0000000000000001 0000000000000001" \
		"$(get CapPrm "$out") $(get CapEff "$out")"
	out=$(nsrun --ro-bind / / --unshare-user --cap-drop ALL "$PROBE" caps 2>&1)
	check_eq "root in a userns --cap-drop ALL" "$ZERO $ZERO" "$(get CapPrm "$out") $(get CapEff "$out")"
}
for_each_mode test_root_caps

test_cap_errors() {
	local out rc
	out=$(bwrap_nsrun --ro-bind / / --cap-add CAP_BOGUS "$PROBE" pid 2>&1)
	rc=$?
	check_eq "unknown capability: exit 1" 1 "$rc"
	check_eq "unknown capability: message" "bwrap: unknown cap: CAP_BOGUS" "$out"
	out=$(bwrap_nsrun --ro-bind / / --cap-drop NOPE "$PROBE" pid 2>&1)
	check_eq "unknown capability in --cap-drop" "bwrap: unknown cap: NOPE" "$out"
}
for_each_mode test_cap_errors

# bwrap's own suite runs the tool inside itself as fake root with every capability.
test_recursive() {
	local out rc
	out=$(nsrun --unshare-user --uid 0 --gid 0 --cap-add ALL --bind / / --bind /proc /proc -- \
		/proc/self/exe --unshare-all --ro-bind / / --proc /proc "$PROBE" pid ids 2>&1)
	rc=$?
	check_eq "recursive: exit 0" 0 "$rc"
	check_eq "recursive: inner payload is pid 2" 2 "$(get pid "$out")"
	check_eq "recursive: inner uid 0" 0 "$(get uid "$out")"
	out=$(nsrun --unshare-user --uid 0 --gid 0 --cap-add ALL --bind / / --bind /proc /proc -- \
		/proc/self/exe --unshare-all --ro-bind / / --tmpfs /mnt --dev /dev --proc /proc \
		"$PROBE" ls /mnt stat /dev/null 2>&1)
	check_match "recursive: inner --dev and --tmpfs" '^stat:/dev/null=chr ' "$out"
}
for_each_mode test_recursive

# Join a running sandbox's user and pid namespaces, found through its --info-fd.
test_join() {
	local w="$TMP/join-$MODE" pid i out bg
	mkdir -p "$w"
	# Long enough for a loaded machine; ended with nsrun (--die-with-parent) below.
	nsrun --ro-bind / / --unshare-user --unshare-pid --die-with-parent --info-fd 3 "$PROBE" sleep 60 \
		3>"$w/info" >/dev/null 2>&1 &
	bg=$!
	for ((i = 0; i < 50; i++)); do
		pid=$(jkey child-pid "$(cat "$w/info" 2>/dev/null)")
		[ -n "$pid" ] && [ -e "/proc/$pid/ns/pid" ] && break
		sleep 0.1
	done
	if [ -z "$pid" ]; then
		not_ok "--info-fd gave the running sandbox's pid"
		kill "$bg" 2>/dev/null
		return
	fi
	out=$(nsrun --userns 3 --pidns 4 --ro-bind / / "$PROBE" ns pid 3<"/proc/$pid/ns/user" \
		4<"/proc/$pid/ns/pid" 2>&1)
	check_eq "--userns: joined the sandbox's user namespace" "$(stat -L -c %i "/proc/$pid/ns/user")" \
		"$(get ns.user "$out")"
	check_eq "--pidns: joined the sandbox's pid namespace" "$(stat -L -c %i "/proc/$pid/ns/pid")" \
		"$(get ns.pid "$out")"
	check_match "--pidns: a new pid in that namespace" '^pid=[3-9]' "$out"
	out=$(nsrun --userns 3 --pidns 4 --unshare-pid --ro-bind / / "$PROBE" ns pid 3<"/proc/$pid/ns/user" \
		4<"/proc/$pid/ns/pid" 2>&1)
	check_eq "--pidns with --unshare-pid: a child pid namespace, pid 2" 2 "$(get pid "$out")"
	kill "$bg" 2>/dev/null
	wait "$bg" 2>/dev/null
}
for_each_mode test_join

test_disable_userns() {
	local out rc
	out=$(nsrun --ro-bind / / --unshare-user "$PROBE" unshare-user 2>&1)
	check_eq "nested userns allowed by default" "unshare-user=ok" "$out"
	out=$(nsrun --ro-bind / / --unshare-user --disable-userns "$PROBE" unshare-user 2>&1)
	check_match "--disable-userns: nested userns refused" '^unshare-user=errno=(ENOSPC|EPERM|EUSERS)$' "$out"
	out=$(nsrun --ro-bind / / --unshare-user --disable-userns --assert-userns-disabled "$PROBE" pid 2>&1)
	rc=$?
	check_eq "--assert-userns-disabled after --disable-userns: exit 0" 0 "$rc"
	out=$(bwrap_nsrun --ro-bind / / --unshare-user --assert-userns-disabled "$PROBE" pid 2>&1)
	rc=$?
	check_eq "--assert-userns-disabled alone: exit 1" 1 "$rc"
	check_eq "--assert-userns-disabled alone: message" \
		"bwrap: creation of new user namespaces was not disabled as requested" "$out"
}
for_each_mode test_disable_userns

done_testing
