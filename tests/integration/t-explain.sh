#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-explain.sh: --explain (issue 36, the answer before running) agrees with the run. For
# each case nsrun --explain answers from the rules alone (allowed, or refused with the
# errno the command should see), and runs nothing; then nsrun runs one syscall under the
# same options and COMMAND, and its result must be the answer: OK for allowed (or the
# peer's own ECONNREFUSED), the answer's errno for refused. As root (with and without a
# user namespace) and as 65534, in namespace mode and with --landlock-only. Then bad
# questions (exit 1, one line, COMMAND never runs) and the 126 of a run that fails closed.
# shellcheck disable=SC2317 # cases run via for_each_mode
# shellcheck source=tests/integration/lib.sh
. "${top_srcdir:?}/tests/integration/lib.sh"

need_ns
need_landlock 6
also_without_userns
ABI=$(landlock_abi)

# one OP ARG...: one syscall; prints OK or the errno's name.
ONE="$BIN/one.pl"
cat >"$ONE" <<'EOF'
use strict; use warnings; use Fcntl; use Socket; use Errno;
my ($op, $a, $b) = @ARGV;
my ($ok, $f, $s);
if ($op eq "read") { $ok = sysopen($f, $a, O_RDONLY) }
elsif ($op eq "write") { $ok = sysopen($f, $a, O_WRONLY | O_APPEND) }
elsif ($op eq "create") { $ok = sysopen($f, $a, O_WRONLY | O_CREAT | O_EXCL, 0644) }
elsif ($op eq "mkdir") { $ok = mkdir($a) }
elsif ($op eq "remove") { $ok = unlink($a) }
elsif ($op eq "rmdir") { $ok = rmdir($a) }
elsif ($op eq "rename") { $ok = rename($a, $b) }
elsif ($op eq "truncate") { $ok = truncate($a, 0) }
elsif ($op eq "execute") { $ok = (system { $a } $a) != -1 }
elsif ($op eq "connect") {
	socket($s, PF_INET, SOCK_STREAM, 0) or die "socket: $!";
	$ok = connect($s, pack_sockaddr_in($b, inet_aton($a)));
}
elsif ($op eq "bind") {
	socket($s, PF_INET, SOCK_STREAM, 0) or die "socket: $!";
	$ok = bind($s, pack_sockaddr_in($a, inet_aton("127.0.0.1")));
}
elsif ($op eq "unix") {
	$ok = socket($s, PF_UNIX, SOCK_STREAM, 0) && connect($s, pack_sockaddr_un($a));
}
elsif ($op eq "signal") { $ok = kill(0, $a eq "self" ? $$ : $a) }
else { die "one: unknown op $op\n" }
if ($ok) { print "OK\n"; exit 0 }
my ($name) = grep { $!{$_} } keys %!;
print(($name // ($! + 0)), "\n");
exit 1;
EOF

# listen_on PATH...: UNIX sockets something listens on, until the next call. A socket file
# nobody listens on is ECONNREFUSED before Landlock (ABI 9) asks about its path.
LISTENER=
listen_on() {
	[ -n "$LISTENER" ] && kill "$LISTENER" && wait "$LISTENER" 2>/dev/null
	rm -f "$1.ready"
	perl -MSocket -e 'my @s; for (@ARGV) { socket(my $s, PF_UNIX, SOCK_STREAM, 0) or die;
		bind($s, pack_sockaddr_un($_)) or die "$_: $!"; chmod 0777, $_; listen($s, 8);
		push @s, $s } open(my $r, ">", "$ARGV[0].ready"); sleep 600' "$@" &
	LISTENER=$!
	for _ in $(seq 100); do [ -e "$1.ready" ] && break; sleep 0.1; done
}

# WRAP: a command both --explain and the run go through (force-enosys landlock-abi=N).
WRAP=()
# ask QUESTION NSRUN_OPTIONS... (then COMMAND): the answer, one JSON line.
ask() {
	local q=$1
	shift
	if [ ${#WRAP[@]} -gt 0 ]; then
		run_in_mode "$BIN/force-enosys" "${WRAP[@]}" -- "$BIN/nsrun" --explain "$q" "$@"
	else
		nsrun --explain "$q" "$@"
	fi
}
run() {
	if [ ${#WRAP[@]} -gt 0 ]; then
		run_in_mode "$BIN/force-enosys" "${WRAP[@]}" -- "$BIN/nsrun" "$@"
	else
		nsrun "$@"
	fi
}

# agree DESC OP ARG... -- NSRUN_OPTIONS...: DESC's question is DESC up to " (".
agree() {
	local desc=$1 q=${1%% (*} op=$2 args=() ans want got rc
	shift 2
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	ans=$(ask "$q" "$@" perl "$ONE" "$op" "${args[@]}" 2>&1)
	rc=$?
	if [ "$rc" != 0 ] || [ "$(printf '%s\n' "$ans" | wc -l)" != 1 ] || [ "${ans#\{}" = "$ans" ]; then
		not_ok "$desc: not one JSON line and exit 0 (exit $rc): $ans"
		return
	fi
	case "$ans" in
	*'"decision":"allowed"'*) want=OK ;;
	*'"decision":"refused"'*) want=$(printf '%s\n' "$ans" | sed -n 's/.*"error":"\([A-Z]*\)".*/\1/p') ;;
	*) not_ok "$desc: no decision: $ans"; return ;;
	esac
	got=$(run "$@" perl "$ONE" "$op" "${args[@]}" 2>&1 | tail -n1)
	# ECONNREFUSED: the TCP peer's own answer (nothing listens on that port).
	if [ "$got" = "$want" ] || { [ "$want" = OK ] && [ "$got" = ECONNREFUSED ]; }; then
		ok "$desc: the run agrees ($got) with $(printf '%s' "$ans" | sed 's/.*"decision":\("[a-z]*"\).*"layer":\("[a-z-]*"\).*/\1 by \2/')"
	else
		not_ok "$desc: answered $want, the run got '$got': $ans"
	fi
}

fixtures() {
	D=$(realpath "$(mode_dir ex)")
	rm -rf "${D:?}"/*
	mkdir -p "$D/w/d" "$D/o/d" "$D/t"
	for f in w/f w/g w/r o/f o/g o/r; do printf data >"$D/$f"; done
	cp /bin/true "$D/w/x"
	[ "$MODE" = unpriv ] && chown -R "$UNPRIV_UID:$UNPRIV_GID" "$D"
	listen_on "$D/o/sock" "$D/w/sock"
}

# The smallest root that runs perl, for the cases about the sandbox's empty root.
small_root() {
	SMALL=(--ro-bind /usr /usr --ro-bind "$BIN" "$BIN" --symlink usr/lib /lib
		--symlink usr/lib64 /lib64 --symlink usr/bin /bin)
}

ns_cases() {
	local ns=(--bind / / --dev /dev --landlock-rw "$D/w")
	agree "write:$D/w/f" write "$D/w/f" -- "${ns[@]}"
	agree "write:$D/w/../o/f" write "$D/o/f" -- "${ns[@]}"
	agree "create:$D/o/new" create "$D/o/new" -- "${ns[@]}"
	agree "create:$D/w/new" create "$D/w/new" -- "${ns[@]}"
	agree "create:$D/o/nd (mkdir)" mkdir "$D/o/nd" -- "${ns[@]}"
	agree "create:$D/w/nd (mkdir)" mkdir "$D/w/nd" -- "${ns[@]}"
	agree "remove:$D/o/g" remove "$D/o/g" -- "${ns[@]}"
	agree "remove:$D/w/g" remove "$D/w/g" -- "${ns[@]}"
	agree "remove:$D/o/d (rmdir)" rmdir "$D/o/d" -- "${ns[@]}"
	agree "remove:$D/w/d (rmdir)" rmdir "$D/w/d" -- "${ns[@]}"
	agree "rename:$D/o/r" rename "$D/o/r" "$D/o/r2" -- "${ns[@]}"
	agree "rename:$D/w/r" rename "$D/w/r" "$D/w/r2" -- "${ns[@]}"
	agree "truncate:$D/o/f" truncate "$D/o/f" -- "${ns[@]}"
	agree "truncate:$D/w/f" truncate "$D/w/f" -- "${ns[@]}"
	agree "write:/dev/null" write /dev/null -- "${ns[@]}"
	agree "execute:$D/w/x" execute "$D/w/x" -- "${ns[@]}" --landlock-exec /usr
	agree "execute:/usr/bin/true" execute /usr/bin/true -- "${ns[@]}" --landlock-exec /usr
	# Relative paths start from --chdir.
	agree "write:f (chdir)" write f -- "${ns[@]}" --chdir "$D/w"
	agree "write:../o/f (chdir)" write ../o/f -- "${ns[@]}" --chdir "$D/w"
	# A read-only mount refuses before Landlock does.
	agree "write:$D/o/f (ro-bind)" write "$D/o/f" -- --ro-bind / / --bind "$D/w" "$D/w" \
		--landlock-rw "$D/w"
	# --remount-ro changes the one mount at DEST: a bind beneath it made before stays
	# writable.
	agree "write:$D/o/f (remount-ro)" write "$D/o/f" -- --bind / / --bind "$D" "$D" \
		--bind "$D/w" "$D/w" --remount-ro "$D"
	agree "write:$D/w/f (remount-ro, a bind beneath)" write "$D/w/f" -- --bind / / \
		--bind "$D" "$D" --bind "$D/w" "$D/w" --remount-ro "$D"
	agree "read:$D/o/f (tmpfs)" read "$D/o/f" -- --bind / / --tmpfs "$D/o"
	agree "create:$D/o/new (tmpfs)" create "$D/o/new" -- --bind / / --tmpfs "$D/o"
	agree "read:$D/t/m/f (ro-bind-try, missing source)" read "$D/t/m/f" -- --bind / / \
		--tmpfs "$D/t" --ro-bind-try "$D/missing" "$D/t/m"
	agree "read:$D/t/m/f (ro-bind-try, present source)" read "$D/t/m/f" -- --bind / / \
		--tmpfs "$D/t" --ro-bind-try "$D/o" "$D/t/m"
	agree "read:$D/o/f (hidden)" read "$D/o/f" -- --ro-bind / / --overlay-hide "$D/o/f"
	agree "read:$D/o/g (overlay-allow)" read "$D/o/g" -- --ro-bind / / --overlay-allow "$D/o/f"
	agree "read:$D/o/f (overlay-allow)" read "$D/o/f" -- --ro-bind / / --overlay-allow "$D/o/f"
	small_root
	agree "read:/etc/hostname (absent)" read /etc/hostname -- "${SMALL[@]}"
	# The plan's --symlink links are followed.
	agree "write:/lo/f (symlink)" write /lo/f -- "${SMALL[@]}" --bind "$D" "$D" \
		--symlink "$D/o" /lo --symlink "$D/w" /lw --landlock-rw "$D/w"
	agree "write:/lw/f (symlink)" write /lw/f -- "${SMALL[@]}" --bind "$D" "$D" \
		--symlink "$D/o" /lo --symlink "$D/w" /lw --landlock-rw "$D/w"
	agree "connect:443" connect 192.0.2.1 443 -- --ro-bind / / --unshare-net
	agree "connect:tcp:443 (port rule first)" connect 192.0.2.1 443 -- --ro-bind / / \
		--unshare-net --landlock-connect-tcp 80
	agree "connect:localhost:80" connect 127.0.0.1 80 -- --ro-bind / / --unshare-net \
		--landlock-connect-tcp 80
	agree "bind:18080" bind 18080 -- --ro-bind / / --unshare-net --landlock-bind-tcp 18080
	agree "bind:tcp:18081" bind 18081 -- --ro-bind / / --unshare-net --landlock-bind-tcp 18080
	agree "signal:outside (pid namespace)" signal $$ -- --ro-bind / / --unshare-pid
	agree "signal:inside" signal self -- --ro-bind / / --unshare-pid
	agree "connect:unix:$D/o/sock (deny-unix)" unix "$D/o/sock" -- "${ns[@]}" --landlock-deny-unix
	agree "connect:unix:$D/o/sock" unix "$D/o/sock" -- "${ns[@]}"
}

# Landlock ABI 2 (Linux 6.1) on this kernel: truncation is refused by nsrun's seccomp guard.
abi2_cases() {
	WRAP=(landlock-abi=2)
	local ns=(--bind / / --dev /dev --landlock-rw "$D/w")
	agree "truncate:$D/o/f (ABI 2)" truncate "$D/o/f" -- "${ns[@]}"
	agree "truncate:$D/w/f (ABI 2, guard)" truncate "$D/w/f" -- "${ns[@]}"
	agree "write:$D/o/f (ABI 2)" write "$D/o/f" -- "${ns[@]}"
	WRAP=()
}

ll_cases() {
	local ll=(--landlock-only --landlock-rw "$D/w")
	agree "write:$D/o/f (landlock-only)" write "$D/o/f" -- "${ll[@]}"
	agree "write:$D/w/f (landlock-only)" write "$D/w/f" -- "${ll[@]}"
	agree "create:$D/o/nd (landlock-only, mkdir)" mkdir "$D/o/nd" -- "${ll[@]}"
	agree "remove:$D/o/d (landlock-only, rmdir)" rmdir "$D/o/d" -- "${ll[@]}"
	agree "rename:$D/o/r (landlock-only)" rename "$D/o/r" "$D/o/r2" -- "${ll[@]}"
	agree "truncate:$D/o/f (landlock-only)" truncate "$D/o/f" -- "${ll[@]}"
	agree "write:f (landlock-only, chdir)" write f -- "${ll[@]}" --chdir "$D/w"
	agree "execute:$D/w/x (landlock-only)" execute "$D/w/x" -- "${ll[@]}" --landlock-exec /usr
	agree "connect:unix:$D/o/sock (landlock-only, deny-unix)" unix "$D/o/sock" -- "${ll[@]}" \
		--landlock-deny-unix
	agree "connect:unix:$D/w/sock (landlock-only)" unix "$D/w/sock" -- "${ll[@]}"
	# A process of the same user outside the sandbox (another user's is the kernel's EPERM).
	if [ "$MODE" = unpriv ]; then
		setpriv --reuid=$UNPRIV_UID --regid=$UNPRIV_GID --clear-groups sleep 60 &
	else
		sleep 60 &
	fi
	local outside=$!
	agree "signal:outside (landlock-only, scope)" signal $outside -- "${ll[@]}" --landlock-scope
	agree "signal:outside (landlock-only)" signal $outside -- "${ll[@]}"
	kill $outside
	wait $outside 2>/dev/null
	agree "signal:inside (landlock-only, scope)" signal self -- "${ll[@]}" --landlock-scope
}

cases() {
	fixtures
	ns_cases
	fixtures
	abi2_cases
	[ -n "${NOUSERNS:-}" ] && return
	fixtures
	ll_cases
}
for_each_mode cases

# A relative path without --chdir starts from the caller's directory.
fixtures
# (Not in a subshell, which would lose the test count.)
cd "$D/w" || exit 1
agree "write:g (cwd)" write g -- --bind / / --landlock-rw "$D/w"
agree "write:../o/g (cwd)" write ../o/g -- --bind / / --landlock-rw "$D/w"
cd - >/dev/null || exit 1

# bad QUESTION: a usage error, exit 1, one line naming --explain, and COMMAND never runs.
bad() {
	local w out rc
	w=$(mode_dir bad)
	rm -f "$w/marker"
	out=$(nsrun --explain "$1" --bind / / "$PROBE" write "$w/marker" 2>&1 >"$w/stdout")
	rc=$?
	check_eq "--explain '$1': exit 1" 1 "$rc"
	check_match "--explain '$1': naming --explain" '^nsrun: --explain: ' "$out"
	check_eq "--explain '$1': one line" 1 "$(printf '%s\n' "$out" | wc -l)"
	check "--explain '$1': the command did not run" test ! -e "$w/marker" -a ! -s "$w/stdout"
}
for q in bogus:/x write /x write: connect: connect:0 connect:70000 connect:tcp:x \
	bind:udp: connect:unix: signal:nobody read:; do
	bad "$q"
done
# Under the name bwrap the messages say bwrap.
out=$(bwrap_nsrun --explain bogus:/x --bind / / true 2>&1)
check_match "bwrap --explain: the program's name" '^bwrap: --explain: ' "$out"
# The rules of a run apply: a plan it would refuse is the same usage error.
err=$(nsrun --landlock-only --landlock-rw "$TMP" --bind / / true 2>&1)
out=$(nsrun --explain write:/x --landlock-only --landlock-rw "$TMP" --bind / / true 2>&1)
check_eq "a plan the run refuses: exit 1" 1 "$?"
check_eq "a plan the run refuses: the run's message" "$err" "$out"
out=$(nsrun --explain write:/x --doctor 2>&1)
check_eq "--explain with --doctor: exit 1" 1 "$?"

# Where the run fails closed for Landlock, so does the answer, with the same message.
w=$(mode_dir fc)
for c in "landlock:--landlock-rw" "landlock-abi=7:--landlock-bind-udp"; do
	grp=${c%%:*} opt=${c#*:}
	set -- --landlock-only "$opt" "$([ "$opt" = --landlock-rw ] && echo "$w" || echo 53)"
	run_out=$("$BIN/force-enosys" "$grp" -- "$BIN/nsrun" "$@" "$PROBE" write "$w/m1" 2>&1)
	run_rc=$?
	fail_closed "$opt ($grp): --explain" "Landlock" "$BIN/force-enosys" "$grp" -- \
		"$BIN/nsrun" --explain "write:$w/f" "$@" "$PROBE" write "$w/m2"
	out=$("$BIN/force-enosys" "$grp" -- "$BIN/nsrun" --explain "write:$w/f" "$@" true 2>&1)
	check_eq "$opt ($grp): the run fails closed too" 126 "$run_rc"
	check_eq "$opt ($grp): the run's message" "$run_out" "$out"
done
kill "$LISTENER" && wait "$LISTENER" 2>/dev/null
diag "Landlock ABI $ABI"

done_testing
