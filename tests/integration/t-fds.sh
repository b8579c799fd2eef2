#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-fds.sh: --info-fd and --json-status-fd contents (exit-code only after a real exec),
# --sync-fd, --block-fd holding the payload, --lock-file held by pid 1 and released
# when the launcher dies, and --args.
. "$top_srcdir/tests/integration/lib.sh"
need_ns

setup_work() {
	W=$(mode_dir fds)
}

test_info_fd() {
	local out info json n rc
	setup_work
	out=$(nsrun --ro-bind / / --unshare-all --info-fd 3 --json-status-fd 4 "$PROBE" ns exit 42 \
		3>"$W/info" 4>"$W/json" 2>&1)
	rc=$?
	info=$(cat "$W/info")
	json=$(cat "$W/json")
	check_eq "payload status with status fds" 42 "$rc"
	check_match "--info-fd: child-pid" '"child-pid": [1-9][0-9]*' "$info"
	check_match "--info-fd: pretty JSON object" '^\{$' "$(printf '%s\n' "$info" | head -n1)"
	for n in ipc mnt net pid uts cgroup; do
		check_eq "--info-fd: $n-namespace is the sandbox's" "$(get ns.$n "$out")" "$(jkey "$n-namespace" "$info")"
		check_eq "--json-status-fd: $n-namespace" "$(get ns.$n "$out")" "$(jkey "$n-namespace" "$json")"
	done
	check_eq "--json-status-fd: same child-pid" "$(jkey child-pid "$info")" "$(jkey child-pid "$json")"
	check_eq "--json-status-fd: two JSON lines" 2 "$(printf '%s\n' "$json" | grep -c '^{.*}$')"
	check_match "--json-status-fd: exit-code line" '^\{ *"exit-code": 42 *\}$' "$(printf '%s\n' "$json" | tail -n1)"
	nsrun --ro-bind / / --json-status-fd 4 / 4>"$W/json" >/dev/null 2>&1
	rc=$?
	json=$(cat "$W/json")
	check_eq "exec failure (a directory): exit 126" 126 "$rc"
	check_match "exec failure: child-pid reported" '"child-pid": [1-9]' "$json"
	check_nomatch "exec failure: no exit-code" 'exit-code' "$json"
	nsrun --ro-bind / / --json-status-fd 4 --bind /nonexistent-src /mnt "$PROBE" exit 3 4>"$W/json" >/dev/null 2>&1
	rc=$?
	check_eq "setup failure: exit 1" 1 "$rc"
	check_nomatch "setup failure: no exit-code" 'exit-code' "$(cat "$W/json")"
	nsrun --ro-bind / / --unshare-pid --json-status-fd 4 "$PROBE" kill-self TERM 4>"$W/json" >/dev/null 2>&1
	check_match "killed payload: exit-code 143" '"exit-code": 143' "$(cat "$W/json")"
	nsrun --ro-bind / / --info-fd 3 "$PROBE" pid 3>"$W/info" >"$W/out" 2>&1
	check_eq "--info-fd without pid namespace: child-pid is the payload" \
		"$(get pid "$(cat "$W/out")")" "$(jkey child-pid "$(cat "$W/info")")"
}
for_each_mode test_info_fd

has_fd3() { printf '%s\n' "$1" | grep -Eq '^fds=(.* )?3( |$)'; }

