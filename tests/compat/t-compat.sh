#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-compat.sh: differential test. The same argument vectors run through the reference
# bwrap (bubblewrap 0.13.1 from ../shared/oracle, else the system bwrap; see
# oracle.sh) and through nsrun (invoked as "bwrap"), as root and unprivileged; exit
# codes, stdout, stderr and the status fds' contents, normalised, must be identical
# unless tests/compat/allowlist.sh allows the difference. A case is skipped only when
# the reference lacks one of its options (decided from its `--help`).
. "$top_srcdir/tests/integration/lib.sh"
need_ns
. "$top_srcdir/tests/compat/oracle.sh"
BWRAP_HELP=$("$BWRAP" --help 2>&1)
DENY=${NSRUN_HELPERS:-$(dirname "$NSRUN_PROBE")}/seccomp-deny

# Inputs on fixed fds for every run: 3 data, 4 --args, 5/6 seccomp, 7 one byte, 8 a dir,
# 9 status output, 10/11 the user and pid namespaces of a running sandbox (see hold_ns),
# 12 an empty file.
IN="$TMP/in"
mkdir -p "$IN/dir/sub"
chmod -R a+rX "$IN"
printf 'line1\nline2\n' >"$IN/data"
: >"$IN/empty"
printf -- '--dir\0/mnt/fromargs\0--setenv\0FROM_ARGS\0yes\0' >"$IN/args"
"$DENY" getpriority >"$IN/sc1" && "$DENY" umask >"$IN/sc2" || skip_all "seccomp-deny failed"
echo x >"$IN/byte"
echo 1 >"$IN/dir/f"

# Host sources whose "/oldroot" + name is just under, and just at, PATH_MAX (4096) bytes,
# and one longer than the 255 bytes fsconfig takes of a string.
SRC_FITS=$(long_name "$IN/deep" 4087)
SRC_LONG=$(long_name "$IN/deep" 4088)
SRC_300=$(long_name "$IN/deep" 300)
mkdir -p "$SRC_FITS" "$SRC_LONG" "$SRC_300"
echo 1 >"$SRC_300/f"
chmod -R a+rX "$IN"
HOST_NS=$("$PROBE" ns | sed 's/^ns\.[a-z]*=//' | sort -u)

# has_opts OPT...: true when the system bwrap knows every OPT.
has_opts() {
	local o
	for o in "$@"; do
		printf '%s\n' "$BWRAP_HELP" | grep -Eq -- "^ +$o( |$)" || return 1
	done
}

# c_differs NAME NEEDED-OPTS SED -- ARGS...: a case where nsrun differs from bwrap on
# purpose (listed in the man page's COMPATIBILITY); SED (sed -E) turns bwrap's output
# into the documented one, so every other byte is still compared. Empty SED: no change.
c_differs() {
	local name=$1 needs=$2
	EXPECT_SED=$3
	shift 3
	c "$name" "$needs" "$@"
	EXPECT_SED=
}

# Pids, inode numbers and session ids vary between runs; namespaces keep "host"/"new".
# Overlay directories are named to the kernel by fd (/proc/self/fd/N), whose numbers
# are each tool's own. bash's "last command" variable names the tool itself.
normalise() {
	local sedscript="" ino
	for ino in $HOST_NS; do sedscript+="s/\\b$ino\\b/HOSTNS/g;"; done
	sed -E "$sedscript"'s/\b40265[0-9]{5}\b/NEWNS/g;s/("child-pid": )[0-9]+/\1PID/;s/^(pid|ppid|sid)=([3-9]|[0-9]{2,})$/\1=N/;s|/proc/self/fd/[0-9]+|/proc/self/fd/N|g' |
		grep -v -e '^env=_='
}

reset_work() {
	rm -rf "$W"
	mkdir -p "$W/dir/sub" "$W/ov/l1" "$W/ov/l2" "$W/ov/u" "$W/ov/w" \
		"$W/ov/l \":,\\" "$W/ov/u \":,\\" "$W/ov/w \":,\\"
	echo content >"$W/file"
	echo 1 >"$W/ov/l1/a"
	echo 2 >"$W/ov/l2/b"
	echo 3 >"$W/ov/l \":,\\/c"
	: >"$W/lock"
	[ "$MODE" = unpriv ] && chown -R $UNPRIV_UID:$UNPRIV_GID "$W"
}

# run_one TOOL ARGS...: "rc=N", stdout, stderr and the status fds' contents, normalised.
run_one() {
	local tool=$1 rc
	shift
	reset_work
	[ -e "$HOLD_NS/user" ] || HOLD_NS=/proc/self/ns
	# Emptied first: a redirection that fails must not leave the last case's output.
	: >"$TMP/stdout"
	: >"$TMP/stderr"
	(cd "$W" && as_user "${WRAP[@]}" "$tool" "$@" 3<"$IN/data" 4<"$IN/args" 5<"$IN/sc1" 6<"$IN/sc2" \
		7<"$IN/byte" 8<"$IN/dir" 9>"$W/info" 10<"$HOLD_NS/user" 11<"$HOLD_NS/pid" \
		12<"$IN/empty" >"$TMP/stdout" 2>"$TMP/stderr" </dev/null)
	rc=$?
	show_run "$tool" "$rc"
}

