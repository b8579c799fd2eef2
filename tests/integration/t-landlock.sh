#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-landlock.sh: the --landlock-* boundary against the real kernel, as root and
# unprivileged: every write-type operation outside the rw list fails and inside it
# succeeds (checked by errno and by the file system's state), exec and TCP and scope
# restrictions, and fail-closed cases (status 126, the command never runs).
# shellcheck disable=SC2016,SC2317 # snippets expand in the sandboxed shell; cases run via for_each_mode
# shellcheck source=tests/integration/lib.sh
. "${top_srcdir:?}/tests/integration/lib.sh"

need_ns
need_landlock 1

ABI=$(landlock_abi)
cp "$NSRUN_HELPERS/force-enosys" "$BIN/force-enosys"
ENOSYS="$BIN/force-enosys"
# The full-sandbox cases need the engine; until it works they skip (fail under MUST_WORK).
ENGINE=0
"$NSRUN" --ro-bind / / true >/dev/null 2>&1 && ENGINE=1

# llop OP PATH [PATH2]: one syscall; prints OK or the errno name. Perl (perl-base is
# essential on Debian) starts ten times faster than python3 here, and this runs ~100 times.
LLOP="$BIN/llop.pl"
cat >"$LLOP" <<'EOF'
use strict; use warnings; use Fcntl; use POSIX (); use Socket; use Errno;
my ($op, $a, $b) = @ARGV;
my ($ok, $f, $s);
if ($op eq "write") { $ok = sysopen($f, $a, O_WRONLY | O_APPEND) && defined syswrite($f, "x") }
elsif ($op eq "creat") { $ok = sysopen($f, $a, O_WRONLY | O_CREAT | O_EXCL, 0644) }
elsif ($op eq "otrunc") { $ok = sysopen($f, $a, O_RDONLY | O_TRUNC) }
elsif ($op eq "truncate") { $ok = truncate($a, 0) }
elsif ($op eq "unlink") { $ok = unlink($a) }
elsif ($op eq "rmdir") { $ok = rmdir($a) }
elsif ($op eq "mkdir") { $ok = mkdir($a) }
elsif ($op eq "mkfifo") { $ok = POSIX::mkfifo($a, 0644) }
elsif ($op eq "symlink") { $ok = symlink("target", $a) }
elsif ($op eq "link") { $ok = link($a, $b) }
elsif ($op eq "rename") { $ok = rename($a, $b) }
elsif ($op eq "kill") { $ok = kill(0, $a) }
elsif ($op eq "connect" || $op eq "bind") {
	socket($s, PF_INET, SOCK_STREAM, 0) or die "socket: $!";
	my $addr = pack_sockaddr_in($a, inet_aton("127.0.0.1"));
	$ok = $op eq "connect" ? connect($s, $addr) : bind($s, $addr);
}
elsif ($op =~ /^udp-(send|bind|connect)$/) {
	socket($s, PF_INET, SOCK_DGRAM, 0) or die "socket: $!";
	my $addr = pack_sockaddr_in($a, inet_aton("127.0.0.1"));
	$ok = $1 eq "send" ? defined send($s, "x", 0, $addr) : $1 eq "bind" ? bind($s, $addr) : connect($s, $addr);
}
elsif ($op eq "abstract") {
	socket($s, PF_UNIX, SOCK_STREAM, 0) or die "socket: $!";
	$ok = connect($s, pack_sockaddr_un("\0" . $a));
}
else { die "llop: unknown op $op\n" }
if ($ok) { print "OK\n"; exit 0 }
my ($name) = grep { $!{$_} } keys %!;
print(($name // ($! + 0)), "\n");
exit 1;
EOF

# ll ARGS... -- llop args: --landlock-only run of one llop operation.
ll() {
	local args=()
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	nsrun --landlock-only "${args[@]}" -- perl "$LLOP" "$@" 2>&1
}

setup_dirs() {
	# Rule paths must not go through symlinks: a symlinked $TMPDIR is resolved here.
	D="$(realpath "$TMP")/$MODE"
	rm -rf "$D"
	mkdir -p "$D/w" "$D/o" "$D/m"
	for x in w o; do
		for f in f t1 t2 u l mv; do printf data >"$D/$x/$f"; done
		mkdir "$D/$x/rd"
	done
	chmod 0777 "$D/m"
	if [ "$MODE" = unpriv ] && is_root; then chown -R "$UNPRIV_UID:$UNPRIV_GID" "$D"; fi
}

size_of() { stat -c %s "$1" 2>/dev/null || echo missing; }

test_outside_denied() {
	local rw=(--landlock-rw "$D/w")
	check_eq "write to an existing file outside" EACCES "$(ll "${rw[@]}" -- write "$D/o/f")"
	check_eq "... and the file is unchanged" 4 "$(size_of "$D/o/f")"
	check_eq "O_CREAT outside" EACCES "$(ll "${rw[@]}" -- creat "$D/o/new")"
	check "... and nothing was created" test ! -e "$D/o/new"
	if [ "$ABI" -ge 3 ]; then
		check_eq "O_TRUNC (read-only open) outside" EACCES "$(ll "${rw[@]}" -- otrunc "$D/o/t1")"
		check_eq "truncate(2) outside" EACCES "$(ll "${rw[@]}" -- truncate "$D/o/t2")"
		check_eq "... and both files keep their size" "4 4" "$(size_of "$D/o/t1") $(size_of "$D/o/t2")"
	else
		skip "O_TRUNC/truncate(2) outside" "Landlock ABI $ABI < 3 cannot restrict truncation"
	fi
	check_eq "unlink outside" EACCES "$(ll "${rw[@]}" -- unlink "$D/o/u")"
	check "... and the file is still there" test -e "$D/o/u"
	check_eq "rmdir outside" EACCES "$(ll "${rw[@]}" -- rmdir "$D/o/rd")"
	check_eq "mkdir outside" EACCES "$(ll "${rw[@]}" -- mkdir "$D/o/nd")"
	check_eq "mkfifo outside" EACCES "$(ll "${rw[@]}" -- mkfifo "$D/o/ff")"
	check_eq "symlink outside" EACCES "$(ll "${rw[@]}" -- symlink "$D/o/sl")"
	check "... and none of them exists" test ! -e "$D/o/nd" -a ! -e "$D/o/ff" -a ! -L "$D/o/sl" -a -d "$D/o/rd"
	check_eq "hard link from inside to outside" EACCES "$(ll "${rw[@]}" -- link "$D/w/f" "$D/o/hl")"
	check_match "hard link of an outside file into the writable tree" '^(EACCES|EXDEV)$' \
		"$(ll "${rw[@]}" -- link "$D/o/l" "$D/w/hl")"
	check "... and neither link exists" test ! -e "$D/o/hl" -a ! -e "$D/w/hl"
	check_match "rename out of the writable tree" '^(EACCES|EXDEV)$' \
		"$(ll "${rw[@]}" -- rename "$D/w/mv" "$D/o/mv_out")"
	check_match "rename into the writable tree" '^(EACCES|EXDEV)$' \
		"$(ll "${rw[@]}" -- rename "$D/o/mv" "$D/w/mv_in")"
	check "... and both files stayed where they were" \
		test -e "$D/w/mv" -a -e "$D/o/mv" -a ! -e "$D/o/mv_out" -a ! -e "$D/w/mv_in"
}

test_inside_allowed() {
	local rw=(--landlock-rw "$D/w")
	check_eq "write inside" OK "$(ll "${rw[@]}" -- write "$D/w/f")"
	check_eq "... and the file grew" 5 "$(size_of "$D/w/f")"
	check_eq "O_CREAT inside" OK "$(ll "${rw[@]}" -- creat "$D/w/new")"
	if [ "$ABI" -ge 3 ]; then
		check_eq "O_TRUNC inside" OK "$(ll "${rw[@]}" -- otrunc "$D/w/t1")"
		check_eq "truncate(2) inside" OK "$(ll "${rw[@]}" -- truncate "$D/w/t2")"
		check_eq "... and both are empty" "0 0" "$(size_of "$D/w/t1") $(size_of "$D/w/t2")"
	fi
	check_eq "unlink inside" OK "$(ll "${rw[@]}" -- unlink "$D/w/u")"
	check_eq "rmdir inside" OK "$(ll "${rw[@]}" -- rmdir "$D/w/rd")"
	check_eq "mkdir inside" OK "$(ll "${rw[@]}" -- mkdir "$D/w/nd")"
	check_eq "mkfifo inside" OK "$(ll "${rw[@]}" -- mkfifo "$D/w/ff")"
	check_eq "symlink inside" OK "$(ll "${rw[@]}" -- symlink "$D/w/sl")"
	check_eq "hard link inside" OK "$(ll "${rw[@]}" -- link "$D/w/l" "$D/w/hl2")"
	check_eq "rename inside" OK "$(ll "${rw[@]}" -- rename "$D/w/mv" "$D/w/nd/mv")"
	check "... and every effect is visible" test ! -e "$D/w/u" -a ! -e "$D/w/rd" -a -p "$D/w/ff" \
		-a -L "$D/w/sl" -a -e "$D/w/hl2" -a -e "$D/w/nd/mv" -a -e "$D/w/new"
	check_eq "a nested subdirectory is writable too" OK "$(ll "${rw[@]}" -- creat "$D/w/nd/deep")"
}

test_file_rule() {
	local rw=(--landlock-rw "$D/o/f")
	check_eq "a file rule allows that file" OK "$(ll "${rw[@]}" -- write "$D/o/f")"
	check_eq "... but not the file beside it" EACCES "$(ll "${rw[@]}" -- write "$D/o/t1")"
	check_eq "... nor creating in its directory" EACCES "$(ll "${rw[@]}" -- creat "$D/o/new2")"
	check_eq "... nor removing it" EACCES "$(ll "${rw[@]}" -- unlink "$D/o/f")"
}

test_devices_and_host() {
	local out
	out=$(nsrun --landlock-only --landlock-rw "$D/w" -- \
		sh -c 'echo hidden >/dev/null; ls /nonexistent 2>/dev/null; echo x >/dev/zero && echo done' 2>&1)
	check_eq "2>/dev/null and >/dev/zero work under the boundary" "done" "$out"
	check_eq "/dev/full can be opened for writing (and reports ENOSPC)" ENOSPC \
		"$(ll --landlock-rw "$D/w" -- write /dev/full)"
	check_eq "--landlock-only stays in the caller's mount namespace" "$(readlink /proc/self/ns/mnt)" \
		"$(nsrun --landlock-only --landlock-rw "$D/w" -- readlink /proc/self/ns/mnt)"
	out=$(as_user sh -c 'echo $$; exec "$1" --landlock-only --landlock-rw "$2" -- sh -c "echo \$\$"' \
		_ "$BIN/nsrun" "$D/w")
	check_match "--landlock-only execs in place (same pid, no fork)" '^([0-9]+) \1$' "${out//$'\n'/ }"
	check_eq "--landlock-rw / makes everything writable (and the self-test still passes)" OK \
		"$(ll --landlock-rw / -- creat "$D/o/rootrw")"
	out=$(nsrun --landlock-only --argv0 renamed --landlock-rw "$D/w" -- sh -c 'echo $0' 2>&1)
	check_eq "--argv0 is honoured" renamed "$out"
	# a fixed PATH: glibc reports EACCES if any PATH entry is unreadable for this user
	out=$(as_user env PATH=/usr/bin:/bin "$BIN/nsrun" --landlock-only --landlock-rw "$D/w" -- \
		nsrun-no-such-command 2>&1)
	check_eq "a missing command: bwrap's message, exit 127 (not found)" \
		"nsrun: execvp nsrun-no-such-command: No such file or directory 127" "$out $?"
	out=$(as_user env PATH=/usr/bin:/bin "$BIN/bwrap" --landlock-only --landlock-rw "$D/w" -- \
		nsrun-no-such-command 2>&1)
	check_eq "... under the name bwrap: exit 1" \
		"bwrap: execvp nsrun-no-such-command: No such file or directory 1" "$out $?"
}

test_exec() {
	local out
	out=$(nsrun --landlock-only --landlock-exec /usr/bin/ls -- /usr/bin/ls -d / 2>&1)
	check_eq "--landlock-exec /usr/bin/ls runs ls (with its ELF interpreter)" / "$out"
	out=$(nsrun --landlock-only --landlock-exec /usr/bin/ls -- /usr/bin/id 2>&1)
	check_eq "... but not /usr/bin/id (exit 126: found, cannot run)" \
		"nsrun: execvp /usr/bin/id: Permission denied 126" "$out $?"
	out=$(nsrun --landlock-only --landlock-exec /usr/bin -- /usr/bin/sh -c \
		'/usr/bin/true; echo a=$?; /usr/sbin/nologin; echo b=$?' 2>/dev/null)
	check_eq "a directory rule allows what is below it, nothing else" "a=0 b=126" "${out//$'\n'/ }"
	if [ -L /usr/bin/python3 ]; then
		# Rule paths never go through symlinks (t-sec-landlock.sh); the resolved path does.
		out=$(nsrun --landlock-only --landlock-exec /usr/bin/python3 -- /usr/bin/python3 -c 'print("py")' 2>&1)
		check_eq "--landlock-exec on a symlink is refused (status 126)" 126 "$?"
		check_match "... naming the path to pass instead" "pass the resolved path '$(realpath /usr/bin/python3)'" "$out"
		out=$(nsrun --landlock-only --landlock-exec "$(realpath /usr/bin/python3)" -- \
			/usr/bin/python3 -c 'print("py")' 2>&1)
		check_eq "--landlock-exec on the resolved path allows it (and its interpreter) through the link" py "$out"
	fi
	check_eq "--landlock-exec alone still makes other paths unwritable" EACCES \
		"$(ll --landlock-exec /usr/bin -- creat "$D/o/new3")"
}

start_listeners() {
	python3 - "$TMP/ports" <<'EOF' &
import os, socket, sys, time
socks = []
for _ in range(2):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(16); socks.append(s)
free = socket.socket(); free.bind(("127.0.0.1", 0)); fp = free.getsockname()[1]; free.close()
u = socket.socket(socket.AF_UNIX); u.bind("\0nsrun-ll-%d" % os.getpid()); u.listen(16)
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write("%d %d %d nsrun-ll-%d\n" % (socks[0].getsockname()[1], socks[1].getsockname()[1], fp, os.getpid()))
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
time.sleep(120)
EOF
	LISTENER=$!
	trap 'kill "$LISTENER" 2>/dev/null; cleanup_tmp' EXIT
	for _ in $(seq 50); do [ -s "$TMP/ports" ] && break; sleep 0.1; done
	read -r PORT_A PORT_B PORT_FREE ABSTRACT <"$TMP/ports"
}

test_tcp() {
	if [ "$ABI" -lt 4 ]; then
		check_eq "--landlock-connect-tcp on ABI $ABI fails closed" 126 \
			"$(nsrun --landlock-only --landlock-connect-tcp 1 -- true 2>/dev/null; echo $?)"
		return
	fi
	check_eq "connect to a listed port" OK "$(ll --landlock-connect-tcp "$PORT_A" -- connect "$PORT_A")"
	check_eq "connect to an unlisted port" EACCES "$(ll --landlock-connect-tcp "$PORT_A" -- connect "$PORT_B")"
	check_eq "without the option both connect" OK "$(ll --landlock-rw "$D/w" -- connect "$PORT_B")"
	check_eq "connect rules leave bind alone" OK "$(ll --landlock-connect-tcp "$PORT_A" -- bind "$PORT_FREE")"
	check_eq "bind to a listed port" OK "$(ll --landlock-bind-tcp "$PORT_FREE" -- bind "$PORT_FREE")"
	check_eq "bind to an unlisted port" EACCES "$(ll --landlock-bind-tcp 1 -- bind "$PORT_FREE")"
	check_eq "bind rules leave connect alone" OK "$(ll --landlock-bind-tcp 1 -- connect "$PORT_B")"
}

# UDP (Landlock ABI 10): nothing needs to listen, a datagram to a closed port is sent.
test_udp() {
	if [ "$ABI" -lt 10 ]; then
		fail_closed "--landlock-connect-udp on ABI $ABI" "needs Landlock ABI 10.*offers ABI $ABI" \
			nsrun --landlock-only --landlock-rw "$D/m" --landlock-connect-udp 53 -- touch "$D/m/marker"
		fail_closed "--landlock-bind-udp on ABI $ABI" "needs Landlock ABI 10.*offers ABI $ABI" \
			nsrun --landlock-only --landlock-rw "$D/m" --landlock-bind-udp 0 -- touch "$D/m/marker"
		return
	fi
	check_eq "udp: send to a listed port" OK "$(ll --landlock-connect-udp "$PORT_A" -- udp-send "$PORT_A")"
	check_eq "udp: send to an unlisted port" EACCES "$(ll --landlock-connect-udp "$PORT_A" -- udp-send "$PORT_B")"
	check_eq "udp: connect to an unlisted port" EACCES "$(ll --landlock-connect-udp "$PORT_A" -- udp-connect "$PORT_B")"
	check_eq "udp: bind a listed port" OK "$(ll --landlock-bind-udp "$PORT_FREE" -- udp-bind "$PORT_FREE")"
	check_eq "udp: bind an unlisted port" EACCES "$(ll --landlock-bind-udp 1 -- udp-bind "$PORT_FREE")"
	check_eq "udp: with bind rules, a first send's automatic bind is port 0's" EACCES \
		"$(ll --landlock-bind-udp 1 -- udp-send "$PORT_A")"
	check_eq "udp: ... which --landlock-bind-udp 0 allows" OK "$(ll --landlock-bind-udp 0 -- udp-send "$PORT_A")"
	check_eq "udp: TCP rules leave UDP alone" OK "$(ll --landlock-connect-tcp 1 -- udp-send "$PORT_B")"
}

test_scope() {
	local target
	if [ "$ABI" -lt 6 ]; then
		check_eq "--landlock-scope on ABI $ABI fails closed" 126 \
			"$(nsrun --landlock-only --landlock-scope -- true 2>/dev/null; echo $?)"
		return
	fi
	if [ "$MODE" = unpriv ] && is_root; then
		setpriv --reuid="$UNPRIV_UID" --regid="$UNPRIV_GID" --clear-groups -- sleep 30 &
	else
		sleep 30 &
	fi
	target=$!
	sleep 0.2
	check_eq "a signal to a process outside (same uid), unscoped" OK \
		"$(ll --landlock-rw "$D/w" -- kill "$target")"
	check_eq "... is refused with --landlock-scope" EPERM "$(ll --landlock-scope -- kill "$target")"
	check_eq "an abstract unix socket outside, unscoped" OK "$(ll --landlock-rw "$D/w" -- abstract "$ABSTRACT")"
	check_eq "... is refused with --landlock-scope" EPERM "$(ll --landlock-scope -- abstract "$ABSTRACT")"
	kill "$target" 2>/dev/null
	wait "$target" 2>/dev/null
}

test_fail_closed() {
	local out
	fail_closed "missing rule path" "'$D/nope': No such file or directory.*must exist" \
		nsrun --landlock-only --landlock-rw "$D/nope" -- touch "$D/m/marker"
	fail_closed "Landlock syscalls answer ENOSYS" "not supported by this kernel \(ENOSYS\)" \
		as_user "$ENOSYS" landlock -- "$BIN/nsrun" --landlock-only --landlock-rw "$D/m" -- \
		touch "$D/m/marker"
	# In place the command runs with no capabilities at all: root whose capset is refused
	# (an outer seccomp policy) would keep its own, so nothing runs.
	if [ "$MODE" = root ]; then
		fail_closed "--landlock-only as root, capset refused" "Operation not|Function not" \
			"$ENOSYS" capset -- "$BIN/nsrun" --landlock-only --landlock-rw "$D/m" -- \
			touch "$D/m/marker"
	fi
	out=$(as_user "$ENOSYS" landlock -- "$BIN/nsrun" --landlock-abi 2>&1)
	check_eq "--landlock-abi without Landlock: exit 126" 126 "$?"
	check_eq "... first line abi=0" abi=0 "$(printf '%s\n' "$out" | head -n1)"
	check_match "... and the cause" "ENOSYS" "$out"
	fail_closed "simulated ABI 3 with --landlock-connect-tcp" "needs Landlock ABI 4.*offers ABI 3" \
		as_user "$ENOSYS" landlock-abi=3 -- "$BIN/nsrun" --landlock-only --landlock-rw "$D/m" \
		--landlock-connect-tcp 1 -- touch "$D/m/marker"
	fail_closed "simulated ABI 3 with --landlock-bind-tcp" "needs Landlock ABI 4" \
		as_user "$ENOSYS" landlock-abi=3 -- "$BIN/nsrun" --landlock-only --landlock-rw "$D/m" \
		--landlock-bind-tcp 1 -- touch "$D/m/marker"
	fail_closed "simulated ABI 5 with --landlock-scope" "needs Landlock ABI 6.*offers ABI 5" \
		as_user "$ENOSYS" landlock-abi=5 -- "$BIN/nsrun" --landlock-only --landlock-rw "$D/m" \
		--landlock-scope -- touch "$D/m/marker"
	# older rulesets (8-byte attr, fewer rights) still work on this kernel, with their limits
	out=$(as_user "$ENOSYS" landlock-abi=2 -- "$BIN/nsrun" --landlock-only --landlock-rw "$D/w" -- \
		perl "$LLOP" creat "$D/o/abi2")
	check_eq "simulated ABI 2: creating outside is still denied" EACCES "$out"
	# Landlock before ABI 3 cannot refuse truncation: nsrun's seccomp guard refuses
	# truncate(2) and read-only O_TRUNC opens, in place and in a sandbox; a write open
	# stays Landlock's (write_file), so truncating through one inside still works.
	printf data >"$D/o/t2"
	printf data >"$D/o/t1"
	local how
	for how in --landlock-only "--ro-bind / / --bind $D $D"; do
		# shellcheck disable=SC2086
		out=$(as_user "$ENOSYS" landlock-abi=2 -- "$BIN/nsrun" $how --landlock-rw "$D/w" -- \
			perl "$LLOP" truncate "$D/o/t2")
		check_eq "simulated ABI 2 (${how%% *}): truncate(2) outside refused" EACCES "$out"
		# shellcheck disable=SC2086
		out=$(as_user "$ENOSYS" landlock-abi=2 -- "$BIN/nsrun" $how --landlock-rw "$D/w" -- \
			perl "$LLOP" otrunc "$D/o/t1")
		check_eq "simulated ABI 2 (${how%% *}): O_TRUNC read-only open outside refused" EACCES "$out"
		check_eq "simulated ABI 2 (${how%% *}): both files keep their size" "4 4" \
			"$(size_of "$D/o/t1") $(size_of "$D/o/t2")"
		printf data >"$D/w/t3" && chmod 0666 "$D/w/t3"
		# shellcheck disable=SC2086
		as_user "$ENOSYS" landlock-abi=2 -- "$BIN/nsrun" $how --landlock-rw "$D/w" -- \
			sh -c ": > '$D/w/t3'"
		check_eq "simulated ABI 2 (${how%% *}): truncating open for writing inside works" 0 \
			"$(size_of "$D/w/t3")"
	done
	out=$(as_user "$ENOSYS" landlock-abi=1 -- "$BIN/nsrun" --landlock-only --landlock-rw "$D/w" -- \
		perl "$LLOP" rename "$D/w/l" "$D/w/nd/l")
	check_eq "simulated ABI 1: renaming across directories inside the tree is EXDEV (documented)" \
		EXDEV "$out"
	# control: the same command without the fault really creates the marker
	nsrun --landlock-only --landlock-rw "$D/m" -- touch "$D/m/marker"
	check "control: the marker command works when Landlock does" test -e "$D/m/marker"
}

test_full_sandbox() {
	local out
	local sb=(--ro-bind / / --dev /dev --bind "$D/w" "$D/w" --bind "$D/o" "$D/o" --bind "$D/m" "$D/m")
	if [ "$ENGINE" = 0 ]; then
		if [ "${NSRUN_MUST_WORK:-0}" = 1 ]; then not_ok "full sandbox cases: the engine does not run"
		else skip "full sandbox cases" "the engine cannot run '--ro-bind / / true' yet"; fi
		return
	fi
	check_eq "sandbox: write outside the rw list" EACCES \
		"$(nsrun "${sb[@]}" --landlock-rw "$D/w" -- perl "$LLOP" write "$D/o/t1" 2>&1)"
	check_eq "sandbox: mkdir outside the rw list" EACCES \
		"$(nsrun "${sb[@]}" --landlock-rw "$D/w" -- perl "$LLOP" mkdir "$D/o/sbd" 2>&1)"
	check_eq "sandbox: create inside the rw list" OK \
		"$(nsrun "${sb[@]}" --landlock-rw "$D/w" -- perl "$LLOP" creat "$D/w/sbnew" 2>&1)"
	check "... visible on the host" test -e "$D/w/sbnew" -a ! -e "$D/o/sbd"
	check_eq "sandbox: 2>/dev/null works" "done" \
		"$(nsrun "${sb[@]}" --landlock-rw "$D/w" -- sh -c 'ls /nonexistent 2>/dev/null; echo done' 2>&1)"
	check_eq "sandbox: rule paths are resolved in the final tree (a tmpfs over the host dir)" OK \
		"$(nsrun "${sb[@]}" --tmpfs "$D/o" --landlock-rw "$D/o" -- perl "$LLOP" creat "$D/o/tmpfsfile" 2>&1)"
	check "... and the host directory was not touched" test ! -e "$D/o/tmpfsfile"
	fail_closed "sandbox: rule path missing in the final tree (present on the host)" "must exist" \
		nsrun "${sb[@]}" --tmpfs "$D/o" --landlock-rw "$D/o/f" -- touch "$D/m/marker"
	fail_closed "sandbox: Landlock syscalls answer ENOSYS" "ENOSYS" \
		as_user "$ENOSYS" landlock -- "$BIN/nsrun" "${sb[@]}" --landlock-rw "$D/w" -- touch "$D/m/marker"
	fail_closed "sandbox: simulated ABI 3 with --landlock-connect-tcp" "needs Landlock ABI 4" \
		as_user "$ENOSYS" landlock-abi=3 -- "$BIN/nsrun" "${sb[@]}" --landlock-rw "$D/w" \
		--landlock-connect-tcp 1 -- touch "$D/m/marker"
	out=$(nsrun "${sb[@]}" --landlock-exec /usr/bin/ls -- /usr/bin/ls -d / 2>/dev/null
		nsrun "${sb[@]}" --landlock-exec /usr/bin/ls -- /usr/bin/id >/dev/null 2>&1
		echo $?)
	check_eq "sandbox: --landlock-exec allows ls, not id (126)" "/ 126" "${out//$'\n'/ }"
}

# In place nsrun leaves the working directory as it is: a user who may not search its path
# (sudo -u alice from root's private directory) runs the command there, as without nsrun.
# Only --landlock-exec's private mount view enters it again by name, which then fails.
test_private_cwd() {
	local priv out
	[ "$MODE" = unpriv ] || return 0
	if ! is_root; then
		skip "landlock-only from a directory the user may not search" "needs root to make one"
		return 0
	fi
	priv=$(realpath "$TMP")/private-cwd
	mkdir -p "$priv"
	chmod 0700 "$priv"
	out=$(cd "$priv" && nsrun --landlock-only --landlock-rw "$D/w" -- sh -c 'pwd; echo ran' 2>&1)
	check_eq "landlock-only from a directory the user may not search: runs there" \
		"0 $priv ran" "$? ${out//$'\n'/ }"
	# The private view takes the directory along; by name it need not be entered unless
	# a mount now lies over its path (then the mount, not the directory, would be seen).
	out=$(cd "$priv" && nsrun --landlock-only --landlock-rw "$D/w" --landlock-exec /usr \
		-- /usr/bin/pwd 2>&1)
	check_eq "... with --landlock-exec (its private mount view): runs there too" \
		"0 $priv" "$? $out"
	out=$(unshare -m --propagation private sh -c 'd=$1 && shift && cd "$d" &&
		mount -t tmpfs -o mode=0700 cover "$d" &&
		exec setpriv --reuid=65534 --regid=65534 --clear-groups "$@"' sh "$priv" "$BIN/nsrun" \
		--landlock-only --landlock-rw "$D/w" --landlock-exec /usr -- /usr/bin/pwd 2>&1)
	check_eq "... but not where a mount now covers its path: refused" \
		"1 nsrun: Can't chdir to $priv: Permission denied" "$? $out"
}

run_mode() {
	setup_dirs
	test_private_cwd
	test_outside_denied
	test_inside_allowed
	test_file_rule
	test_devices_and_host
	test_exec
	test_tcp
	test_udp
	test_scope
	test_fail_closed
	test_full_sandbox
}

out=$("$NSRUN" --landlock-abi)
check_match "--landlock-abi: first line abi=N" '^abi=[1-9][0-9]*$' "$(printf '%s\n' "$out" | head -n1)"
check_match "--landlock-abi: handled-fs names the rights" '^handled-fs=0x[0-9a-f]+ write_file remove_dir' "$out"
check_match "--landlock-abi: file-rights" '^file-rights=0x[0-9a-f]+ write_file' "$out"
check_match "--landlock-abi: says whether pathname UNIX connects can be restricted" \
	'^unix-connect=(landlock|unrestricted) \(' "$out"

start_listeners
for_each_mode run_mode
kill "$LISTENER" 2>/dev/null
wait "$LISTENER" 2>/dev/null
done_testing
