#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-hide.sh: --overlay-hide / --overlay-allow in real sandboxes, as root and
# unprivileged: hidden entries are absent to stat, open, readdir and exec; allowlists
# leave exactly the allowed names; refusals (writable directory, mounts below, missing
# directory) stop the sandbox before the command runs; the host is never changed. The
# directories hidden from are fixture trees bound over /usr/bin, /usr/sbin, /usr/local
# and /usr/share, so the suite does not depend on a quiet host.

# shellcheck disable=SC2154,SC3043,SC2010
. "$top_srcdir/tests/integration/lib.sh"

need_ns

# A PATH every mode can search (the suite's own PATH may hold root-only directories).
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH

# The sandboxes see the host's / with /usr/bin, /usr/sbin, /usr/local and /usr/share
# replaced by fixture trees made here, so that nothing else changing the host (a package
# install during `make check`) changes what the cases expect. /usr/bin holds copies of
# the tools the cases run, sh -> dash and python3 -> python3.X links as on Debian, and
# dummy entries named like a real /usr/bin; /bin and /sbin are the host's usr/ links.
FX="$TMP/fx"
mkdir -p "$FX/usr/bin" "$FX/usr/sbin" "$FX/usr/local/bin" "$FX/usr/local/sbin" \
	"$FX/usr/share/doc/pkg-a" "$FX/usr/share/doc/pkg-b/examples" "$FX/usr/share/man/man1" \
	"$FX/usr/share/info" "$FX/usr/share/locale"
for t in dash ls cat rm grep env stat id wc readlink; do
	cp "/usr/bin/$t" "$FX/usr/bin/$t"
done
ln -s dash "$FX/usr/bin/sh"
if [ -e /usr/bin/python3 ]; then
	py=$(basename "$(readlink -f /usr/bin/python3)")
	cp "/usr/bin/$py" "$FX/usr/bin/$py"
	ln -s "$py" "$FX/usr/bin/python3"
fi
for t in apt awk base64 basename chmod chown cp cut date dd df diff dirname du expr false \
	find gzip head hostname install join kill ln logname lsattr md5sum mkdir mktemp mv nice \
	nl nohup od paste pr printf pwd python3-config realpath rmdir sed seq sha1sum shuf \
	sleep sort split sum sync tac tail tee timeout touch tr true tty uname uniq vdir who \
	xargs yes zcat; do
	printf '#!/bin/sh\necho %s\n' "$t" >"$FX/usr/bin/$t"
	chmod 0755 "$FX/usr/bin/$t"
done
ln -s mkdir "$FX/usr/bin/md"
ln -s md "$FX/usr/bin/mkd"
printf '#!/bin/sh\n' >"$FX/usr/sbin/fixture-sbin-tool"
chmod 0755 "$FX/usr/sbin/fixture-sbin-tool"
for d in pkg-a pkg-b; do echo "$d" >"$FX/usr/share/doc/$d/copyright"; done
echo x >"$FX/usr/share/doc/README"
echo x >"$FX/usr/share/man/man1/ls.1"
FX_RO="$HOST_RO --ro-bind $FX/usr/bin /usr/bin --ro-bind $FX/usr/sbin /usr/sbin \
	--ro-bind $FX/usr/local /usr/local --ro-bind $FX/usr/share /usr/share"
BIN_COUNT=$(ls -A "$FX/usr/bin" | wc -l)
# Every entry of the fixture with its kind, mode, inode, size and mtime: the sandboxes
# must leave it exactly as it is.
fx_state() { find "$FX" -printf '%p %y %m %i %s %T@\n' | LC_ALL=C sort; }
FX_STATE=$(fx_state)

cat >"$TMP/calls-rm.sh" <<'EOF'
#!/bin/sh
rm -f /nonexistent-file
EOF
chmod 0755 "$TMP/calls-rm.sh"

# Canonical directory of a path (symlinks resolved), empty when it does not exist.
canon_dir() { (cd "$1" 2>/dev/null && pwd -P); }

