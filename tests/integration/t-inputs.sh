#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-inputs.sh: inputs that bwrap 0.11.1 silently drops, truncates or misreads, and that
# nsrun refuses instead, each with exit 1, one clear line and no command run: a COMMAND
# (or an empty entry) inside --args data, a closed or unreadable --block-fd or
# --userns-block-fd, a seccomp program longer than the kernel's 4096 instructions (which
# a 16-bit length would cut short). A --file / --bind-data destination ending in '/' names the
# file without it, as in bwrap 0.12+.
. "$top_srcdir/tests/integration/lib.sh"
need_ns

setup_work() {
	W=$(mode_dir in)
	RW=(--ro-bind / / --bind "$W" "$W")
	rm -f "$W/marker"
}

# refused DESC EXPECTED OUT RC: exit 1, exactly the EXPECTED line, no marker written.
refused() {
	check_eq "$1: exit 1" 1 "$4"
	check_eq "$1: message" "$2" "$3"
	check "$1: command not run" test ! -e "$W/marker"
}

case_args_leftovers() {
	local out rc
	setup_work
	printf -- '--tmpfs\0/mnt\0garbage\0--unshare-net\0' >"$W/args1"
	out=$(nsrun "${RW[@]}" --args 3 "$PROBE" write "$W/marker" 3<"$W/args1" 2>&1)
	rc=$?
	refused "--args with a stray argument before options" \
		"nsrun: Unexpected argument 'garbage' in --args data: COMMAND must be given on the command line" \
		"$out" "$rc"
	# An empty entry (an unset variable in a generator) must not drop what follows it.
	printf -- '--tmpfs\0/mnt\0\0--unshare-net\0' >"$W/args2"
	out=$(nsrun "${RW[@]}" --args 3 "$PROBE" write "$W/marker" 3<"$W/args2" 2>&1)
	rc=$?
	refused "--args with an empty entry" \
		"nsrun: Unexpected argument '' in --args data: COMMAND must be given on the command line" \
		"$out" "$rc"
	printf -- '--unshare-net\0--\0' >"$W/args3"
	out=$(nsrun "${RW[@]}" --args 3 "$PROBE" ns 3<"$W/args3" 2>&1 | grep '^ns\.net=')
	check_match "--args ending in --: accepted" '^ns\.net=[0-9]+$' "$out"
	check "--args ending in --: its --unshare-net applies" \
		[ "$out" != "ns.net=$(stat -L -c %i /proc/self/ns/net)" ]
	# A trailing entry without its NUL is an entry (as in bwrap), not garbage.
	printf -- '--setenv\0FROM_ARGS\0yes' >"$W/args4"
	out=$(nsrun "${RW[@]}" --args 3 "$PROBE" getenv FROM_ARGS 3<"$W/args4" 2>&1)
	check_eq "--args: an unterminated last entry counts" "getenv:FROM_ARGS=yes" "$out"
}
for_each_mode case_args_leftovers

