#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-layers.sh: HACKING.md's module map is the truth about src/. Every file in src/ has a
# row there, and every `#include "x.h"` names a header of the file's own layer or a lower
# one (plan.h, which only defines types, is the map's one exception); and the modules'
# include graph has no cycle, within a layer either (a.c and a.h are module a). Plain TAP.

set -u
LC_ALL=C
export LC_ALL
: "${top_srcdir:?top_srcdir must be set}"
# shellcheck source=tests/tap.sh
. "$top_srcdir/tests/tap.sh"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/nsrun-layers.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# "FILE LAYER" for every file the map names: `a.[ch]` names a.c and a.h.
awk -F'|' '/^\| [0-9] \|/ {
	layer = $2; gsub(/ /, "", layer)
	n = split($3, parts, "`")
	for (i = 2; i <= n; i += 2) {
		f = parts[i]
		if (f ~ /\.\[ch\]$/) {
			sub(/\.\[ch\]$/, "", f)
			print f ".c " layer; print f ".h " layer
		} else {
			print f " " layer
		}
	}
}' "$top_srcdir/HACKING.md" | sort -u >"$TMP/map"

if [ "$(wc -l <"$TMP/map")" -gt 20 ]; then
	ok "HACKING.md's module map has rows ($(wc -l <"$TMP/map") files)"
else
	not_ok "HACKING.md's module map has rows"
fi

missing=
for f in "$top_srcdir"/src/*.c "$top_srcdir"/src/*.h; do
	b=${f##*/}
	[ "$b" = config.h ] && continue
	grep -q "^$b " "$TMP/map" || missing="$missing $b"
done
if [ -z "$missing" ]; then
	ok "every file in src/ has a row in the module map"
else
	not_ok "every file in src/ has a row in the module map"
	echo "# not in the map:$missing"
fi

bad=
for f in "$top_srcdir"/src/*.c "$top_srcdir"/src/*.h; do
	b=${f##*/}
	own=$(awk -v f="$b" '$1 == f { print $2 }' "$TMP/map")
	[ -n "$own" ] || continue
	for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
		case $inc in config.h | plan.h) continue ;; esac
		theirs=$(awk -v f="$inc" '$1 == f { print $2 }' "$TMP/map")
		if [ -z "$theirs" ] || [ "$theirs" -gt "$own" ]; then
			bad="$bad $b($own)->$inc(${theirs:-?})"
		fi
	done
done
if [ -z "$bad" ]; then
	ok "no file includes a header of a higher layer"
else
	not_ok "no file includes a header of a higher layer"
	echo "# upward includes:$bad"
fi

# Within a layer the rule above allows both directions; the graph must still be one-way.
for f in "$top_srcdir"/src/*.c "$top_srcdir"/src/*.h; do
	b=${f##*/}
	m=${b%.*}
	for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
		[ "$inc" = config.h ] || [ "${inc%.h}" = "$m" ] || echo "$m ${inc%.h}"
	done
done | sort -u >"$TMP/edges"
if tsort "$TMP/edges" >/dev/null 2>"$TMP/tsort.err"; then
	ok "the modules' include graph has no cycle ($(wc -l <"$TMP/edges") edges)"
else
	not_ok "the modules' include graph has no cycle"
	sed 's/^/# /' "$TMP/tsort.err"
fi

echo "1..$TEST_NUM"
exit "$TEST_FAILED"
