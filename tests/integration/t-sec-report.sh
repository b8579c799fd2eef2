#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-sec-report.sh: attacks on --report-fd's observer (issue 36's review). The observer
# must never change what the command may do, nor let the command stop nsrun's monitor:
# with the report on, --timeout must still end a command that attacks the monitor's
# reads of its memory.
# shellcheck disable=SC2317,SC2016 # cases run via for_each_mode; sh and perl expand their own
# shellcheck source=tests/integration/lib.sh
. "${top_srcdir:?}/tests/integration/lib.sh"

need_ns
also_without_userns

cp "$NSRUN_HELPERS/report-attack" "$BIN/report-attack"

# descendants PID: PID's children, their children, and so on (all started by this test).
descendants() {
	local c
	for c in $(pgrep -P "$1"); do
		echo "$c"
		descendants "$c"
	done
}

# nsrun_deadline SECS ARGS...: nsrun ARGS in the current mode, killed (status 137) with
# every process it started if it has not ended after SECS seconds: a monitor that hangs
# must fail the case, not the suite (a monitor stuck on the command's memory only lets go
# once the command is gone).
nsrun_deadline() {
	local secs=$1 pid i
	shift
	nsrun "$@" &
	pid=$!
	for ((i = 0; i < secs * 10; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	# shellcheck disable=SC2046 # one pid a word
	kill -KILL "$pid" $(descendants "$pid") 2>/dev/null
	wait "$pid"
}

# A name in memory that a userfaultfd serves and never does: the monitor's
# process_vm_readv of it would wait for good, and --timeout would never fire.
case_uffd() {
	local d rc start took
	d=$(mode_dir uffd)
	nsrun --unshare-pid --dev-bind / / --ro-bind "$d" "$d" --timeout 2 \
		-- "$BIN/report-attack" uffd-open >"$d/control" 2>&1
	rc=$?
	if [ "$rc" = 77 ] || ! grep -q armed "$d/control"; then
		skip "no userfaultfd that serves the kernel's faults in this mode"
		return
	fi
	check_eq "control: --timeout ends the command (124)" 124 "$rc"
	start=$(date +%s)
	nsrun_deadline 12 --unshare-pid --dev-bind / / --ro-bind "$d" "$d" --report-fd 3 \
		--timeout 2 -- "$BIN/report-attack" uffd-open >"$d/out" 2>&1 3>"$d/report"
	rc=$?
	took=$(($(date +%s) - start))
	check_eq "a name behind a userfaultfd does not stop the monitor: --timeout still fires" \
		124 "$rc"
	check "... within the deadline's grace ($took s)" [ "$took" -lt 10 ]
}

# Names that are no UTF-8 but look like it (a UTF-16 surrogate, an overlong form, a
# code point past U+10FFFF) and control characters: every line is strict UTF-8 JSON.
case_names() {
	local d
	d=$(mode_dir names)
	nsrun --unshare-pid --ro-bind / / --ro-bind "$d" "$d" --report-fd 3 -- sh -c '
		for n in "\355\240\200" "\340\200\257" "\364\220\200\200" "\300\257" \
			"a\nb\"c\\\\d\001"; do
			true >"$1/$(printf "$n")" 2>/dev/null
		done; true' _ "$d" 3>"$d/report"
	check_eq "five names, five lines" 5 "$(wc -l <"$d/report")"
	check "every line is strict UTF-8" perl -MEncode -ne \
		'Encode::decode("UTF-8", $_, Encode::FB_CROAK)' "$d/report"
}
for_each_mode case_names

# A question with a newline in it is still a one-line usage error (exit 1).
case_question() {
	local q out rc
	local MODE=
	for q in $'wr\nite:/x' $'connect:8\n0' $'\nwrite:/x'; do
		out=$("$NSRUN" --explain "$q" -- true 2>&1)
		rc=$?
		check_eq "--explain $(printf %q "$q"): exit 1, one line" \
			"1 1" "$rc $(printf '%s\n' "$out" | wc -l)"
	done
}
case_question

# (runs as root only: a userfaultfd for the kernel's faults needs CAP_SYS_PTRACE or
# /dev/userfaultfd, 0600 root, unless vm.unprivileged_userfaultfd is 1)
for_each_mode case_uffd

done_testing
