#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-claims.sh: what HACKING.md says about the code, checked against the code, each claim
# read from HACKING.md itself so that the prose and the test cannot drift apart: who
# prints, the longest function, the files past 600 lines, and that a function another
# file does not call is static. Plain TAP; needs the build's objects (make check builds
# them first) and nm(1).

set -u
LC_ALL=C
export LC_ALL
: "${top_srcdir:?top_srcdir must be set}"
: "${top_builddir:?top_builddir must be set}"
# shellcheck source=tests/tap.sh
. "$top_srcdir/tests/tap.sh"

hacking=$top_srcdir/HACKING.md
TMP=$(mktemp -d "${TMPDIR:-/tmp}/nsrun-claims.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# The paragraph of HACKING.md (a list item or a plain paragraph) that contains PATTERN.
paragraph() {
	awk -v pat="$1" '
		/^$/ || /^- / { if (hit) exit; buf = "" }
		{ buf = buf "\n" $0 }
		$0 ~ pat { hit = 1 }
		END { if (hit) print buf }' "$hacking"
}

# The `file.c` names a paragraph cites, one per line, sorted.
cited_files() {
	printf '%s\n' "$1" | grep -o '[`][a-z0-9-]*[.]c[`]' | tr -d '`' | sort -u
}

# 1. Who prints. A file prints when it names stdout or stderr, calls error_die, printf,
# puts or perror (comments and string literals left out); error.c is where those calls
# are written once. Modules that render a report write to the FILE their caller passes.
claim=$(paragraph '\*\*Who prints\*\*')
cited_files "$claim" >"$TMP/printers.allowed"
: >"$TMP/printers"
for f in "$top_srcdir"/src/*.c; do
	b=${f##*/}
	[ "$b" = error.c ] && continue
	# -fpreprocessed: strips comments, expands nothing
	gcc -fpreprocessed -dD -E -P "$f" 2>/dev/null | sed 's/"\([^"\\]\|\\.\)*"/""/g' |
		grep -qE '(^|[^a-z_])(stdout|stderr|error_die|printf|puts|perror)([^a-z_]|$)' &&
		echo "$b" >>"$TMP/printers"
done
extra=$(comm -23 "$TMP/printers" "$TMP/printers.allowed" | tr '\n' ' ')
if ! command -v gcc >/dev/null 2>&1; then
	not_ok "who prints: no gcc here to read the sources without their comments"
elif [ -n "$claim" ] && [ -s "$TMP/printers.allowed" ] && [ -s "$TMP/printers" ] &&
	[ -z "$extra" ]; then
	ok "who prints: only $(tr '\n' ' ' <"$TMP/printers.allowed")(HACKING.md's list)"
else
	not_ok "who prints: only the files HACKING.md's 'Who prints' names"
	echo "# printing, not in the list: ${extra:-(the claim is missing)}"
fi

# 2. The longest function. Kernel style: a body runs from a '{' alone in column 0 to the
# next '}' in column 0; its length is the lines between them.
max=$(printf '%s\n' "$(paragraph 'Functions of [0-9]+ lines at most')" |
	sed -n 's/.*Functions of \([0-9][0-9]*\) lines at most.*/\1/p' | head -n 1)
awk '
	/^[a-zA-Z_].*\(/ && !/;$/ { name = $0; sub(/\(.*/, "", name); n = split(name, w, /[ *]+/); fn = w[n] }
	/^\{$/ { start = FNR; next }
	/^\}/ && start { print FNR - start - 1, FILENAME ":" fn; start = 0 }
' "$top_srcdir"/src/*.c | sort -rn >"$TMP/lengths"
long=$(awk -v max="${max:-0}" '$1 > max { sub(".*/src/", "", $2); printf "%s (%d) ", $2, $1 }' "$TMP/lengths")
if [ -n "$max" ] && [ -z "$long" ]; then
	ok "every function is $max lines at most (the longest: $(head -n 1 "$TMP/lengths" | sed 's#[^ ]*/src/##'))"
else
	not_ok "every function is ${max:-?} lines at most (HACKING.md's number)"
	echo "# longer: ${long:-(no number in HACKING.md)}"
fi

# 3. The files past 600 lines, as HACKING.md lists them.
claim=$(paragraph 'past 600 lines')
cited_files "$claim" >"$TMP/big.claimed"
for f in "$top_srcdir"/src/*.c; do
	[ "$(wc -l <"$f")" -gt 600 ] && echo "${f##*/}"
done | sort >"$TMP/big"
if [ -s "$TMP/big.claimed" ] && cmp -s "$TMP/big" "$TMP/big.claimed"; then
	ok "the files past 600 lines are the ones HACKING.md names: $(tr '\n' ' ' <"$TMP/big")"
else
	not_ok "the files past 600 lines are the ones HACKING.md names"
	echo "# past 600: $(tr '\n' ' ' <"$TMP/big")"
	echo "# named:    $(tr '\n' ' ' <"$TMP/big.claimed")"
fi

# 4. "everything else is static": a function src/x.c exports is called from another file
# of nsrun, or from a test (unit tests, helpers and fuzz targets link libnsrun.a).
if ! command -v nm >/dev/null 2>&1 || ! ls "$top_builddir"/src/*.o >/dev/null 2>&1; then
	not_ok "every exported function has a caller in another file (no nm, or no objects)"
elif nm "$top_builddir/src/util.o" 2>/dev/null | grep -q __gnu_lto; then
	# LTO objects (a distribution's build flags) hold no final symbol table to read
	skip "every exported function has a caller in another file" "LTO objects"
else
	for o in "$top_builddir"/src/*.o "$top_builddir"/tests/*/*.o; do
		nm -u "$o" 2>/dev/null | awk -v o="${o##*/}" '{ print $NF, o }'
	done | sort -u >"$TMP/uses"
	lonely=
	for o in "$top_builddir"/src/*.o; do
		b=${o##*/}
		[ "$b" = main.o ] && continue
		for s in $(nm -g --defined-only "$o" | awk '$2 == "T" { print $3 }'); do
			awk -v s="$s" -v o="$b" '$1 == s && $2 != o { found = 1 } END { exit !found }' \
				"$TMP/uses" || lonely="$lonely ${b%.o}.c:$s"
		done
	done
	if [ -z "$lonely" ]; then
		ok "every function a file exports has a caller in another file"
	else
		not_ok "every function a file exports has a caller in another file"
		echo "# only called in their own file (make them static):$lonely"
	fi
fi
done_testing