test_sync_fd() {
	local out
	out=$(nsrun --ro-bind / / --sync-fd 3 "$PROBE" fds 3>/dev/null 2>&1)
	check "--sync-fd: closed in the payload" eval '! has_fd3 "$out"'
	out=$(nsrun --ro-bind / / --unshare-pid --as-pid-1 --sync-fd 3 "$PROBE" fds 3>/dev/null 2>&1)
	check "--sync-fd with --as-pid-1: leaks into the payload" has_fd3 "$out"
	out=$(nsrun --ro-bind / / --unshare-pid --sync-fd 3 "$PROBE" pid 3>/dev/null 2>&1)
	check_eq "--sync-fd: pid 1 holds it, payload is pid 2" pid=2 "$out"
	out=$(nsrun --ro-bind / / --sync-fd 3 "$PROBE" pid 3>/dev/null 2>&1)
	check_match "--sync-fd forces a pid-1 process even without a pid namespace" '^pid=[0-9]+$' "$out"
	# pid 1 holds the write end while the sandbox lives, here kept alive by a background
	# process for 1 s after the launcher returned: the reader sees EOF only then.
	local start end
	start=$(date +%s%N)
	out=$( { nsrun --ro-bind / / --unshare-pid --sync-fd 3 "$PROBE" spawn-bg 1 3>&1 >/dev/null 2>&1; echo "rc=$?"; } | cat)
	end=$(date +%s%N)
	check_eq "--sync-fd: launcher status" "rc=0" "$out"
	check "--sync-fd: held open by pid 1 until the sandbox ends" test $(((end - start) / 1000000)) -ge 900
}
for_each_mode test_sync_fd

test_block_fd() {
	local pid
	setup_work
	rm -f "$W/started" "$W/fifo"
	mkfifo "$W/fifo"
	chmod 0666 "$W/fifo"
	nsrun --ro-bind / / --bind "$W" "$W" --block-fd 3 "$PROBE" write "$W/started" \
		3<"$W/fifo" >/dev/null 2>&1 &
	pid=$!
	exec 8>"$W/fifo"
	sleep 0.5
	check "--block-fd: the payload waits" test ! -e "$W/started"
	printf x >&8
	exec 8>&-
	wait "$pid"
	check_eq "--block-fd: runs after a byte arrives: exit 0" 0 $?
	check "--block-fd: the payload ran" test -e "$W/started"
}
for_each_mode test_block_fd

# lock_free FILE: true when a write lock can be taken at once (nobody holds a lock).
lock_free() {
	"$PYTHON" - "$1" <<'EOF'
import fcntl, sys
with open(sys.argv[1], "r+") as f:
    try:
        fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        sys.exit(1)
EOF
}

test_lock_file() {
	local sh i pre=()
	setup_work
	PYTHON=/usr/bin/python3
	[ -x "$PYTHON" ] || PYTHON=$(command -v python3)
	if [ -z "$PYTHON" ]; then
		skip "--lock-file" "python3 missing"
		return
	fi
	: >"$W/lock"
	chmod 0666 "$W/lock"
	check "lock file free before" lock_free "$W/lock"
	[ "$MODE" = unpriv ] && pre=(setpriv --reuid="$UNPRIV_UID" --regid="$UNPRIV_GID" --clear-groups --)
	"${pre[@]}" sh -c '"$0" --ro-bind / / --bind "$1" "$1" --unshare-pid --die-with-parent \
		--lock-file "$1/lock" "$2" sleep 30 & wait' "$BIN/nsrun" "$W" "$PROBE" >/dev/null 2>&1 &
	sh=$!
	for ((i = 0; i < 50; i++)); do
		lock_free "$W/lock" || break
		sleep 0.1
	done
	check "--lock-file: held while the sandbox runs" eval '! lock_free "$W/lock"'
	kill -9 "$sh"
	wait "$sh" 2>/dev/null
	for ((i = 0; i < 30; i++)); do
		lock_free "$W/lock" && break
		sleep 0.1
	done
	check "--lock-file: released when the launching shell is killed" lock_free "$W/lock"
}
for_each_mode test_lock_file

test_args() {
	local out
	setup_work
	printf -- '--dir\0/mnt/a\0' >"$W/a1"
	printf -- '--dir\0/mnt/b\0--setenv\0FROM_ARGS\0yes\0' >"$W/a2"
	printf -- '--dir\0/mnt/c\0' >"$W/a3"
	out=$(nsrun --ro-bind / / --tmpfs /mnt --args 3 --args 4 --args 5 "$PROBE" ls /mnt getenv FROM_ARGS \
		3<"$W/a1" 4<"$W/a2" 5<"$W/a3" 2>&1)
	check_eq "--args 3 --args 4 --args 5: all applied" "a b c" "$(get ls:/mnt "$out")"
	check_eq "--args: --setenv inside" yes "$(get getenv:FROM_ARGS "$out")"
}
for_each_mode test_args

done_testing
