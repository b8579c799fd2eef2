# shellcheck shell=sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# tap.sh: the TAP vocabulary of every shell suite (integration, compat, meta): ok,
# not_ok, skip, diag, the check* assertions, skip_all and done_testing. A suite that runs
# its cases per mode sets MODE (root|unpriv; NOUSERNS=1: root without a user namespace),
# and each line then says which. POSIX sh.

TEST_NUM=0
TEST_FAILED=0

ok() { TEST_NUM=$((TEST_NUM + 1)); echo "ok $TEST_NUM - ${MODE:+[$MODE${NOUSERNS:+, no userns}] }$*"; }
not_ok() { TEST_NUM=$((TEST_NUM + 1)); TEST_FAILED=1; echo "not ok $TEST_NUM - ${MODE:+[$MODE${NOUSERNS:+, no userns}] }$*"; }
skip() { TEST_NUM=$((TEST_NUM + 1)); echo "ok $TEST_NUM - ${MODE:+[$MODE${NOUSERNS:+, no userns}] }$1 # SKIP ${2:-}"; }
diag() { printf '# %s\n' "$@"; }

# skip_all REASON: the whole suite skips, or fails under NSRUN_MUST_WORK=1 (CI).
skip_all() {
	if [ "${NSRUN_MUST_WORK:-0}" = 1 ]; then
		echo "Bail out! NSRUN_MUST_WORK=1 but: $*"
		exit 1
	fi
	# The TAP plan "1..0 # SKIP" is how a TAP suite skips; automake's tap-driver
	# reports it as SKIP, and would count exit status 77 as an error.
	echo "1..0 # SKIP $*"
	exit 0
}

done_testing() {
	echo "1..$TEST_NUM"
	exit "$TEST_FAILED"
}

# check DESC CMD...: ok when CMD exits 0.
check() {
	_desc=$1
	shift
	if "$@"; then ok "$_desc"; else not_ok "$_desc"; fi
}

# check_eq DESC EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		diag "expected: $2" "actual:   $3"
	fi
}

# check_match DESC REGEX TEXT (grep -E on the whole text)
check_match() {
	if printf '%s\n' "$3" | grep -Eq -- "$2"; then
		ok "$1"
	else
		not_ok "$1"
		diag "pattern: $2" "text: $3"
	fi
}

# check_nomatch DESC REGEX TEXT
check_nomatch() {
	if printf '%s\n' "$3" | grep -Eq -- "$2"; then
		not_ok "$1"
		diag "unexpected pattern: $2" "text: $3"
	else
		ok "$1"
	fi
}