# show_run TOOL RC: what run_one compares, from $TMP/stdout, $TMP/stderr and $W/info.
show_run() {
	local out
	out=$({
		echo "rc=$2"
		cat "$TMP/stdout"
		echo "--- stderr"
		cat "$TMP/stderr"
		echo "--- fd 9"
		cat "$W/info" 2>/dev/null
	} | normalise)
	# Usage messages name the binary; each tool runs from its own directory.
	printf '%s\n' "${out//"$1"/BWRAP}"
}

# c NAME NEEDED-OPTS -- ARGS...: one differential case.
# With EXPECT_SED set (see c_differs), bwrap's output is first edited by it.
c() {
	local name=$1 needs=$2 a b
	shift 3
	# shellcheck disable=SC2086
	if ! has_opts $needs; then
		skip "$name" "$BWRAP lacks one of: $needs"
		return
	fi
	a=$(run_one "$BWRAP" "$@")
	[ -n "${EXPECT_SED:-}" ] && a=$(printf '%s\n' "$a" | sed -E "$EXPECT_SED")
	b=$(run_one "$BIN/bwrap" "$@")
	compat_check "$name" "$a" "$b" || diag "args: $*"
}

R=(--ro-bind / /)
P=$PROBE
BASIC=(ids uidmap gidmap caps ns cwd hostname netdevs)

cases_namespaces() {
	c "no options" "" -- "${R[@]}" "$P" "${BASIC[@]}"
	local o
	for o in --unshare-user --unshare-user-try --unshare-ipc --unshare-pid --unshare-net --unshare-uts \
		--unshare-cgroup --unshare-cgroup-try --unshare-all; do
		c "$o" "$o" -- "${R[@]}" $o "$P" "${BASIC[@]}" pid
	done
	c "--unshare-all --share-net" "--unshare-all --share-net" -- "${R[@]}" --unshare-all --share-net "$P" "${BASIC[@]}"
	c "--uid/--gid" "--uid --gid" -- "${R[@]}" --unshare-user --uid 1234 --gid 5678 "$P" ids uidmap gidmap
	c "--uid/--gid with --dev" "--uid --gid --dev" -- "${R[@]}" --unshare-user --uid 0 --gid 0 --dev /dev "$P" ids uidmap gidmap caps
	c "--hostname" "--hostname" -- "${R[@]}" --unshare-uts --hostname compat "$P" hostname
	c "--hostname without uts" "--hostname" -- "${R[@]}" --hostname compat "$P" hostname
	c "--disable-userns" "--disable-userns" -- "${R[@]}" --unshare-user --disable-userns "$P" unshare-user
	c "--assert-userns-disabled" "--assert-userns-disabled" -- "${R[@]}" --unshare-user --assert-userns-disabled "$P" pid
	c "--disable-userns + assert" "--disable-userns --assert-userns-disabled" -- "${R[@]}" --unshare-user \
		--disable-userns --assert-userns-disabled "$P" unshare-user
	c "--userns-block-fd" "--userns-block-fd --info-fd" -- "${R[@]}" --unshare-user --info-fd 9 --userns-block-fd 7 "$P" ids
	c "--userns-block-fd without userns" "--userns-block-fd" -- "${R[@]}" --userns-block-fd 7 "$P" ids
	c "--userns2 bad fd" "--userns2" -- "${R[@]}" --userns2 3 "$P" ids
	c "--userns with --unshare-user" "--userns" -- "${R[@]}" --userns 3 --unshare-user "$P" ids
	c "--pidns not a namespace" "--pidns" -- "${R[@]}" --pidns 3 "$P" ids
}

