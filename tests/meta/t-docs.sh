#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-docs.sh: every option of the table in src/cli-options.h (printed by
# tests/helpers/list-options as "NAME ARITY GROUP FLAGS") must appear in --help,
# man/nsrun.1, both completions (bash: in the array for its arity) and NEWS, and
# none of them may list an option the table lacks. A hidden option (FLAGS "hidden", as
# bwrap hides --debug-opt) is the exception: it must be everywhere but --help, where it
# must not be. Plain TAP; needs no namespaces.

set -u
# comm, join and sort must agree on one collation.
LC_ALL=C
export LC_ALL

: "${NSRUN:?NSRUN must point at the nsrun binary}"
: "${NSRUN_HELPERS:?NSRUN_HELPERS must point at tests/helpers}"
: "${top_srcdir:?top_srcdir must be set}"
# shellcheck source=tests/tap.sh
. "$top_srcdir/tests/tap.sh"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/nsrun-meta.XXXXXX")
trap 'rm -rf "$TMP"' EXIT


# compare DOC EXPECTED_FILE ACTUAL_FILE: both sorted lists of option names.
compare() {
	missing=$(comm -23 "$2" "$3" | tr '\n' ' ')
	extra=$(comm -13 "$2" "$3" | tr '\n' ' ')
	if [ -z "$missing" ]; then
		ok "$1 lists every option of the table"
	else
		not_ok "$1 lists every option of the table"
		echo "missing: $missing" | sed 's/^/# /'
	fi
	if [ -z "$extra" ]; then
		ok "$1 lists no option the table lacks"
	else
		not_ok "$1 lists no option the table lacks"
		echo "unknown: $extra" | sed 's/^/# /'
	fi
}

# ---- the table ----------------------------------------------------------------
if ! "$NSRUN_HELPERS/list-options" >"$TMP/table.raw" 2>"$TMP/table.err"; then
	echo "Bail out! list-options failed: $(cat "$TMP/table.err")"
	exit 1
fi
awk 'NF' "$TMP/table.raw" >"$TMP/table"
if [ ! -s "$TMP/table" ]; then
	echo "Bail out! list-options printed no options"
	exit 1
fi
if awk 'NF != 4 || $1 !~ /^--[a-z0-9-]+$/ || $2 !~ /^[0-3]$/ { bad = 1; print } END { exit bad }' \
	"$TMP/table" >"$TMP/bad"; then
	ok "list-options prints NAME ARITY GROUP FLAGS lines"
else
	not_ok "list-options prints NAME ARITY GROUP FLAGS lines"
	diag <"$TMP/bad"
fi
n=$(wc -l <"$TMP/table")
if [ "$n" -ge 67 ]; then
	ok "the table has at least bwrap's 67 options ($n)"
else
	not_ok "the table has at least bwrap's 67 options ($n)"
fi
awk '{ print $1 }' "$TMP/table" | sort >"$TMP/all"
dups=$(uniq -d "$TMP/all" | tr '\n' ' ')
if [ -z "$dups" ]; then ok "option names are unique"; else not_ok "option names are unique: $dups"; fi
sort -u -o "$TMP/all" "$TMP/all"
# nsrun's own extensions (FLAGS contains "nsrun").
awk '$4 ~ /(^|,)nsrun(,|$)/ { print $1 }' "$TMP/table" | sort -u >"$TMP/ext"
if [ -s "$TMP/ext" ]; then
	ok "the table marks nsrun's extensions"
else
	not_ok "the table marks nsrun's extensions"
fi

# ---- --help ---------------------------------------------------------------------
if "$NSRUN" --help >"$TMP/help" 2>"$TMP/help.err"; then
	ok "--help exits 0"
else
	not_ok "--help exits 0"
	diag <"$TMP/help.err"
fi
sed -n 's/^    \(--[a-z0-9][a-z0-9-]*\).*/\1/p' "$TMP/help" | sort -u >"$TMP/doc"
awk '$4 ~ /(^|,)hidden(,|$)/ { print $1 }' "$TMP/table" | sort -u >"$TMP/hidden"
comm -23 "$TMP/all" "$TMP/hidden" >"$TMP/shown"
compare "--help" "$TMP/shown" "$TMP/doc"
shown_hidden=$(comm -12 "$TMP/hidden" "$TMP/doc" | tr '\n' ' ')
if [ -z "$shown_hidden" ]; then
	ok "--help leaves out the hidden options ($(wc -l <"$TMP/hidden"))"
else
	not_ok "--help leaves out the hidden options"
	echo "listed: $shown_hidden" | sed 's/^/# /'
fi

