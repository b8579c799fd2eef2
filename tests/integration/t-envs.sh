#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-envs.sh: the environments of envs.sh (Docker's profile, user namespaces disabled, a
# nested user namespace, a masked /proc, RTM_NEWADDR refused), each built for real and
# proving itself, root and uid 65534; what nsrun does in each: a sandbox exits 1 with
# bwrap's message where a step is refused (as bubblewrap 0.13.1 does there, where the
# oracle is at hand), and --landlock-only keeps its write boundary everywhere.
# shellcheck source=tests/integration/lib.sh
. "$top_srcdir/tests/integration/lib.sh"
# shellcheck source=tests/integration/envs.sh
. "$top_srcdir/tests/integration/envs.sh"

need_ns
[ -x "$BIN/env-filter" ] || skip_all "no env-filter helper"
need_landlock 1

# The oracle: the make check build, else bubblewrap 0.13.1 from ../shared/oracle; none
# skips the comparisons only.
ORACLE=
if [ -n "${NSRUN_ORACLE_OUT:-}" ] && [ -x "$NSRUN_ORACLE_OUT/bwrap" ]; then
	ORACLE=$NSRUN_ORACLE_OUT/bwrap
elif [ -x "$top_srcdir/../shared/oracle/build-bwrap" ]; then
	ORACLE=$(CC=cc "$top_srcdir/../shared/oracle/build-bwrap" --version 0.13.1 2>/dev/null)
fi
if [ -n "$ORACLE" ] && "$ORACLE" --version 2>/dev/null | grep -q '^bubblewrap 0\.13\.1$'; then
	cp "$ORACLE" "$BIN/oracle-bwrap"
	ORACLE=$BIN/oracle-bwrap
else
	ORACLE=
fi

SANDBOX=(--unshare-all --ro-bind / / --proc /proc --dev /dev)

# expected ENV: "STATUS REGEX", what nsrun (its own name) does today with SANDBOX in ENV
# for the current mode.
expected() {
	case "$1:$MODE" in
	docker:*) echo "1 ^nsrun: No permissions to create a new namespace" ;;
	nouserns:root | nested:*) echo "0 ^$" ;;
	nouserns:unpriv) echo "1 ^nsrun: Creating new namespace failed: nesting depth .*ENOSPC" ;;
	maskedproc:*)
		echo "1 ^nsrun: Can't mount proc on /proc: Operation not permitted \\(cause: the host's" \
			"/proc has mounts over its entries \\(/proc/[a-z]+.*\\), as container runtimes mask it:" \
			"the kernel refuses a new procfs unless the old one is fully visible; run 'nsrun --doctor'\\)$"
		;;
	# Where only RTM_NEWADDR is refused, lo comes up with 127.0.0.1 all the same.
	nonewaddr:*) echo "0 ^$" ;;
	esac
}

# The distributions' builds reword one message (Debian's 0.13.1: "See <https://deb.li/...>"
# for upstream's sysctl hint): both end at the cause.
normalize() { sed 's/\(does not allow non-privileged user namespaces\.\).*/\1/'; }

case_proves() {
	local e=$1 out rc
	out=$(env_run "$e" -- id -u 2>&1)
	rc=$?
	check_eq "$e: the environment is built and passes its own checks" 0 "$rc"
	check_eq "$e: the command runs as the mode's user" "$([ "$MODE" = root ] && echo 0 || echo $UNPRIV_UID)" "$out"
	# The same checks outside the environment must fail: they can tell.
	_env_inner "$e"
	out=$(as_user "${ENV_INNER_ARGV[@]}" true 9>/dev/null 2>&1)
	rc=$?
	check_eq "$e: its checks refuse the plain host" "$ENV_BROKEN" "$rc"
	check_match "$e: ... and say why" "^envs.sh: environment $e \\($MODE\\) is not what it claims: " "$out"
}

case_sandbox() {
	local e=$1 want out rc ref rref
	want=$(expected "$e")
	out=$(env_run "$e" -- "$BIN/nsrun" "${SANDBOX[@]}" true 2>&1)
	rc=$?
	check_eq "$e: a sandbox's exit status" "${want%% *}" "$rc"
	check_match "$e: its message" "${want#* }" "$out"
	[ -n "$ORACLE" ] || { skip "$e: as bubblewrap 0.13.1" "no oracle (../shared/oracle)"; return; }
	out=$(env_run "$e" -- "$BIN/bwrap" "${SANDBOX[@]}" true 2>&1)
	rc=$?
	out=$(printf '%s\n' "$out" | normalize)
	ref=$(env_run "$e" -- "$ORACLE" "${SANDBOX[@]}" true 2>&1)
	rref=$?
	ref=$(printf '%s\n' "$ref" | normalize)
	if [ "$e" = nonewaddr ]; then
		# On purpose: nothing is missing, so nsrun goes on under either name.
		check_eq "$e: bubblewrap 0.13.1 fails" "1 bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted" "$rref $ref"
		check_eq "$e: under bwrap's name, nsrun does not" "0 " "$rc $out"
		return
	fi
	check_eq "$e: under bwrap's name, bubblewrap 0.13.1's exit status" "$rref" "$rc"
	check_eq "$e: under bwrap's name, bubblewrap 0.13.1's message" "$ref" "$out"
}

