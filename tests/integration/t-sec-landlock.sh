#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-sec-landlock.sh: attacks on the --landlock-* boundary, run for real as
# root and unprivileged, with --landlock-only and in a namespace sandbox:
#  1. a planted ELF whose PT_INTERP names "/", a directory, a link to one, a fifo, a
#     device or a magic link must not widen --landlock-exec beyond one regular file;
#  2. a rule path that goes through a symlink (planted by an earlier run) is refused
#     with status 126 and a message naming the resolved path;
#  3. landlock_restrict_self faked to succeed is caught by the self-test (126), in
#     every mode, --landlock-rw / and a read-only root included;
#  4. pathname UNIX socket connects: restricted by Landlock where the kernel can (ABI 9),
#     reported where it cannot, refused under --landlock-deny-unix.
# shellcheck disable=SC2016,SC2317 # snippets expand in the sandboxed shell; cases run via for_each_mode
# shellcheck source=tests/integration/lib.sh
. "${top_srcdir:?}/tests/integration/lib.sh"

need_ns
need_landlock 1
also_without_userns

ABI=$("$NSRUN" --landlock-abi | sed -n '1s/^abi=//p')
cp "$NSRUN_HELPERS/fake-landlock" "$BIN/fake-landlock"
FAKE="$BIN/fake-landlock"
ENOSYS="$BIN/force-enosys"

# mkelf OUT INTERP: a minimal native ELF64 whose only program header is PT_INTERP.
mkelf() {
	python3 - "$1" "$2" <<'EOF'
import struct, sys
out, interp = sys.argv[1], sys.argv[2].encode() + b"\0"
end = "<" if sys.byteorder == "little" else ">"
ident = b"\x7fELF" + bytes([2, 1 if end == "<" else 2, 1]) + bytes(9)
eh = ident + struct.pack(end + "HHIQQQIHHHHHH", 2, 0, 1, 0, 64, 0, 0, 64, 56, 1, 0, 0, 0)
ph = struct.pack(end + "IIQQQQQQ", 3, 4, 120, 0, 0, len(interp), len(interp), 1)
with open(out, "wb") as f:
    f.write(eh + ph + interp)
EOF
}

