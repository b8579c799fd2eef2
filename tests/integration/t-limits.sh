#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-limits.sh: the cgroup v2 limits (--memory-max, --memory-swap-max, --pids-max,
# --cpu-max, --cgroup-parent) on this machine: the usage errors; then, where cgroup v2
# has the memory, pids and cpu controllers, a memory hog and a fork bomb for real (root
# with nsrun's default parent, uid 65534 with a cgroup the test delegates) and nothing
# left behind; where it has not (cgroup v1, as on the CI machine), nsrun's refusal (126,
# saying what is missing) and a skip with the reason. make check-kernels runs the full
# set on Debian's kernels 5.10 to 7.2 (tests/kernels/guest-checks.sh).
. "$top_srcdir/tests/integration/lib.sh"
need_ns

# Not / as a whole: a procfs of the host's anywhere under it is refused with a limit.
SB="--ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib --symlink usr/lib64 /lib64"
SB="$SB --ro-bind /etc /etc --proc /proc --dev /dev --unshare-all --die-with-parent"
CGD=/sys/fs/cgroup/nsrun-t-limits.$$

usage_errors() {
	local out
	out=$(nsrun --memory-max 512 true 2>&1)
	check_eq "--memory-max below 1M: usage error" "1 nsrun: --memory-max: '512' is below 1M" "$? $out"
	out=$(nsrun --memory-max 1.5G true 2>&1)
	check_match "--memory-max with a fraction: usage error" "^1 nsrun: --memory-max takes a SIZE" "$? $out"
	out=$(nsrun --memory-swap-max 12x true 2>&1)
	check_eq "--memory-swap-max not a SIZE: usage error" \
		"1 nsrun: --memory-swap-max takes a SIZE in bytes such as 512M or 2G, not '12x'" "$? $out"
	out=$(nsrun --pids-max 1 true 2>&1)
	check_match "--pids-max 1: usage error" "^1 nsrun: --pids-max takes a number from 2" "$? $out"
	out=$(nsrun --cpu-max 0 true 2>&1)
	check_match "--cpu-max 0: usage error" "^1 nsrun: --cpu-max takes a FRACTION" "$? $out"
	out=$(nsrun --cgroup-parent /sys/fs/cgroup true 2>&1)
	check_match "--cgroup-parent without a limit: usage error" \
		"^1 nsrun: --cgroup-parent requires a limit" "$? $out"
	out=$(nsrun --ro-bind / / --pids-max 9 true 2>&1)
	check_match "a limit without a pid namespace: usage error" \
		"^1 nsrun: --pids-max requires --unshare-pid" "$? $out"
	out=$(nsrun --ro-bind / / --unshare-all --cap-add CAP_SYS_NICE --cpu-max 1 true 2>&1)
	check_match "a limit with --cap-add CAP_SYS_NICE: refused" \
		"^1 nsrun: The cgroup limits cannot be combined with --cap-add" "$? $out"
	out=$(nsrun --landlock-only --landlock-rw /tmp --pids-max 9 true 2>&1)
	check_eq "--landlock-only with a limit: usage error" \
		"1 nsrun: --landlock-only cannot be combined with --pids-max" "$? $out"
}
for_each_mode usage_errors

have_v2() {
	local c
	[ "$(stat -f -c %T /sys/fs/cgroup 2>/dev/null)" = cgroup2fs ] || return 1
	c=" $(cat /sys/fs/cgroup/cgroup.controllers) "
	[[ $c == *" memory "* && $c == *" pids "* && $c == *" cpu "* ]] &&
		grep -q '^[^ ]* /sys/fs/cgroup cgroup2 [^ ]*nsdelegate' /proc/self/mounts
}

refused() {
	local out
	out=$(nsrun $SB --memory-max 64M true 2>&1)
	check_match "no cgroup v2 controllers here: --memory-max refused (126), saying why" \
		"^126 nsrun: .*(cgroup v1|cgroup v2 is not mounted|not available|nsdelegate)" "$? $out"
	# The fix it names may not apply (a boot flag where pid 1 is not systemd): on one line,
	# it also says what works anywhere, and where to look.
	check_match "... on one line, with the run without limits, --rlimit and --doctor" \
		"; or run without the cgroup limits, or bound each process with --rlimit instead \(run 'nsrun --doctor'\)\$" \
		"$out"
	check_eq "... one line" 1 "$(printf '%s\n' "$out" | wc -l)"
	skip "a memory hog and a fork bomb under the limits" \
		"no cgroup v2 memory, pids and cpu controllers on this machine; make check-kernels runs them"
}

