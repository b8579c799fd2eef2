#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-explain.sh: issue 36's prototype of the answer before running agrees with the run.
# For each case the helper answers from the rules alone (allowed, or refused with the
# errno the command should see); then nsrun runs one syscall under the same options, and
# its result must be the answer: OK for allowed (or the peer's own ECONNREFUSED), the
# answer's errno for refused. As root (with and without a user namespace) and as 65534.
# shellcheck disable=SC2317 # cases run via for_each_mode
# shellcheck source=tests/integration/lib.sh
. "${top_srcdir:?}/tests/integration/lib.sh"

need_ns
need_landlock 6
also_without_userns

cp "$NSRUN_HELPERS/explain" "$BIN/explain"

# one OP ARG: one syscall; prints OK or the errno's name.
ONE="$BIN/one.pl"
cat >"$ONE" <<'EOF'
use strict; use warnings; use Fcntl; use Socket; use Errno;
my ($op, $a, $b) = @ARGV;
my ($ok, $f, $s);
if ($op eq "read") { $ok = sysopen($f, $a, O_RDONLY) }
elsif ($op eq "write") { $ok = sysopen($f, $a, O_WRONLY | O_APPEND) }
elsif ($op eq "create") { $ok = sysopen($f, $a, O_WRONLY | O_CREAT | O_EXCL, 0644) }
elsif ($op eq "remove") { $ok = unlink($a) }
elsif ($op eq "truncate") { $ok = truncate($a, 0) }
elsif ($op eq "execute") { exec { $a } $a; }
elsif ($op eq "connect") {
	socket($s, PF_INET, SOCK_STREAM, 0) or die "socket: $!";
	$ok = connect($s, pack_sockaddr_in($b, inet_aton($a)));
}
elsif ($op eq "signal") { $ok = kill(0, $a) }
else { die "one: unknown op $op\n" }
if ($ok) { print "OK\n"; exit 0 }
my ($name) = grep { $!{$_} } keys %!;
print(($name // ($! + 0)), "\n");
exit 1;
EOF

# agree QUESTION OP ARG [ARG2] -- NSRUN_OPTIONS...
agree() {
	local desc=$1 q=${1%% (*} op=$2 args=() ans want got
	shift 2
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	ans=$(run_in_mode "$BIN/explain" "$q" "$@" perl "$ONE" "$op" "${args[@]}" 2>&1)
	case "$ans" in
	*'"decision":"allowed"'*) want=OK ;;
	*'"decision":"refused"'*) want=$(printf '%s\n' "$ans" | sed -n 's/.*"error":"\([A-Z]*\)".*/\1/p') ;;
	*) not_ok "$desc: no answer: $ans"; return ;;
	esac
	got=$(nsrun "$@" perl "$ONE" "$op" "${args[@]}" 2>&1 | tail -n1)
	if [ "$got" = "$want" ] || { [ "$want" = OK ] && [ "$got" = ECONNREFUSED ]; }; then
		ok "$desc: the run agrees ($got) with ${ans#*\"decision\":}"
	else
		not_ok "$desc: answered $want, the run got '$got': $ans"
	fi
}

cases() {
	local D
	D=$(realpath "$(mode_dir ex)")
	mkdir -p "$D/w" "$D/o"
	printf data >"$D/w/f"
	printf data >"$D/o/f"
	printf data >"$D/o/g"
	cp /bin/true "$D/w/x"
	[ "$MODE" = unpriv ] && chown -R "$UNPRIV_UID:$UNPRIV_GID" "$D"
	local ns=(--bind / / --dev /dev --landlock-rw "$D/w")
	agree "write:$D/w/f" write "$D/w/f" -- "${ns[@]}"
	agree "write:$D/w/../o/f" write "$D/o/f" -- "${ns[@]}"
	agree "create:$D/o/new" create "$D/o/new" -- "${ns[@]}"
	agree "remove:$D/o/g" remove "$D/o/g" -- "${ns[@]}"
	agree "truncate:$D/o/f" truncate "$D/o/f" -- "${ns[@]}"
	agree "write:/dev/null" write /dev/null -- "${ns[@]}"
	# A read-only mount refuses before Landlock does.
	agree "write:$D/o/f (ro-bind)" write "$D/o/f" -- --ro-bind / / --bind "$D/w" "$D/w" \
		--landlock-rw "$D/w"
	agree "read:$D/o/f (hidden)" read "$D/o/f" -- --ro-bind / / --overlay-hide "$D/o/f"
	agree "read:/etc/hostname (absent)" read /etc/hostname -- --ro-bind /usr /usr --ro-bind "$BIN" "$BIN" \
		--symlink usr/lib /lib --symlink usr/lib64 /lib64 --symlink usr/bin /bin
	agree "execute:$D/w/x" execute "$D/w/x" -- "${ns[@]}" --landlock-exec /usr
	agree "connect:443" connect 192.0.2.1 443 -- --ro-bind / / --unshare-net
	agree "connect:tcp:443 (port rule first)" connect 192.0.2.1 443 -- --ro-bind / / \
		--unshare-net --landlock-connect-tcp 80
	agree "connect:localhost:80" connect 127.0.0.1 80 -- --ro-bind / / --unshare-net \
		--landlock-connect-tcp 80
	agree "signal:outside (pid namespace)" signal $$ -- --ro-bind / / --unshare-pid
	[ -n "${NOUSERNS:-}" ] && return
	local ll=(--landlock-only --landlock-rw "$D/w")
	agree "write:$D/o/f (landlock-only)" write "$D/o/f" -- "${ll[@]}"
	agree "write:$D/w/f (landlock-only)" write "$D/w/f" -- "${ll[@]}"
	agree "signal:outside (landlock-only, scope)" signal $$ -- "${ll[@]}" --landlock-scope
}
for_each_mode cases

done_testing