case_landlock() {
	local e=$1 d o rc
	d=$(env_dir "$e" rw)
	o=$(env_dir "$e" outside)
	env_run "$e" -- "$BIN/nsrun" --landlock-only --landlock-rw "$d" -- \
		sh -c "echo > $d/ok; echo > $o/written" 2>/dev/null
	rc=$?
	check "$e: --landlock-only writes under --landlock-rw" test -f "$d/ok"
	check "$e: --landlock-only refuses a write outside it" test ! -e "$o/written"
	check_eq "$e: ... and the command sees the refusal" 2 "$rc"
}

# doctor_line ENV NAME: the --doctor line for check NAME in ENV.
doctor_line() { env_run "$1" -- "$BIN/nsrun" --doctor 2>&1 | grep -E "^(OK  |WARN|FAIL) $2: "; }

case_masked_proc() {
	local out
	out=$(doctor_line maskedproc proc)
	check_match "maskedproc: --doctor fails its proc check, naming the cause and the masks" \
		"^FAIL proc: --proc with --unshare-pid fails: the host's /proc has mounts over its entries \\(/proc/.*\\), as container runtimes mask it.*; do: .*systempaths=unconfined" "$out"
	out=$(as_user "$BIN/nsrun" --doctor 2>&1 | grep -E '^(OK  |WARN|FAIL) proc: ')
	check_match "the plain host: its proc check is OK" "^OK   proc: " "$out"
	out=$(env_run maskedproc -- "$BIN/bwrap" --unshare-pid --ro-bind / / --proc /proc true 2>&1)
	check_eq "maskedproc: under bwrap's name, bwrap's message alone" \
		"bwrap: Can't mount proc on /proc: Operation not permitted" "$out"
	out=$(env_run maskedproc -- "$BIN/nsrun" --ro-bind / / --proc /proc cat /proc/self/comm 2>&1)
	check_eq "maskedproc: without --unshare-pid, --proc binds the masked /proc (--doctor's advice)" cat "$out"
}

case_loopback() {
	local plain out rc
	plain=$(as_user "$BIN/nsrun" --unshare-net --ro-bind / / ip addr show 2>&1)
	for name in nsrun bwrap; do
		out=$(env_run nonewaddr -- "$BIN/$name" --unshare-net --ro-bind / / ip addr show 2>&1)
		rc=$?
		check_eq "nonewaddr: $name --unshare-net runs" 0 "$rc"
		check_match "nonewaddr: $name: lo is UP" "^1: lo: <LOOPBACK,UP," "$out"
		check_match "nonewaddr: $name: lo has 127.0.0.1" "inet 127\\.0\\.0\\.1/8 scope host lo" "$out"
		check_eq "nonewaddr: $name: the same addresses as on the plain host" "$plain" "$out"
	done
	out=$(doctor_line nonewaddr loopback)
	check_match "nonewaddr: --doctor warns that RTM_NEWADDR is refused and lo comes up all the same" \
		"^WARN loopback: RTM_NEWADDR is refused \\(Operation not permitted\\), yet lo comes up" "$out"
	out=$(as_user "$BIN/nsrun" --doctor 2>&1 | grep -E '^(OK  |WARN|FAIL) loopback: ')
	check_match "the plain host: its loopback check is OK" "^OK   loopback: " "$out"
	[ -n "$ORACLE" ] || { skip "the plain host: ip addr as bubblewrap 0.13.1" "no oracle"; return; }
	out=$(as_user "$BIN/bwrap" --unshare-net --ro-bind / / ip addr show 2>&1)
	check_eq "the plain host: under bwrap's name, ip addr as under bubblewrap 0.13.1" \
		"$(as_user "$ORACLE" --unshare-net --ro-bind / / ip addr show 2>&1)" "$out"
}

# Root of a nested user namespace sees root's files as the overflow uid: no one in the
# namespace can act as it, so the binary is not "replaceable by another user".
case_nested_doctor() {
	local out rc
	out=$(env_run nested -- "$BIN/nsrun" --doctor 2>&1)
	rc=$?
	check_match "nested: --doctor's binary check is OK" "^OK   binary: " "$out"
	check_eq "nested: --doctor finds no FAIL" "0 " "$rc $(printf '%s\n' "$out" | grep '^FAIL')"
}

for_each_mode case_masked_proc
for_each_mode case_loopback
for_each_mode case_nested_doctor

for ENV in $ENVS; do
	case_env() {
		case_proves "$ENV"
		case_sandbox "$ENV"
		case_landlock "$ENV"
	}
	for_each_mode case_env
done

done_testing
