# shellcheck shell=bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# oracle.sh: what the differential suites share; source it after lib.sh.
#
# The reference is bubblewrap 0.13.1, the release nsrun follows, built by `make check`
# from ../shared/oracle into $NSRUN_ORACLE_OUT (tests/compat/oracle-build.sh). Where
# that folder is missing the suites fall back to the system bwrap ($BWRAP, else
# /usr/bin/bwrap), skip the cases it lacks options for, and skip, with the release and
# the reason, the cases tests/compat/since.sh names for a newer release than it is.
#
# Outputs must be equal. A difference passes only when every differing line is allowed
# for that case by an entry of tests/compat/allowlist.sh, and each entry quotes the man
# page's COMPATIBILITY sentence that documents it (tests/compat/t-allowlist.sh checks).

REF=${BWRAP:-/usr/bin/bwrap}
if [ -n "${NSRUN_ORACLE_OUT:-}" ] && [ -x "$NSRUN_ORACLE_OUT/bwrap" ]; then
	REF=$NSRUN_ORACLE_OUT/bwrap
fi
[ -x "$REF" ] || skip_all "no reference bwrap: no oracle build in '${NSRUN_ORACLE_OUT:-}' and no $REF"
if [ -u "$REF" ]; then
	BWRAP=$REF # a setuid system bwrap must stay where it is
else
	# A private copy: any user can run it (the build tree may be 0700), and
	# oracle_reap can tell this run's processes from everyone else's.
	mkdir -p "$TMP/oracle"
	cp "$REF" "$TMP/oracle/bwrap"
	BWRAP=$TMP/oracle/bwrap
fi
ORACLE_VERSION=$("$BWRAP" --version 2>&1)
ORACLE_RELEASE=$(printf '%s\n' "$ORACLE_VERSION" | sed -n 's/^bubblewrap \([0-9][0-9.]*\).*/\1/p')
echo "# reference: $BWRAP ($ORACLE_VERSION)"

# since CASE-GLOB RELEASE REASON: the case's output is bubblewrap's from RELEASE on.
SINCE_CASE=()
SINCE_RELEASE=()
SINCE_WHY=()
since() {
	SINCE_CASE+=("$1")
	SINCE_RELEASE+=("$2")
	SINCE_WHY+=("$3")
}
. "$top_srcdir/tests/compat/since.sh"

# release_older A B: release A comes before B (an unknown A counts as old).
release_older() {
	[ -z "$1" ] && return 0
	[ "$1" != "$2" ] && [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n1)" = "$1" ]
}

# predates NAME: prints why the reference cannot be compared for NAME, if it cannot.
predates() {
	local i
	for i in "${!SINCE_CASE[@]}"; do
		# shellcheck disable=SC2053 # the entry's case is a glob
		[[ $1 == ${SINCE_CASE[i]} ]] || continue
		if release_older "$ORACLE_RELEASE" "${SINCE_RELEASE[i]}"; then
			echo "$ORACLE_VERSION predates ${SINCE_RELEASE[i]}: ${SINCE_WHY[i]}"
			return 0
		fi
	done
	return 1
}

# The allowlist: allow CASE-GLOB LINE-REGEX MAN-SENTENCE.
. "$top_srcdir/tests/compat/allowlist.sh"

# changed_lines A B: the lines only in A as "bwrap: LINE", those only in B as "nsrun: LINE".
changed_lines() {
	diff --unchanged-line-format= --old-line-format='bwrap: %L' --new-line-format='nsrun: %L' \
		<(printf '%s\n' "$1") <(printf '%s\n' "$2")
}

# compat_check NAME BWRAP-OUTPUT NSRUN-OUTPUT: one TAP result. Equal outputs pass; a
# difference passes only when the allowlist entries for NAME cover every changed line.
compat_check() {
	local name=$1 changed rest next i used=() why
	if [ "$2" = "$3" ]; then
		ok "$name"
		return
	fi
	changed=$(changed_lines "$2" "$3")
	rest=$changed
	for i in "${!ALLOW_CASE[@]}"; do
		# shellcheck disable=SC2053 # the entry's case is a glob
		[[ $name == ${ALLOW_CASE[i]} ]] || continue
		next=$(printf '%s\n' "$rest" | grep -Ev -- "${ALLOW_LINES[i]}")
		[ "$next" = "$rest" ] || used+=("${ALLOW_MAN[i]}")
		rest=$next
	done
	if [ -n "$rest" ] && why=$(predates "$name"); then
		skip "$name" "$why"
		return 0
	fi
	if [ -z "$rest" ]; then
		ok "$name (documented difference)"
		diag "differs as nsrun(1) COMPATIBILITY documents:" "${used[@]}"
	else
		not_ok "$name"
		diag "undocumented difference (bwrap: $ORACLE_VERSION):" "$rest"
		[ "$rest" = "$changed" ] || diag "all changed lines:" "$changed"
		return 1
	fi
}

# oracle_reap: bwrap's sandbox child outlives its monitor after some failures (an
# unwritable --info-fd, a bad --userns2); kill this run's leftovers, found by executable.
oracle_reap() {
	local p
	[ "$BWRAP" = "$TMP/oracle/bwrap" ] || return 0
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/exe" 2>/dev/null)" = "$BWRAP" ] && kill -9 "${p#/proc/}" 2>/dev/null
	done
	return 0
}
