#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-flatpak.sh: a Flatpak-shaped end-to-end run. A hand-made runtime and app under
# $TMP, an argv of the shape `flatpak run` builds (dozens of --ro-bind/--symlink/--dir/
# --ro-bind-data ops, --seccomp, --sync-fd, --info-fd, --die-with-parent, --unshare-pid,
# --dev, --proc, --setenv ...) passed through --args, run by the reference bwrap
# (bubblewrap 0.13.1 from ../shared/oracle, else the system bwrap; see oracle.sh) and by
# nsrun as root and unprivileged; the probe's observations must match, unless
# tests/compat/allowlist.sh allows the difference.
. "$top_srcdir/tests/integration/lib.sh"
need_ns
. "$top_srcdir/tests/compat/oracle.sh"
DENY=${NSRUN_HELPERS:-$(dirname "$NSRUN_PROBE")}/seccomp-deny
[ -x "$DENY" ] || skip_all "seccomp-deny helper not built"

RT="$TMP/runtime/files"
APP="$TMP/app/files"
mkdir -p "$RT/bin" "$RT/lib" "$RT/lib64" "$RT/sbin" "$RT/share/fonts" "$RT/share/icons" "$RT/etc" \
	"$APP/bin" "$APP/share/app"
cp "$PROBE" "$APP/bin/probe"
cp "$PROBE" "$RT/bin/probe"
: >"$RT/.ref"
ETC_FILES="hosts host.conf localtime machine-id nsswitch.conf os-release profile shells timezone"
for f in $ETC_FILES; do echo "runtime $f" >"$RT/etc/$f"; done
mkdir -p "$RT/etc/fonts" "$RT/etc/ssl"
echo "app data" >"$APP/share/app/data"
chmod -R a+rX "$TMP/runtime" "$TMP/app"
printf 'root:x:0:0:root:/root:/bin/sh\nuser:x:%s:%s:User:/home/user:/bin/sh\n' 65534 65534 >"$TMP/passwd"
printf 'root:x:0:\nuser:x:%s:\n' 65534 >"$TMP/group"
printf '[Application]\nname=org.test.App\nruntime=runtime/org.test.Platform/x86_64/1\n' >"$TMP/flatpak-info"
"$DENY" getpriority personality >"$TMP/seccomp"
echo x >"$TMP/sync"

# The argv flatpak would build, NUL-separated, for `--args`.
make_args() {
	local uid=$1 home=$2 f
	{
		printf '%s\0' --unshare-pid --unshare-ipc --unshare-cgroup-try --die-with-parent \
			--ro-bind "$RT" /usr --lock-file /usr/.ref \
			--symlink usr/lib /lib --symlink usr/lib64 /lib64 --symlink usr/bin /bin \
			--symlink usr/sbin /sbin --ro-bind "$APP" /app \
			--dir /tmp --dir /var/tmp --dir /run/host --perms 0700 --dir "/run/user/$uid" \
			--proc /proc --dev /dev --dir /var --symlink ../run /var/run \
			--ro-bind-data 3 /etc/passwd --ro-bind-data 4 /etc/group \
			--ro-bind-data 5 /.flatpak-info --symlink ../../../.flatpak-info "/run/user/$uid/flatpak-info" \
			--ro-bind-try /nonexistent/host/fonts /run/host/fonts \
			--ro-bind-try "$RT/share/fonts" /run/host/user-fonts \
			--ro-bind-try "$RT/share/icons" /run/host/share/icons \
			--ro-bind-try /proc/self/ns/user /run/.userns \
			--bind "$home" /home/user --dir /home/user/.var/app/org.test.App/cache \
			--seccomp 6 --sync-fd 7 --info-fd 9
		for f in $ETC_FILES fonts ssl; do printf '%s\0' --symlink "/usr/etc/$f" "/etc/$f"; done
		printf '%s\0' --setenv HOME /home/user --setenv XDG_RUNTIME_DIR "/run/user/$uid" \
			--setenv PATH /app/bin:/usr/bin --setenv FLATPAK_ID org.test.App \
			--setenv XDG_DATA_DIRS /app/share:/usr/share --unsetenv LD_PRELOAD --chdir /home/user
	}
}

HOST_NS=$("$PROBE" ns | sed 's/^ns\.[a-z]*=//' | sort -u)
normalise() {
	local sedscript="" ino
	for ino in $HOST_NS; do sedscript+="s/\\b$ino\\b/HOSTNS/g;"; done
	sed -E "$sedscript"'s/\b40265[0-9]{5}\b/NEWNS/g;s/("child-pid": )[0-9]+/\1PID/' |
		grep -v '^env=_=' # bash's "last command" variable names the tool itself
}

run_flatpak() {
	local tool=$1 uid=0 home="$TMP/home-$MODE" rc
	[ "$MODE" = unpriv ] && uid=$UNPRIV_UID
	rm -rf "$home"
	mkdir -p "$home"
	echo "user file" >"$home/file"
	[ "$MODE" = unpriv ] && chown -R $UNPRIV_UID:$UNPRIV_GID "$home"
	make_args "$uid" "$home" >"$TMP/args-$MODE"
	as_user "$tool" --args 8 probe ids uidmap gidmap caps pid ppid ns cwd env ls / ls /app ls /usr \
		ls /etc ls /run/user/$uid ls /dev ls /home/user readlink /lib64 readlink /etc/hosts \
		cat /etc/hosts cat /etc/passwd cat /etc/group cat /run/user/$uid/flatpak-info \
		stat /run/user/$uid stat /etc/passwd stat /home/user/.var/app/org.test.App/cache \
		mountinfo / mountinfo /usr mountinfo /app mountinfo /etc/passwd mountinfo /home/user \
		mountinfo /proc mountinfo /dev/pts stat /run/host/fonts ls /run/host stat /run/.userns \
		syscall getpriority syscall umask write /home/user/new write /usr/new fds \
		3<"$TMP/passwd" 4<"$TMP/group" 5<"$TMP/flatpak-info" 6<"$TMP/seccomp" 7<"$TMP/sync" \
		8<"$TMP/args-$MODE" 9>"$TMP/info" >"$TMP/out" 2>"$TMP/err" </dev/null
	rc=$?
	{
		echo "rc=$rc"
		cat "$TMP/out"
		echo "--- stderr"
		cat "$TMP/err"
		echo "--- info"
		cat "$TMP/info"
		echo "--- home"
		ls "$home"
	} | normalise
}

test_flatpak() {
	local a b
	a=$(run_flatpak "$BWRAP")
	b=$(run_flatpak "$BIN/bwrap")
	check_match "flatpak-shaped run works under bwrap" '^rc=0$' "$a"
	check_match "flatpak-shaped run: seccomp applied" '^syscall:getpriority=errno=EPERM$' "$a"
	compat_check "flatpak-shaped run: nsrun observes the same sandbox as bwrap" "$a" "$b"
	oracle_reap
}
for_each_mode test_flatpak

done_testing
