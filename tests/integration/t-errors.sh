#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-errors.sh: bwrap's error texts with exit 1 and no command run, usage and --help,
# --version, the "bwrap:"/"nsrun:" prefix by program name, --level-prefix, and the
# refusal to run setuid.
. "$top_srcdir/tests/integration/lib.sh"
need_ns

# err_last DESC EXPECTED ARGS...: err_case (lib.sh) for an error in the last option (no
# command).
err_last() {
	local out rc
	out=$(bwrap_nsrun "${@:3}" 2>&1 >"$W/stdout")
	rc=$?
	check_eq "$1: exit 1" 1 "$rc"
	check_eq "$1: message" "$2" "$out"
}

# W: err_case's directory (lib.sh), which RW binds.
setup_work() {
	W=$(mode_dir err)
	RW=(--ro-bind / / --bind "$W" "$W")
}

test_messages() {
	setup_work
	err_case "unknown option" "bwrap: Unknown option --no-such-option" --no-such-option
	err_case "--opt=value is not accepted" "bwrap: Unknown option --bind=/" --bind=/ /
	err_case "unknown short option" "bwrap: Unknown option -x" -x
	err_last "missing argument" "bwrap: --chdir takes one argument" "${RW[@]}" --chdir
	err_last "missing second argument" "bwrap: --bind takes two arguments" --bind /
	err_case "--hostname without --unshare-uts" "bwrap: Specifying --hostname requires --unshare-uts" \
		"${RW[@]}" --hostname x
	err_case "--as-pid-1 without --unshare-pid" "bwrap: Specifying --as-pid-1 requires --unshare-pid" \
		"${RW[@]}" --as-pid-1
	err_case "--as-pid-1 with --lock-file" "bwrap: Specifying --as-pid-1 and --lock-file is not permitted" \
		"${RW[@]}" --unshare-pid --as-pid-1 --lock-file /x
	err_case "--perms then a bind" "bwrap: --perms must be followed by an option that creates a file" \
		"${RW[@]}" --perms 0700 --bind / /mnt
	err_case "--size then --dir" "bwrap: --size must be followed by --tmpfs" "${RW[@]}" --size 100 --dir /x
	err_case "--userns-block-fd without --unshare-user" "bwrap: --userns-block-fd requires --unshare-user" \
		"${RW[@]}" --userns-block-fd 0
	err_case "--disable-userns without --unshare-user" "bwrap: --disable-userns requires --unshare-user" \
		"${RW[@]}" --disable-userns
	err_case "--userns with --unshare-user" "bwrap: --userns is not compatible with --unshare-user" \
		"${RW[@]}" --userns 0 --unshare-user
	err_case "invalid uid" "bwrap: Invalid uid: x" "${RW[@]}" --unshare-user --uid x
	err_case "invalid fd" "bwrap: Invalid fd: x" "${RW[@]}" --info-fd x
	err_case "--args from a closed fd" "bwrap: Can't read --args data: Bad file descriptor" "${RW[@]}" --args 99
	err_case "missing source" "bwrap: Can't find source path /nonexistent-src: No such file or directory" \
		"${RW[@]}" --bind /nonexistent-src /mnt
	err_case "--chdir to a missing directory" "bwrap: Can't chdir to /nonexistent: No such file or directory" \
		"${RW[@]}" --chdir /nonexistent
	err_case "--assert-userns-disabled when it is not" \
		"bwrap: creation of new user namespaces was not disabled as requested" "${RW[@]}" --assert-userns-disabled
	err_case "--exec-label without SELinux" "bwrap: labeling not supported on this system" \
		"${RW[@]}" --exec-label system_u:system_r:x:s0
	if [ "$MODE" = root ]; then
		err_case "--uid without a userns (root)" "bwrap: Specifying --uid requires --unshare-user or --userns" \
			"${RW[@]}" --uid 5
	fi
}
for_each_mode test_messages

