#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-policy.sh: policies past bwrap's 9000 arguments (issue 39). An agent runner's deny
# list of 10,000 files (--ro-bind /dev/null FILE) and 10,000 writable directories
# (--bind DIR DIR), 20,000 ops through --args, run `echo hello` with every op applied:
# sampled denied files cannot be read (/dev/null on a nodev mount, as in bwrap: EACCES),
# sampled allowed directories take a write that reaches the host, and what no op names
# stays read-only. The command line itself past 9000 is
# still refused with bubblewrap 0.13.1's words and exit 1; past PLAN_MAX_FILE_ARGS
# (1,000,000 --args entries) or PLAN_MAX_ARGS_BYTES (64 MiB) nsrun's one line, exit 1,
# and nothing runs. Root with a user namespace, root without one, and uid 65534.
. "$top_srcdir/tests/integration/lib.sh"
need_ns
also_without_userns

N=10000
SAMPLES="0 1 4321 9998 9999"

ORACLE=
if [ -n "${NSRUN_ORACLE_OUT:-}" ] && [ -x "$NSRUN_ORACLE_OUT/bwrap" ] &&
	[ "$("$NSRUN_ORACLE_OUT/bwrap" --version 2>/dev/null)" = "bubblewrap 0.13.1" ]; then
	ORACLE=$NSRUN_ORACLE_OUT/bwrap
fi

# The fixture, once for every mode: files $D/deny/f0..f(N-1), the sampled ones holding
# "secret" (one write each: tee to 10,000 files runs out of fds), and empty directories
# $D/allow/d0..d(N-1) any user may write in; $D/policy is the NUL-separated deny list and
# allow list.
D=${TMP:?}/policy
mkdir -p "$D/deny" "$D/allow"
(cd "$D/deny" && seq -f 'f%.0f' 0 $((N - 1)) | xargs touch)
for i in $SAMPLES; do printf secret >"$D/deny/f$i"; done
(cd "$D/allow" && seq -f 'd%.0f' 0 $((N - 1)) | xargs mkdir -m 0777)
chmod 0755 "$D"
{
	printf -- "--ro-bind\0/dev/null\0$D/deny/f%s\0" $(seq 0 $((N - 1)))
	# shellcheck disable=SC2046 # numbers, one word each
	printf -- "--bind\0$D/allow/d%s\0$D/allow/d%s\0" $(seq 0 $((N - 1)) | sed p)
} >"$D/policy"

# The script: hello, then what each sampled denied file reads and a write in each sampled dir.
script() {
	local s="echo hello"
	for i in $SAMPLES; do
		s+="; printf 'deny$i=%s\n' \"\$(cat $D/deny/f$i 2>/dev/null || echo unreadable)\""
		s+="; echo w >$D/allow/d$i/$MODE${NOUSERNS:-} && echo allow$i=written"
	done
	s+="; (echo x >$D/outside) 2>/dev/null || echo outside=read-only"
	printf '%s\n' "$s"
}

case_large_policy() {
	local out entries want="hello" host="" got
	entries=$(tr -cd '\0' <"$D/policy" | wc -c)
	check_eq "the policy holds 20,000 ops" 60000 "$entries"
	out=$(nsrun --unshare-user-try --ro-bind / / --dev /dev --args 3 \
		sh -c "$(script)" 3<"$D/policy" 2>&1)
	for i in $SAMPLES; do
		want+=$'\n'"deny$i=unreadable"$'\n'"allow$i=written"
	done
	want+=$'\n'outside=read-only
	check_eq "20,000 ops through --args: echo hello runs, sampled denied files unreadable, sampled allowed dirs take a write, the rest is read-only" \
		"$want" "$out"
	# On the host (read without a fork per file: the suite must stay fast).
	for i in $SAMPLES; do
		read -r got <"$D/allow/d$i/$MODE${NOUSERNS:-}" || got=missing
		host+="d$i:$got "
		read -r got <"$D/deny/f$i" || true
		host+="f$i:$got "
	done
	check_eq "the writes reached the host; the denied files are unchanged there" \
		"d0:w f0:secret d1:w f1:secret d4321:w f4321:secret d9998:w f9998:secret d9999:w f9999:secret " \
		"$host"
}
for_each_mode case_large_policy

# The command line itself: 9000 arguments after argv[0] at most, with bwrap's message.
case_command_line_cap() {
	local args=() out want rc
	for ((i = 0; i < 9000; i++)); do args+=(--unshare-ipc); done
	out=$(bwrap_nsrun "${args[@]}" true 2>&1)
	rc=$?
	want="bwrap: Exceeded maximum number of arguments 9000"
	if [ -n "$ORACLE" ]; then
		want=$("$ORACLE" "${args[@]}" true 2>&1)
		check_eq "command line past 9000: the oracle's exit status" 1 "$?"
	fi
	check_eq "command line past 9000: exit 1" 1 "$rc"
	check_eq "command line past 9000: bubblewrap 0.13.1's message" "$want" "$out"
	out=$(nsrun "${args[@]:4}" --ro-bind / / true 2>&1)
	check_eq "exactly 9000 on the command line: accepted" "" "$out"
}
for_each_mode case_command_line_cap

# What remains: nsrun's own line, exit 1, and the command never runs.
case_remaining_caps() {
	local w
	w=$(mode_dir caps)
	head -c 1000001 /dev/zero >"$w/many"
	truncate -s $((64 * 1024 * 1024 + 1)) "$w/big"
	err_case "1,000,001 --args entries" \
		"bwrap: Too many arguments in --args data (at most 1000000)" \
		--ro-bind / / --bind "$TMP" "$TMP" --args 3 3<"$w/many"
	# Every buffer together: 500,000 options read, then 500,001 more entries.
	yes -- --unshare-ipc | head -n 500000 | tr '\n' '\0' >"$w/half"
	head -c 500001 /dev/zero >"$w/rest"
	err_case "1,000,001 --args entries over two buffers" \
		"bwrap: Too many arguments in --args data (at most 1000000)" \
		--ro-bind / / --bind "$TMP" "$TMP" --args 3 --args 4 3<"$w/half" 4<"$w/rest"
	err_case "--args data past 64 MiB" "bwrap: Can't read --args data: File too large" \
		--ro-bind / / --bind "$TMP" "$TMP" --args 3 3<"$w/big"
}
for_each_mode case_remaining_caps

done_testing
