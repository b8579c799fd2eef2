#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-fallback.sh: --fallback in the places users run sandboxes (tests/integration/envs.sh,
# and env-filter's nomount and nonetlink), as root and as uid 65534: the item given up is
# the first declared one that answers the refused step, the report says so (status
# document, one stderr line), every boundary asked for still holds, and where no declared
# item can keep them the command does not run (126). Without the option nothing changes.
# shellcheck disable=SC2016 # snippets expand in the sandboxed shell
# shellcheck source=tests/integration/lib.sh
. "${top_srcdir:?}/tests/integration/lib.sh"
# shellcheck source=tests/integration/envs.sh
. "$top_srcdir/tests/integration/envs.sh"

need_ns
need_landlock 1

# fb ENV ARGS...: nsrun (or NAME=bwrap) with ARGS in ENV (envs.sh's, or nomount,
# nonetlink, or host), with a status document on fd 3 into $OUT/status; stdout into
# $OUT/out, stderr into $OUT/err; returns nsrun's status. With OUTSIDE=1 a process of the
# same user runs beside nsrun in ENV, SECRET_FB in its environment.
fb() {
	local env=$1
	local -a cmd=("$BIN/${NAME:-nsrun}" --json-status-fd 3)
	shift
	cmd+=("$@")
	[ -n "${OUTSIDE:-}" ] &&
		cmd=(sh -c 'SECRET_FB=1 sleep 60 & s=$!; "$@"; r=$?; kill $s; exit $r' sh "${cmd[@]}")
	case $env in
	host) as_user "${cmd[@]}" ;;
	nomount | nonetlink) as_user "$BIN/env-filter" "$env" -- "${cmd[@]}" ;;
	*) env_run "$env" -- "${cmd[@]}" ;;
	esac 3>"$OUT/status" >"$OUT/out" 2>"$OUT/err"
}

# gave_up / refused_steps: from the first status document, the items given up and the
# steps refused with their errno ("userns:28 ..."), space-separated.
gave_up() { sed -n '1s/.*"fallback-gave-up": \[\([^]]*\)\].*/\1/p' "$OUT/status" | tr -d '",'; }
refused_steps() {
	head -n1 "$OUT/status" | grep -o '"step": "[a-z-]*", "errno": [0-9]*' |
		sed 's/"step": "\([a-z-]*\)", "errno": \([0-9]*\)/\1:\2/' | tr '\n' ' ' | sed 's/ $//'
}

# The sandbox: the host read-only, the mode's own directory writable and the only one
# Landlock lets the command write. Root asks for a user namespace of its own.
sandbox() {
	D=$(env_dir fb "$1")
	US=()
	[ "$MODE" = root ] && US=(--unshare-user)
	SB=(--unshare-all "${US[@]}" --ro-bind / / --dev /dev --bind "$D" "$D" --landlock-rw "$D")
	OUT=$(mode_dir out)
	rm -f "$D/ran" "$D/outside"
}

# The command every case runs: it marks that it ran, then tries to write beside $D.
WRITES='echo ran >"$1/ran"; { echo x >"$1/../outside-$2"; } 2>/dev/null && echo WROTE-OUTSIDE; true'

test_nothing_refused() {
	sandbox ok
	fb host --fallback net,proc,namespaces "${SB[@]}" --proc /proc -- sh -c "$WRITES" sh "$D" ok
	check_eq "[$MODE] nothing refused: runs" 0 "$?"
	check_eq "[$MODE] ... gives nothing up" "" "$(gave_up)"
	check_match "[$MODE] ... and says so" '"fallback-refused": \[\]' "$(head -n1 "$OUT/status")"
	check_eq "[$MODE] ... with no line on stderr" "" "$(cat "$OUT/err")"
	check_eq "[$MODE] ... two status documents" 2 "$(wc -l <"$OUT/status")"
}

