#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-debug.sh: NSRUN_DEBUG's trace on stderr: one line per step, in the order taken
# (namespaces, each op with the mounts it makes and their flags, the hide plan,
# pivot_root, capabilities, Landlock's ABI and rules, seccomp, exec), from each
# process under its own pid; nothing at all when it is unset or empty.
. "$top_srcdir/tests/integration/lib.sh"
need_ns

# line_of REGEX FILE: the number of the first line matching REGEX, or 0.
line_of() {
	local n
	n=$(grep -n -E -m1 -- "$1" "$2" | cut -d: -f1)
	echo "${n:-0}"
}

setup_fixture() {
	D=$TMP/dbg-$MODE
	mkdir -p "$D/bin" "$D/rw"
	printf '#!/bin/sh\n' >"$D/bin/visible"
	printf '#!/bin/sh\n' >"$D/bin/hidden"
	chmod 0755 "$D/bin/visible" "$D/bin/hidden"
	[ "$MODE" = unpriv ] && chown -R $UNPRIV_UID:$UNPRIV_GID "$D"
	SB=(--unshare-all --ro-bind / / --tmpfs /tmp --ro-bind "$D/bin" "$D/bin"
		--bind "$D/rw" "$D/rw" --proc /proc --dev /dev
		--setenv PATH "$D/bin:/usr/bin:/bin" --overlay-hide hidden)
}

test_trace() {
	local f via ops
	setup_fixture
	f=$D/trace
	NSRUN_DEBUG=1 nsrun "${SB[@]}" --landlock-rw "$D/rw" -- true 2>"$f"
	check_eq "the sandbox runs with the trace on" 0 $?
	check "every line is nsrun[PID]: ..." \
		test "$(grep -c -v -E '^nsrun\[[0-9]+\]: [a-z_]' "$f")" = 0
	ops=$(sed -n 's/^nsrun\[[0-9]*\]: op: //p' "$f")
	check_eq "each op, in the order given" \
		"--ro-bind / /|--tmpfs /tmp|--ro-bind $D/bin $D/bin|--bind $D/rw $D/rw|--proc /proc|--dev /dev" \
		"$(printf '%s\n' "$ops" | paste -sd'|')"
	# The mount an op makes follows it, with its flags and the API that made it.
	case "${NSRUN_FORCE_ENOSYS:-}" in
	*mount-api*) via="mount\(2\)" ;;
	*) via="the fd-based mount API" ;;
	esac
	check_match "--ro-bind: a recursive bind, ro,nosuid,nodev" \
		"^nsrun\[[0-9]+\]: mount: bind \(recursive\), flags ro,nosuid,nodev, via $via$" \
		"$(sed -n '/op: --ro-bind \/ \//{n;p;q}' "$f")"
	check_match "--tmpfs: a new tmpfs, nosuid,nodev" \
		"mount: new tmpfs, flags nosuid,nodev, via $via$" \
		"$(sed -n '/op: --tmpfs \/tmp/{n;p;q}' "$f")"
	check_match "--bind: a writable bind" "mount: bind \(recursive\), flags nosuid,nodev, via $via$" \
		"$(sed -n "\#op: --bind $D/rw#{n;p;q}" "$f")"
	check_match "namespaces named" "namespaces: user mnt pid net ipc uts" "$(cat "$f")"
	check_match "the hide plan: the directory and each name" \
		"hide: $D/bin: whiteouts, hides 1: hidden$" "$(cat "$f")"
	check_match "Landlock's ABI and handled rights" "landlock: ABI [0-9]+, handled fs 0x[0-9a-f]+" \
		"$(cat "$f")"
	check_match "each Landlock rule" "landlock: --landlock-rw $D/rw: access 0x[0-9a-f]+$" \
		"$(cat "$f")"
	check_match "the capabilities kept" "caps: the command keeps 0x[0-9a-f]+" "$(cat "$f")"
	check_match "seccomp" "seccomp: nsrun's guards 0x[0-9a-f]+ .*, then 0 program" "$(cat "$f")"
	check_match "the exec, last" "exec: true$" "$(tail -n1 "$f")"
	# In the order taken.
	check "namespaces < ops < hide < pivot_root < caps < landlock < seccomp < exec" \
		test "$(line_of namespaces: "$f")" -lt "$(line_of 'op: ' "$f")" \
		-a "$(line_of 'op: --dev' "$f")" -lt "$(line_of 'hide: ' "$f")" \
		-a "$(line_of 'hide: ' "$f")" -lt "$(line_of pivot_root "$f")" \
		-a "$(line_of pivot_root "$f")" -lt "$(line_of 'caps: ' "$f")" \
		-a "$(line_of 'caps: ' "$f")" -lt "$(line_of 'landlock: ABI' "$f")" \
		-a "$(line_of 'landlock: enforced' "$f")" -lt "$(line_of 'seccomp: ' "$f")" \
		-a "$(line_of 'seccomp: ' "$f")" -lt "$(line_of 'exec: ' "$f")"
	check "the setup and the command's steps come from the sandbox's pids" \
		grep -q -E '^nsrun\[1\]: pivot_root' "$f"
}
for_each_mode test_trace

test_off() {
	local out
	setup_fixture
	out=$(nsrun "${SB[@]}" -- true 2>&1)
	check_eq "unset: not a line on stderr" "0 " "$? $out"
	out=$(NSRUN_DEBUG='' nsrun "${SB[@]}" -- true 2>&1)
	check_eq "empty: not a line on stderr" "0 " "$? $out"
	# The variable is nsrun's: the command's environment is the caller's, as given.
	out=$(NSRUN_DEBUG=1 nsrun --ro-bind / / -- sh -c 'echo "$NSRUN_DEBUG"' 2>/dev/null)
	check_eq "the command still sees the variable" 1 "$out"
}
for_each_mode test_off

test_names_and_prefix() {
	local out
	setup_fixture
	out=$(NSRUN_DEBUG=1 bwrap_nsrun --ro-bind / / true 2>&1)
	check_match "under the name bwrap, bwrap[PID]:" "^bwrap\[[0-9]+\]: exec: true$" "$out"
	out=$(NSRUN_DEBUG=1 nsrun --level-prefix --ro-bind / / true 2>&1)
	check_match "--level-prefix: debug level <7>" "^<7>nsrun\[[0-9]+\]: exec: true$" "$out"
	out=$(NSRUN_DEBUG=1 nsrun --landlock-only --landlock-rw "$D/rw" -- true 2>&1)
	check_match "--landlock-only: in place, then the rules and the exec" \
		"in place \(--landlock-only\).*landlock: --landlock-rw $D/rw.*exec: true" \
		"$(printf '%s\n' "$out" | paste -sd' ')"
	# A failing step's error still follows the trace of the steps before it.
	out=$(NSRUN_DEBUG=1 nsrun --ro-bind / / --tmpfs "$D/nosuch/x" true 2>&1)
	check_match "a failure: the failing op traced, then the error" \
		"op: --tmpfs $D/nosuch/x.* nsrun: Can't mkdir parents for $D/nosuch/x" \
		"$(printf '%s\n' "$out" | paste -sd' ')"
}
for_each_mode test_names_and_prefix

done_testing