cases_mounts() {
	c "--bind" "--bind" -- "${R[@]}" --bind "$W" /mnt "$P" mountinfo /mnt ls /mnt write /mnt/new
	c "--ro-bind" "--ro-bind" -- "${R[@]}" --ro-bind "$W" /mnt "$P" mountinfo /mnt write /mnt/new
	c "--dev-bind" "--dev-bind" -- "${R[@]}" --dev-bind /dev /dev "$P" mountinfo /dev/null open-errno /dev/null w
	c "--bind-try missing" "--bind-try" -- "${R[@]}" --tmpfs /mnt --bind-try /nonexistent /mnt/x "$P" stat /mnt/x
	c "--ro-bind-try" "--ro-bind-try" -- "${R[@]}" --tmpfs /mnt --ro-bind-try "$W" /mnt/x --ro-bind-try /nonexistent /mnt/y "$P" ls /mnt mountinfo /mnt/x
	c "--dev-bind-try" "--dev-bind-try" -- "${R[@]}" --tmpfs /mnt --dev-bind-try "$W" /mnt/x --dev-bind-try /nonexistent /mnt/y "$P" ls /mnt mountinfo /mnt/x
	c "missing source" "--bind" -- "${R[@]}" --bind /nonexistent /mnt "$P" pid
	c "--bind-fd" "--bind-fd" -- "${R[@]}" --bind-fd 8 /mnt "$P" ls /mnt mountinfo /mnt
	c "--ro-bind-fd" "--ro-bind-fd" -- "${R[@]}" --ro-bind-fd 8 /mnt "$P" ls /mnt mountinfo /mnt
	c "--remount-ro" "--remount-ro" -- "${R[@]}" --bind "$W" /mnt --remount-ro /mnt "$P" mountinfo /mnt write /mnt/x
	c "--tmpfs" "--tmpfs" -- "${R[@]}" --tmpfs /mnt "$P" stat /mnt mountinfo /mnt statfs /mnt
	c "--perms --size --tmpfs" "--perms --size --tmpfs" -- "${R[@]}" --perms 0700 --size 1048576 --tmpfs /mnt "$P" stat /mnt statfs /mnt
	c "--size 0" "--size" -- "${R[@]}" --size 0 --tmpfs /mnt "$P" pid
	c "--size too big" "--size" -- "${R[@]}" --size 9223372036854775809 --tmpfs /mnt "$P" pid
	# COMPATIBILITY: started by root, nsrun covers /proc/sys read-only; bwrap's access(W_OK)
	# test never succeeds on it, so bwrap leaves the host's sysctls writable.
	local sys_ro=
	[ "$MODE" = root ] && sys_ro='s|^(mountinfo:/proc/sys=mnt=)/proc (fstype=proc opts=)rw,|\1/proc/sys \2ro,|;s|^(open:/proc/sys/kernel/domainname=)ok$|\1errno=EROFS|'
	c_differs "--proc" "--proc" "$sys_ro" -- "${R[@]}" --unshare-pid --proc /proc "$P" pid ppid mountinfo /proc \
		mountinfo /proc/sys mountinfo /proc/irq ls /proc/self/ns open-errno /proc/sys/kernel/domainname w
	c_differs "--proc without pid ns" "--proc" "$sys_ro" -- "${R[@]}" --proc /proc "$P" mountinfo /proc \
		mountinfo /proc/sys open-errno /proc/sys/kernel/domainname w
	c_differs "--proc in a user namespace" "--proc" "$sys_ro" -- "${R[@]}" --unshare-user --unshare-pid \
		--proc /proc "$P" mountinfo /proc/sys mountinfo /proc/bus open-errno /proc/sys/kernel/domainname w
	c "--dev" "--dev" -- "${R[@]}" --dev /dev "$P" ls /dev stat /dev/null stat /dev/tty lstat /dev/ptmx readlink /dev/fd mountinfo /dev mountinfo /dev/pts mountinfo /dev/shm stat /dev/pts/ptmx
	c "--mqueue" "--mqueue" -- "${R[@]}" --unshare-ipc --mqueue /mnt "$P" mountinfo /mnt
	c "staging invisible" "--bind" -- --ro-bind "$BIN" /pbin --bind "$W" /tmp /pbin/nsrun-probe ls /tmp ls /
}

