# shellcheck shell=bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# lib.sh: TAP helpers for nsrun's integration tests. Source it, then call
# `need_ns`, write cases with `ok`/`not_ok`/`check*`, and end with `done_testing`.
# Each case that should hold for root and unprivileged runs goes in a function
# run by `for_each_mode`, which sets MODE=root|unpriv (and NOUSERNS=1 for root without a
# user namespace, in the suites that ask for it); `nsrun` runs the binary in the current
# mode (unpriv: setpriv to 65534 on a 0755 copy of the binaries).
# NSRUN_MUST_WORK=1 turns "cannot create namespaces" from a skip into a failure.

set -u

: "${NSRUN:?NSRUN must point at the nsrun binary}"
: "${NSRUN_PROBE:=${NSRUN_HELPERS:-}/nsrun-probe}"
MODE=root

TMP=$(mktemp -d "${TMPDIR:-/tmp}/nsrun-test.XXXXXX")
chmod 0755 "$TMP"
cleanup_tmp() {
	# Mount points or read-only bits left by a failed case must not stop the cleanup.
	chmod -R u+w "$TMP" 2>/dev/null
	rm -rf "$TMP" 2>/dev/null || true
}
trap cleanup_tmp EXIT

# Copies of the binaries any user can run (the build tree may be 0700).
BIN="$TMP/bin"
mkdir -p "$BIN"
cp "$NSRUN" "$BIN/nsrun"
[ -x "$NSRUN_PROBE" ] && cp "$NSRUN_PROBE" "$BIN/nsrun-probe"
[ -x "${NSRUN_HELPERS:-}/force-enosys" ] && cp "$NSRUN_HELPERS/force-enosys" "$BIN/force-enosys"
ln -s nsrun "$BIN/bwrap"
# shellcheck disable=SC2034 # used by the suites that source this file
PROBE="$BIN/nsrun-probe"
UNPRIV_UID=65534
UNPRIV_GID=65534

# shellcheck source=tests/tap.sh
. "$top_srcdir/tests/tap.sh"
# shellcheck source=tests/modes.sh
. "$top_srcdir/tests/modes.sh"