test_exec_failure() {
	local out rc
	setup_work
	out=$(bwrap_nsrun --ro-bind / / /nonexistent-cmd 2>&1)
	rc=$?
	check_eq "exec failure: exit 1" 1 "$rc"
	check_eq "exec failure: message" "bwrap: execvp /nonexistent-cmd: No such file or directory" "$out"
	out=$(bwrap_nsrun --ro-bind / / --setenv PATH /nonexistent ls 2>&1)
	check_eq "exec uses the sandbox PATH" "bwrap: execvp ls: No such file or directory" "$out"
	out=$(bwrap_nsrun --ro-bind / / -- "$PROBE" pid 2>&1)
	check_match "-- ends the options" '^pid=' "$out"
	out=$(bwrap_nsrun --ro-bind / / --setenv PATH /nonexistent -- --dev-bind / / 2>&1)
	check_eq "after --, an option name is the command" "bwrap: execvp --dev-bind: No such file or directory" "$out"
	# Under its own name: env(1)'s contract, so that a caller can tell these from the
	# command's own exit 1, in a sandbox and in place.
	local how
	printf '#!/nonexistent-interp\necho ran\n' >"$W/no-interp"
	chmod 755 "$W/no-interp"
	for how in "--ro-bind / /" "--ro-bind / / --unshare-pid" "--landlock-only --landlock-rw /tmp"; do
		# shellcheck disable=SC2086
		out=$(nsrun $how -- /nonexistent-cmd 2>&1)
		check_eq "nsrun $how: not found: 127 and bwrap's message" \
			"127 nsrun: execvp /nonexistent-cmd: No such file or directory" "$? $out"
		# shellcheck disable=SC2086
		out=$(nsrun $how -- /etc/passwd 2>&1)
		check_eq "nsrun $how: not executable: 126" \
			"126 nsrun: execvp /etc/passwd: Permission denied" "$? $out"
		# A #! line naming a missing interpreter: execve's ENOENT, not found as for env(1).
		# shellcheck disable=SC2086
		out=$(nsrun $how -- "$W/no-interp" 2>&1)
		check_eq "nsrun $how: a missing #! interpreter: 127, as env(1)" \
			"127 nsrun: execvp $W/no-interp: No such file or directory" "$? $out"
		# shellcheck disable=SC2086
		nsrun $how -- sh -c 'exit 1'
		check_eq "nsrun $how: the command's own 1 stays 1" 1 "$?"
	done
}
for_each_mode test_exec_failure

test_usage() {
	local out err rc
	out=$(bwrap_nsrun 2>"$TMP/err")
	rc=$?
	err=$(cat "$TMP/err")
	check_eq "no arguments: exit 1" 1 "$rc"
	check_eq "no arguments: nothing on stdout" "" "$out"
	check_match "no arguments: usage on stderr" "^usage: $BIN/bwrap \\[OPTIONS\\.\\.\\.\\] \\[--\\] COMMAND \\[ARGS\\.\\.\\.\\]" "$err"
	out=$(bwrap_nsrun --ro-bind / / 2>"$TMP/err")
	rc=$?
	check_eq "no command: exit 1" 1 "$rc"
	check_match "no command: usage on stderr" "^usage: " "$(cat "$TMP/err")"
	out=$(bwrap_nsrun --help 2>"$TMP/err")
	rc=$?
	check_eq "--help: exit 0" 0 "$rc"
	check_eq "--help: first line on stdout" "usage: $BIN/bwrap [OPTIONS...] [--] COMMAND [ARGS...]" \
		"$(printf '%s\n' "$out" | head -n1)"
	check_match "--help: lists options" '^ *--ro-bind SRC DEST' "$out"
	check_eq "--help: nothing on stderr" "" "$(cat "$TMP/err")"
	out=$(nsrun --help 2>/dev/null)
	check_eq "--help as nsrun: usage names nsrun" "usage: $BIN/nsrun [OPTIONS...] [--] COMMAND [ARGS...]" \
		"$(printf '%s\n' "$out" | head -n1)"
	out=$(bwrap_nsrun --version 2>&1)
	rc=$?
	check_eq "--version: exit 0" 0 "$rc"
	check_match "--version as bwrap" '^bubblewrap [0-9]+\.[0-9]+\.[0-9]+' "$out"
	out=$(nsrun --version 2>&1)
	check_match "--version as nsrun" '^nsrun ' "$out"
}
for_each_mode test_usage