cases_files() {
	c "--dir" "--dir" -- "${R[@]}" --tmpfs /mnt --dir /mnt/a/b --perms 0700 --dir /mnt/c/d "$P" stat /mnt/a stat /mnt/a/b stat /mnt/c stat /mnt/c/d
	c "--file" "--file" -- "${R[@]}" --tmpfs /mnt --file 3 /mnt/f "$P" stat /mnt/f cat /mnt/f
	c "--perms --file" "--perms --file" -- "${R[@]}" --tmpfs /mnt --perms 0640 --file 3 /mnt/x/f "$P" stat /mnt/x stat /mnt/x/f
	c "--bind-data" "--bind-data" -- "${R[@]}" --tmpfs /mnt --bind-data 3 /mnt/b "$P" stat /mnt/b cat /mnt/b mountinfo /mnt/b write /mnt/b
	c "--ro-bind-data" "--ro-bind-data" -- "${R[@]}" --tmpfs /mnt --ro-bind-data 3 /mnt/b "$P" stat /mnt/b mountinfo /mnt/b write /mnt/b
	c "--symlink" "--symlink" -- "${R[@]}" --tmpfs /mnt --symlink /dev/null /mnt/l --symlink ../x /mnt/a/r "$P" readlink /mnt/l readlink /mnt/a/r stat /mnt/a
	if "$BWRAP" --ro-bind / / --tmpfs /mnt --symlink a /mnt/l --symlink a /mnt/l true 2>/dev/null; then
		SYMLINK_IDEMPOTENT=--symlink
	else
		SYMLINK_IDEMPOTENT=--symlink-idempotent # bwrap < 0.9: not in --help, so the case skips
	fi
	c "--symlink twice" "$SYMLINK_IDEMPOTENT" -- "${R[@]}" --tmpfs /mnt --symlink /dev/null /mnt/l --symlink /dev/null /mnt/l "$P" readlink /mnt/l
	c "--symlink existing dest" "$SYMLINK_IDEMPOTENT" -- "${R[@]}" --tmpfs /mnt --symlink /dev/null /mnt/l --symlink /dev/zero /mnt/l "$P" pid
	c "--symlink over a directory" "--symlink" -- "${R[@]}" --tmpfs /mnt --symlink /x /mnt "$P" pid
	c "--symlink to DEST/" "--symlink" -- "${R[@]}" --tmpfs /mnt --symlink /x /mnt/a/ "$P" pid
	c "--perms --dir DEST/: made as a parent" "--perms --dir" -- "${R[@]}" --tmpfs /mnt --perms 0711 --dir /mnt/a/ \
		--perms 0711 --dir /mnt/b//c "$P" stat /mnt/a stat /mnt/b stat /mnt/b/c
	c "--remount-ro of a path that is no mount point" "--remount-ro" -- "${R[@]}" --tmpfs /mnt --dir /mnt/a \
		--remount-ro /mnt//a/./ "$P" pid
	# Dangling symlinks: mkdir(2) never creates through one, open(O_CREAT) does.
	c "--symlink to a dangling DEST/" "--symlink" -- "${R[@]}" --tmpfs /mnt --symlink x /mnt/a \
		--symlink /t /mnt/a/ "$P" ls /mnt
	c "--symlink past a dangling symlink" "--symlink" -- "${R[@]}" --tmpfs /mnt --symlink /mnt/x /mnt/a \
		--symlink /t /mnt/a/b "$P" ls /mnt
	c "--dir past a dangling symlink" "--dir" -- "${R[@]}" --tmpfs /mnt --symlink /mnt/x /mnt/a \
		--dir /mnt/a/b "$P" ls /mnt
	c "--dir two past a dangling symlink" "--dir" -- "${R[@]}" --tmpfs /mnt --symlink /mnt/x /mnt/a \
		--dir /mnt/a/b/c "$P" ls /mnt
	c "--file through a dangling symlink" "--file" -- "${R[@]}" --tmpfs /mnt --symlink x /mnt/a \
		--file 3 /mnt/a "$P" ls /mnt cat /mnt/x
	c "--file to a symlink to a file, with a /" "--file" -- "${R[@]}" --tmpfs /mnt --file 3 /mnt/f \
		--symlink f /mnt/l --file 12 /mnt/l/ "$P" cat /mnt/f
	c "--chmod" "--chmod" -- "${R[@]}" --tmpfs /mnt --dir /mnt/d --chmod 0710 /mnt/d "$P" stat /mnt/d
	c "--chmod missing" "--chmod" -- "${R[@]}" --tmpfs /mnt --chmod 0710 /mnt/d "$P" pid
	c "--perms dangling" "--perms" -- "${R[@]}" --perms 0700 --bind / /mnt "$P" pid
	c "--args" "--args" -- "${R[@]}" --tmpfs /mnt --args 4 "$P" ls /mnt getenv FROM_ARGS
}

# bwrap names a destination to the kernel as "/newroot" + DEST, which must be shorter than
# PATH_MAX: which step fails, and its message, depend on where the name crosses it.
cases_long_names() {
	local fits too_long parents
	fits=$(long_name /mnt 4087)
	too_long=$(long_name /mnt 4088)
	parents=$(long_name /mnt 4088)/x
	c "--file at the name limit" "--file" -- "${R[@]}" --tmpfs /mnt --file 3 "$fits" "$P" stat "$fits"
	c "--file past the name limit" "--file" -- "${R[@]}" --tmpfs /mnt --file 3 "$too_long" "$P" pid
	c "--file parents past the name limit" "--file" -- "${R[@]}" --tmpfs /mnt --file 3 "$parents" "$P" pid
	c "--dir past the name limit" "--dir" -- "${R[@]}" --tmpfs /mnt --dir "$too_long" "$P" pid
	c "--bind-data past the name limit" "--bind-data" -- "${R[@]}" --tmpfs /mnt --bind-data 3 "$too_long" "$P" pid
	c "--symlink past the name limit" "--symlink" -- "${R[@]}" --tmpfs /mnt --symlink /x "$too_long" "$P" pid
	c "--dev node past the name limit" "--dev" -- "${R[@]}" --tmpfs /mnt --dev "$(long_name /mnt 4081)" "$P" pid
	c "--proc cover past the name limit" "--proc" -- "${R[@]}" --tmpfs /mnt --unshare-pid --proc "$(long_name /mnt 4079)" "$P" pid
	c "--bind source at the name limit" "--bind" -- "${R[@]}" --tmpfs /mnt --bind "$SRC_FITS" /mnt/x "$P" stat /mnt/x
	c "--bind source past the name limit" "--bind" -- "${R[@]}" --tmpfs /mnt --bind "$SRC_LONG" /mnt/x "$P" pid
	c "--bind-try missing source past the name limit" "--bind-try" -- "${R[@]}" --tmpfs /mnt --bind-try "$SRC_FITS/nope" /mnt/x "$P" pid
	c "--overlay-src longer than fsconfig takes" "--overlay-src --tmp-overlay" -- "${R[@]}" --tmpfs /mnt \
		--overlay-src "$SRC_300" --tmp-overlay /mnt/x "$P" ls /mnt/x mountinfo /mnt/x
}