# check_field DOC WHAT FILE: FILE holds "NAME VALUE" lines from DOC; VALUE must equal
# the table's (field 2 for arity, 3 for group). Names missing on either side are
# reported by compare, not here.
check_field() {
	case $2 in arity) f=2 ;; *) f=3 ;; esac
	awk -v f="$f" '{ print $1, $f }' "$TMP/table" | sort -u >"$TMP/want"
	sort -u "$3" >"$TMP/have"
	wrong=$(join "$TMP/want" "$TMP/have" | awk '$2 != $3 { printf "%s: table %s, doc %s; ", $1, $2, $3 }')
	if [ -z "$wrong" ]; then
		ok "$1: every option has the table's $2"
	else
		not_ok "$1: every option has the table's $2"
		echo "$wrong" | sed 's/^/# /'
	fi
}

# ---- man page ---------------------------------------------------------------------
# mdoc's Fl adds one dash: --bind is written ".It Fl -bind Ar src dest". A comment
# line '.\" group: NAME' before each OPTIONS subsection names its --help group.
# "Ar name | path" counts as one argument, and so does "Ns = Ns Ar name" (--debug-opt=NAME).
awk '
	/^\.\\" group: / { g = $3; next }
	/^\.It Fl -[a-z0-9]/ {
		n = 0; bars = 0
		if ($4 == "Ar")
			for (i = 5; i <= NF; i++) if ($i == "|") bars++; else n++
		if ($4 == "Ns" && $5 == "=" && $6 == "Ns" && $7 == "Ar")
			n = 1
		print "-" $3, (g == "" ? "none" : g), n - bars
	}
' "$top_srcdir/man/nsrun.1" >"$TMP/man"
awk '{ print $1 }' "$TMP/man" | sort -u >"$TMP/doc"
compare "man/nsrun.1" "$TMP/all" "$TMP/doc"
awk '{ print $1, $3 }' "$TMP/man" >"$TMP/man.arity"
check_field "man/nsrun.1" arity "$TMP/man.arity"
awk '{ print $1, $2 }' "$TMP/man" >"$TMP/man.group"
check_field "man/nsrun.1" group "$TMP/man.group"

# ---- bash completion -----------------------------------------------------------------
bash_file="$top_srcdir/completions/bash/nsrun"
# One "ARITY NAME" line per entry of the opts_arityN=( ... ) arrays.
awk '
	match($0, /opts_arity[0-3]=\(/) { arity = substr($0, RSTART + 10, 1); inarr = 1; next }
	inarr && /^[ \t]*\)/ { inarr = 0; next }
	inarr { for (i = 1; i <= NF; i++) print arity, $i }
' "$bash_file" | sort -u >"$TMP/bash"
awk '{ print $2 }' "$TMP/bash" | sort -u >"$TMP/doc"
compare "completions/bash/nsrun" "$TMP/all" "$TMP/doc"
awk '{ print $2, $1 }' "$TMP/bash" >"$TMP/bash.arity"
check_field "completions/bash/nsrun (opts_arityN arrays)" arity "$TMP/bash.arity"

# ---- zsh completion --------------------------------------------------------------------
zsh_file="$top_srcdir/completions/zsh/_nsrun"
# One spec per line: '(EXCL)*--name[help]:msg:action...' with a ":msg:action" per argument.
sed -n "s/^[ \t]*'\(([^)]*)\)\{0,1\}\*\{0,1\}\(--[a-z0-9][a-z0-9-]*\)\[[^]]*\]\([^']*\)'.*/\2 \3/p" \
	"$zsh_file" >"$TMP/zsh.spec"
awk '{ print $1 }' "$TMP/zsh.spec" >"$TMP/zsh"
sort -u "$TMP/zsh" >"$TMP/doc"
compare "completions/zsh/_nsrun" "$TMP/all" "$TMP/doc"
awk '{ n = gsub(/:/, ":"); print $1, n / 2 }' "$TMP/zsh.spec" >"$TMP/zsh.arity"
check_field "completions/zsh/_nsrun" arity "$TMP/zsh.arity"
if sort -c "$TMP/zsh" 2>/dev/null; then
	ok "completions/zsh/_nsrun: specs are in sorted order"
else
	not_ok "completions/zsh/_nsrun: specs are in sorted order"
	sort -c "$TMP/zsh" 2>&1 | sed 's/^/# /'
fi
if grep -q "^#compdef nsrun" "$zsh_file" && grep -q "'\*::command:_normal'" "$zsh_file"; then
	ok "completions/zsh/_nsrun: #compdef nsrun and the command spec"
else
	not_ok "completions/zsh/_nsrun: #compdef nsrun and the command spec"
fi