# long_name BASE LEN: BASE extended to LEN bytes by components of d's (200 at most), for
# the name-length limits: PATH_MAX, a page of mount options, fsconfig's 255 bytes.
long_name() {
	local p=$1 rem n
	while rem=$(($2 - ${#p})) && [ "$rem" -gt 1 ]; do
		n=$((rem - 1 > 200 ? 200 : rem - 1))
		[ $((rem - 1 - n)) -eq 1 ] && n=$((n - 1))
		p+=/$(printf '%*s' "$n" '' | tr ' ' d)
	done
	printf '%s\n' "$p"
}

is_root() { [ "$(id -u)" = 0 ]; }

# as_user CMD...: runs CMD in the current MODE.
as_user() {
	if [ "$MODE" = unpriv ] && is_root; then
		setpriv --reuid=$UNPRIV_UID --regid=$UNPRIV_GID --clear-groups -- "$@"
	else
		"$@"
	fi
}

# NSRUN_FORCE_ENOSYS=GROUPS (set by `make check-legacy`) runs every nsrun under a
# seccomp filter answering ENOSYS for those syscall groups, e.g. mount-api.
run_wrapped() {
	if [ -n "${NSRUN_FORCE_ENOSYS:-}" ]; then
		as_user "$BIN/force-enosys" "$NSRUN_FORCE_ENOSYS" -- "$@"
	else
		as_user "$@"
	fi
}

# run_in_mode BINARY ARGS...: BINARY in the current mode; root without a user namespace
# (NOUSERNS=1) gets its options through without_userns.
run_in_mode() {
	local bin=$1
	shift
	if [ -n "${NOUSERNS:-}" ]; then
		without_userns "$@"
		set -- "${NS_ARGS[@]}"
	fi
	run_wrapped "$bin" "$@"
}

# nsrun ARGS...: the binary under test, in the current MODE.
nsrun() { run_in_mode "$BIN/nsrun" "$@"; }
# bwrap_nsrun ARGS...: the same binary invoked under the name bwrap.
bwrap_nsrun() { run_in_mode "$BIN/bwrap" "$@"; }


# get KEY TEXT: the value of the first "KEY=value" line of TEXT (the probe's output).
get() { printf '%s\n' "$2" | awk -v k="$1=" 'index($0, k) == 1 { print substr($0, length(k) + 1); exit }'; }

# mflags PATH PROBE_OUTPUT: the mount's access flags (ro|rw, nosuid, nodev, noexec) as the
# probe's mountinfo line for PATH shows them, comma-separated.
mflags() {
	get "mountinfo:$1" "$2" | sed -n 's/.* opts=\([^ ]*\).*/\1/p' | tr ',' '\n' |
		grep -xE 'ro|rw|nosuid|nodev|noexec' | paste -sd, -
}

# mfield FIELD PATH PROBE_OUTPUT: FIELD's value in the probe's mountinfo line for PATH.
mfield() { get "mountinfo:$2" "$3" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

# smode PATH PROBE_OUTPUT: "type mode" from the probe's stat line for PATH.
smode() { get "stat:$1" "$2" | sed 's/ uid=.*//'; }

# jkey KEY TEXT: the number after "KEY": in JSON text (first occurrence).
jkey() { printf '%s\n' "$2" | tr ',{}' '\n\n\n' | sed -n "s/^ *\"$1\": *\\([0-9-]*\\) *\$/\\1/p" | head -n1; }

# The smallest sandbox that can run the probe and host tools.
# shellcheck disable=SC2034 # used by the suites that source this file
HOST_RO="--ro-bind / /"

need_ns() {
	if ! "$NSRUN" --version >/dev/null 2>&1; then
		skip_all "nsrun does not run"
	fi
	# Each case runs as root and again as uid 65534 (setpriv), and several set up host
	# state only root can (setuid copies, submounts): the suites need root to start.
	is_root || skip_all "the namespace suites run as root (each case also runs as uid 65534)"
	unshare -m true 2>/dev/null || skip_all "cannot create a mount namespace"
	setpriv --reuid=$UNPRIV_UID --regid=$UNPRIV_GID --clear-groups -- \
		unshare -Urm true 2>/dev/null ||
		skip_all "unprivileged user namespaces are not available"
}

# landlock_abi: the kernel's Landlock ABI as nsrun reports it (empty without Landlock).
landlock_abi() {
	"$NSRUN" --landlock-abi 2>/dev/null | sed -n 's/^abi=\([0-9]*\).*/\1/p;s/^landlock abi=\([0-9]*\).*/\1/p' | head -n1
}

# need_landlock ABI: skip the whole file when the kernel's Landlock ABI is lower.
need_landlock() {
	local abi
	abi=$(landlock_abi)
	[ -n "$abi" ] && [ "$abi" -ge "$1" ] || skip_all "Landlock ABI $1 needed (have ${abi:-none})"
}

# also_without_userns: the suites that run attacks call it once, so that for_each_mode runs
# each case as root a second time without a user namespace (NOUSERNS=1, MODE still root,
# shown as [root, no userns]): the host's root with every capability it keeps there.
ALSO_NOUSERNS=
also_without_userns() { ALSO_NOUSERNS=1; }

# for_each_mode FN: runs FN as root (when the suite runs as root; a second time without a
# user namespace after also_without_userns) and unprivileged.
for_each_mode() {
	local fn=$1
	if is_root; then
		MODE=root
		"$fn"
		if [ -n "$ALSO_NOUSERNS" ]; then
			NOUSERNS=1
			"$fn"
			NOUSERNS=
		fi
	fi
	MODE=unpriv
	"$fn"
	MODE=root
}

# mode_dir NAME: prints $TMP/NAME-$MODE, a directory (made if missing) that the current
# mode's user owns.
mode_dir() {
	local d="$TMP/$1-$MODE"
	mkdir -p "$d"
	[ "$MODE" = unpriv ] && chown $UNPRIV_UID:$UNPRIV_GID "$d"
	echo "$d"
}

# err_case DESC EXPECTED ARGS...: nsrun under the name bwrap with ARGS, then a command that
# would write a marker in $(mode_dir err) (bind that directory for ARGS that build a
# sandbox): exit 1, stderr EXPECTED (a regex when it starts with "~"), nothing on stdout,
# and the command never ran.
err_case() {
	local desc=$1 want=$2 w out rc
	shift 2
	w=$(mode_dir err)
	rm -f "$w/marker"
	out=$(bwrap_nsrun "$@" "$PROBE" write "$w/marker" 2>&1 >"$w/stdout")
	rc=$?
	check_eq "$desc: exit 1" 1 "$rc"
	if [ "${want#\~}" != "$want" ]; then
		check_match "$desc: message" "${want#\~}" "$out"
	else
		check_eq "$desc: message" "$want" "$out"
	fi
	check "$desc: command not run" test ! -e "$w/marker" -a ! -s "$w/stdout"
}

# fail_closed DESC REGEX CMD...: CMD, whose last argument is a file it would create, must
# exit 126, print REGEX and never create that file.
fail_closed() {
	local desc=$1 re=$2 marker=${!#} out rc
	shift 2
	rm -f "$marker"
	out=$("$@" 2>&1)
	rc=$?
	check_eq "$desc: exit status 126" 126 "$rc"
	check_match "$desc: the message names the cause" "$re" "$out"
	check "$desc: the command did not run" test ! -e "$marker"
}

# wait_pgrep PGREP_ARGS...: the pid of the first process pgrep finds, once there is one
# (5 s at most).
wait_pgrep() {
	local i p
	for ((i = 0; i < 50; i++)); do
		p=$(pgrep "$@" | head -n1)
		[ -n "$p" ] && { echo "$p"; return 0; }
		sleep 0.1
	done
	return 1
}