cases_process() {
	c "exit code" "" -- "${R[@]}" "$P" exit 42
	c "exit code with reaper" "--unshare-pid" -- "${R[@]}" --unshare-pid "$P" exit 43
	c "--as-pid-1" "--as-pid-1" -- "${R[@]}" --unshare-pid --as-pid-1 "$P" pid exit 44
	c "--as-pid-1 without pid ns" "--as-pid-1" -- "${R[@]}" --as-pid-1 "$P" pid
	c "signal" "" -- "${R[@]}" "$P" kill-self TERM
	c "reaper reaps" "--unshare-pid --proc" -- "${R[@]}" --unshare-pid --proc /proc "$P" zombie
	c "--chdir" "--chdir" -- "${R[@]}" --chdir /usr "$P" cwd getenv PWD
	c "--chdir missing" "--chdir" -- "${R[@]}" --chdir /nonexistent "$P" cwd
	c "default cwd" "" -- "${R[@]}" "$P" cwd getenv PWD
	c "--setenv/--unsetenv" "--setenv --unsetenv" -- "${R[@]}" --setenv A 1 --setenv B 2 --unsetenv B "$P" getenv A getenv B
	c "--clearenv" "--clearenv" -- "${R[@]}" --chdir / --clearenv --setenv X y "$P" env
	c "--argv0" "--argv0" -- "${R[@]}" --argv0 other "$P" argv0
	c "--new-session" "--new-session" -- "${R[@]}" --new-session "$P" tty
	c "--die-with-parent" "--die-with-parent" -- "${R[@]}" --die-with-parent --unshare-pid "$P" pid
	c "--lock-file" "--lock-file" -- "${R[@]}" --bind "$W" "$W" --lock-file "$W/lock" "$P" pid
	c "--lock-file with --as-pid-1" "--lock-file --as-pid-1" -- "${R[@]}" --unshare-pid --as-pid-1 --lock-file /x "$P" pid
	c "--sync-fd" "--sync-fd" -- "${R[@]}" --sync-fd 7 "$P" fds
	c "several --sync-fd, one closed" "--sync-fd" -- "${R[@]}" --sync-fd 7 --sync-fd 13 --sync-fd 8 "$P" fds
	c "several --sync-fd held by pid 1" "--sync-fd" -- "${R[@]}" --unshare-pid --sync-fd 7 --sync-fd 8 "$P" pid fds
	c "--block-fd" "--block-fd" -- "${R[@]}" --block-fd 7 "$P" pid
	c "--info-fd" "--info-fd" -- "${R[@]}" --unshare-all --info-fd 9 "$P" exit 3
	c "--json-status-fd" "--json-status-fd" -- "${R[@]}" --unshare-pid --unshare-net --json-status-fd 9 "$P" exit 4
	c "--json-status-fd exec failure" "--json-status-fd" -- "${R[@]}" --json-status-fd 9 /nonexistent
	c "--cap-add" "--cap-add" -- "${R[@]}" --cap-add CAP_NET_ADMIN "$P" caps
	c "--cap-drop" "--cap-drop" -- "${R[@]}" --cap-drop ALL --cap-add CAP_CHOWN "$P" caps
	c "--cap-add unknown" "--cap-add" -- "${R[@]}" --cap-add CAP_BOGUS "$P" caps
	c "--seccomp" "--seccomp" -- "${R[@]}" --seccomp 5 "$P" syscall getpriority syscall umask caps
	c "--add-seccomp-fd" "--add-seccomp-fd" -- "${R[@]}" --add-seccomp-fd 5 --add-seccomp-fd 6 "$P" syscall getpriority syscall umask
	c "--seccomp bad data" "--seccomp" -- "${R[@]}" --seccomp 3 "$P" pid
	c "--seccomp + --add-seccomp-fd" "--seccomp --add-seccomp-fd" -- "${R[@]}" --add-seccomp-fd 5 --seccomp 6 "$P" pid
	c "--exec-label" "--exec-label" -- "${R[@]}" --exec-label x "$P" pid
	c "--file-label" "--file-label" -- "${R[@]}" --file-label x "$P" pid
	c "--level-prefix" "--level-prefix" -- --level-prefix "${R[@]}" --chdir / --chdir / "$P" pid
}