# ---- NEWS --------------------------------------------------------------------------------
# Every option, and at least every extension, is named in NEWS as a whole word.
news_missing=''
news_ext_missing=''
while read -r name; do
	if ! grep -Eq -- "(^|[^A-Za-z0-9_-])$name([^A-Za-z0-9_-]|\$)" "$top_srcdir/NEWS"; then
		news_missing="$news_missing $name"
		if grep -qx -- "$name" "$TMP/ext"; then
			news_ext_missing="$news_ext_missing $name"
		fi
	fi
done <"$TMP/all"
if [ -z "$news_ext_missing" ]; then
	ok "NEWS names every nsrun extension option"
else
	not_ok "NEWS names every nsrun extension option"
	echo "missing:$news_ext_missing" | sed 's/^/# /'
fi
if [ -z "$news_missing" ]; then
	ok "NEWS names every option"
else
	not_ok "NEWS names every option"
	echo "missing:$news_missing" | sed 's/^/# /'
fi

# ---- every option runs in some suite ------------------------------------------------------
# Named outside a comment by an integration, compat or kernel suite: each option is run
# for real somewhere, not only parsed by the unit tests.
grep -hv '^[[:space:]]*#' "$top_srcdir"/tests/integration/*.sh "$top_srcdir"/tests/compat/*.sh \
	"$top_srcdir"/tests/kernels/*.sh >"$TMP/suites"
unrun=
while read -r name; do
	grep -qE -- "(^|[^a-z0-9-])$name([^a-z0-9-]|\$)" "$TMP/suites" || unrun="$unrun $name"
done <"$TMP/all"
if [ -z "$unrun" ]; then
	ok "every option is run by an integration, compat or kernel suite"
else
	not_ok "every option is run by an integration, compat or kernel suite"
	echo "never run:$unrun" | sed 's/^/# /'
fi

# ---- README and CI agree on the test command ---------------------------------------------
# README's second shell block is the test command; .ci/run must run it verbatim.
readme_cmd=$(awk '/^```sh/ { n++; inblk = 1; next } /^```/ { inblk = 0; next }
	inblk && n == 2 { print; exit }' "$top_srcdir/README.md")
if [ ! -f "$top_srcdir/.ci/run" ]; then
	skip "README's test command is run by .ci/run" "no .ci/run in this tree"
elif [ -n "$readme_cmd" ] && grep -qF -- "$readme_cmd" "$top_srcdir/.ci/run"; then
	ok "README's test command is run by .ci/run"
else
	not_ok "README's test command is run by .ci/run"
	echo "README: $readme_cmd" | sed 's/^/# /'
fi

# ---- README's recipes and the man page's are one text ------------------------------------
# The agent's safe mode and the profile are printed in both. The first README sh block
# and the first man page literal display holding MARK must be the same commands: the
# page's "$ " prompts and \e escapes undone, continuation lines joined, blanks squeezed.
one_command_per_line() {
	sed -e 's/^\$ //' -e 's/\\e/\\/g' | awk '
		{ sub(/^[ \t]+/, ""); line = line (line == "" ? "" : " ") $0 }
		/\\$/ { sub(/[ \t]*\\$/, "", line); next }
		{ print line; line = "" }' | tr -s ' \t' '  '
}
readme_block() {
	awk -v mark="$1" '/^```sh$/ { inblk = 1; blk = ""; next }
		inblk && /^```$/ { inblk = 0; if (index(blk, mark)) { printf "%s", blk; exit } next }
		inblk { blk = blk $0 "\n" }' "$top_srcdir/README.md"
}
man_block() {
	awk -v mark="$1" '/^\.Bd -literal/ { inblk = 1; blk = ""; next }
		inblk && /^\.Ed$/ { inblk = 0; if (index(blk, mark)) { printf "%s", blk; exit } next }
		inblk { blk = blk $0 "\n" }' "$top_srcdir/man/nsrun.1"
}
for mark in --overlay-allow agent.args; do
	readme_block "$mark" | one_command_per_line >"$TMP/recipe.readme"
	man_block "$mark" | one_command_per_line >"$TMP/recipe.man"
	if [ ! -s "$TMP/recipe.readme" ] || [ ! -s "$TMP/recipe.man" ]; then
		not_ok "README and man/nsrun.1 print the same recipe with $mark"
		echo "# no block with $mark in README ($(wc -l <"$TMP/recipe.readme") lines) or the man page ($(wc -l <"$TMP/recipe.man") lines)"
	elif cmp -s "$TMP/recipe.readme" "$TMP/recipe.man"; then
		ok "README and man/nsrun.1 print the same recipe with $mark"
	else
		not_ok "README and man/nsrun.1 print the same recipe with $mark"
		diff "$TMP/recipe.readme" "$TMP/recipe.man" | sed 's/^/# /'
	fi
done

echo "1..$TEST_NUM"
exit "$TEST_FAILED"