test_masked_proc() {
	sandbox proc
	fb maskedproc "${SB[@]}" --proc /proc -- touch "$D/ran"
	check_eq "[$MODE] masked /proc, no --fallback: exit 1 as bwrap" 1 "$?"
	check_match "[$MODE] ... bwrap's message" "Can't mount proc on /proc: Operation not permitted" "$(cat "$OUT/err")"
	check "[$MODE] ... and nothing ran" test ! -e "$D/ran"

	# An outside process of the same user, with a secret in its environment.
	OUTSIDE=1 fb maskedproc --fallback proc,namespaces "${SB[@]}" --proc /proc -- sh -c '
		echo ran >"$1/ran"
		ls /proc | grep -c "^[0-9]" >"$1/pids"
		for p in /proc/[0-9]*; do
			{ tr "\\0" " " <"$p/cmdline"; } 2>/dev/null | grep -q "^sleep 60" || continue
			echo "${p#/proc/}" >"$1/outside"
			kill -0 "${p#/proc/}" 2>/dev/null && echo KILLED-OUTSIDE
			grep -l SECRET_FB "$p/environ" 2>/dev/null
		done
		true' sh "$D"
	check_eq "[$MODE] --fallback proc,namespaces: proc answers first" 0 "$?"
	check_eq "[$MODE] ... gives up proc alone" proc "$(gave_up)"
	check_eq "[$MODE] ... the refused step and its errno" proc:1 "$(refused_steps)"
	check_match "[$MODE] ... one line on stderr" "^nsrun: --fallback: running without a fresh /proc: Can't mount proc" "$(cat "$OUT/err")"
	check_eq "[$MODE] ... and nothing else" "" "$(sed 1d "$OUT/err")"
	check "[$MODE] ... the host's processes show in /proc" test "$(cat "$D/pids")" -gt 1
	check "[$MODE] ... the outside process among them" test -s "$D/outside"
	check_eq "[$MODE] ... none of them can be signalled or have its environ read" "" "$(cat "$OUT/out")"

	# The caller's order decides.
	fb maskedproc --fallback namespaces,proc "${SB[@]}" --proc /proc -- true
	check_eq "[$MODE] --fallback namespaces,proc: namespaces answers first" namespaces "$(gave_up)"
	rm -f "$D/ran"
	fb maskedproc --fallback proc "${SB[@]}" --proc /proc --timeout 30 -- touch "$D/ran"
	check_eq "[$MODE] --fallback proc with --timeout: 126" 126 "$?"
	check_match "[$MODE] ... says why" "--fallback: proc: the limits and --timeout need a fresh /proc" "$(cat "$OUT/err")"
	check "[$MODE] ... and nothing ran" test ! -e "$D/ran"
}

test_no_user_namespaces() {
	local ladder=userns,namespaces
	sandbox nouserns
	fb nouserns --fallback proc "${SB[@]}" -- touch "$D/ran"
	check_eq "[$MODE] no user namespaces, --fallback proc: 126" 126 "$?"
	check_match "[$MODE] ... says nothing declared answers it" "no item it declares answers this step" "$(cat "$OUT/err")"
	check "[$MODE] ... and nothing ran" test ! -e "$D/ran"

	fb nouserns --fallback $ladder --rlimit nofile=64 "${SB[@]}" -- sh -c "$WRITES"'; ulimit -n >"$1/nofile"; grep -E "^Cap(Eff|Bnd)" /proc/self/status | tr -d "\t" >"$1/caps"' sh "$D" nouserns
	check_eq "[$MODE] --fallback $ladder: runs" 0 "$?"
	if [ "$MODE" = root ]; then
		check_eq "[$MODE] ... root gives up the user namespace" userns "$(gave_up)"
		check_eq "[$MODE] ... and holds no capability at all" "CapEff:0000000000000000 CapBnd:0000000000000000" "$(tr '\n' ' ' <"$D/caps" | sed 's/ $//')"
	else
		check_eq "[$MODE] ... a user gives up namespaces (userns is root's)" namespaces "$(gave_up)"
		check_eq "[$MODE] ... the Landlock boundary holds" "" "$(cat "$OUT/out")"
		check "[$MODE] ... nothing outside was written" test ! -e "$D/../outside-nouserns"
	fi
	check_eq "[$MODE] ... the refused step" userns:28 "$(refused_steps)"
	check_eq "[$MODE] ... --rlimit holds" 64 "$(cat "$D/nofile")"
	check "[$MODE] ... the command ran" test -s "$D/ran"

	# What the sandbox showed at a Landlock path must be the host's own directory there.
	rm -f "$D/ran"
	fb nouserns --fallback namespaces --unshare-all "${US[@]}" --ro-bind / / --tmpfs "$D" --landlock-rw "$D" -- touch "$D/../outside-tmpfs"
	check_eq "[$MODE] namespaces, a --tmpfs at the Landlock path: 126" 126 "$?"
	check_match "[$MODE] ... says why" "Landlock path '$D' is not the host's own directory" "$(cat "$OUT/err")"
	check "[$MODE] ... and nothing ran" test ! -e "$D/../outside-tmpfs"
	fb nouserns --fallback namespaces "${SB[@]}" --timeout 30 -- touch "$D/ran"
	check_eq "[$MODE] namespaces with --timeout: 126" 126 "$?"
	check_match "[$MODE] ... says why" "--landlock-only cannot be combined with --timeout" "$(cat "$OUT/err")"
	fb nouserns --fallback namespaces "${SB[@]}" --cap-add CAP_NET_ADMIN -- touch "$D/ran"
	check_eq "[$MODE] namespaces with --cap-add: 126" 126 "$?"
	check "[$MODE] ... and nothing ran" test ! -e "$D/ran"
}