# op.pl OP ARG: one operation, prints OK or the errno name.
OP="$BIN/op.pl"
cat >"$OP" <<'EOF'
use strict; use warnings; use Fcntl; use Socket; use Errno;
my ($op, $a) = @ARGV;
my ($ok, $f, $s);
if ($op eq "exec") { no warnings; exec { $a } $a; }
elsif ($op eq "creat") { $ok = sysopen($f, $a, O_WRONLY | O_CREAT | O_EXCL, 0644) }
elsif ($op eq "unix") {
	socket($s, PF_UNIX, SOCK_STREAM, 0) or die "socket: $!";
	$ok = connect($s, pack_sockaddr_un($a));
}
else { die "op.pl: unknown op $op\n" }
if ($ok) { print "OK\n"; exit 0 }
my ($name) = grep { $!{$_} } keys %!;
print(($name // ($! + 0)), "\n");
exit 1;
EOF

setup_dirs() {
	# Rule paths must not go through symlinks: a symlinked $TMPDIR is resolved here.
	D="$(realpath "$TMP")/$MODE"
	rm -rf "$D"
	mkdir -p "$D/w" "$D/o/sub" "$D/m" "$D/x"
	chmod 0777 "$D/m"
	if [ "$MODE" = unpriv ] && is_root; then chown -R "$UNPRIV_UID:$UNPRIV_GID" "$D"; fi
}

# The two ways to run: in place (--landlock-only) and in a namespace sandbox whose
# root is the host's, read-only (so probe writes there fail with EROFS).
SB=(--ro-bind / / --dev /dev --bind "$TMP" "$TMP")
run_ll() { nsrun --landlock-only "$@"; }
run_sb() { nsrun "${SB[@]}" "$@"; }

# ---- 1. ELF interpreters ----------------------------------------------------------

# bait NAME INTERP: an exec directory holding only one planted ELF naming INTERP.
bait() {
	rm -rf "$D/x"
	mkdir "$D/x"
	mkelf "$D/x/$1" "$2"
}

test_interp() {
	local run out name
	mkdir -p "$D/dir"
	ln -sfn /usr/bin "$D/dirlink"
	rm -f "$D/fifo"
	mkfifo "$D/fifo"
	for run in run_ll run_sb; do
		for name in root:/ usrbin:/usr/bin dirlink:"$D/dirlink" fifo:"$D/fifo" \
			null:/dev/null magic:/proc/self/root selfexe:/proc/self/exe; do
			bait "${name%%:*}" "${name#*:}"
			out=$($run --landlock-exec "$D/x" --landlock-exec /usr/bin/perl -- \
				/usr/bin/perl "$OP" exec /usr/bin/id 2>/dev/null)
			check_eq "$run: PT_INTERP '${name#*:}' planted in an exec dir allows nothing more" \
				EACCES "$out"
		done
		# The interpreter is allowed as the one regular file it is, nothing beside it.
		bait fileinterp /usr/bin/id
		out=$($run --landlock-exec "$D/x" --landlock-exec /usr/bin/perl -- \
			/usr/bin/perl "$OP" exec /usr/bin/true 2>&1)
		check_eq "$run: PT_INTERP naming a file allows that file only (not /usr/bin/true)" \
			EACCES "$out"
		out=$($run --landlock-exec "$D/x" --landlock-exec /usr/bin/perl -- \
			/usr/bin/perl "$OP" exec /usr/bin/id 2>&1)
		check_match "$run: ... which does run" '^uid=' "$out"
		# control: a real dynamically linked program still finds its loader
		out=$($run --landlock-exec /usr/bin/ls -- /usr/bin/ls -d / 2>&1)
		check_eq "$run: control: --landlock-exec /usr/bin/ls still runs ls" / "$out"
	done
}

# ---- 2. symlinks in rule paths ------------------------------------------------------

# refused DESC PATH RESOLVED CMD...: fail_closed (lib.sh), the message naming PATH and
# RESOLVED.
refused() {
	fail_closed "$1" "'$2': the path goes through a symbolic link.*pass the resolved path '$3'" \
		"${@:4}"
}

test_symlink_rules() {
	local run real_o
	real_o=$(realpath "$D/o")
	for run in run_ll run_sb; do
		rm -rf "$D/w/cache" "$D/w/clink" "$D/w/tools"
		# An earlier run, allowed to write in $D/w, swaps a directory for a link.
		mkdir "$D/w/cache"
		nsrun --landlock-only --landlock-rw "$D/w" -- \
			sh -c 'rm -rf "$1/cache" && ln -s "$2" "$1/cache"' _ "$D/w" "$D/o"
		check "$run: the earlier run could plant the link" test -L "$D/w/cache"
		refused "$run: --landlock-rw on a path swapped for a link" "$D/w/cache" "$real_o" \
			"$run" --landlock-rw "$D/w/cache" -- perl "$OP" creat "$D/o/pwned"
		ln -s "$D/o" "$D/w/clink"
		refused "$run: a link in a middle component" "$D/w/clink/sub" "$real_o/sub" \
			"$run" --landlock-rw "$D/w/clink/sub" -- perl "$OP" creat "$D/o/sub/pwned"
		check "$run: ... and nothing was created beneath the target" test ! -e "$D/o/sub/pwned"
		ln -s /usr/bin "$D/w/tools"
		refused "$run: --landlock-exec through a link" "$D/w/tools" /usr/bin \
			"$run" --landlock-exec "$D/w/tools" --landlock-exec /usr/bin/perl -- \
			perl "$OP" creat "$D/o/pwned"
		check_eq "$run: control: the resolved path works" OK \
			"$("$run" --landlock-rw "$real_o" -- perl "$OP" creat "$D/o/ok-$run" 2>&1)"
	done
	# Without openat2 the component walk refuses the same way.
	refused "no openat2: --landlock-rw through a link" "$D/w/cache" "$real_o" \
		as_user "$ENOSYS" openat2 -- "$BIN/nsrun" --landlock-only --landlock-rw "$D/w/cache" -- \
		perl "$OP" creat "$D/o/pwned"
	refused "no openat2, sandbox: --landlock-rw through a link" "$D/w/cache" "$real_o" \
		as_user "$ENOSYS" openat2 -- "$BIN/nsrun" "${SB[@]}" --landlock-rw "$D/w/cache" -- \
		perl "$OP" creat "$D/o/pwned"
	# Merged /usr: the message gives the path to pass instead.
	if [ -L /lib ] && [ -d /usr/lib ]; then
		refused "merged /usr: --landlock-rw /lib" /lib "$(realpath /lib)" \
			nsrun --landlock-only --landlock-rw /lib -- perl "$OP" creat "$D/o/pwned"
	fi
}

# ---- 3. the self-test ---------------------------------------------------------------

# fiction DESC CMD...: under fake-landlock CMD exits 126 saying the boundary is fiction,
# and $D/m/marker is never created.
fiction() {
	local desc=$1 out rc
	shift
	rm -f "$D/m/marker"
	out=$(as_user "$FAKE" -- "$BIN/nsrun" "$@" -- touch "$D/m/marker" 2>&1)
	rc=$?
	check_eq "$desc: exit status 126" 126 "$rc"
	check_match "$desc: the message says why" "Landlock reported success but enforces nothing" "$out"
	check "$desc: the command did not run" test ! -e "$D/m/marker"
}

test_self_test() {
	fiction "faked restrict_self, --landlock-only" --landlock-only --landlock-rw "$D/w"
	fiction "faked restrict_self, --landlock-only --landlock-rw /" --landlock-only --landlock-rw /
	fiction "faked restrict_self, --landlock-only --landlock-exec" --landlock-only \
		--landlock-exec /usr/bin
	fiction "faked restrict_self, sandbox with a read-only root" "${SB[@]}" --landlock-rw "$D/w"
	fiction "faked restrict_self, sandbox --landlock-rw /" "${SB[@]}" --landlock-rw /
	# controls: the same commands run when Landlock is real
	rm -f "$D/m/marker"
	nsrun --landlock-only --landlock-rw "$D/m" -- touch "$D/m/marker"
	check "control: --landlock-only runs with a real Landlock" test -e "$D/m/marker"
	rm -f "$D/m/marker"
	nsrun "${SB[@]}" --landlock-rw / -- touch "$D/m/marker"
	check "control: sandbox --landlock-rw / runs with a real Landlock" test -e "$D/m/marker"
}

# ---- 4. pathname UNIX sockets -------------------------------------------------------

start_unix_listeners() {
	python3 - "$TMP/unix" <<'EOF' &
import os, socket, sys, time
d = sys.argv[1]
os.makedirs(d + "/o", exist_ok=True)
os.makedirs(d + "/w", exist_ok=True)
socks = []
for p in (d + "/o/sock", d + "/w/sock"):
    s = socket.socket(socket.AF_UNIX); s.bind(p); os.chmod(p, 0o777); s.listen(64); socks.append(s)
open(d + "/ready", "w").close()
time.sleep(300)
EOF
	UNIX_LISTENER=$!
	trap 'kill "$UNIX_LISTENER" 2>/dev/null; cleanup_tmp' EXIT
	for _ in $(seq 50); do [ -e "$TMP/unix/ready" ] && break; sleep 0.1; done
	chmod 0755 "$TMP/unix" "$TMP/unix/o" "$TMP/unix/w"
}

test_unix() {
	local run out u json
	u="$(realpath "$TMP")/unix"
	for run in run_ll run_sb; do
		check_eq "$run: control: connecting without Landlock works" OK \
			"$(as_user perl "$OP" unix "$u/o/sock")"
		out=$($run --landlock-rw "$u/w" -- perl "$OP" unix "$u/w/sock" 2>&1)
		check_eq "$run: a socket beneath a --landlock-rw path can be used" OK "$out"
		out=$($run --landlock-rw "$u/w" -- perl "$OP" unix "$u/o/sock" 2>&1)
		if [ "$ABI" -ge 9 ]; then
			check_eq "$run: ABI $ABI: a host socket outside the rw paths is refused" EACCES "$out"
		else
			check_eq "$run: ABI $ABI: a host socket outside is reachable (documented gap)" OK "$out"
		fi
		out=$($run --landlock-rw "$u/w" --landlock-deny-unix -- perl "$OP" unix "$u/o/sock" 2>&1)
		if [ "$ABI" -ge 9 ]; then
			check_eq "$run: --landlock-deny-unix: a host socket outside is refused" EACCES "$out"
		else
			# the launcher's seccomp guard: socket(AF_UNIX) is refused altogether
			check_match "$run: --landlock-deny-unix on ABI $ABI: socket(AF_UNIX) refused (seccomp)" \
				'^socket: Permission denied' "$out"
		fi
	done
	# The status JSON says who stops pathname UNIX connects.
	nsrun "${SB[@]}" --landlock-rw "$D/w" --json-status-fd 5 -- true 5>"$D/json" >/dev/null 2>&1
	json=$(cat "$D/json")
	check_match "json: landlock-truncate names Landlock or the seccomp guard (ABI < 3)" \
		"\"landlock-truncate\": \"$([ "$ABI" -ge 3 ] && echo landlock || echo seccomp)\"" "$json"
	check_match "json: landlock-threads is all from ABI 8 (TSYNC)" \
		"\"landlock-threads\": \"$([ "$ABI" -ge 8 ] && echo all || echo calling)\"" "$json"
	if [ "$ABI" -ge 9 ]; then
		check_match "json: landlock-unix-connect is landlock" '"landlock-unix-connect": "landlock"' "$json"
	else
		check_match "json: landlock-unix-connect is unrestricted" '"landlock-unix-connect": "unrestricted"' "$json"
		nsrun "${SB[@]}" --landlock-rw "$D/w" --landlock-deny-unix --json-status-fd 5 -- true \
			5>"$D/json" >/dev/null 2>&1
		check_match "json: ... and seccomp with --landlock-deny-unix" \
			'"landlock-unix-connect": "seccomp"' "$(cat "$D/json")"
	fi
	# On an ABI 9 kernel nsrun asks for resolve_unix; this kernel (if older) refuses the
	# right, which must stop the command rather than drop the restriction.
	if [ "$ABI" -lt 9 ]; then
		rm -f "$D/m/marker"
		out=$(as_user "$ENOSYS" landlock-abi=9 -- "$BIN/nsrun" --landlock-only \
			--landlock-rw "$D/m" -- touch "$D/m/marker" 2>&1)
		check_eq "simulated ABI 9: resolve_unix is requested (this kernel refuses it): 126" 126 "$?"
		check_match "... with the cause" "creating the Landlock ruleset \(ABI 9\)" "$out"
		check "... and the command did not run" test ! -e "$D/m/marker"
	fi
}

test_abi_report() {
	local out
	out=$("$NSRUN" --landlock-abi)
	if [ "$ABI" -ge 9 ]; then
		check_match "--landlock-abi: unix-connect=landlock" '^unix-connect=landlock ' "$out"
		check_match "--landlock-abi: handled-fs has resolve_unix" '^handled-fs=.* resolve_unix' "$out"
	else
		check_match "--landlock-abi says pathname UNIX connects are unrestricted" \
			"^unix-connect=unrestricted \(Landlock ABI $ABI cannot restrict" "$out"
	fi
	out=$("$ENOSYS" landlock-abi=9 -- "$NSRUN" --landlock-abi)
	check_match "--landlock-abi, simulated ABI 9: unix-connect=landlock" '^unix-connect=landlock ' "$out"
	check_match "... handled-fs has resolve_unix" '^handled-fs=0x17ff2 .* resolve_unix$' "$out"
	check_match "... as has file-rights" '^file-rights=0x14002 write_file truncate resolve_unix$' "$out"
	check_match "... threads=all (TSYNC, ABI 8)" '^threads=all ' "$out"
	out=$("$ENOSYS" landlock-abi=10 -- "$NSRUN" --landlock-abi)
	check_match "--landlock-abi, simulated ABI 10: the UDP rights" \
		'^handled-net=0xf bind_tcp connect_tcp bind_udp connect_send_udp$' "$out"
	out=$("$ENOSYS" landlock-abi=2 -- "$NSRUN" --landlock-abi)
	check_match "--landlock-abi, simulated ABI 2: truncate=seccomp" '^truncate=seccomp \(Landlock ABI 2 cannot' "$out"
	check_match "... threads=calling" '^threads=calling \(Landlock ABI 2 ' "$out"
}

run_mode() {
	setup_dirs
	test_interp
	test_symlink_rules
	test_self_test
	test_unix
}

test_abi_report
start_unix_listeners
for_each_mode run_mode
kill "$UNIX_LISTENER" 2>/dev/null
wait "$UNIX_LISTENER" 2>/dev/null
done_testing
