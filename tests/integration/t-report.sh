#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-report.sh: --report-fd (issue 36). For each kind of refusal a case causes, nsrun runs
# the command twice, without and with --report-fd, and checks: (1) the report holds
# exactly the refusals the case caused (access, path as resolved, option, errno) and
# nothing that was allowed; (2) the command's stdout, stderr and exit status are the same
# both times; (3) each entry is what nsrun --explain answers
# for its access and path; (5) the final status document's summary counts them. Also:
# (4) the bound, a command's own seccomp listener (EBUSY, the documented side effect),
# strace -f inside, and bad report fds. As root (with and without a user namespace) and
# as 65534, in namespace mode and with --landlock-only.
# shellcheck disable=SC2317 # cases run via for_each_mode
# shellcheck source=tests/integration/lib.sh
. "${top_srcdir:?}/tests/integration/lib.sh"

need_ns
need_landlock 3
also_without_userns

cp "$NSRUN_HELPERS/seccomp-listen" "$BIN/seccomp-listen"

# one OP ARG [ARG2]: one syscall; prints OK or the errno's name.
ONE="$BIN/one.pl"
cat >"$ONE" <<'EOF'
use strict; use warnings; use Fcntl; use Errno; use Socket;
my ($op, $a, $b, $c) = @ARGV;
my ($ok, $f, $s);
if ($op eq "write") { $ok = sysopen($f, $a, O_WRONLY | O_APPEND) }
elsif ($op eq "create") { $ok = sysopen($f, $a, O_WRONLY | O_CREAT | O_EXCL, 0644) }
elsif ($op eq "mkdir") { $ok = mkdir($a) }
elsif ($op eq "remove") { $ok = unlink($a) }
elsif ($op eq "rename") { $ok = rename($a, $b) }
elsif ($op eq "truncate") { $ok = truncate($a, 0) }
elsif ($op eq "execute") { exec { $a } $a; }
elsif ($op eq "connect") {
	socket($s, PF_INET, ($c // "") eq "udp" ? SOCK_DGRAM : SOCK_STREAM, 0) or die "socket: $!";
	$ok = connect($s, pack_sockaddr_in($b, inet_aton($a)));
}
elsif ($op eq "send") {
	socket($s, PF_INET, SOCK_DGRAM, 0) or die "socket: $!";
	$ok = defined send($s, "x", 0, pack_sockaddr_in($b, inet_aton($a)));
}
elsif ($op eq "bind") {
	socket($s, PF_INET, SOCK_STREAM, 0) or die "socket: $!";
	$ok = bind($s, pack_sockaddr_in($a, inet_aton("127.0.0.1")));
}
elsif ($op eq "creates") {
	for my $i (1 .. $b) { sysopen($f, "$a/n$i", O_WRONLY | O_CREAT, 0644) and close($f) }
	$ok = 1;
}
else { die "one: unknown op $op\n" }
if ($ok) { print "OK\n"; exit 0 }
my ($name) = grep { $!{$_} } keys %!;
print(($name // ($! + 0)), "\n");
exit 1;
EOF

# entries.pl REPORT: one "access path option error" line per entry; "named NAME" lines
# when NAMED is set; BAD lines for what is not one JSON object of the documented shape.
ENTRIES="$BIN/entries.pl"
cat >"$ENTRIES" <<'EOF'
use strict; use warnings; use JSON::PP;
my $named = $ENV{NAMED};
open(my $f, "<", $ARGV[0]) or die "$ARGV[0]: $!";
while (my $l = <$f>) {
	my $e = eval { decode_json($l) };
	if (!$e || $e->{source} ne "inferred" || !$e->{pid} || !defined $e->{comm} ||
	    !exists $e->{rule} || !$e->{why}) { print "BAD $l"; next }
	my $t = $e->{target};
	print "$e->{access} ", $t->{path} // "$t->{proto}:$t->{port}", " $e->{option} $e->{error}\n";
	print "named $e->{target}{named}\n" if $named;
}
EOF

# same.pl ENTRY ANSWER: "same" when the report's entry is the evaluator's refusal.
SAME="$BIN/same.pl"
cat >"$SAME" <<'EOF'
use strict; use warnings; use JSON::PP;
my ($e, $a) = map { decode_json($_) } @ARGV;
exit(print("answer allowed\n") && 1) if $a->{decision} ne "refused";
for my $k (qw(layer option rule error why)) {
	my ($x, $y) = map { defined $_ ? $_ : "null" } ($e->{$k}, $a->{$k});
	if ($x ne $y) { print "$k: entry '$x', answer '$y'\n"; exit 1 }
}
my $p = $e->{target}{path};
if (defined $p && $p ne $a->{path}) { print "path: $p vs $a->{path}\n"; exit 1 }
print "same\n";
EOF

# fixture D: the workspace w (where --landlock-rw allows) and the outside o, afresh.
fixture() {
	rm -rf "$1/w" "$1/o"
	mkdir -p "$1/w" "$1/o"
	printf data >"$1/w/f"
	printf data >"$1/o/f"
	printf data >"$1/o/g"
	cp /bin/true "$1/w/x"
	cp /bin/true "$1/o/x"
	[ "$MODE" = unpriv ] && chown -R "$UNPRIV_UID:$UNPRIV_GID" "$1/w" "$1/o"
	return 0
}

# report_case DESC WANT -- NSRUN_OPTIONS... -- COMMAND...: WANT is the report's entries,
# one "access path option error" per line ("" for none).
report_case() {
	local desc=$1 want=$2 opts=() d got line q ans
	shift 3
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	d=$(mode_dir rep)
	fixture "$D"
	nsrun "${opts[@]}" "$@" >"$d/out0" 2>"$d/err0"
	echo $? >"$d/rc0"
	fixture "$D"
	nsrun "${opts[@]}" --report-fd 5 --json-status-fd 6 "$@" >"$d/out1" 2>"$d/err1" \
		5>"$d/report" 6>"$d/status"
	echo $? >"$d/rc1"
	got=$(perl "$ENTRIES" "$d/report")
	check_eq "$desc: the report holds exactly the refusals" "$want" "$got"
	if cmp -s "$d/out0" "$d/out1" && cmp -s "$d/err0" "$d/err1" && cmp -s "$d/rc0" "$d/rc1"; then
		ok "$desc: stdout, stderr and exit status $(cat "$d/rc1") are the same with the report"
	else
		not_ok "$desc: the command behaved differently: $(cat "$d/rc0" "$d/out0" "$d/err0") vs $(cat "$d/rc1" "$d/out1" "$d/err1")"
	fi
	while IFS= read -r line; do
		# the question: ACCESS:PATH, or ACCESS:PROTO:[localhost:]PORT
		q=$(printf '%s\n' "$line" | perl -MJSON::PP -ne '$e = decode_json($_); $t = $e->{target};
			print "$e->{access}:", $t->{path} // ("$t->{proto}:" .
			($t->{address} =~ /^127\./ ? "localhost:" : "") . $t->{port})')
		ans=$(nsrun --explain "$q" "${opts[@]}" true 2>&1)
		check_eq "$desc: the entry for $q is the evaluator's answer" same \
			"$(perl "$SAME" "$line" "$ans" 2>&1)"
	done <"$d/report"
	check_eq "$desc: the summary counts the entries" "$(printf '%s' "$want" | grep -c .)" \
		"$(tail -n1 "$d/status" | perl -MJSON::PP -ne 'print decode_json($_)->{report}{entries}')"
}

cases() {
	D=$(realpath "$(mode_dir rp)")
	local ns=(--bind / / --dev /dev --landlock-rw "$D/w") ll=(--landlock-only --landlock-rw "$D/w")
	local c=(perl "$ONE")
	report_case "write outside --landlock-rw" "write $D/o/f --landlock-rw EACCES" \
		-- "${ns[@]}" -- "${c[@]}" write "$D/o/f"
	report_case "write inside, and to /dev/null: allowed" "" \
		-- "${ns[@]}" -- sh -c "perl $ONE write $D/w/f; perl $ONE write /dev/null"
	report_case "relative path from --chdir" "write $D/o/f --landlock-rw EACCES" \
		-- "${ns[@]}" --chdir "$D/o" -- "${c[@]}" write f
	report_case "create" "create $D/o/new --landlock-rw EACCES" \
		-- "${ns[@]}" -- "${c[@]}" create "$D/o/new"
	report_case "mkdir" "create $D/o/d --landlock-rw EACCES" \
		-- "${ns[@]}" -- "${c[@]}" mkdir "$D/o/d"
	report_case "create where the name exists (EEXIST, the kernel's own)" "" \
		-- "${ns[@]}" -- "${c[@]}" create "$D/o/f"
	report_case "write to an absent name (ENOENT, the kernel's own)" "" \
		-- "${ns[@]}" -- "${c[@]}" write "$D/o/none"
	report_case "remove" "remove $D/o/g --landlock-rw EACCES" \
		-- "${ns[@]}" -- "${c[@]}" remove "$D/o/g"
	report_case "rename" "rename $D/o/f --landlock-rw EACCES" \
		-- "${ns[@]}" -- "${c[@]}" rename "$D/o/f" "$D/o/h"
	report_case "truncate" "truncate $D/o/f --landlock-rw EACCES" \
		-- "${ns[@]}" -- "${c[@]}" truncate "$D/o/f"
	report_case "execute outside --landlock-exec" "execute $D/w/x --landlock-exec EACCES" \
		-- "${ns[@]}" --landlock-exec /usr -- "${c[@]}" execute "$D/w/x"
	report_case "write on a --ro-bind (EROFS)" "write $D/o/f --ro-bind EROFS" \
		-- --ro-bind / / --dev /dev --bind "$D/w" "$D/w" -- "${c[@]}" write "$D/o/f"
	report_case "exec of a hidden name" "execute $D/o/x --overlay-hide ENOENT" \
		-- --ro-bind / / --overlay-hide "$D/o/x" -- "${c[@]}" execute "$D/o/x"
	local net=(--ro-bind / / --dev /dev --unshare-net)
	report_case "connect outside with --unshare-net" "connect tcp:443 --unshare-net ENETUNREACH" \
		-- "${net[@]}" -- "${c[@]}" connect 192.0.2.1 443
	report_case "udp connect outside with --unshare-net" \
		"connect udp:53 --unshare-net ENETUNREACH" \
		-- "${net[@]}" -- "${c[@]}" connect 192.0.2.1 53 udp
	report_case "connect on loopback: allowed" "" \
		-- "${net[@]}" -- "${c[@]}" connect 127.0.0.1 9
	report_case "udp send outside with --unshare-net" "send udp:53 --unshare-net ENETUNREACH" \
		-- "${net[@]}" -- "${c[@]}" send 192.0.2.1 53
	report_case "udp send on loopback: allowed" "" \
		-- "${net[@]}" -- "${c[@]}" send 127.0.0.1 9
	if [ "$(landlock_abi)" -ge 4 ]; then
		report_case "connect to a port without a rule (before the namespace)" \
			"connect tcp:443 --landlock-connect-tcp EACCES" \
			-- "${net[@]}" --landlock-connect-tcp 80 -- "${c[@]}" connect 192.0.2.1 443
		report_case "bind a port without a rule" "bind tcp:8080 --landlock-bind-tcp EACCES" \
			-- "${net[@]}" --landlock-bind-tcp 80 -- "${c[@]}" bind 8080
	fi
	[ -n "${NOUSERNS:-}" ] && return
	report_case "write outside (landlock-only)" "write $D/o/f --landlock-rw EACCES" \
		-- "${ll[@]}" -- "${c[@]}" write "$D/o/f"
	report_case "create (landlock-only)" "create $D/o/new --landlock-rw EACCES" \
		-- "${ll[@]}" -- "${c[@]}" create "$D/o/new"
	report_case "execute (landlock-only)" "execute $D/w/x --landlock-exec EACCES" \
		-- "${ll[@]}" --landlock-exec /usr -- "${c[@]}" execute "$D/w/x"
	report_case "allowed only (landlock-only)" "" \
		-- "${ll[@]}" -- "${c[@]}" write "$D/w/f"
	if [ "$(landlock_abi)" -ge 4 ]; then
		report_case "connect to a port without a rule (landlock-only)" \
			"connect tcp:443 --landlock-connect-tcp EACCES" \
			-- "${ll[@]}" --landlock-connect-tcp 80 -- "${c[@]}" connect 127.0.0.1 443
	fi
}
for_each_mode cases

# The bound: PLAN_MAX_REPORT_ENTRIES (1000) lines, then counts only.
bound() {
	local d st
	D=$(realpath "$(mode_dir rp)")
	d=$(mode_dir rep)
	fixture "$D"
	nsrun --bind / / --dev /dev --landlock-rw "$D/w" --report-fd 5 --json-status-fd 6 \
		perl "$ONE" creates "$D/o" 3000 >/dev/null 2>&1 5>"$d/report" 6>"$d/status"
	check_eq "3000 distinct refused creates: 1000 lines" 1000 "$(grep -c . "$d/report")"
	check_eq "the 1000th line is seq 1000" 1000 \
		"$(tail -n1 "$d/report" | perl -MJSON::PP -ne 'print decode_json($_)->{seq}')"
	st=$(tail -n1 "$d/status" | perl -MJSON::PP -ne '$r = decode_json($_)->{report};
		print "$r->{entries} $r->{distinct} $r->{dropped} $r->{\"by-option\"}{\"--landlock-rw\"}"')
	check_eq "the summary: entries, distinct, dropped, by option" "3000 1000 2000 3000" "$st"
}
for_each_mode bound

# A command's own seccomp listener: EBUSY under the observer (documented), OK without.
listener() {
	D=$(realpath "$(mode_dir rp)")
	check_eq "a command's own seccomp listener works without --report-fd" OK \
		"$(nsrun --ro-bind / / "$BIN/seccomp-listen" 2>&1)"
	check_eq "a command's own seccomp listener gets EBUSY under --report-fd" EBUSY \
		"$(nsrun --ro-bind / / --report-fd 5 "$BIN/seccomp-listen" 2>&1 5>/dev/null)"
	[ -n "${NOUSERNS:-}" ] && return
	check_eq "EBUSY under --report-fd (landlock-only)" EBUSY \
		"$(nsrun --landlock-only --landlock-rw "$D/w" --report-fd 5 "$BIN/seccomp-listen" \
			2>&1 5>/dev/null)"
}
for_each_mode listener

# strace -f inside keeps working, and the observer still sees the traced calls.
traced() {
	local d out
	if ! command -v strace >/dev/null; then
		skip "strace -f inside" "strace is not installed"
		return
	fi
	D=$(realpath "$(mode_dir rp)")
	d=$(mode_dir rep)
	fixture "$D"
	out=$(nsrun --bind / / --dev /dev --landlock-rw "$D/w" --report-fd 5 \
		strace -f -o /dev/null perl "$ONE" write "$D/o/f" 2>&1 5>"$d/report")
	check_eq "strace -f inside: the command's result" EACCES "$out"
	check_eq "strace -f inside: the report" "write $D/o/f --landlock-rw EACCES" \
		"$(perl "$ENTRIES" "$d/report")"
	# The documented side effect: strace --seccomp-bpf does not see the observed calls
	# (USER_NOTIF outranks its RET_TRACE); without the report it does.
	out=$(nsrun --bind / / --dev /dev --landlock-rw "$D/w" strace --seccomp-bpf -f \
		-e trace=unlink perl "$ONE" remove "$D/o/f" 2>&1)
	check_match "strace --seccomp-bpf inside sees unlink without --report-fd" "unlink\\(" "$out"
	out=$(nsrun --bind / / --dev /dev --landlock-rw "$D/w" --report-fd 5 strace --seccomp-bpf \
		-f -e trace=unlink perl "$ONE" remove "$D/o/f" 2>&1 5>/dev/null)
	check_nomatch "strace --seccomp-bpf inside misses it under --report-fd (documented)" \
		"unlink\\(" "$out"
	check_match "strace --seccomp-bpf under --report-fd: the command ran" "^EACCES$" "$out"
}
for_each_mode traced

# --landlock-only --report-fd: the command is nsrun's child, and goes when nsrun is killed
# (its observed calls would fail with ENOSYS otherwise); without the report it stays.
orphan() {
	local m c st i report
	[ -n "${NOUSERNS:-}" ] && return 0
	for report in 1 0; do
		if [ "$report" = 1 ]; then
			nsrun --landlock-only --landlock-rw "$TMP" --report-fd 5 sleep 30 5>/dev/null &
		else
			nsrun --landlock-only --landlock-rw "$TMP" --json-status-fd 5 sleep 30 5>/dev/null &
		fi
		m=$!
		c=
		# $! may be the subshell that runs nsrun (the mode's wrapper): find nsrun under it
		for i in $(seq 100); do
			[ "$(ps -o comm= -p "$m")" = nsrun ] || m=$(pgrep -P "$m" -x nsrun) || m=$!
			c=$(pgrep -P "$m" -x sleep) && break
			sleep 0.05
		done
		kill -9 "$m"
		wait "$m" 2>/dev/null
		sleep 0.3
		# the state letter alone: a niced run adds N, a session leader s
		st=$(ps -o stat= -p "$c" 2>/dev/null | tr -d ' ' | cut -c1)
		if [ "$report" = 1 ]; then
			check "killing nsrun ends the command under --report-fd (landlock-only)" \
				test -n "$c" -a "${st:-Z}" = Z
		else
			check_eq "without --report-fd the command outlives a killed nsrun (the control)" \
				S "${st:-gone}"
		fi
		[ -n "$c" ] && kill "$c" 2>/dev/null
	done
	return 0
}
for_each_mode orphan

# The Landlock layer's source. On a host nsrun never switches audit on: with audit off (or
# as a user, or below ABI 7) the entries stay inferred, the summary says why not the
# kernel, and AUDIT_GET says the same before and after. With audit already on, as root,
# the kernel is the source (tests/kernels' case_report_audit checks its entries).
cp "$NSRUN_HELPERS/audit-enable" "$BIN/audit-enable"
source_case() {
	local d before after want src why abi flags
	d=$(mode_dir src)
	abi=$(landlock_abi)
	before=$("$BIN/audit-enable" status 2>/dev/null)
	for flags in "--bind / /" "--landlock-only"; do
		fixture "$d"
		# shellcheck disable=SC2086 # the mode's flags are words
		nsrun $flags --landlock-rw "$d/w" --report-fd 5 --json-status-fd 6 \
			sh -c ": >'$d/o/new'" >/dev/null 2>&1 5>"$d/report" 6>"$d/status"
		src=$(tail -n1 "$d/status" | perl -MJSON::PP -ne 'print decode_json($_)->{report}{sources}{landlock}')
		why=$(tail -n1 "$d/status" | perl -MJSON::PP -ne 'print decode_json($_)->{report}{sources}{"not-kernel"} // ""')
		if [ "${abi:-0}" -lt 7 ]; then
			want="inferred|Landlock ABI below 7 (Linux 6.15)"
		elif [ "$MODE" = unpriv ]; then
			want="inferred|the monitor is not root in the initial user namespace"
		elif [ -z "$before" ]; then
			want="inferred|audit status unreadable"
		elif [ "${before%% *}" = enabled=0 ]; then
			want="inferred|audit is not enabled"
		else
			want="kernel|"
		fi
		check_eq "$flags: the Landlock layer's source, and why not the kernel" "$want" "$src|$why"
		check_eq "$flags: the refused create is one $src entry" "create $d/o $src" \
			"$(perl -MJSON::PP -ne '$e = decode_json($_); $p = $e->{target}{path};
				$p =~ s{/new$}{}; print "$e->{access} $p $e->{source}\n"' "$d/report")"
	done
	after=$("$BIN/audit-enable" status 2>/dev/null)
	check_eq "audit's enabled flag is the same after the runs (nsrun never sets it)" \
		"${before%% *}" "${after%% *}"
}
for_each_mode source_case

# Bad input: a report fd that is not open for writing is a usage error; nothing runs.
bad_fd() {
	local d out rc
	d=$(mode_dir rep)
	rm -f "$d/marker"
	out=$(nsrun --ro-bind / / --bind "$d" "$d" --report-fd 9 touch "$d/marker" 2>&1 9>&-)
	rc=$?
	check_eq "--report-fd on a closed fd: exit 1" 1 "$rc"
	check_eq "--report-fd on a closed fd: the message" \
		"nsrun: Can't use --report-fd 9: Bad file descriptor" "$out"
	out=$(nsrun --ro-bind / / --bind "$d" "$d" --report-fd 9 touch "$d/marker" 2>&1 9</dev/null)
	rc=$?
	check_eq "--report-fd on a read-only fd: exit 1" 1 "$rc"
	check_eq "--report-fd on a read-only fd: the message" \
		"nsrun: Can't use --report-fd 9: Bad file descriptor" "$out"
	check "bad --report-fd: the command never ran" test ! -e "$d/marker"
}
for_each_mode bad_fd

done_testing