test_docker() {
	sandbox docker
	fb docker --fallback net,proc,namespaces "${SB[@]}" -- sh -c "$WRITES" sh "$D" docker
	check_eq "[$MODE] Docker's profile: runs on namespaces" 0 "$?"
	check_eq "[$MODE] ... gives up namespaces" namespaces "$(gave_up)"
	check_match "[$MODE] ... the refused clone" '^(userns|namespaces):1$' "$(refused_steps)"
	check_eq "[$MODE] ... the Landlock boundary holds" "" "$(cat "$OUT/out")"
	check "[$MODE] ... the command ran" test -s "$D/ran"
}

test_restricted_mounts() {
	local want=namespaces steps=mount:13
	sandbox nomount
	[ "$MODE" = root ] && want="userns namespaces" steps="mount:13 mount:13"
	fb nomount --fallback userns,namespaces "${SB[@]}" -- sh -c "$WRITES" sh "$D" nomount
	check_eq "[$MODE] mount(2) refused (Ubuntu's restricted user namespaces): runs" 0 "$?"
	check_eq "[$MODE] ... gives up $want" "$want" "$(gave_up)"
	check_eq "[$MODE] ... each refused step" "$steps" "$(refused_steps)"
	check_eq "[$MODE] ... one status document with child-pid" 1 "$(grep -c child-pid "$OUT/status")"
	check_eq "[$MODE] ... the Landlock boundary holds" "" "$(cat "$OUT/out")"
}

test_loopback_refused() {
	local in out
	sandbox nonetlink
	fb nonetlink "${SB[@]}" -- touch "$D/ran"
	check_eq "[$MODE] lo cannot be brought up, no --fallback: exit 1" 1 "$?"
	check "[$MODE] ... nothing ran" test ! -e "$D/ran"
	NAME=bwrap fb nonetlink --fallback net "${SB[@]}" -- readlink /proc/self/ns/net
	check_eq "[$MODE] --fallback net: runs" 0 "$?"
	check_eq "[$MODE] ... gives up net" net "$(gave_up)"
	check_eq "[$MODE] ... the refused step" loopback:1 "$(refused_steps)"
	check_match "[$MODE] ... under bwrap's name too" "^bwrap: --fallback: running without a network namespace of its own: loopback" "$(cat "$OUT/err")"
	in=$(cat "$OUT/out")
	out=$(as_user readlink /proc/self/ns/net)
	check_eq "[$MODE] ... the host's network namespace" "$out" "$in"
}

for_each_mode test_nothing_refused
for_each_mode test_masked_proc
for_each_mode test_no_user_namespaces
for_each_mode test_docker
for_each_mode test_restricted_mounts
for_each_mode test_loopback_refused
done_testing