case_sync_fds() {
	local out rc opt
	setup_work
	out=$(nsrun "${RW[@]}" --unshare-pid --block-fd 57 "$PROBE" write "$W/marker" 2>&1)
	rc=$?
	refused "--block-fd on a closed fd" "nsrun: Can't use --block-fd 57: Bad file descriptor" \
		"$out" "$rc"
	# bwrap 0.13.1 holds every --sync-fd and ignores a closed one; so does nsrun.
	out=$(nsrun "${RW[@]}" --unshare-pid --sync-fd 57 "$PROBE" write "$W/marker" 2>&1)
	check_eq "--sync-fd on a closed fd: ignored" "write:$W/marker=ok" "$out"
	rm -f "$W/marker"
	out=$(nsrun "${RW[@]}" --unshare-user --userns-block-fd 57 "$PROBE" write "$W/marker" 2>&1)
	rc=$?
	refused "--userns-block-fd on a closed fd" \
		"nsrun: Can't use --userns-block-fd 57: Bad file descriptor" "$out" "$rc"
	# read(2) fails on a write-only fd: it would not block either.
	out=$(nsrun "${RW[@]}" --block-fd 5 "$PROBE" write "$W/marker" 5>"$W/wo" 2>&1)
	rc=$?
	refused "--block-fd on a write-only fd" "nsrun: Can't use --block-fd 5: Bad file descriptor" \
		"$out" "$rc"
	out=$(nsrun "${RW[@]}" --block-fd 5 "$PROBE" write "$W/marker" 5</dev/null 2>&1)
	check_eq "--block-fd on an open fd at EOF: runs" "write:$W/marker=ok" "$out"
	check "--block-fd on an open fd at EOF: the command ran" test -e "$W/marker"
	rm -f "$W/marker"
	out=$(nsrun "${RW[@]}" --unshare-pid --sync-fd 5 "$PROBE" write "$W/marker" 5>"$W/wo" 2>&1)
	check_eq "--sync-fd on a write-only fd: accepted (it is only held open)" \
		"write:$W/marker=ok" "$out"
	check "--sync-fd on a write-only fd: the command ran" test -e "$W/marker"
}
for_each_mode case_sync_fds

# insns N FILE: a cBPF program "ret ALLOW" followed by N-1 "ret KILL".
insns() {
	local n=$1 f=$2 k="$2.kill"
	printf '\006\000\000\000\000\000\000\000' >"$k"
	# Double the kill instruction up to 65536, then cut to N-1.
	for _ in $(seq 16); do cat "$k" "$k" >"$k.2" && mv "$k.2" "$k"; done
	{ printf '\006\000\000\000\000\000\377\177'; head -c $(((n - 1) * 8)) "$k"; } >"$f"
	rm -f "$k"
}
insns 4096 "$TMP/max.bpf"
insns 4097 "$TMP/over.bpf"
# 65537 instructions: a 16-bit length would make it the 1-instruction "ret ALLOW".
insns 65537 "$TMP/wrap.bpf"

case_seccomp_length() {
	local out rc opt want
	setup_work
	want="nsrun: Unable to set up system call filtering as requested: prctl(PR_SET_SECCOMP)"
	want="$want reported EINVAL. (Hint: this requires a kernel configured with CONFIG_SECCOMP"
	want="$want and CONFIG_SECCOMP_FILTER.)"
	for opt in --seccomp --add-seccomp-fd; do
		out=$(nsrun "${RW[@]}" "$opt" 3 "$PROBE" write "$W/marker" 3<"$TMP/max.bpf" 2>&1)
		check_eq "$opt with 4096 instructions: loads and runs" "write:$W/marker=ok" "$out"
		check "$opt with 4096 instructions: the command ran" test -e "$W/marker"
		rm -f "$W/marker"
		out=$(nsrun "${RW[@]}" "$opt" 3 "$PROBE" write "$W/marker" 3<"$TMP/over.bpf" 2>&1)
		rc=$?
		refused "$opt with 4097 instructions" "$want" "$out" "$rc"
		out=$(nsrun "${RW[@]}" "$opt" 3 "$PROBE" write "$W/marker" 3<"$TMP/wrap.bpf" 2>&1)
		rc=$?
		refused "$opt with 65537 instructions is not cut to 1" "$want" "$out" "$rc"
	done
}
for_each_mode case_seccomp_length

# bwrap 0.12+ drops a trailing '/' of a destination: DEST/ names the file DEST.
case_trailing_slash() {
	local out opt
	setup_work
	for opt in --file --bind-data --ro-bind-data; do
		out=$(echo data | nsrun "${RW[@]}" --tmpfs /mnt "$opt" 0 /mnt/d/ "$PROBE" cat /mnt/d 2>&1)
		check_eq "$opt to a path ending in /: the file without it" 'cat:/mnt/d=data\n' "$out"
	done
}
for_each_mode case_trailing_slash

done_testing
