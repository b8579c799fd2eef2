#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-sec-noexec.sh: with --landlock-exec, nothing the command can write may be mapped
# executable anywhere in its tree. Landlock checks execve only; the dynamic loader (which
# must stay runnable) maps any readable file PROT_EXEC, so "ld.so WRITTEN-FILE" is the
# attack. Each case copies a real program (echo) in through the writable path and runs it
# with the loader through every other place the same file shows: a read-only "/" that
# holds the workspace, a second bind, a read-only bind of a subdirectory, an overlay's
# upper or lower layer. Root and uid 65534; in the sandbox and, with --landlock-only, on
# the host's own mount tree.
# shellcheck disable=SC2016,SC2317 # snippets expand in the sandboxed shell; cases run via for_each_mode
# shellcheck source=tests/integration/lib.sh
. "${top_srcdir:?}/tests/integration/lib.sh"

need_ns
need_landlock 1
also_without_userns

PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH
LD=
for l in /lib64/ld-linux-*.so.* /lib/ld-linux-*.so.* /lib/ld-musl-*.so.*; do
	[ -e "$l" ] && { LD=$l; break; }
done
[ -n "$LD" ] || skip_all "no dynamic loader found"

# The command: copy echo to $2 through the writable path, then run it with the loader
# through every other path given, and show that the loader and the exec list still work.
ATTACK='ld=$1 w=$2; shift 2
cp /usr/bin/echo "$w" && echo copied
for a; do
	[ -e "$a" ] && echo "seen $a"
	"$ld" "$a" PWNED 2>/dev/null; echo "rc=$?"
done
"$ld" /usr/bin/echo loader-ok
/usr/bin/echo exec-ok'

setup() {
	D="$TMP/$MODE"
	rm -rf "$D"
	mkdir -p "$D/ws/sub" "$D/ws/bin" "$D/low" "$D/up" "$D/work" "$D/tools" "$D/other"
	cp /usr/bin/echo "$D/tools/echo"
	if [ "$MODE" = unpriv ] && is_root; then chown -R "$UNPRIV_UID:$UNPRIV_GID" "$D"; fi
	chown -R 0:0 "$D/tools" 2>/dev/null
	WS="$D/ws"
}

# attack DESC HOST-FILE RUNNER ARGS...: RUNNER ARGS... -- ATTACK, where ATTACK writes the copy to
# $ATTACK_WRITE and runs it through each of $ATTACK_PATHS. Checks that every path shows the
# copy (so the attack is real), that it is a working program, and that it never ran.
attack() {
	local desc=$1 host_file=$2 runner=$3 out rc n a
	shift 3
	out=$("$runner" "$@" -- /bin/sh -c "$ATTACK" sh "$LD" "$ATTACK_WRITE" "${ATTACK_PATHS[@]}" 2>&1)
	rc=$?
	check_eq "$desc: the command ran" 0 "$rc"
	check_match "$desc: the command wrote a copy of echo" '^copied$' "$out"
	check_eq "$desc: control: the copy is a working program" CONTROL "$("$LD" "$host_file" CONTROL 2>&1)"
	n=0
	for a in "${ATTACK_PATHS[@]}"; do
		n=$((n + 1))
		check_match "$desc: '$a' shows the copy" "^seen $a\$" "$out"
	done
	check_eq "$desc: the loader refused the copy everywhere ($n places)" "$n" \
		"$(printf '%s\n' "$out" | grep -Ec '^rc=[1-9][0-9]*$')"
	check_nomatch "$desc: the copy never ran" 'PWNED' "$out"
	check_match "$desc: the loader still runs allowed programs" '^loader-ok$' "$out"
	check_match "$desc: allowed programs still run" '^exec-ok$' "$out"
}
sandbox_attack() {
	local desc=$1 file=$2
	shift 2
	attack "$desc" "$file" nsrun "$@"
}

case_alias_ro_root() {
	setup
	ATTACK_WRITE=/mnt/evil ATTACK_PATHS=("$WS/evil" /mnt/evil)
	sandbox_attack "ro / + workspace at /mnt" "$WS/evil" --ro-bind / / --bind "$WS" /mnt \
		--landlock-rw /mnt --landlock-exec /usr
}
for_each_mode case_alias_ro_root

