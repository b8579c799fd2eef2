#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-allowlist.sh: every entry of tests/compat/allowlist.sh (the differences from bwrap
# the differential suites accept) is documented: its sentence is in the COMPATIBILITY
# section of man/nsrun.1 as mandoc renders it, its line pattern is a valid extended
# regex, and its case pattern names a case of t-compat.sh or t-flatpak.sh. Plain TAP;
# needs no namespaces, but needs mandoc.
set -u
: "${top_srcdir:?top_srcdir must be set}"
# shellcheck source=tests/tap.sh
. "$top_srcdir/tests/tap.sh"

command -v mandoc >/dev/null || skip_all "mandoc is not installed"

. "$top_srcdir/tests/compat/allowlist.sh"

# squash: one line, single spaces (mandoc fills and justifies paragraphs).
squash() { tr -s ' \n\t' '   ' | sed 's/^ //;s/ $//'; }

# The COMPATIBILITY section, rendered: overstrikes removed, from its heading to the next.
COMPAT=$(mandoc -T ascii "$top_srcdir/man/nsrun.1" | sed 's/.\x08//g' |
	sed -n '/^COMPATIBILITY$/,/^[A-Z][A-Z ]*$/{/^[A-Z][A-Z ]*$/d;p}' | squash)
if [ -n "$COMPAT" ]; then
	ok "man/nsrun.1 has a COMPATIBILITY section"
else
	not_ok "man/nsrun.1 has a COMPATIBILITY section"
fi

# Case names as written in the suites (names built from variables are not listed).
mapfile -t CASES < <(grep -ohE '^\s*(c|compat_check) "[^"$]*"' \
	"$top_srcdir/tests/compat/t-compat.sh" "$top_srcdir/tests/compat/t-flatpak.sh" |
	sed -E 's/^\s*(c|compat_check) "//;s/"$//')

if [ "${#ALLOW_CASE[@]}" -gt 0 ] && [ "${#CASES[@]}" -gt 0 ]; then
	ok "the allowlist and the suites' case names load (${#ALLOW_CASE[@]} entries, ${#CASES[@]} cases)"
else
	not_ok "the allowlist and the suites' case names load (${#ALLOW_CASE[@]} entries, ${#CASES[@]} cases)"
fi

for i in "${!ALLOW_CASE[@]}"; do
	name=${ALLOW_CASE[i]}
	sentence=$(printf '%s' "${ALLOW_MAN[i]}" | squash)
	if [ -n "$sentence" ] && printf '%s\n' "$COMPAT" | grep -qF -- "$sentence"; then
		ok "allowlist '$name': documented in COMPATIBILITY"
	else
		not_ok "allowlist '$name': documented in COMPATIBILITY"
		diag "no such text in nsrun(1) COMPATIBILITY: $sentence"
	fi
	grep -Eq -- "${ALLOW_LINES[i]}" </dev/null 2>/dev/null
	if [ $? -le 1 ] && [ -n "${ALLOW_LINES[i]}" ]; then
		ok "allowlist '$name': its line pattern is a valid regex"
	else
		not_ok "allowlist '$name': its line pattern is a valid regex"
	fi
	found=0
	for cname in "${CASES[@]}"; do
		# shellcheck disable=SC2053 # the entry's case is a glob
		[[ $cname == $name ]] && found=1 && break
	done
	if [ "$found" = 1 ]; then
		ok "allowlist '$name': names a case of the suites"
	else
		not_ok "allowlist '$name': names a case of the suites"
	fi
done

echo "1..$TEST_NUM"
exit "$TEST_FAILED"