cases_cli() {
	c "no arguments" "" --
	c "no command" "" -- "${R[@]}"
	c "unknown option" "" -- --frobnicate
	c "--opt=value" "" -- --bind=/ /
	c "missing argument" "" -- --bind /
	c "-- then an option-like command" "" -- "${R[@]}" --setenv PATH /nonexistent -- --dev-bind
	c "exec failure" "" -- "${R[@]}" /nonexistent
	c "--chdir twice" "--chdir" -- "${R[@]}" --chdir / --chdir / "$P" cwd
}

# bubblewrap 0.12 and 0.13's additions. The 0.11.1 oracle lacks --not-a-security-boundary, so
# that case skips against it (it runs against a newer bwrap); --debug-opt is hidden from
# bwrap's --help, so it is not compared at all. An empty path differs on purpose.
cases_bwrap13() {
	c "--not-a-security-boundary" "--not-a-security-boundary" -- "${R[@]}" --not-a-security-boundary \
		--tmpfs /tmp --ro-bind /usr /tmp/u "$P" ids mountinfo /tmp/u
	c "empty path argument" "" -- "${R[@]}" --tmpfs /tmp --bind-try "" "" "$P" cwd
}

# hold_ns TOOL: a sandbox started by TOOL in the current mode, whose namespaces
# --userns/--pidns can join (HOLD_NS); hold_stop ends it.
hold_ns() {
	local i pid cmd
	hold_stop
	rm -f "$TMP/hold-info"
	# It must outlive every case of a mode (over two minutes with CI's sanitizers and
	# parallel tests): once it ends, a case's redirection of its namespaces can fail,
	# which runs nothing (rc=1, no output). hold_stop ends it.
	cmd=("$1" --ro-bind / / --unshare-user --unshare-pid --die-with-parent --info-fd 3 "$PROBE" sleep 3600)
	[ "$MODE" = unpriv ] && cmd=(setpriv "--reuid=$UNPRIV_UID" "--regid=$UNPRIV_GID" --clear-groups -- "${cmd[@]}")
	"${cmd[@]}" 3>"$TMP/hold-info" >/dev/null 2>&1 &
	HOLD_BG=$!
	for ((i = 0; i < 50; i++)); do
		pid=$(sed -n 's/.*"child-pid": *\([0-9]*\).*/\1/p' "$TMP/hold-info" 2>/dev/null)
		[ -n "$pid" ] && [ -e "/proc/$pid/ns/pid" ] && break
		sleep 0.1
	done
	HOLD_NS=/proc/$pid/ns
}
hold_stop() {
	# The held sandbox's pid 1 dies after its monitor, and lingers as a zombie until
	# it is reaped: a later run_one could find its /proc entry, then fail to open it
	# in the redirection, which runs nothing and leaves the previous case's output.
	HOLD_NS=/proc/self/ns
	[ -n "${HOLD_BG:-}" ] || return 0
	kill "$HOLD_BG" 2>/dev/null
	wait "$HOLD_BG" 2>/dev/null
	HOLD_BG=
}

cases_join() {
	c "--userns" "--userns" -- "${R[@]}" --userns 10 "$P" ids uidmap ns
	c "--userns --pidns" "--userns --pidns" -- "${R[@]}" --userns 10 --pidns 11 "$P" pid ids ns
	c "--userns --pidns --unshare-pid" "--userns --pidns" -- "${R[@]}" --userns 10 --pidns 11 --unshare-pid "$P" pid ns
}

# join_own TOOL: TOOL joins the namespaces of a sandbox TOOL started, opening them as
# the user of the current mode (as flatpak-spawn and bwrap's own tests do).
join_own() {
	local rc
	# Called in $(...): the holder of the mode's other cases is not this subshell's to
	# stop (hold_ns stops the current one first); killed here, it left run_one's
	# redirection of its namespaces racing with its exit.
	HOLD_BG=
	hold_ns "$1"
	reset_work
	(cd "$W" && as_user bash -c 'exec "$@" 10<"$0/user" 11<"$0/pid"' "$HOLD_NS" \
		"$1" "${R[@]}" --userns 10 --pidns 11 "$P" pid ids ns >"$TMP/stdout" 2>"$TMP/stderr" </dev/null)
	rc=$?
	hold_stop
	show_run "$1" "$rc" | sed -E 's|/proc/[0-9]+/ns|/proc/HOLDER/ns|g'
}