test_prefix() {
	local out rc
	out=$(nsrun --ro-bind / / --bind /nonexistent-src /mnt "$PROBE" pid 2>&1)
	check_eq "nsrun name: nsrun: prefix" "nsrun: Can't find source path /nonexistent-src: No such file or directory" "$out"
	out=$(bwrap_nsrun --level-prefix --ro-bind / / --bind /nonexistent-src /mnt "$PROBE" pid 2>&1)
	rc=$?
	check_eq "--level-prefix: error exit 1" 1 "$rc"
	check_eq "--level-prefix: <3> on errors" \
		"<3>bwrap: Can't find source path /nonexistent-src: No such file or directory" "$out"
	out=$(bwrap_nsrun --ro-bind / / --chdir / --chdir / "$PROBE" pid 2>&1 >/dev/null)
	check_eq "warning text" "bwrap: Only the last --chdir option will take effect" "$out"
	out=$(bwrap_nsrun --level-prefix --ro-bind / / --chdir / --chdir / "$PROBE" pid 2>&1 >/dev/null)
	check_eq "--level-prefix: <4> on warnings" "<4>bwrap: Only the last --chdir option will take effect" "$out"
}
for_each_mode test_prefix

# nsrun has no setuid mode: a setuid-root copy run by an ordinary user must refuse.
test_setuid() {
	local d out rc opts
	if ! is_root; then
		skip "setuid refusal" "making a setuid-root copy needs root"
		return
	fi
	for d in "$TMP" /var/tmp /root /usr/local/lib; do
		opts=$(findmnt -no OPTIONS -T "$d" 2>/dev/null)
		case ",$opts," in *,nosuid,*) continue ;; esac
		d=$(mktemp -d "$d/nsrun-suid.XXXXXX") || continue
		break
	done
	case ",$opts," in
	*,nosuid,*)
		skip "setuid refusal" "no file system without nosuid"
		return
		;;
	esac
	chmod 0755 "$d"
	cp "$BIN/nsrun" "$d/nsrun"
	chown root:root "$d/nsrun"
	chmod 4755 "$d/nsrun"
	MODE=unpriv
	setup_work
	out=$(as_user "$d/nsrun" --ro-bind / / --bind "$W" "$W" "$PROBE" write "$W/marker" 2>&1)
	rc=$?
	check_eq "setuid: exit 1" 1 "$rc"
	check_match "setuid: a clear message" '^nsrun: .*setuid' "$out"
	check "setuid: no sandbox, command not run" test ! -e "$W/marker"
	MODE=root
	rm -rf "$d"
}
test_setuid

# Under nsrun's own name a usage error points on; under bwrap's, bwrap's words exactly.
test_pointers() {
	local out
	out=$(nsrun --timeout=5 --unshare-pid true 2>&1)
	check_eq "--timeout=5: says the value goes in the next argument" \
		"1 nsrun: Unknown option --timeout=5: the value goes in the next argument (--timeout 5)" \
		"$? $out"
	out=$(nsrun --frobnicate true 2>&1)
	check_eq "an unknown option points to --help" \
		"1 nsrun: Unknown option --frobnicate (see nsrun --help)" "$? $out"
	out=$(bwrap_nsrun --timeout=5 true 2>&1)
	check_eq "... but as bwrap, bwrap's words" "1 bwrap: Unknown option --timeout=5" "$? $out"
	out=$(nsrun --timeout 99999999999 --unshare-pid true 2>&1)
	check_eq "--timeout past the maximum says the maximum" \
		"1 nsrun: --timeout: '99999999999' is longer than the maximum, 1000d" "$? $out"
	out=$(nsrun --unshare-all --landlock-only --landlock-rw /tmp true 2>&1)
	check_eq "--unshare-all with --landlock-only names --unshare-all" \
		"1 nsrun: --landlock-only cannot be combined with --unshare-all" "$? $out"
}
for_each_mode test_pointers

done_testing
