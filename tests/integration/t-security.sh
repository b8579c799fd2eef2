#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-security.sh: the CVE classes of this kind of tool (the man page's SECURITY section) as they apply to nsrun, root and
# unprivileged: no fd leaks into the payload (CVE-2024-21626), nsrun's binary not writable
# through /proc/*/exe (CVE-2019-5736), cwd inside the new root, staging dirs invisible,
# no setuid mode, --new-session vs TIOCSTI (CVE-2017-5226), NO_NEW_PRIVS, bind sources
# resolved once (CVE-2024-42472), and --args keeping secrets off nsrun's argv.
# shellcheck disable=SC2016,SC2317,SC2020,SC2012 # snippets expand in the sandboxed shell; cases run via for_each_mode
# shellcheck source=tests/integration/lib.sh
. "${top_srcdir:?}/tests/integration/lib.sh"

need_ns
also_without_userns

PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH
# A host tree for the sandbox: --dev too, since a bind of / is nodev and perl opens /dev/null.
HOST=(--ro-bind / / --dev /dev)

# per-mode scratch directory owned by the mode's user
scratch() {
	S="$TMP/sec-$MODE"
	rm -rf "$S"
	mkdir -p "$S"
	if [ "$MODE" = unpriv ] && is_root; then chown "$UNPRIV_UID:$UNPRIV_GID" "$S"; fi
}