# Shapes real callers pass (and the differences nsrun(1) documents).
cases_issue9() {
	local a b
	if has_opts --userns --pidns; then
		a=$(join_own "$BWRAP")
		b=$(join_own "$BIN/bwrap")
		compat_check "join a sandbox started by the same tool" "$a" "$b"
	else
		skip "join a sandbox started by the same tool" "$BWRAP lacks --userns or --pidns"
	fi
	c "--ro-bind-try of a namespace file" "--ro-bind-try" -- "${R[@]}" --unshare-user --tmpfs /run \
		--ro-bind-try /proc/self/ns/user /run/.userns "$P" ls /run stat /run/.userns mountinfo /run/.userns
	c "--overlay" "--overlay-src --overlay" -- "${R[@]}" --overlay-src "$W/ov/l1" --overlay-src "$W/ov/l2" \
		--overlay "$W/ov/u" "$W/ov/w" /mnt "$P" ls /mnt write /mnt/new ls "$W/ov/u" mountinfo /mnt
	c "--tmp-overlay" "--overlay-src --tmp-overlay" -- "${R[@]}" --overlay-src "$W/ov/l1" --tmp-overlay /mnt \
		"$P" ls /mnt write /mnt/new mountinfo /mnt
	c "--ro-overlay" "--overlay-src --ro-overlay" -- "${R[@]}" --overlay-src "$W/ov/l1" --overlay-src "$W/ov/l2" \
		--ro-overlay /mnt "$P" ls /mnt write /mnt/new mountinfo /mnt
	c "--overlay with ':,\\' in paths" "--overlay-src --overlay" -- "${R[@]}" --overlay-src "$W/ov/l \":,\\" \
		--overlay "$W/ov/u \":,\\" "$W/ov/w \":,\\" /mnt "$P" ls /mnt write /mnt/new mountinfo /mnt
	c "--add-seccomp-fd empty program" "--add-seccomp-fd" -- "${R[@]}" --add-seccomp-fd 12 "$P" pid
	c "--seccomp empty program" "--seccomp" -- "${R[@]}" --seccomp 12 "$P" pid
	c "--add-seccomp-fd empty, then --seccomp" "--seccomp --add-seccomp-fd" -- "${R[@]}" --add-seccomp-fd 12 --seccomp 5 "$P" pid
	c "--seccomp, then --add-seccomp-fd empty" "--seccomp --add-seccomp-fd" -- "${R[@]}" --seccomp 5 --add-seccomp-fd 12 "$P" pid
	# Mount ids and the anonymous device numbers of the sandbox's own tmpfs and devpts depend on
	# what else mounts on the host meanwhile: the flags are what is compared.
	c "--dev over host submounts" "--dev" -- "${R[@]}" --dev /dev \
		/usr/bin/awk '$5 ~ /^\/dev(\/|$)/ { $1 = $2 = $3 = ""; print }' /proc/self/mountinfo
	c "--bind / over host submounts" "--bind" -- --bind / / \
		/usr/bin/awk '$5 ~ /^\/dev(\/|$)/ { $1 = $2 = $3 = ""; print }' /proc/self/mountinfo
	c "--info-fd not writable" "--info-fd" -- "${R[@]}" --info-fd 3 "$P" pid
	c "--json-status-fd not writable" "--json-status-fd" -- "${R[@]}" --json-status-fd 3 "$P" pid
	c "--info-fd and --json-status-fd on one fd" "--info-fd --json-status-fd" -- "${R[@]}" --info-fd 9 --json-status-fd 9 "$P" pid
	c "absolute symlink in a destination parent" "--symlink --dir" -- "${R[@]}" --tmpfs /mnt --dir /mnt/real \
		--symlink /mnt/real /mnt/link --dir /mnt/link/sub "$P" ls /mnt ls /mnt/real
	c "fd with a leading space" "--sync-fd" -- "${R[@]}" --sync-fd " 7" "$P" pid
}

# Real clients' shapes, each as the client passes it. c_wrap NAME NEEDS WRAPPER...
# -- ARGS: a case whose tool runs under WRAPPER (a command that ends by running its
# arguments), as the client's own process does.
WRAP=()
c_wrap() {
	local name=$1 needs=$2
	shift 2
	WRAP=()
	while [ "$1" != -- ]; do
		WRAP+=("$1")
		shift
	done
	c "$name" "$needs" "$@"
	WRAP=()
}
# The --args data, in a sealed memfd on fd 13 (WebKit's shape), then the command.
MEMFD_ARGS='import fcntl, os, sys
fd = os.memfd_create("bwrap-args", os.MFD_ALLOW_SEALING)
os.write(fd, b"--dir\0/mnt/frommemfd\0--setenv\0FROM_ARGS\0memfd\0")
os.lseek(fd, 0, os.SEEK_SET)
fcntl.fcntl(fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE | fcntl.F_SEAL_SEAL)
os.dup2(fd, 13)
os.execvp(sys.argv[1], sys.argv[1:])'
# Reads --info-fd to EOF while the command runs (Bubblejail's shape): when the pipe's
# last writer closes it, which must not be the payload, still running.
INFO_EOF='start=$SECONDS
{ "$@" 9>&1 >/dev/null 2>&3 | {
	cat >/dev/null
	[ $((SECONDS - start)) -lt 4 ] && echo "info-fd: EOF while the command runs" || echo "info-fd: EOF at its end"
}; } 3>&2'
# Covers a directory of /proc in a user and mount namespace of its own, so that no new
# procfs may be mounted below it (a container's masked /proc: Codex's shape).
MASK_PROC='mount -t tmpfs none /proc/sys/vm && exec "$@"'