case_alias_under_tmpfs() {
	setup
	# /opt is a tmpfs the command may write, with the workspace bound below it
	ATTACK_WRITE=/opt/ws/evil ATTACK_PATHS=("$WS/evil" /opt/ws/evil)
	sandbox_attack "workspace below a writable --tmpfs" "$WS/evil" --ro-bind / / --tmpfs /opt \
		--bind "$WS" /opt/ws --landlock-rw /opt --landlock-exec /usr
	# and the read-only alias below a tmpfs: /srv is a tmpfs holding a read-only bind
	ATTACK_WRITE=/mnt/evil2 ATTACK_PATHS=(/srv/ro/evil2 "$WS/evil2")
	sandbox_attack "read-only alias below a --tmpfs" "$WS/evil2" --ro-bind / / --tmpfs /srv \
		--ro-bind "$WS" /srv/ro --bind "$WS" /mnt --landlock-rw /mnt --landlock-exec /usr
}
for_each_mode case_alias_under_tmpfs

case_subdir_elsewhere() {
	setup
	ATTACK_WRITE=/mnt/sub/evil ATTACK_PATHS=(/opt/evil "$WS/sub/evil" /mnt/sub/evil)
	sandbox_attack "a subdirectory bound read-only elsewhere" "$WS/sub/evil" --ro-bind / / \
		--bind "$WS" /mnt --ro-bind "$WS/sub" /opt --landlock-rw /mnt --landlock-exec /usr
}
for_each_mode case_subdir_elsewhere

case_twice_writable() {
	setup
	ATTACK_WRITE=/mnt/evil ATTACK_PATHS=(/opt/evil "$WS/evil")
	sandbox_attack "the workspace bound twice, both writable" "$WS/evil" --ro-bind / / \
		--bind "$WS" /mnt --bind "$WS" /opt --landlock-rw /mnt --landlock-exec /usr
}
for_each_mode case_twice_writable

case_overlays() {
	setup
	# writes through an overlay land in its upper directory, which "/" shows too
	ATTACK_WRITE=/opt/evil ATTACK_PATHS=("$D/up/evil" /opt/evil)
	sandbox_attack "an overlay's upper directory" "$D/up/evil" --ro-bind / / \
		--overlay-src "$D/low" --overlay "$D/up" "$D/work" /opt --landlock-rw /opt \
		--landlock-exec /usr
	# the workspace as a lower layer: what the command writes shows in the overlay
	ATTACK_WRITE=/mnt/evil ATTACK_PATHS=(/opt/evil)
	sandbox_attack "the workspace as an overlay's lower layer" "$WS/evil" --ro-bind / / \
		--bind "$WS" /mnt --overlay-src "$D/low" --overlay-src "$WS" --ro-overlay /opt \
		--landlock-rw /mnt --landlock-exec /usr
}
for_each_mode case_overlays

case_exec_path_writable() {
	setup
	fail_closed "exec path inside the rw path" "--landlock-exec '$WS/bin' is writable through" \
		nsrun --ro-bind / / --bind "$WS" "$WS" --landlock-rw "$WS" --landlock-exec /usr \
		--landlock-exec "$WS/bin" -- /usr/bin/touch "$D/marker"
	fail_closed "exec path showing the workspace through an overlay" \
		"--landlock-exec '/opt' is writable through" \
		nsrun --ro-bind / / --bind "$WS" /mnt --overlay-src "$D/low" --overlay-src "$WS" \
		--ro-overlay /opt --landlock-rw /mnt --landlock-exec /usr --landlock-exec /opt -- \
		/usr/bin/touch "$D/marker"
	# Overlays name their layers /proc/self/fd/N (bwrap 0.12+, nsrun): in a nested run,
	# those are the outer sandbox's fds, so what /opt shows cannot be told here.
	fail_closed "exec path on an overlay another process named by fd" \
		"--landlock-exec '/opt' is writable through an overlay whose layers another process named" \
		nsrun --ro-bind / / --unshare-pid --proc /proc --bind "$WS" "$WS" --bind "$D" "$D" \
		--overlay-src "$D/low" --overlay-src "$D/tools" \
		--ro-overlay /opt -- "$BIN/nsrun" --landlock-only --landlock-rw "$WS" \
		--landlock-exec /usr --landlock-exec /opt -- /usr/bin/touch "$D/marker"
}
for_each_mode case_exec_path_writable