# ---- fds: only stdio and what the caller passed reach the payload -------------------------
case_fds() {
	local base out
	base=$("$PROBE" fds 7</dev/null)
	printf x >"$TMP/fdfile"
	out=$(nsrun "${HOST[@]}" "$PROBE" fds 7</dev/null)
	check_eq "fds: plain sandbox: the caller's fds and nothing more" "$base" "$out"
	out=$(nsrun "${HOST[@]}" --unshare-all --sync-fd 3 --info-fd 4 --json-status-fd 5 \
		--tmpfs /run --file 6 /run/f --lock-file /run/f "$PROBE" fds \
		3</dev/null 4>/dev/null 5>/dev/null 6<"$TMP/fdfile" 7</dev/null)
	check_eq "fds: --sync-fd/--info-fd/--json-status-fd/--file fds are not in the payload" "$base" "$out"
	if [ -x /usr/bin/bwrap ] && [ "$MODE" = root ]; then
		check_eq "fds: ... the same set as bwrap's" "$(bwrap "${HOST[@]}" --unshare-all --sync-fd 3 \
			--info-fd 4 --json-status-fd 5 "$PROBE" fds 3</dev/null 4>/dev/null 5>/dev/null 7</dev/null)" \
			"$out"
	fi
	printf 'go' >"$TMP/go"
	"$NSRUN_HELPERS/seccomp-deny" sync >"$TMP/filter-$MODE"
	out=$(nsrun "${HOST[@]}" --tmpfs /run --bind-data 6 /run/d --add-seccomp-fd 8 --block-fd 9 \
		--unshare-user --info-fd 4 "$PROBE" fds \
		6<"$TMP/fdfile" 8<"$TMP/filter-$MODE" 9<"$TMP/go" 4>/dev/null 7</dev/null)
	check_eq "fds: --bind-data/--add-seccomp-fd/--block-fd/--info-fd fds are not in the payload" "$base" "$out"
	out=$(nsrun "${HOST[@]}" --unshare-pid --as-pid-1 --sync-fd 3 "$PROBE" fds 3</dev/null 7</dev/null)
	check_eq "fds: --as-pid-1 --sync-fd passes the sync fd on (bwrap does)" \
		"$(printf '%s\n' "$base" | sed 's/^fds=0 1 2/fds=0 1 2 3/')" "$out"
	"$NSRUN_HELPERS/seccomp-deny" sync >"$TMP/filter-$MODE"
	out=$(nsrun "${HOST[@]}" --proc /proc --tmpfs /tmp --unshare-all --new-session --die-with-parent \
		--tmpfs /run --ro-bind "$BIN" /run/b --overlay-hide rm --landlock-rw /tmp --seccomp 8 /run/b/nsrun-probe fds \
		8<"$TMP/filter-$MODE" 7</dev/null)
	check_eq "fds: agent shape (hide, landlock, seccomp fd): no extra fd" "$base" "$out"
	# pid 1 (nsrun's reaper) must hold no directory fd (a way out of the root) either; it
	# is dumpable as bwrap's, so that the caller's other processes can join it
	out=$(nsrun "${HOST[@]}" --proc /proc --unshare-pid --sync-fd 3 -- /bin/sh -c '
		for f in /proc/1/fd/*; do
			[ -d "$f" ] && echo "dir $f -> $(readlink "$f")"
			readlink "$f" | grep -E "oldroot|newroot|anon_inode" | sed "s|^|internal $f -> |"
		done; ls /proc/1/fd | wc -l' 3</dev/null 2>&1)
	check_match "fds: pid 1's fds were listed" '^[0-9]+$' "$out"
	check_nomatch "fds: nsrun's pid 1 holds no directory or internal fd" '^(dir|internal) ' "$out"
}
# the fds the cases pass are closed around them (the test harness may hold fd 3)
for_each_mode case_fds 3<&- 4>&- 5>&- 6<&- 8<&- 9<&- 12>&-

# ---- /proc/*/exe: nsrun's binary cannot be written (CVE-2019-5736) --------------------------
case_exe() {
	local d out
	d="$TMP/exe-$MODE"
	rm -rf "$d"
	mkdir -p "$d"
	cp "$NSRUN" "$d/nsrun"
	# the worst case: a binary its user may write (agent bundles under ~/.npm)
	if [ "$MODE" = unpriv ] && is_root; then chown -R "$UNPRIV_UID:$UNPRIV_GID" "$d"; fi
	cat >"$d/w.pl" <<'EOF'
use Fcntl;
for my $p (@ARGV) {
	my $r = sysopen(my $f, $p, O_WRONLY | O_APPEND) ? (syswrite($f, "X") ? "WRITTEN" : "$!") : "$!";
	print "$p=$r\n";
}
EOF
	out=$(as_user "$d/nsrun" --bind / / --dev /dev --proc /proc --unshare-pid -- \
		perl "$d/w.pl" /proc/1/exe 2>&1)
	check_match "exe: pid-1 reaper: /proc/1/exe cannot be opened for writing" \
		'^/proc/1/exe=(Text file busy|Permission denied)$' "$out"
	out=$(as_user "$d/nsrun" --bind / / --dev /dev --proc /proc -- /bin/sh -c \
		'echo "nsrun=$(cat /proc/$PPID/comm)"; perl "$1" /proc/$PPID/exe' _ "$d/w.pl" 2>&1)
	check_match "exe: no pid ns: the payload's parent is nsrun" '^nsrun=nsrun$' "$out"
	check_match "exe: ... and /proc/<nsrun pid>/exe cannot be opened for writing" \
		'^/proc/[0-9]+/exe=(Text file busy|Permission denied)$' "$out"
	out=$(as_user "$d/nsrun" --bind / / --dev /dev --proc /proc --sync-fd 3 -- /bin/sh -c \
		'perl "$1" /proc/1/exe /proc/$PPID/exe' _ "$d/w.pl" 3</dev/null 2>&1)
	check_nomatch "exe: reaper without pid ns (--sync-fd): neither exe writable" 'WRITTEN|=$' "$out"
	# pid 1 of a new pid namespace is dumpable (others join through /proc/PID/ns): a
	# handle on /proc/1/exe kept by a daemon is no use, since pid 1 runs nsrun's
	# binary as long as any process of the namespace lives, and its exit ends them.
	out=$(as_user "$d/nsrun" --bind / / --dev /dev --proc /proc --unshare-pid -- /bin/sh -c '
		exec 9</proc/1/exe || exit 1
		(trap "" HUP TERM; sleep 2; perl "$1" /proc/self/fd/9 >"$2/daemon.out" 2>&1) &
		echo opened' _ "$d/w.pl" "$d" 2>&1)
	check_eq "exe: the payload may keep a handle on pid 1's exe (pid 1 dumpable)" opened "$out"
	check_match "exe: ... but a daemon cannot reopen it for writing" \
		'^/proc/self/fd/9=(Text file busy|Permission denied)$' "$(cat "$d/daemon.out" 2>&1)"
	check "exe: the binary is unchanged" cmp -s "$NSRUN" "$d/nsrun"
	if [ "$MODE" = unpriv ]; then
		out=$(as_user "$d/nsrun" --bind / / --dev /dev --proc /proc -- perl -e '
			opendir(my $d, "/proc/" . getppid() . "/fd") ? print "fds=readable\n" : print "fds=$!\n";
			print "exe=", (defined readlink("/proc/" . getppid() . "/exe") ? "readable" : "$!"), "\n"' 2>&1)
		check_eq "exe: nsrun is not dumpable: its fds and exe link are closed to the payload" \
			"fds=Permission denied
exe=Permission denied" "$out"
	fi
}
for_each_mode case_exe

# ---- cwd is inside the new root ------------------------------------------------------------
case_cwd() {
	local out rc
	scratch
	mkdir -p "$S/hostonly/sub"
	out=$(cd "$S/hostonly" && nsrun --ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib \
		--symlink usr/lib64 /lib64 --proc /proc -- /bin/sh -c \
		'echo "cwd=$(readlink /proc/self/cwd)"; [ "$(stat -c %d:%i .)" = "$(stat -c %d:%i /)" ] && echo cwd-is-root
		cd ../../../..; echo "up=$(ls -A | tr "\n" " ")"' 2>&1)
	check_eq "cwd: a host cwd absent from the sandbox falls back inside the root" "cwd=/
cwd-is-root
up=bin lib lib64 proc usr " "$out"
	out=$(cd "$S/hostonly" && nsrun --bind / / --dev /dev --proc /proc --chdir "$S/hostonly/sub" -- \
		/bin/sh -c 'echo "$(readlink /proc/self/cwd) $(stat -c %d:%i .)"' 2>&1)
	check_eq "cwd: --chdir to a bound path: cwd is that path in the sandbox" \
		"$S/hostonly/sub $(stat -c %d:%i "$S/hostonly/sub")" "$out"
	out=$(nsrun --ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib \
		--symlink usr/lib64 /lib64 --chdir "$S/hostonly" -- /bin/sh -c 'echo ran' 2>&1)
	rc=$?
	check_eq "cwd: --chdir to a path outside the sandbox fails with exit 1" 1 "$rc"
	check_match "cwd: ... with bwrap's message" "^nsrun: Can't chdir to $S/hostonly" "$out"
	check_nomatch "cwd: ... and the command did not run" '^ran$' "$out"
}
for_each_mode case_cwd

# ---- the staging root is never visible -----------------------------------------------------
case_staging() {
	local out want
	scratch
	echo x >"$S/file"
	want=$(ls -A "$TMP" | LC_ALL=C sort | tr '\n' ' ')
	out=$(nsrun --bind / / --dev /dev --bind "$TMP" /tmp --proc /proc -- /bin/sh -c '
		echo "tmp=$(ls -A /tmp | LC_ALL=C sort | tr "\n" " ")"
		for p in /tmp/newroot /tmp/oldroot /newroot /oldroot; do [ -e $p ] && echo "visible $p"; done
		grep -cE "newroot|oldroot" /proc/self/mountinfo' 2>&1)
	check_eq "staging: --bind / / --bind \$TMP /tmp: /tmp is exactly \$TMP, no newroot/oldroot anywhere" \
		"tmp=$want
0" "$out"
	out=$(nsrun --ro-bind / / --tmpfs /tmp --proc /proc -- /bin/sh -c '
		echo "tmp=$(ls -A /tmp | wc -l)"; grep -cE "newroot|oldroot" /proc/self/mountinfo' 2>&1)
	check_eq "staging: --tmpfs /tmp is empty and mountinfo is clean" "tmp=0
0" "$out"
	out=$(nsrun --bind / / --dev /dev --proc /proc -- /bin/sh -c \
		'ls -A /tmp | grep -xE "newroot|oldroot"; mount_n=$(grep -c " /tmp/newroot\| /tmp/oldroot" /proc/self/mountinfo); echo "n=$mount_n"' 2>&1)
	check_eq "staging: the host's /tmp seen through --bind / / holds no staging dirs" "n=0" "$out"
}
for_each_mode case_staging

# ---- no setuid mode --------------------------------------------------------------------------
case_setuid() {
	local d out rc cand
	d=
	if ! is_root; then
		not_ok "setuid: refused (needs root to install a setuid copy)"
		diag "the suite does not run as root: cannot chown a copy of nsrun to root"
		return
	fi
	for cand in "$TMP" /var/tmp /root /; do
		[ -d "$cand" ] || continue
		findmnt -n -o OPTIONS -T "$cand" | tr ',' '\n' | grep -qx nosuid && continue
		d=$(mktemp -d "$cand/nsrun-suid.XXXXXX") || continue
		break
	done
	if [ -z "$d" ]; then
		not_ok "setuid: refused (no directory on a filesystem without nosuid)"
		diag "checked $TMP /var/tmp /root /"
		return
	fi
	chmod 0755 "$d"
	mkdir -m 0777 "$d/w"
	cp "$NSRUN" "$d/nsrun"
	chown root:root "$d/nsrun"
	chmod 4755 "$d/nsrun"
	out=$(setpriv --reuid=$UNPRIV_UID --regid=$UNPRIV_GID --clear-groups -- \
		"$d/nsrun" --ro-bind / / --info-fd 3 -- /bin/touch "$d/w/marker" 3>"$d/w/info" 2>&1)
	rc=$?
	check_eq "setuid: a setuid-root copy run by $UNPRIV_UID exits 1" 1 "$rc"
	check_match "setuid: ... with a clear message" '^nsrun: refusing to run setuid or setgid' "$out"
	check "setuid: ... created no sandbox (no --info-fd output) and ran nothing" \
		test ! -s "$d/w/info" -a ! -e "$d/w/marker"
	chmod 2755 "$d/nsrun"
	chmod u-s "$d/nsrun"
	out=$(setpriv --reuid=$UNPRIV_UID --regid=$UNPRIV_GID --clear-groups -- \
		"$d/nsrun" --ro-bind / / -- /bin/touch "$d/w/marker" 2>&1)
	rc=$?
	check_eq "setgid: a setgid-root copy is refused too (exit 1, nothing ran)" "1 absent" \
		"$rc $([ -e "$d/w/marker" ] && echo present || echo absent)"
	rm -rf "$d"
}
MODE=unpriv
case_setuid
MODE=root

# ---- --new-session: no controlling tty, no TIOCSTI (CVE-2017-5226) --------------------------
cat >"$BIN/tiocsti.pl" <<'EOF'
my $c = "\n";
print "tiocsti=", (ioctl(STDIN, 0x5412, $c) ? "injected" : "$!"), "\n";
EOF
chmod 0644 "$BIN/tiocsti.pl"
# in_pty CMD...: CMD (as the mode's user) with a pseudo-terminal as its controlling tty.
in_pty() {
	local cmd q
	cmd=
	for q in "$@"; do cmd="$cmd $(printf '%q' "$q")"; done
	script -qec "$cmd" /dev/null </dev/null | tr -d '\r'
}
case_tty() {
	local out pre=()
	[ "$MODE" = unpriv ] && is_root && pre=(setpriv --reuid="$UNPRIV_UID" --regid="$UNPRIV_GID" --clear-groups --)
	out=$(in_pty "${pre[@]}" "$BIN/nsrun" "${HOST[@]}" -- "$PROBE" tty)
	check_nomatch "tty: control: without --new-session the payload has the caller's tty" '^tty_nr=0$' "$out"
	# A root sandbox keeps CAP_SYS_ADMIN, which may TIOCSTI any tty; drop it for root.
	local drop=()
	[ "$MODE" = root ] && drop=(--cap-drop ALL)
	out=$(in_pty "${pre[@]}" "$BIN/nsrun" "${HOST[@]}" --new-session "${drop[@]}" -- /bin/sh -c \
		'"$1" tty | grep tty_nr; perl "$2"' _ "$PROBE" "$BIN/tiocsti.pl")
	check_eq "tty: --new-session: no controlling tty, TIOCSTI refused" "tty_nr=0
tiocsti=Operation not permitted" "$out"
	out=$(in_pty "${pre[@]}" "$BIN/nsrun" "${HOST[@]}" --unshare-all --new-session "${drop[@]}" -- /bin/sh -c \
		'"$1" tty | grep tty_nr; perl "$2"' _ "$PROBE" "$BIN/tiocsti.pl")
	check_eq "tty: --new-session with a pid namespace: the same" "tty_nr=0
tiocsti=Operation not permitted" "$out"
}
for_each_mode case_tty

# A boundary that takes CAP_SYS_ADMIN away must not take the TIOCSTI guard with it: root
# without a user namespace runs the command without the capability, with or without one
# the line stays out of the caller's terminal, and no --cap-drop is needed for it.
case_tty_boundary() {
	local out pre=() ns set
	[ "$MODE" = unpriv ] && is_root && pre=(setpriv --reuid="$UNPRIV_UID" --regid="$UNPRIV_GID" --clear-groups --)
	for ns in "" --unshare-all; do
		# shellcheck disable=SC2086 # no namespace option at all, or one
		out=$(in_pty "${pre[@]}" "$BIN/nsrun" "${HOST[@]}" $ns --new-session --landlock-exec /usr -- \
			/bin/sh -c 'grep -E "^Cap(Eff|Bnd):" /proc/self/status; perl "$1"' _ "$BIN/tiocsti.pl")
		check_match "tty: --new-session --landlock-exec ${ns:-(no namespace option)}: TIOCSTI refused" \
			'^tiocsti=Operation not permitted$' "$out"
		for set in Eff Bnd; do
			check_eq "tty: ... ${ns:-(no namespace option)}: Cap$set lacks CAP_SYS_ADMIN" none \
				"$(caps_lacking $set "$out" $((1 << 21)))"
		done
	done
}
for_each_mode case_tty_boundary

# ---- NO_NEW_PRIVS is always set --------------------------------------------------------------
case_nnp() {
	local args out desc
	for args in "--ro-bind / /" "--ro-bind / / --unshare-pid" "--ro-bind / / --unshare-pid --as-pid-1" \
		"--ro-bind / / --unshare-all --cap-add ALL" "--ro-bind / / --unshare-user --uid 0 --cap-add ALL"; do
		desc=$args
		# shellcheck disable=SC2086
		out=$(nsrun $args "$PROBE" caps 2>&1)
		check_eq "NO_NEW_PRIVS=1 with $desc" 1 "$(get NoNewPrivs "$out")"
	done
}
for_each_mode case_nnp

# ---- bind sources resolved once (CVE-2024-42472 shape) ----------------------------------------
case_symlink_swap() {
	local out child fifo pid
	scratch
	mkdir "$S/real" "$S/evil"
	echo real >"$S/real/id"
	echo evil >"$S/evil/id"
	ln -s real "$S/link"
	if [ "$MODE" = unpriv ] && is_root; then chown -R -h "$UNPRIV_UID:$UNPRIV_GID" "$S"; fi
	# --bind-fd: an fd opened before the swap keeps naming the original
	exec 6<"$S/link"
	ln -sfn evil "$S/link"
	out=$(nsrun --ro-bind / / --bind-fd 6 /mnt "$PROBE" cat /mnt/id 6<&6)
	exec 6<&-
	check_eq "swap: --bind-fd opened before the swap binds what the path named then" 'cat:/mnt/id=real\n' "$out"
	# --bind PATH: once the sandbox is built, swapping the link changes nothing in it
	ln -sfn real "$S/link"
	fifo="$S/block"
	mkfifo "$fifo"
	[ "$MODE" = unpriv ] && is_root && chown "$UNPRIV_UID:$UNPRIV_GID" "$fifo"
	nsrun --ro-bind / / --bind "$S/link" /mnt --info-fd 4 --block-fd 5 "$PROBE" cat /mnt/id ls /mnt \
		4>"$S/info" 5<>"$fifo" >"$S/out" 2>&1 &
	pid=$!
	for _ in $(seq 100); do [ -s "$S/info" ] && break; sleep 0.05; done
	child=$(jkey child-pid "$(cat "$S/info")")
	for _ in $(seq 100); do grep -q ' /mnt ' "/proc/$child/mountinfo" 2>/dev/null && break; sleep 0.05; done
	check "swap: the sandbox mounted /mnt before the swap" grep -q ' /mnt ' "/proc/$child/mountinfo"
	ln -sfn evil "$S/link"
	echo go >"$fifo"
	wait "$pid"
	check_eq "swap: --bind of a symlink: the sandbox sees what it named at start" \
		'cat:/mnt/id=real\n
ls:/mnt=id' "$(cat "$S/out")"
}
for_each_mode case_symlink_swap

# ---- --args keeps secrets off nsrun's argv ---------------------------------------------------
case_args_secret() {
	local secret out child np cmd
	scratch
	secret="s3cr3t-$$-$MODE"
	printf '%s\0' --ro-bind / / --dev /dev --proc /proc --setenv TOKEN "$secret" >"$S/args"
	out=$(nsrun --args 3 -- /bin/sh -c \
		'echo "token=$TOKEN"; echo "parent=$(cat /proc/$PPID/comm)"; tr "\0" " " </proc/$PPID/cmdline; echo' \
		3<"$S/args" 2>&1)
	check_match "--args: the payload got the secret" "^token=$secret\$" "$out"
	check_match "--args: its parent is nsrun" '^parent=nsrun$' "$out"
	check_match "--args: inside: nsrun's argv shows --args" ' --args 3 ' "$out"
	check_nomatch "--args: inside: ... but not the secret" "nsrun.*$secret" "$out"
	nsrun --args 3 --unshare-pid --info-fd 4 -- "$PROBE" sleep 3 3<"$S/args" 4>"$S/info" >/dev/null 2>&1 &
	for _ in $(seq 100); do [ -s "$S/info" ] && break; sleep 0.05; done
	child=$(jkey child-pid "$(cat "$S/info")")
	np=$(awk '{ print $4 }' "/proc/$child/stat" 2>/dev/null)
	cmd=$(tr '\0' ' ' <"/proc/$np/cmdline" 2>&1; tr '\0' ' ' <"/proc/$child/cmdline" 2>&1)
	check_match "--args: outside: the nsrun processes are found" '--args 3' "$cmd"
	check_nomatch "--args: outside: neither nsrun nor its init shows the secret" "$secret" "$cmd"
	kill "$np" 2>/dev/null
	wait
}
for_each_mode case_args_secret

done_testing