cases_clients() {
	# pressure-vessel's probes: does bwrap run at all, does --perms apply to --dir /.
	c "pressure-vessel: --bind / / true" "--bind" -- --bind / / true
	c "pressure-vessel: --perms 0700 --dir /" "--perms --dir" -- --perms 0700 --dir / true
	c "pressure-vessel: --perms 0700 --dir / then binds" "--perms --dir" -- --perms 0700 --dir / \
		--ro-bind "$BIN" /pbin /pbin/nsrun-probe stat / ls /
	# mkosi: lower-case "all", with a bind over / (root's bounding set may lack some caps).
	c "mkosi: --cap-add all over --bind / /" "--cap-add" -- --bind / / --cap-add all "$P" caps ids
	c "mkosi: --cap-add all with --unshare-user --uid 0" "--cap-add" -- --bind / / --unshare-user \
		--uid 0 --gid 0 --cap-add all "$P" caps ids
	# Bubblejail: --as-pid-1, and the --info-fd read to EOF while the command runs.
	c "bubblejail: --as-pid-1 --info-fd" "--as-pid-1 --info-fd" -- "${R[@]}" --unshare-pid --as-pid-1 \
		--info-fd 9 "$P" pid fds
	c_wrap "bubblejail: --info-fd EOF while --as-pid-1 runs" "--as-pid-1 --info-fd" bash -c "$INFO_EOF" sh \
		-- "${R[@]}" --unshare-pid --as-pid-1 --info-fd 9 "$P" sleep 6
	c_wrap "bubblejail: --info-fd EOF while the command runs" "--info-fd" bash -c "$INFO_EOF" sh \
		-- "${R[@]}" --unshare-pid --info-fd 9 "$P" sleep 6
	# WebKit: --args from a sealed memfd.
	if command -v python3 >/dev/null; then
		c_wrap "webkit: --args from a sealed memfd" "--args" python3 -c "$MEMFD_ARGS" \
			-- "${R[@]}" --tmpfs /mnt --args 13 "$P" ls /mnt getenv FROM_ARGS
	else
		skip "webkit: --args from a sealed memfd" "no python3"
	fi
	# Codex matches "Can't mount proc on /newroot/proc: " and the errno's text.
	c_wrap "codex: --proc refused under a masked /proc" "--proc" unshare -Urm sh -c "$MASK_PROC" sh \
		-- "${R[@]}" --unshare-user --unshare-pid --proc /proc "$P" pid
	# glycin matches the namespace-failure messages: here, inside a sandbox whose user
	# namespace cannot nest another (made by the reference).
	c_wrap "glycin: user namespace refused" "--disable-userns" "$BWRAP" "${R[@]}" --unshare-user \
		--disable-userns -- "${R[@]}" --unshare-user "$P" pid
	c_wrap "glycin: pid namespace in a refusing user namespace" "--disable-userns" "$BWRAP" "${R[@]}" \
		--unshare-user --disable-userns -- "${R[@]}" --unshare-pid "$P" pid
}

test_compat() {
	W="$TMP/work-$MODE"
	hold_ns "$BWRAP"
	cases_join
	cases_namespaces
	cases_mounts
	cases_files
	cases_long_names
	cases_process
	cases_cli
	cases_issue9
	cases_bwrap13
	cases_clients
	hold_stop
	oracle_reap
}
for_each_mode test_compat

test_help() {
	local a b
	a=$(as_user "$BWRAP" --help 2>&1)
	b=$(as_user "$BIN/bwrap" --help 2>&1)
	compat_check "--help" "${a//"$BWRAP"/BWRAP}" "${b//"$BIN/bwrap"/BWRAP}"
	a=$(as_user "$BWRAP" --version)
	b=$(as_user "$BIN/bwrap" --version)
	if [ "$ORACLE_VERSION" != "bubblewrap 0.13.1" ]; then
		a=${a%%[0-9]*} # a fallback bwrap: compare the format only
		b=${b%%[0-9]*}
	fi
	compat_check "--version" "$a" "$b"
}
for_each_mode test_help

done_testing