# uid 65534 runs from a cgroup below one delegated to it, as systemd places a user. PARENT
# names --cgroup-parent (default: that delegated cgroup for uid 65534, none for root).
lim_nsrun() {
	local cgp=()
	[ -n "${PARENT:-}" ] && cgp=(--cgroup-parent "$PARENT")
	if [ "$MODE" = unpriv ]; then
		[ -z "${PARENT:-}" ] && cgp=(--cgroup-parent "$CGD")
		(echo "$BASHPID" >"$CGD/caller/cgroup.procs" && exec setpriv --reuid=$UNPRIV_UID \
			--regid=$UNPRIV_GID --clear-groups -- "$BIN/nsrun" "${cgp[@]}" "$@")
	else
		"$BIN/nsrun" "${cgp[@]}" "$@"
	fi
}

for_real() {
	local out st="$TMP/st-$MODE" parent=/sys/fs/cgroup/nsrun
	[ "$MODE" = unpriv ] && parent=$CGD
	# shellcheck disable=SC2086
	out=$(lim_nsrun $SB --memory-max 64M --json-status-fd 3 -- \
		python3 -c "x = b'a' * (200 << 20)" 3>"$st" 2>&1)
	check_eq "--memory-max 64M: a 200M hog is OOM-killed" "137 " "$? $out"
	check_match "... and the status says so" '"oom-killed": true' "$(cat "$st")"
	# shellcheck disable=SC2086
	out=$(lim_nsrun $SB --pids-max 8 -- python3 -c '
import os, time
n = 0
try:
    while n < 50:
        if os.fork() == 0:
            time.sleep(3)
            os._exit(0)
        n += 1
except OSError as e:
    print(e.errno, n < 8)' 2>&1)
	check_eq "--pids-max 8: a fork bomb stops (EAGAIN) below 8" "0 11 True" "$? $out"
	check_eq "nothing of nsrun's is left in $parent" "" \
		"$(find "$parent" -mindepth 1 -maxdepth 1 -type d -name 'nsrun-*' 2>/dev/null)"
	populated_parent
}

# A --cgroup-parent with a process of its own: pids alone could be enabled there, and
# nsrun got as far as clone3; refused before anything is written.
populated_parent() {
	local busy="$CGD/busy-$MODE" out before sleeper
	mkdir -p "$busy" && chown $UNPRIV_UID:$UNPRIV_GID "$busy" "$busy/cgroup.subtree_control"
	sleep 100 &
	sleeper=$!
	echo "$sleeper" >"$busy/cgroup.procs"
	before=$(cat "$busy/cgroup.subtree_control" "$CGD/cgroup.subtree_control")
	# shellcheck disable=SC2086
	out=$(PARENT=$busy lim_nsrun $SB --pids-max 9 true 2>&1)
	check_match "a --cgroup-parent holding a process: refused (126), saying why" \
		"^126 nsrun: --cgroup-parent '$busy' holds processes: cgroup v2 lets no process live beside child cgroups" \
		"$? $out"
	check_eq "... and its cgroup.subtree_control is as it was" "$before" \
		"$(cat "$busy/cgroup.subtree_control" "$CGD/cgroup.subtree_control")$(ls -d "$busy"/nsrun-* 2>/dev/null)"
	kill "$sleeper"
	wait "$sleeper" 2>/dev/null
	rmdir "$busy"
}

if ! have_v2; then
	for_each_mode refused
elif echo "+memory +pids +cpu" >/sys/fs/cgroup/cgroup.subtree_control && mkdir -p "$CGD/caller" &&
	echo "+memory +pids +cpu" >"$CGD/cgroup.subtree_control" &&
	chown -R $UNPRIV_UID:$UNPRIV_GID "$CGD"; then
	for_each_mode for_real
	find "$CGD" -depth -type d -exec rmdir {} + 2>/dev/null
else
	MODE=root
	not_ok "a delegated cgroup for uid 65534 could be made in /sys/fs/cgroup"
fi
done_testing