# exec_via DESC OUTER-ARGS -- INNER-ARGS: an inner nsrun (rw $WS, exec everywhere) copies a
# program into $WS and runs it through $D/view, an overlay showing $WS: never allowed.
exec_via() {
	local desc=$1 outer=() inner=() out
	shift
	while [ "$1" != -- ]; do outer+=("$1"); shift; done
	shift
	inner=("$@")
	out=$(nsrun --bind / / --dev /dev --proc /proc "${outer[@]}" -- \
		"$BIN/nsrun" --bind / / --dev /dev --proc /proc "${inner[@]}" --landlock-rw "$WS" \
		--landlock-exec / -- /bin/sh -c "cp /bin/true $WS/evil && $D/view/evil && echo EXECUTED" 2>&1)
	check_nomatch "$desc: a program written to the rw path never runs through the overlay" \
		EXECUTED "$out"
}

# Overlays name their layers by fd; the numbers repeat from one nsrun to the next, so an
# outer sandbox's overlay must not be taken for the inner's own one.
case_nested_overlay_fds() {
	setup
	mkdir -p "$D/view" "$D/low2" "$D/o1" "$D/o2" "$D/oview"
	[ "$MODE" = unpriv ] && is_root && chown -R "$UNPRIV_UID:$UNPRIV_GID" "$D"
	exec_via "nested, the inner without overlays" \
		--overlay-src "$WS" --overlay-src "$D/low2" --ro-overlay "$D/view" --
	exec_via "nested, the inner with overlays of its own (the same fd numbers)" \
		--overlay-src "$WS" --overlay-src "$D/low2" --ro-overlay "$D/view" -- \
		--overlay-src "$D/o1" --overlay-src "$D/o2" --ro-overlay "$D/oview"
}
for_each_mode case_nested_overlay_fds