# expected_allowed DIR NAME...: the names an allowlist of NAME... leaves in DIR: those
# present, plus the entries their symlink chains pass through in DIR (sh -> dash).
expected_allowed() {
	local dir=$1 n d t l p
	shift
	for n in "$@"; do
		d=$dir
		t=$n
		while [ -e "$d/$t" ] || [ -L "$d/$t" ]; do
			[ "$(canon_dir "$d")" = "$dir" ] && echo "$t"
			[ -L "$d/$t" ] || break
			l=$(readlink "$d/$t")
			case $l in /*) p=$l ;; *) p=$d/$l ;; esac
			d=$(canon_dir "$(dirname "$p")")
			t=$(basename "$p")
			[ -n "$d" ] || break
		done
	done | sort -u
}

case_hide_command() {
	local out rc
	out=$(nsrun $FX_RO --overlay-hide rm -- sh -c 'command -v rm' 2>&1)
	rc=$?
	check "hidden rm: command -v finds nothing" test "$rc" -ne 0 -a -z "$out"
	out=$(nsrun $FX_RO --overlay-hide rm -- ls /usr/bin)
	check_nomatch "hidden rm: ls /usr/bin does not list it" '^rm$' "$out"
	check "hidden rm: the rest of /usr/bin is listed" \
		[ "$(printf '%s\n' "$out" | wc -l)" -eq "$((BIN_COUNT - 1))" ]
	out=$(nsrun $FX_RO --dev /dev --overlay-hide rm -- sh -c '
		for p in /usr/bin/rm /bin/rm; do
			if test -e $p || test -L $p; then echo "visible $p"; fi
			stat $p >/dev/null 2>&1 && echo "stat $p"
			cat $p >/dev/null 2>&1 && echo "open $p"
		done
		ls / >/dev/null && cat /etc/passwd >/dev/null && echo tools-ok')
	check_eq "hidden rm: /usr/bin/rm and /bin/rm are ENOENT, ls/cat/sh work" "tools-ok" "$out"
	out=$(nsrun $FX_RO --overlay-hide rm -- "$TMP/calls-rm.sh" 2>&1)
	rc=$?
	check_match "hidden rm: a script calling rm gets 'not found'" 'rm: not found' "$out"
	check "hidden rm: the script fails" [ "$rc" -ne 0 ]
	check "fixture: its rm still exists" [ -x "$FX/usr/bin/rm" ]
}

case_payload_hidden() {
	local out rc
	out=$(nsrun $FX_RO --overlay-hide id -- id 2>&1)
	rc=$?
	check_match "hidden payload: execvp fails" 'execvp id: No such file or directory' "$out"
	check_eq "hidden payload: exit 127 (not found)" 127 "$rc"
}

case_allowlist_shape() {
	local out want d
	# "dir:name" lines, sorted outside (sort itself is hidden inside).
	want=$(for d in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin; do
		echo "$d:"
		expected_allowed "$FX$d" ls cat sh python3 | sed "s|^|$d:|"
	done | LC_ALL=C sort)
	out=$(nsrun $FX_RO --overlay-allow ls --overlay-allow cat --overlay-allow sh \
		--overlay-allow python3 --overlay-hide rm -- /usr/bin/sh -c '
		for d in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin; do
			[ -d $d ] || continue
			echo "$d:"
			for f in $(ls -A $d); do echo "$d:$f"; done
		done' | LC_ALL=C sort)
	check_match "allowlist: the expected set holds ls" '^/usr/bin:ls$' "$want"
	check_eq "allowlist: exactly ls, cat, sh, python3 (and their link targets) remain" \
		"$want" "$out"
	out=$(nsrun $FX_RO --dev /dev --overlay-allow ls --overlay-allow cat --overlay-allow sh \
		--overlay-allow python3 --overlay-hide rm -- sh -c '
		ls / >/dev/null && cat /dev/null && echo allowed-ok
		command -v python3 >/dev/null && python3 -c "print(6 * 7)"
		command -v rm || echo no-rm; command -v grep || echo no-grep')
	if [ -e "$FX/usr/bin/python3" ]; then
		check_eq "allowlist: allowed commands run, others are gone" \
			"allowed-ok
42
no-rm
no-grep" "$out"
	else
		check_eq "allowlist: allowed commands run, others are gone" \
			"allowed-ok
no-rm
no-grep" "$out"
	fi
}

# An allowlist that hides more than it keeps: /usr/bin is rebuilt from the kept entries,
# each bound read-only from the original (O(kept) instead of one whiteout per hidden name).
case_keep_only() {
	local out want binds kept host_stat
	want=$(expected_allowed "$FX/usr/bin" ls cat sh python3 env)
	binds=$(for n in $want; do [ -L "$FX/usr/bin/$n" ] || echo "/usr/bin/$n"; done)
	host_stat=$(stat -c '%a %Y' "$FX/usr/bin"
		for n in $binds; do stat -c "$n %i %s %a" "$FX$n"; done)
	out=$(nsrun $FX_RO --dev /dev --overlay-allow ls --overlay-allow cat --overlay-allow sh \
		--overlay-allow python3 --overlay-allow env -- /usr/bin/ls -A /usr/bin)
	check_eq "keep-only: readdir lists exactly the kept entries" "$want" "$out"
	out=$(nsrun $FX_RO --dev /dev --overlay-allow ls --overlay-allow cat --overlay-allow sh \
		--overlay-allow python3 --overlay-allow env -- /usr/bin/sh -c '
		/usr/bin/env stat -c "%a %Y" /usr/bin 2>/dev/null || echo no-stat
		for n in '"$(echo $binds)"'; do /usr/bin/env stat -c "%n %i %s %a" $n 2>/dev/null; done')
	check "keep-only: stat is hidden (it is not kept)" [ "$(printf '%s\n' "$out" | head -n1)" = no-stat ]
	out=$(nsrun $FX_RO --dev /dev --tmpfs /tmp --ro-bind "$FX/usr/bin/stat" /tmp/stat \
		--overlay-allow ls --overlay-allow cat --overlay-allow sh --overlay-allow python3 --overlay-allow env \
		-- /usr/bin/sh -c '
		/tmp/stat -c "%a %Y" /usr/bin
		for n in '"$(echo $binds)"'; do /tmp/stat -c "%n %i %s %a" $n; done')
	check_eq "keep-only: directory mode/mtime and kept files' inode/size/mode are the host's" \
		"$host_stat" "$out"
	out=$(nsrun $FX_RO --dev /dev --overlay-allow ls --overlay-allow cat --overlay-allow sh \
		--overlay-allow python3 --overlay-allow env -- /usr/bin/sh -c '
		while read -r id parent mm root mp opts rest; do
			case $mp in /usr/bin/*) case ,$opts, in *,ro,*nosuid*nodev*) ;; *) echo "$mp $opts" ;; esac
				echo "$mp" ;; esac
		done </proc/self/mountinfo
		for p in /usr/bin/rm /usr/bin/grep /bin/rm; do
			test -e $p || test -L $p && echo "visible $p"
			cat $p >/dev/null 2>&1 && echo "open $p"
		done
		/usr/bin/grep -q x /dev/null 2>/dev/null; echo "exec grep: $?"
		(: >/usr/bin/ls) 2>/dev/null && echo "ls writable"
		(: >/usr/bin/new) 2>/dev/null && echo "dir writable"
		/usr/bin/sh -c "echo sh-ok"; /bin/ls -d / ')
	check_eq "keep-only: kept entries are ro,nosuid,nodev binds; others ENOENT; nothing writable" \
		"$binds
exec grep: 127
sh-ok
/" "$out"
	if [ -e "$FX/usr/bin/python3" ]; then
		out=$(nsrun $FX_RO --dev /dev --overlay-allow python3 -- /usr/bin/python3 -c \
			'import os; print(os.path.realpath("/usr/bin/python3") != "/usr/bin/python3", len(os.listdir("/usr/bin")) < 5)')
		check_eq "keep-only: python3 -> python3.x runs, the directory is nearly empty" "True True" "$out"
	fi
	kept=$(ls -A "$FX/usr/share/doc" | wc -l)
	out=$(nsrun $FX_RO --overlay-allow /usr/share/doc -- /usr/bin/sh -c \
		'ls -A /usr/share; ls -A /usr/share/doc | wc -l; test -w /usr/share/doc || echo ro')
	check_eq "keep-only: a kept directory is bound whole, siblings are gone" "doc
$kept
ro" "$out"
}

# A directory of every kind of entry, allowlisted: mode/mtime of the directory and of each
# kept entry are the original's, symlink chains stay, the rest is gone.
case_keep_only_tree() {
	local d="$TMP/tree-$MODE" out want
	mkdir -p "$d/sub/deep"
	echo data >"$d/file"
	echo x >"$d/other"
	mkfifo "$d/fifo"
	ln -s file "$d/link"
	ln -s sub "$d/dirlink"
	printf '#!/bin/sh\necho run-ok\n' >"$d/tool"
	chmod 0755 "$d/tool"
	chmod 0604 "$d/file"
	chmod 0705 "$d"
	touch -h -d '2001-02-03 04:05:06' "$d/link"
	touch -d '2001-02-03 04:05:06' "$d"
	want="$(stat -c '%a %Y' "$d")
dirlink
fifo
file
link
sub
tool
data
run-ok
deep
604 $(stat -c %Y "$d/file")
$(stat -c %Y "$d/link") sub -> $(stat -c %a "$d/sub")"
	out=$(nsrun $FX_RO --overlay-allow "$d/link" --overlay-allow "$d/dirlink" \
		--overlay-allow "$d/tool" --overlay-allow "$d/fifo" --overlay-allow "$d/nonexistent" \
		-- sh -c 'd=$1
		stat -c "%a %Y" $d; ls -A $d; cat $d/link; $d/tool; ls $d/dirlink/
		stat -c "%a %Y" $d/file; printf "%s " "$(stat -c %Y $d/link)" "$(readlink $d/dirlink) ->"
		stat -c %a $d/sub
		test -e $d/other || test -e $d/nonexistent || test -p $d/fifo || echo "fifo lost"' sh "$d")
	check_eq "keep-only tree: modes, times, link chains and entry kinds are the originals'" \
		"$want" "$out"
}

# Which way a directory is hidden: literal allows rebuild it (tmpfs with binds), an allow
# glob that keeps most entries whites out the rest under an overlay.
case_method_choice() {
	local out want fstype
	# The file system type of the topmost mount on /usr/bin (the fixture is bound below it).
	fstype='t=; while read -r l; do case $l in *" /usr/bin "*) t=${l#* - };; esac
		done </proc/self/mountinfo; echo ${t%% *}'
	out=$(nsrun $FX_RO --overlay-allow /usr/bin/sh -- /usr/bin/sh -c "$fstype")
	check_eq "literal allowlist: /usr/bin is rebuilt (tmpfs)" tmpfs "$out"
	out=$(nsrun $FX_RO --overlay-allow '/usr/bin/s?' -- /usr/bin/sh -c "$fstype")
	check_eq "allow glob keeping few: /usr/bin is rebuilt (tmpfs)" tmpfs "$out"
	out=$(nsrun $FX_RO --overlay-allow '/usr/bin/[a-s]*' -- /usr/bin/sh -c "$fstype")
	check_eq "allow glob keeping most: whiteouts under an overlay" overlay "$out"
	want=$(cd "$FX/usr/bin" && expected_allowed "$FX/usr/bin" [a-s]*)
	out=$(nsrun $FX_RO --overlay-allow '/usr/bin/[a-s]*' -- /usr/bin/ls -A /usr/bin)
	check_eq "allow glob keeping most: exactly the matches (and their link targets)" "$want" "$out"
}

case_globs() {
	local out host
	host=$(ls -A "$FX/usr/bin" | grep -c '^python3' || true)
	out=$(nsrun $FX_RO --overlay-hide 'python3*' -- ls -A /usr/bin)
	check_nomatch "glob NAME: no python3* left" '^python3' "$out"
	check "glob NAME: only the matches went" \
		[ "$(printf '%s\n' "$out" | wc -l)" -eq "$((BIN_COUNT - host))" ]
	out=$(nsrun $FX_RO --overlay-hide '/usr/bin/python3*' -- ls -A /bin)
	check_nomatch "glob PATH through /bin: no python3* left" '^python3' "$out"
	check "glob PATH: only the matches went" \
		[ "$(printf '%s\n' "$out" | wc -l)" -eq "$((BIN_COUNT - host))" ]
}

case_hide_dir_and_two_dirs() {
	local out
	out=$(nsrun $FX_RO --dev /dev --overlay-hide /usr/share/doc -- sh -c '
		test -e /usr/share/doc && echo visible
		ls /usr/share | grep -cx doc
		ls /usr/share/doc/ 2>/dev/null && echo listed
		ls /usr/share | wc -l')
	check_eq "hidden directory: gone, siblings stay" \
		"0
$(($(ls "$FX/usr/share" | wc -l) - 1))" "$out"
	out=$(nsrun $FX_RO --setenv PATH /usr/bin:/bin --overlay-hide /usr/share/doc \
		--overlay-hide rm --overlay-hide cat --overlay-hide /bin/ls -- sh -c '
		test -e /usr/share/doc || echo no-doc
		for c in rm cat ls; do command -v $c || echo no-$c; done
		grep -c " - overlay " /proc/self/mountinfo')
	check_eq "two directories: all hidden, one overlay per directory" \
		"no-doc
no-rm
no-cat
no-ls
2" "$out"
	out=$(nsrun $FX_RO --overlay-hide /bin/sh -- /usr/bin/dash -c \
		'test -e /usr/bin/sh || test -L /usr/bin/sh || echo no-sh; test -x /usr/bin/dash && echo dash')
	check_eq "hidden symlink entry: the link is gone, its target stays" "no-sh
dash" "$out"
}

case_precedence() {
	local out
	out=$(nsrun $FX_RO --setenv PATH /usr/bin --overlay-hide 'l*' --overlay-hide rm \
		--overlay-allow ls -- /usr/bin/ls -A /usr/bin)
	check_eq "hide + allow: only the allowed name stays, though also hidden" "ls" "$out"
	out=$(nsrun $FX_RO --overlay-hide /usr/bin/rm --overlay-allow '/usr/bin/*' -- sh -c \
		'command -v rm; grep -c " - overlay " /proc/self/mountinfo')
	check_eq "allowed by glob wins over hidden: rm stays, no overlay" "/usr/bin/rm
0" "$out"
}

case_refusals() {
	local out rc
	mkdir -p "$TMP/rw-$MODE"
	chmod 0777 "$TMP/rw-$MODE"
	out=$(nsrun $FX_RO --bind "$TMP/rw-$MODE" "$TMP/rw-$MODE" \
		--overlay-hide "$TMP/rw-$MODE/x" -- echo ran 2>&1)
	rc=$?
	check_eq "writable directory: exit 1" 1 "$rc"
	check_match "writable directory: clear message" \
		"is writable in the sandbox and hiding would make it read-only; bind it with --ro-bind" "$out"
	check_nomatch "writable directory: command not run" '^ran$' "$out"
	out=$(nsrun $FX_RO --overlay-hide /nonexistent-dir/x -- echo ran 2>&1)
	rc=$?
	check_eq "missing directory: exit 1" 1 "$rc"
	check_match "missing directory: message" "'/nonexistent-dir'.*No such file or directory" "$out"
	check_nomatch "missing directory: command not run" '^ran$' "$out"
	out=$(nsrun $FX_RO --overlay-hide /srv -- echo ran 2>&1)
	rc=$?
	check_eq "mounts below the directory: exit 1" 1 "$rc"
	check_match "mounts below the directory: message" "'/' has a mount at '/[a-z]+' below it" "$out"
	check_nomatch "mounts below the directory: command not run" '^ran$' "$out"
	out=$(nsrun $FX_RO --overlay-hide usr/bin/rm -- echo ran 2>&1)
	check_match "relative path: refused" "must be an absolute path" "$out"
	# A mask two levels down (/opt/a/secret, with /opt/a a plain directory) counts as
	# much as a mount on an entry, also where the kernel has no listmount (before 6.8):
	# an allowlist would bind /opt/a without it and show the masked key.
	local l mask="--tmpfs /opt --file 5 /opt/a/secret/key --tmpfs /opt/a/secret --remount-ro /opt"
	echo SECRET >"$TMP/secret-$MODE"
	for l in "" listmount; do
		if [ -n "$l" ]; then
			out=$(as_user "$BIN/force-enosys" listmount -- "$BIN/nsrun" $FX_RO $mask \
				--overlay-allow /opt/a -- cat /opt/a/secret/key 5<"$TMP/secret-$MODE" 2>&1)
		else
			out=$(nsrun $FX_RO $mask --overlay-allow /opt/a -- cat /opt/a/secret/key \
				5<"$TMP/secret-$MODE" 2>&1)
		fi
		check_match "a mask two levels down${l:+ (no listmount)}: refused" \
			"'/opt' has a mount at '/opt/a' below it" "$out"
		check_nomatch "a mask two levels down${l:+ (no listmount)}: the masked file never shows" \
			'SECRET' "$out"
	done
}

case_missing_entries() {
	local out
	out=$(nsrun $FX_RO --overlay-hide /usr/bin/nonexistent-entry --overlay-hide nonexistent-cmd \
		-- sh -c 'test -e /usr/bin/nonexistent-entry || echo absent; ls /usr/bin | wc -l')
	check_eq "missing entries: fine, nothing else changes" "absent
$BIN_COUNT" "$out"
}

case_path_env() {
	local out
	out=$(nsrun $FX_RO --setenv PATH /usr/sbin --overlay-hide rm -- /usr/bin/ls /usr/bin)
	check_match "NAME uses the payload's PATH (after --setenv)" '^rm$' "$out"
	out=$(nsrun $FX_RO --unsetenv PATH --overlay-hide rm -- /usr/bin/ls /usr/bin)
	check_nomatch "PATH unset: glibc's /bin:/usr/bin" '^rm$' "$out"
}

case_unshare_all() {
	local out
	out=$(nsrun --unshare-all $FX_RO --dev /dev --proc /proc --overlay-hide rm \
		--overlay-hide '/usr/share/doc' -- sh -c '
		command -v rm || echo no-rm
		test -e /usr/share/doc || echo no-doc
		test -e /proc/self/status && test -c /dev/null && echo proc-dev-ok')
	check_eq "--unshare-all --dev --proc: hidden, /proc and /dev intact" "no-rm
no-doc
proc-dev-ok" "$out"
}

for_each_mode case_hide_command
for_each_mode case_payload_hidden

# A literal that names nothing (a typo) is reported on stderr and the sandbox runs: a
# list shared across machines may name tools some lack. A glob that matches nothing is
# how to say "hide it if present": silent.
case_missing_warns() {
	local out
	out=$(nsrun $FX_RO --overlay-hide crul -- true 2>&1 >/dev/null)
	check_eq "--overlay-hide crul (a typo): runs, and says so" \
		"0 nsrun: --overlay-hide 'crul': no such entry in the sandbox's PATH directories; nothing hidden" \
		"$? $out"
	out=$(nsrun $FX_RO --overlay-hide /usr/bin/crul -- true 2>&1 >/dev/null)
	check_eq "--overlay-hide /usr/bin/crul: runs, and says so" \
		"0 nsrun: --overlay-hide '/usr/bin/crul': no such entry in the sandbox; nothing hidden" \
		"$? $out"
	out=$(nsrun $FX_RO --overlay-hide 'cr[u]l' --overlay-hide rm -- true 2>&1 >/dev/null)
	check_eq "a glob that matches nothing, and a name that exists: silent" "0 " "$? $out"
	# An allowlist with a typo: the tool it meant is left out like every other; say so.
	out=$(nsrun $FX_RO --overlay-allow sh --overlay-allow ls --overlay-allow lss -- ls / 2>&1 >/dev/null)
	check_eq "--overlay-allow lss (a typo): runs, and says so" \
		"0 nsrun: --overlay-allow 'lss': no such entry in the sandbox's PATH directories; nothing allowed" \
		"$? $out"
	out=$(nsrun $FX_RO --overlay-allow sh --overlay-allow /usr/bin/lss -- sh -c : 2>&1 >/dev/null)
	check_eq "--overlay-allow /usr/bin/lss: runs, and says so" \
		"0 nsrun: --overlay-allow '/usr/bin/lss': no such entry in the sandbox; nothing allowed" \
		"$? $out"
	out=$(nsrun $FX_RO --overlay-allow 'l[x]' --overlay-allow sh --overlay-allow /usr/bin/ls \
		--overlay-allow mkd -- sh -c 'for t in ls mkd md mkdir; do command -v $t; done' 2>&1)
	check_eq "an allow glob that matches nothing, names that exist, a link chain: silent" \
		"0 /usr/bin/ls
/usr/bin/mkd
/usr/bin/md
/usr/bin/mkdir" "$? $out"
}
for_each_mode case_missing_warns
for_each_mode case_allowlist_shape
for_each_mode case_keep_only
for_each_mode case_keep_only_tree
for_each_mode case_method_choice
for_each_mode case_globs
for_each_mode case_hide_dir_and_two_dirs
for_each_mode case_precedence
for_each_mode case_refusals
for_each_mode case_missing_entries
for_each_mode case_path_env
for_each_mode case_unshare_all

check_eq "host: the fixture trees are unchanged (entries, modes, inodes, sizes, times)" \
	"$FX_STATE" "$(fx_state)"
check "host: no whiteouts left in the fixture trees" [ -z "$(find "$FX" -type c)" ]
done_testing
