#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-rules.sh: the rules between options (src/rules.c, printed by
# `tests/helpers/list-options --rules` as tab-separated "STAGE A KIND B MESSAGE" lines)
# are stated by man/nsrun.1 where a reader looks for them: A's entry in OPTIONS (or, for
# a group of options, the subsection A names) mentions B ("requires", "excludes"; for
# "excludes", B's entry may mention A instead), and says "once" for a "once" rule.
# Options count as whole words, with mdoc's markup taken away (".Fl -x" reads "--x").
# Plain TAP; needs no namespaces.

set -u
LC_ALL=C
export LC_ALL

: "${NSRUN_HELPERS:?NSRUN_HELPERS must point at tests/helpers}"
: "${top_srcdir:?top_srcdir must be set}"
# shellcheck source=tests/tap.sh
. "$top_srcdir/tests/tap.sh"
PAGE=$top_srcdir/man/nsrun.1

TMP=$(mktemp -d "${TMPDIR:-/tmp}/nsrun-rules.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
TAB=$(printf '\t')

if ! "$NSRUN_HELPERS/list-options" --rules >"$TMP/rules" 2>"$TMP/rules.err"; then
	echo "Bail out! list-options --rules failed: $(cat "$TMP/rules.err")"
	exit 1
fi
if ! "$NSRUN_HELPERS/list-options" >"$TMP/options" 2>"$TMP/options.err"; then
	echo "Bail out! list-options failed: $(cat "$TMP/options.err")"
	exit 1
fi
awk '{ print $1 }' "$TMP/options" >"$TMP/names"

n=$(wc -l <"$TMP/rules")
if [ "$n" -ge 30 ]; then
	ok "list-options --rules prints the table ($n rules)"
else
	not_ok "list-options --rules prints the table ($n rules)"
fi
if awk -F"$TAB" 'NF != 5 || $1 !~ /^(parse|mode|run)$/ || $3 !~ /^(requires|excludes|once)$/ ||
	($3 == "once") != ($4 == "-") || $5 == "" { bad = 1; print } END { exit bad }' \
	"$TMP/rules" >"$TMP/bad"; then
	ok "every rule is STAGE A KIND B MESSAGE"
else
	not_ok "every rule is STAGE A KIND B MESSAGE"
	sed 's/^/# /' "$TMP/bad"
fi
# A or B that looks like an option must be one of the table's.
unknown=$(awk -F"$TAB" '{ print $2; print $4 }' "$TMP/rules" | grep -- '^--' | sort -u |
	grep -vxF -f "$TMP/names" | tr '\n' ' ')
if [ -z "$unknown" ]; then
	ok "every option a rule names is in the option table"
else
	not_ok "every option a rule names is in the option table"
	diag "unknown: $unknown"
fi

# text_of A: A's entry in OPTIONS (every .It that names it), or the subsection titled A,
# as one line of plain words: leading dots and mdoc's macro names dropped, "Fl -x" read
# as "--x".
text_of() {
	awk -v a="$1" '
	function plain(line,    n, w, i, out) {
		if (line !~ /^\./)
			return line
		line = substr(line, 2)
		gsub(/Fl -/, "--", line)
		n = split(line, w, " ")
		out = ""
		for (i = 1; i <= n; i++)
			if (w[i] !~ /^[A-Z][a-z][a-z]?$/)
				out = out " " w[i]
		return out
	}
	/^\.Sh / { in_opts = ($2 == "OPTIONS"); take = 0 }
	/^\.Ss / {
		take = 0
		if (a !~ /^--/ && substr($0, 5) == a) { take = 1; next }
	}
	a ~ /^--/ && in_opts {
		if (take && /^\.Bl/) depth++
		if (take && /^\.El/) { if (depth == 0) take = 0; else depth-- }
		if (take && /^\.It/ && depth == 0) take = 0
		if (/^\.It / && (index($0 " ", " Fl -" substr(a, 3) " ") ||
				 index($0 " ", " Fl -" substr(a, 3) ","))) { take = 1; depth = 0 }
	}
	take { text = text " " plain($0) }
	END { gsub(/ +/, " ", text); print text }
	' "$PAGE"
}

# mentions TEXT WORD: WORD in TEXT, an option as a whole word, a phrase anywhere.
mentions() {
	awk -v t=" $1 " -v w="$2" 'BEGIN {
		if (w !~ /^--/) exit !index(t, w)
		while ((i = index(t, w)) > 0) {
			before = substr(t, i - 1, 1); after = substr(t, i + length(w), 1)
			if (before !~ /[a-z0-9-]/ && after !~ /[a-z0-9-]/) exit 0
			t = substr(t, i + length(w))
		}
		exit 1
	}'
}

while IFS="$TAB" read -r stage a kind b msg; do
	ta=$(text_of "$a")
	case $kind in
	once) b=once desc="man/nsrun.1 states: $a once" ;;
	*) desc="man/nsrun.1 states: $a $kind $b" ;;
	esac
	if [ -z "$(printf '%s' "$ta" | tr -d ' ')" ]; then
		not_ok "$desc"
		diag "no entry or subsection '$a' in man/nsrun.1"
		continue
	fi
	if mentions "$ta" "$b"; then
		ok "$desc"
	elif [ "$kind" = excludes ] && [ "${b#--}" != "$b" ] && mentions "$(text_of "$b")" "$a"; then
		ok "$desc (in $b's entry)"
	else
		not_ok "$desc"
		diag "$a's text does not mention '$b' (the rule's message: $msg, checked at $stage)"
	fi
done <"$TMP/rules"

done_testing