# A host overlay whose layers are named by host path: resolved in the host's view.
case_host_overlay() {
	local out
	setup
	mkdir -p "$D/view" "$D/low2"
	out=$(unshare -m --propagation private sh -c '
		mount -t overlay overlay -o "lowerdir=$1:$2" "$3" || exit 3
		exec "$4" --bind / / --dev /dev --proc /proc --landlock-rw "$1" --landlock-exec / -- \
			/bin/sh -c "cp /bin/true $1/evil && $3/evil && echo EXECUTED"' \
		sh "$WS" "$D/low2" "$D/view" "$BIN/nsrun" 2>&1)
	check_nomatch "host overlay over the rw path: a written program never runs through it" \
		EXECUTED "$out"
}
is_root && case_host_overlay

# The usual agent shape: the host read-only, the workspace bound over its own path (so the
# host's view of it is covered), private /tmp; everything the agent needs keeps working.
case_agent_setup() {
	local out args
	setup
	args=(--ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --bind "$WS" "$WS" --chdir "$WS"
		--unshare-all --die-with-parent --landlock-rw "$WS" --landlock-rw /tmp
		--landlock-exec /usr)
	# rule paths may not go through a symlink: /bin only when it is no usrmerge link
	[ -L /bin ] || args+=(--landlock-exec /bin)
	out=$(nsrun "${args[@]}" -- /bin/sh -c '
		echo data >f && cat f && mkdir -p d/e && echo x >/tmp/t && echo writes-ok
		ls /usr >/dev/null && sh -c "echo nested-sh-ok" && echo "$(id -u)" >/dev/null
		perl -e "print qq(perl-ok\n)"
		"$0" /usr/bin/echo loader-ok
		cp /usr/bin/echo ./evil; ./evil direct-PWNED 2>/dev/null; echo "direct=$?"
		"$0" ./evil PWNED 2>/dev/null; echo "loader=$?"
		cp /usr/bin/echo /tmp/evil; "$0" /tmp/evil PWNED 2>/dev/null; echo "tmp=$?"
		awk -v ws="$1" "\$5 == \"/\" { r = \$6 } \$5 == ws { w = \$6 } END { print \"root=\" r; print \"ws=\" w }" /proc/self/mountinfo' \
		"$LD" "$WS" 2>&1)
	check_eq "agent: the sandbox ran" 0 "$?"
	check_match "agent: the workspace and /tmp are writable" '^writes-ok$' "$out"
	check_match "agent: shells and interpreters run" '^nested-sh-ok$' "$out"
	check_match "agent: ... perl too" '^perl-ok$' "$out"
	check_match "agent: the loader runs allowed programs" '^loader-ok$' "$out"
	check_match "agent: a written program cannot be executed (Landlock)" '^direct=126$' "$out"
	check_match "agent: ... nor run through the loader (noexec)" '^loader=[1-9][0-9]*$' "$out"
	check_match "agent: ... nor from /tmp" '^tmp=[1-9][0-9]*$' "$out"
	check_nomatch "agent: the copies never ran" 'PWNED' "$out"
	check_match "agent: the workspace mount is noexec" '^ws=.*noexec' "$out"
	check_nomatch "agent: \"/\" keeps exec (nothing writable shows there)" '^root=.*noexec' "$out"
	check_eq "agent: the workspace changes reach the host" data "$(cat "$WS/f" 2>&1)"
}
for_each_mode case_agent_setup

# "/" writable as a mount: only the Landlock rw path is writable content. With the rw list
# known, the workspace's place in "/" is covered by a noexec bind and the run goes on;
# when only the exec list reaches noexec, every writable mount counts and this fails
# closed. Either way the copy never runs.
case_rw_root_mount() {
	local out rc
	setup
	out=$(nsrun --bind / / --landlock-rw "$WS" --landlock-exec /usr -- /bin/sh -c "$ATTACK" sh \
		"$LD" "$WS/evil" "$WS/evil" 2>&1)
	rc=$?
	check_nomatch "rw / mount: the copy never ran" 'PWNED' "$out"
	if [ "$rc" = 126 ]; then
		check_match "rw / mount: refused, naming the exec path" "--landlock-exec '/usr' is writable" "$out"
	else
		check_eq "rw / mount: the sandbox ran" 0 "$rc"
		check_match "rw / mount: the loader refused the copy" '^rc=[1-9][0-9]*$' "$out"
		check_match "rw / mount: allowed programs still run" '^exec-ok$' "$out"
	fi
}
for_each_mode case_rw_root_mount

# ---- the host's own tree: --landlock-only --landlock-exec ---------------------------------

host() { nsrun --landlock-only "$@"; }

case_host() {
	local out
	setup
	ATTACK_WRITE="$WS/evil" ATTACK_PATHS=("$WS/evil")
	attack "host: workspace on the root filesystem" "$WS/evil" host \
		--landlock-rw "$WS" --landlock-exec /usr
	as_user touch "$WS/f"
	ATTACK_WRITE="$WS/f" ATTACK_PATHS=("$WS/f")
	attack "host: a single rw file" "$WS/f" host --landlock-rw "$WS/f" --landlock-exec /usr
	# exec paths on a writable mount that Landlock keeps read-only are fine
	out=$(host --landlock-rw "$WS" --landlock-exec /usr --landlock-exec "$D/tools" -- \
		"$D/tools/echo" tools-ok 2>&1)
	check_eq "host: an exec path on a writable mount, outside the rw list, runs" tools-ok "$out"
	fail_closed "host: exec path inside the rw path" "--landlock-exec '$WS/bin' is writable" \
		host --landlock-rw "$WS" --landlock-exec /usr --landlock-exec "$WS/bin" -- \
		/usr/bin/touch "$D/marker"
}
for_each_mode case_host

# Hundreds of mounts: 300 writable tmpfs below the workspace (each must become noexec) and
# 300 outside it (each must keep exec), in a private copy of the host's tree.
COUNT_MOUNTS='awk -v re="^$1/[0-9]+$" "{ m[\$5] = \$6 } END { for (k in m) if (k ~ re) { n++; x += m[k] ~ /noexec/ } print n + 0, x + 0 }" /proc/self/mountinfo'

case_host_many_mounts() {
	local out ms user=()
	setup
	if [ "$MODE" = unpriv ]; then user=(setpriv "--reuid=$UNPRIV_UID" "--regid=$UNPRIV_GID" --clear-groups); fi
	# one python3 process mounts them all (a mount(8) per mount takes seconds)
	out=$(unshare -m --propagation private /bin/sh -c '
		python3 -c "
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
for i in range(1, 301):
    for top, opts in ((sys.argv[1], b\"mode=0777\"), (sys.argv[2], b\"mode=0755\")):
        d = os.path.join(top, str(i))
        os.makedirs(d)
        if libc.mount(b\"none\", d.encode(), b\"tmpfs\", 0, opts) != 0:
            sys.exit(\"mount %s: %s\" % (d, os.strerror(ctypes.get_errno())))
" "$1/many" "$2" || exit 1
		shift 2
		t0=$(date +%s%N)
		"$@"
		echo "ms=$((($(date +%s%N) - t0) / 1000000))"' sh "$WS" "$D/other" \
		"${user[@]}" "$BIN/nsrun" --landlock-only --landlock-rw "$WS" --landlock-exec /usr \
		-- /bin/sh -c '
		cp /usr/bin/echo "$2/many/150/evil" && echo copied
		"$1" "$2/many/150/evil" PWNED 2>/dev/null; echo "rc=$?"
		echo "below=$(sh -c "$4" sh "$2/many")"
		echo "outside=$(sh -c "$4" sh "$3")"' \
		sh "$LD" "$WS" "$D/other" "$COUNT_MOUNTS" 2>&1)
	ms=$(printf '%s\n' "$out" | sed -n 's/^ms=//p')
	diag "--landlock-only with 600 extra mounts: ${ms:-?} ms (process start, noexec, Landlock, exec)"
	check_match "many mounts: the command wrote below the workspace" '^copied$' "$out"
	check_match "many mounts: the loader refused the copy" '^rc=[1-9][0-9]*$' "$out"
	check_nomatch "many mounts: the copy never ran" 'PWNED' "$out"
	check_match "many mounts: all 300 writable mounts below the workspace are noexec" \
		'^below=300 300$' "$out"
	check_match "many mounts: none of the 300 outside it is" '^outside=300 0$' "$out"
	check "many mounts: done in under 10 s" test "${ms:-99999}" -lt 10000
}
for_each_mode case_host_many_mounts

# ---- capabilities that would undo the boundary ------------------------------------------
# Landlock does not mediate mount_setattr(2): a command with CAP_SYS_ADMIN clears noexec
# on its workspace and runs what it wrote. Root's default capabilities lose it; asking
# for it (or CAP_SYS_MODULE, CAP_SYS_RAWIO, ALL) is refused, in a sandbox and in place.
REMOUNT='import ctypes, os, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
attr = ctypes.create_string_buffer(struct.pack("QQQQ", 0, 0x8, 0, 0))  # clear NOEXEC
r = libc.syscall(442, -100, sys.argv[1].encode(), 0x8000, attr, 32)  # mount_setattr
print("mount_setattr:", "done" if r == 0 else os.strerror(ctypes.get_errno()))'
case_caps() {
	local out rc c set
	setup
	out=$(nsrun --unshare-all --ro-bind / / --bind "$WS" /mnt --landlock-rw /mnt \
		--landlock-exec /usr -- /bin/sh -c 'grep -E "^Cap(Eff|Bnd)" /proc/self/status
			python3 -c "$1" /mnt; cp /usr/bin/echo /mnt/evil && "$2" /mnt/evil PWNED
			echo "rc=$?"' sh "$REMOUNT" "$LD" 2>&1)
	# (make check-legacy's filter answers ENOSYS for the mount API, in the sandbox too)
	check_match "capabilities: mount_setattr cannot clear noexec" \
		'^mount_setattr: (Operation not permitted|Function not implemented)$' "$out"
	check_nomatch "capabilities: the copy never ran" 'PWNED' "$out"
	check_match "capabilities: the copy was refused" '^rc=[1-9][0-9]*$' "$out"
	if [ "$MODE" = root ]; then
		check_match "capabilities: root keeps the others (CAP_CHOWN, CAP_NET_ADMIN)" \
			'^CapEff:.*[13579bdf]$' "$out"
	fi
	for set in Eff Bnd; do
		check_eq "capabilities: Cap$set holds none of CAP_SYS_ADMIN, CAP_DAC_READ_SEARCH, CAP_CHECKPOINT_RESTORE, _MODULE, _RAWIO, _BOOT" \
			none "$(caps_lacking $set "$out" $((1 << 21 | 1 << 2 | 1 << 40 | 1 << 16 | 1 << 17 | 1 << 22)))"
	done
	for c in CAP_SYS_ADMIN CAP_DAC_READ_SEARCH CAP_CHECKPOINT_RESTORE cap_sys_module CAP_SYS_RAWIO \
		CAP_SYS_BOOT ALL; do
		out=$(nsrun --unshare-all --ro-bind / / --bind "$WS" /mnt --cap-add "$c" \
			--landlock-rw /mnt --landlock-exec /usr -- true 2>&1)
		rc=$?
		check_eq "capabilities: --cap-add $c with --landlock-exec: exit 1" 1 "$rc"
		check_match "capabilities: --cap-add $c: says why" \
			'^nsrun: --landlock-exec cannot be combined with --cap-add of CAP_SYS_ADMIN, .*mount_setattr' \
			"$out"
	done
	out=$(nsrun --landlock-only --cap-add CAP_SYS_ADMIN --landlock-rw "$WS" \
		--landlock-exec /usr -- true 2>&1)
	check_eq "capabilities: --landlock-only --cap-add CAP_SYS_ADMIN: refused" 1 "$?"
	out=$(nsrun --unshare-all --ro-bind / / --cap-add ALL --cap-drop CAP_SYS_ADMIN \
		--cap-drop CAP_DAC_READ_SEARCH --cap-drop CAP_CHECKPOINT_RESTORE \
		--cap-drop CAP_SYS_MODULE --cap-drop CAP_SYS_RAWIO --cap-drop CAP_SYS_BOOT \
		--landlock-rw "$WS" --landlock-exec /usr -- true 2>&1)
	check_eq "capabilities: ALL without the six runs" "0 " "$? $out"
}
for_each_mode case_caps

# Without any capability: a user namespace of the command's own, and in it a new overlay
# over the workspace (fsopen, fsmount), which comes without noexec. Landlock does not
# mediate fsopen or mmap: the exec guard refuses new filesystems.
OVERLAY_ATTACK='import ctypes, os, shutil, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def err(step):
    print("REFUSED at %s: %s" % (step, os.strerror(ctypes.get_errno())), flush=True)
    sys.exit(1)
ws, ld = sys.argv[1], sys.argv[2]
shutil.copy("/usr/bin/echo", ws + "/evil")
print("copied", flush=True)
if libc.unshare(0x10000000 | 0x20000) != 0: err("unshare")
fs = libc.syscall(430, b"overlay", 1)
if fs < 0: err("fsopen")
if libc.syscall(431, fs, 1, b"lowerdir", (ws + ":/usr/share").encode(), 0) < 0: err("fsconfig")
if libc.syscall(431, fs, 6, None, None, 0) < 0: err("fsconfig create")
m = libc.syscall(432, fs, 1, 0)
if m < 0: err("fsmount")
os.set_inheritable(m, True)
os.execv(ld, [ld, "/proc/self/fd/%d/evil" % m, "PWNED"])'
case_own_overlay() {
	local out
	setup
	out=$(nsrun --unshare-all --ro-bind / / --dev /dev --bind "$WS" /mnt --landlock-rw /mnt \
		--landlock-exec /usr -- python3 -c "$OVERLAY_ATTACK" /mnt "$LD" 2>&1)
	check_match "own overlay over the workspace: the copy was written" '^copied$' "$out"
	check_nomatch "own overlay over the workspace: the copy never ran" 'PWNED' "$out"
	check_match "own overlay over the workspace: no new filesystem" \
		'^REFUSED at fsopen: Function not implemented$' "$out"
	setup
	out=$(nsrun --landlock-only --landlock-rw "$WS" --landlock-exec /usr -- \
		python3 -c "$OVERLAY_ATTACK" "$WS" "$LD" 2>&1)
	check_nomatch "--landlock-only: own overlay over the workspace: the copy never ran" 'PWNED' "$out"
	check_match "--landlock-only: own overlay: no new filesystem" \
		'^REFUSED at fsopen: Function not implemented$' "$out"
}
for_each_mode case_own_overlay

done_testing
