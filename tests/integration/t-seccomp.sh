#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-seccomp.sh: --seccomp and --add-seccomp-fd load compiled cBPF (made by the
# seccomp-deny helper) into the payload, stacked in order, and bwrap's errors for bad
# fds, bad data and mixing the two options, all with exit 1 and no command run.
. "$top_srcdir/tests/integration/lib.sh"
need_ns
also_without_userns


DENY=${NSRUN_HELPERS:-$(dirname "$NSRUN_PROBE")}/seccomp-deny
[ -x "$DENY" ] || skip_all "seccomp-deny helper not built"
F1="$TMP/deny-getpriority.bpf"
F2="$TMP/deny-umask.bpf"
"$DENY" getpriority >"$F1" && "$DENY" umask >"$F2" || skip_all "seccomp-deny failed"
head -c 7 /dev/zero >"$TMP/seven"

test_filters() {
	local out
	out=$(nsrun --ro-bind / / --seccomp 3 "$PROBE" syscall getpriority syscall umask caps 3<"$F1" 2>&1)
	check_eq "--seccomp: denied syscall gets EPERM" errno=EPERM "$(get syscall:getpriority "$out")"
	check_eq "--seccomp: other syscalls allowed" ok "$(get syscall:umask "$out")"
	check_eq "--seccomp: payload is in filter mode" 2 "$(get Seccomp "$out")"
	out=$(nsrun --ro-bind / / --add-seccomp-fd 3 --add-seccomp-fd 4 "$PROBE" syscall getpriority \
		syscall umask syscall sync 3<"$F1" 4<"$F2" 2>&1)
	check_eq "--add-seccomp-fd x2: first filter applies" errno=EPERM "$(get syscall:getpriority "$out")"
	check_eq "--add-seccomp-fd x2: second filter applies" errno=EPERM "$(get syscall:umask "$out")"
	check_eq "--add-seccomp-fd x2: the rest allowed" ok "$(get syscall:sync "$out")"
	out=$(nsrun --ro-bind / / --unshare-pid --seccomp 3 "$PROBE" syscall getpriority pid 3<"$F1" 2>&1)
	check_eq "--seccomp with a reaper" "$(printf 'syscall:getpriority=errno=EPERM\npid=2')" "$out"
	out=$(nsrun --ro-bind / / --seccomp 3 --seccomp 4 "$PROBE" syscall getpriority syscall umask \
		3<"$F1" 4<"$F2" 2>"$TMP/err")
	check_eq "--seccomp twice: only the last counts" \
		"$(printf 'syscall:getpriority=ok\nsyscall:umask=errno=EPERM')" "$out"
	check_eq "--seccomp twice: warning" "bwrap: Only the last --seccomp option will take effect" \
		"$(sed 's/^nsrun:/bwrap:/' "$TMP/err")"
	out=$(nsrun --ro-bind / / "$PROBE" caps 2>&1)
	check_eq "no filter by default" 0 "$(get Seccomp "$out")"
}
for_each_mode test_filters

# err_case (lib.sh); a case that names fd 3, 4 or 5 opens it for itself: one open file
# shared by the cases would keep the offset where the last read left it.
test_errors() {
	local w rw
	w=$(mode_dir err)
	rw=(--ro-bind / / --bind "$w" "$w")
	err_case "--seccomp -1" "bwrap: Invalid fd: -1" "${rw[@]}" --seccomp -1
	err_case "--seccomp 0a" "bwrap: Invalid fd: 0a" "${rw[@]}" --seccomp 0a
	err_case "--add-seccomp-fd -1" "bwrap: Invalid fd: -1" "${rw[@]}" --add-seccomp-fd -1
	err_case "--add-seccomp-fd 0a" "bwrap: Invalid fd: 0a" "${rw[@]}" --add-seccomp-fd 0a
	err_case "--add-seccomp-fd then --seccomp" "bwrap: --seccomp cannot be combined with --add-seccomp-fd" \
		"${rw[@]}" --add-seccomp-fd 3 --seccomp 4 3<"$F1" 4<"$F2"
	err_case "--seccomp then --add-seccomp-fd" "bwrap: --add-seccomp-fd cannot be combined with --seccomp" \
		"${rw[@]}" --seccomp 3 --add-seccomp-fd 4 3<"$F1" 4<"$F2"
	err_case "--seccomp from a closed fd" "~^bwrap: Can't read seccomp data: " "${rw[@]}" --seccomp 9
	err_case "--add-seccomp-fd from a closed fd" "~^bwrap: Can't read seccomp data: " \
		"${rw[@]}" --add-seccomp-fd 9
	err_case "--seccomp of 7 bytes" "bwrap: Invalid seccomp data, must be multiple of 8" \
		"${rw[@]}" --seccomp 5 5<"$TMP/seven"
	err_case "--add-seccomp-fd of 7 bytes" "bwrap: Invalid seccomp data, must be multiple of 8" \
		"${rw[@]}" --add-seccomp-fd 5 5<"$TMP/seven"
}
for_each_mode test_errors

# pid 1 waits in read(2) for the command's exec (it shares pid 1's memory until then):
# a program refusing read must stop the run with an error, not hang it or let the
# command run beside pid 1.
"$DENY" read >"$TMP/deny-read.bpf" || skip_all "seccomp-deny read failed"
test_deny_read() {
	local w out rc
	w=$(mode_dir rd)
	rm -f "$w/marker"
	out=$(as_user timeout 30 "$BIN/nsrun" --ro-bind / / --bind "$w" "$w" --unshare-pid --seccomp 3 \
		"$PROBE" write "$w/marker" 3<"$TMP/deny-read.bpf" 2>&1)
	rc=$?
	check_eq "--seccomp refusing read: exit 1, no hang" 1 "$rc"
	check_match "--seccomp refusing read: message" \
		'pid 1 cannot wait for the command to start: a --seccomp program must allow read' "$out"
	check "--seccomp refusing read: command not run" test ! -e "$w/marker"
}
for_each_mode test_deny_read

# The loopback is set up on a netlink socket that also answers lo's index; bwrap looks lo
# up first with a socket of its own, so where sockets are refused its message is the
# lookup's, and so is nsrun's (an outer sandbox's filter refuses socket(2)).
"$DENY" socket >"$TMP/deny-socket.bpf" || skip_all "seccomp-deny socket failed"
test_deny_socket() {
	local out rc
	out=$(as_user "$BIN/nsrun" --bind / / --seccomp 3 "$BIN/nsrun" --ro-bind / / --unshare-net \
		"$PROBE" pid 3<"$TMP/deny-socket.bpf" 2>&1)
	rc=$?
	check_eq "socket(2) refused, --unshare-net: exit 1" 1 "$rc"
	check_match "socket(2) refused, --unshare-net: bwrap's message" \
		'^nsrun: loopback: Failed to look up lo: ' "$out"
}
for_each_mode test_deny_socket

done_testing
