#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-man-render.sh: man/nsrun.1 renders as its source means, under mandoc and under
# man-db's groff, not only lints clean. What the page quotes (.Dl, .Ql, .Dq, .Qq, .Sq:
# messages, JSON, commands) and every line of its literal displays must come out whole:
# no word read as a macro ("No such file" losing "No"), no double quote taken as an
# argument delimiter ({ "exit-code": 1 } losing its quotes). The JSON it shows must parse.
# Plain TAP; needs no namespaces.

set -u
LC_ALL=C.UTF-8
export LC_ALL
: "${top_srcdir:?top_srcdir must be set}"
# shellcheck source=tests/tap.sh
. "$top_srcdir/tests/tap.sh"
PAGE=$top_srcdir/man/nsrun.1

TMP=$(mktemp -d "${TMPDIR:-/tmp}/nsrun-man.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# unescape: the text a roff escape stands for (the escapes this page uses).
unescape() {
	sed -e 's/\\&//g' -e 's/\\e/\\/g' -e 's/\\(dq/"/g' -e "s/\\\\(aq/'/g" -e 's/\\-/-/g' \
		-e 's/\\ / /g' -e 's/\\(lq/"/g' -e 's/\\(rq/"/g'
}

# What the page quotes, as its author meant it: the arguments of one-line quoting
# macros, without the trailing punctuation mdoc sets apart. A line that calls a macro on
# purpose (Ns, Ar) says something else and is left out.
awk '/^\.(Dl|Ql|Dq|Qq|Sq) / && !/ (Ns|Ar|Fl|Pa|Cm) / {
	sub(/^\.[A-Z][a-z] /, "")
	while (sub(/ [.,;:)?!]$/, "")) {}
	print
}' "$PAGE" | unescape >"$TMP/quoted"

# Every line of the literal displays, unescaped, left-trimmed.
awk '/^\.Bd -literal/ { lit = 1; next } /^\.Ed/ { lit = 0; next }
	lit && !/^\./ { print }' "$PAGE" | unescape | sed 's/^[[:space:]]*//' | grep -v '^$' \
	>"$TMP/literal"

# The JSON documents the page shows, one per line: quoted ones starting with "{" whole
# (one with an elision "..." or a placeholder such as N is not JSON and is left out).
grep '^{' "$TMP/quoted" | grep -v '\.\.\.' | grep -vE ': [A-Z][A-Z_]*[ ,}]' >"$TMP/json"

renderers=
if command -v mandoc >/dev/null 2>&1; then
	# A width no paragraph reaches: nothing wraps or hyphenates.
	if mandoc -Tutf8 -O width=1000 "$PAGE" >"$TMP/mandoc.raw" 2>"$TMP/mandoc.err"; then
		renderers="$renderers mandoc"
	fi
fi
if command -v man >/dev/null 2>&1 && command -v groff >/dev/null 2>&1; then
	if MANWIDTH=1000 man -l "$PAGE" >"$TMP/groff.raw" 2>"$TMP/groff.err"; then
		renderers="$renderers groff"
	fi
fi
[ -n "$renderers" ] || skip_all "neither mandoc nor man-db with groff can render the page"
[ -s "$TMP/quoted" ] && [ -s "$TMP/literal" ] && ok "the page quotes text and has literal displays" ||
	not_ok "the page quotes text and has literal displays"

# each_renders DESC GREP_FLAGS EXPECTED RENDERED: every line of EXPECTED (blanks squeezed)
# is found in RENDERED with grep GREP_FLAGS.
each_renders() {
	lost=
	while IFS= read -r want; do
		want=$(printf '%s' "$want" | sed 's/[[:space:]]\{1,\}/ /g')
		grep -q "$2" -- "$want" "$4" || lost="$lost
# [$want]"
	done <"$3"
	if [ -z "$lost" ]; then
		ok "$1 ($(wc -l <"$3"))"
	else
		not_ok "$1"
		echo "# rendered otherwise:$lost"
	fi
}

for r in $renderers; do
	# Plain text, typographic quotes as ASCII, runs of blanks as one.
	col -b <"$TMP/$r.raw" | sed -e "s/[‘’]/'/g" -e 's/[“”]/"/g' -e 's/[[:space:]]\{1,\}/ /g' \
		-e 's/^ //' >"$TMP/$r.txt"
	tr '\n' ' ' <"$TMP/$r.txt" | sed 's/ \{1,\}/ /g' >"$TMP/$r.flat"

	each_renders "$r: every quoted message, command and JSON renders whole" -F \
		"$TMP/quoted" "$TMP/$r.flat"
	each_renders "$r: every line of the literal displays renders as written" -xF \
		"$TMP/literal" "$TMP/$r.txt"

	# Quotes mangled by nested quoting macros come out doubled ("a""b" or {"x""}).
	if grep -n '""' "$TMP/$r.txt" >"$TMP/$r.dq"; then
		not_ok "$r: no doubled quotes (nested quoting macros)"
		sed 's/^/# /' "$TMP/$r.dq" | head -n 5
	else
		ok "$r: no doubled quotes (nested quoting macros)"
	fi
	if grep -n '\\[&e(]' "$TMP/$r.txt" >"$TMP/$r.esc"; then
		not_ok "$r: no escape sequence is left in the text"
		sed 's/^/# /' "$TMP/$r.esc" | head -n 5
	else
		ok "$r: no escape sequence is left in the text"
	fi
	if [ -s "$TMP/$r.err" ]; then
		not_ok "$r: renders without a warning"
		sed 's/^/# /' "$TMP/$r.err" | head -n 5
	else
		ok "$r: renders without a warning"
	fi
done

if ! command -v python3 >/dev/null 2>&1; then
	skip "the JSON the page shows parses" "no python3"
elif python3 -c '
import json, sys
for line in open(sys.argv[1]):
    json.loads(line)
' "$TMP/json" 2>"$TMP/json.err"; then
	ok "the JSON the page shows parses ($(wc -l <"$TMP/json") documents)"
else
	not_ok "the JSON the page shows parses"
	sed 's/^/# /' "$TMP/json.err" | tail -n 3
fi

echo "1..$TEST_NUM"
exit "$TEST_FAILED"
