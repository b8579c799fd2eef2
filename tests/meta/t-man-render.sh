#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-man-render.sh: man/nsrun.1 renders as its source means, under mandoc and under
# man-db's groff, not only lints clean (`mandoc -Tlint` passes pages that render wrong).
# Each renderer that is installed renders the page, and the text is checked against
# what the source says:
#  - every line of every literal display (.Bd -literal) comes out as written, in order,
#    once unescaped (\e is \, \& nothing, ...), the left margin aside;
#  - every quoted text (Ql, Sq, Dq, Qq anywhere on a macro line, and Dl) comes out whole
#    in its own quotes: no word read as a macro ("No such file" losing "No"), no double
#    quote taken as an argument delimiter ({ "a": 1 } losing its quotes), no quote
#    swallowing the next (".Ql a , Ql b" nests the second quote in the first);
#  - a few sentinel phrases, the places that rendered wrong once, come out exactly;
#  - no nested or doubled quotes, no escape sequence or macro name left in the text, no
#    renderer warning, and every hyphen (option dashes included) is ASCII;
#  - the JSON documents the page shows parse as rendered (python3).
# Plain TAP; needs no namespaces. A missing renderer is skipped, or fails under
# NSRUN_MUST_WORK=1 (CI installs mandoc, man-db and groff-base).

set -u
# The output depends on the locale (quotes, dashes) and on man-db's environment; the
# width is given on each command line, so the terminal's plays no part.
LC_ALL=C.UTF-8
export LC_ALL
unset MANOPT MANROFFOPT MAN_KEEP_FORMATTING MANWIDTH COLUMNS GROFF_SGR 2>/dev/null || :
: "${top_srcdir:?top_srcdir must be set}"
# shellcheck source=tests/tap.sh
. "$top_srcdir/tests/tap.sh"
PAGE=$top_srcdir/man/nsrun.1

TMP=$(mktemp -d "${TMPDIR:-/tmp}/nsrun-man.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
SOH=$(printf '\001')
US=$(printf '\037')
NBSP=$(printf '\302\240')
LSQ=$(printf '\342\200\230') RSQ=$(printf '\342\200\231')
LDQ=$(printf '\342\200\234') RDQ=$(printf '\342\200\235')

# The renderers here: mandoc, and man-db's man with groff. With neither the suite
# skips (a failure under NSRUN_MUST_WORK=1), before any test line.
has_mandoc=0 has_groff=0
command -v mandoc >/dev/null 2>&1 && has_mandoc=1
command -v groff >/dev/null 2>&1 && man --version >/dev/null 2>&1 && has_groff=1
[ "$has_mandoc$has_groff" != 00 ] || skip_all "neither mandoc nor man-db with groff is installed"

# Phrases that must come out exactly so, written with the UTF-8 quotes of Ql (‘ ’; Qq is
# "): the places that once rendered wrong, and bubblewrap messages the page quotes.
cat >"$TMP/sentinels" <<'EOF'
print the checks as one JSON object with the keys "version", "uid", "status" and "checks", the last a list, each check an object with "name", "status" ("ok", "warn" or "fail"), "message" and "fix"
an optional suffix s, m, h or d (‘10’, ‘1.5’, ‘2m’); 0 means no time limit.
is then, for example, ‘{ "exit-code": 124, "exit-signal": 9, "timed-out": true, "oom-kills": 0, "oom-killed": false, "memory-peak": 73400320 }’, or,
Truncating through a file opened for writing (‘: > file’, ftruncate(2)) stays
("landlock", or "seccomp" below ABI 3)
‘Can't mount on symlink destination’
‘--userns doesn't work in setuid mode’
‘Unexpected short read from pid socket’
‘Read-only file system’
‘(cause: CAUSE; run 'nsrun --doctor')’
No overlayfs in a user namespace:
No Landlock: every --landlock-* option exits 126 and says so.
EOF

# ---- what the source means ------------------------------------------------------------
# unescape: the text a roff escape stands for (those this page uses, and the usual
# others). \e goes through a placeholder, so that "\e&" stays "\&". Any other
# backslash stays: "\0" or a "\" at the end of a line is a backslash its author meant
# to show, and roff's reading (a digit space, a continued line) renders otherwise.
unescape() {
	sed -e "s/\\\\e/$SOH/g" -e 's/\\&//g' -e 's/\\|//g' -e 's/\\^//g' -e 's/\\f[BIRP1-4]//g' \
		-e 's/\\f(..//g' -e 's/\\f\[[^]]*\]//g' -e 's/\\(dq/"/g' -e "s/\\\\(aq/'/g" \
		-e "s/\\\\(lq/$LDQ/g" -e "s/\\\\(rq/$RDQ/g" -e "s/\\\\(oq/$LSQ/g" -e "s/\\\\(cq/$RSQ/g" \
		-e 's/\\(em/—/g' -e 's/\\(en/–/g' -e 's/\\(->/→/g' -e 's/\\(<-/←/g' -e 's/\\(ga/`/g' \
		-e 's/\\(ti/~/g' -e 's/\\(ha/^/g' -e 's/\\(ba/|/g' -e 's/\\-/-/g' -e 's/\\\././g' \
		-e 's/\\ / /g' -e 's/\\~/ /g' -e "s/$SOH/\\\\/g"
}

# Every quoted text, as "MACRO<TAB>text", where its author meant it to start and end:
# the arguments of Ql, Sq, Dq or Qq up to the end of the line, less the punctuation mdoc
# sets outside the quotes, or up to a punctuation mark that a macro follows (".Ql a , Ql
# b" is two quotes). In the quote a macro name stands for itself, a word ("No such
# file"), unless it comes first or after Ns (".Ql abi= Ns Ar N"). A double quote is
# text but around a whole argument. A .Dl line is checked as a quote without quotes,
# unless it marks up a command (Fl, Ar...: then its macro names are macros); No, An and
# At, which are words too, do not count as markup there.
awk '
BEGIN {
	n = split("Ac Ad An Ao Ap Aq Ar At Bc Bo Bq Brc Bro Brq Bsx Bx Cd Cm Dc Do Dq Dv Dx " \
		"Ec Em En Eo Er Es Ev Fa Fc Fl Fn Fo Fr Fx Ic Li Lk Ms Mt Nm No Ns Nx Oc Oo Op Ox " \
		"Pa Pc Pf Po Pq Qc Ql Qo Qq Sc So Sq St Sx Sy Ta Tn Ux Va Vt Xc Xo Xr", m, " ")
	for (i = 1; i <= n; i++) callable[m[i]] = 1
	n = split("Ar Pa Cm Va Ev Dv Er Ic Li Sy Em No Nm Ad Vt Fa Ms Tn", m, " ")
	for (i = 1; i <= n; i++) plain[m[i]] = 1
	n = split(". , : ; ) ] ? !", m, " ")
	for (i = 1; i <= n; i++) closing[m[i]] = 1
	quote["Ql"] = quote["Sq"] = quote["Dq"] = quote["Qq"] = 1
}
/^\.Bd[ \t]+-literal/ { lit = 1 }
/^\.Ed/ { lit = 0 }
lit || !/^\.[A-Z][a-z0-9]/ { next }
{
	split_args($0)
	if (tok[1] == "Dl") {
		for (i = 2; i <= nt && (!ismacro(i) || tok[i] ~ /^(No|An|At)$/); i++) {}
		if (i > nt) content(1)
		next
	}
	for (i = 1; i <= nt; i++)
		if ((tok[i] in quote) && !isq[i])
			content(i)
}
# split_args LINE: tok[1..nt], the macro first; isq[k] when tok[k] was a whole quoted
# argument, which is never a macro. An escaped blank (\ ) belongs to its word.
function split_args(s,   t, q) {
	nt = 0
	gsub(/\\ /, "\001", s)
	sub(/^\./, "", s)
	while (s != "") {
		if (match(s, /^[ \t]+/)) { s = substr(s, RLENGTH + 1); continue }
		q = 0
		if (substr(s, 1, 1) == "\"" && match(s, /^"([^"]|"")*"([ \t]|$)/)) {
			t = substr(s, 2, RLENGTH - 1)
			sub(/"[ \t]?$/, "", t)
			gsub(/""/, "\"", t)
			q = 1
		} else {
			match(s, /^[^ \t]+/)
			t = substr(s, 1, RLENGTH)
		}
		s = substr(s, RLENGTH + 1)
		gsub(/\001/, "\\ ", t)
		tok[++nt] = t
		isq[nt] = q
	}
}
function ismacro(k) { return !isq[k] && (tok[k] in callable) }
# content I: print the text of the quote that tok[I] opens.
function content(i,   j, k, last, out, glue, dash, t) {
	for (j = i + 1; j <= nt && !isq[j] && (tok[j] == "(" || tok[j] == "["); j++) {}
	last = nt
	for (k = j; k < nt; k++)
		if (!isq[k] && (tok[k] in closing) && ismacro(k + 1) && tok[k + 1] != "Ns") { last = k; break }
	while (last >= j && !isq[last] && (tok[last] in closing)) last--
	out = ""; glue = 1; dash = ""
	for (k = j; k <= last; k++) {
		t = tok[k]
		if (ismacro(k) && t == "Ns") { glue = 1; continue }
		if (ismacro(k) && (k == j || tok[k - 1] == "Ns")) {
			if (t == "Fl") { dash = "-"; continue }
			if (t == "Xr" && k + 2 <= last) { t = tok[k + 1] "(" tok[k + 2] ")"; k += 2 }
			else if (t in plain) continue
			else return # a nested macro this model does not know: leave the quote out
		}
		if (!isq[k] && (t in closing)) glue = 1
		out = out (glue ? "" : " ") dash t
		glue = (!isq[k] && (t == "(" || t == "[")); dash = ""
	}
	if (out != "") print tok[i] "\t" out
}
' "$PAGE" | unescape >"$TMP/quoted"

# The literal displays, as runs of text lines that must come out one after the other:
# a line "\037 SOURCE_LINE" starts each run (an mdoc macro line in a display ends one),
# then its lines, unescaped and trimmed. Any other line that starts with . or ' is text
# its author meant to show, which roff takes for a request: the page must write \&.
# or \&' there, and the line is expected as text so that the check fails without.
awk '
/^\.Bd[ \t]+-literal/ { lit = 1; run = 0; next }
/^\.Ed/ { lit = 0; next }
!lit || /^\.\\"/ || /^\.[ \t]*$/ { next }
/^\.[A-Z][a-z][a-z]?([ \t]|$)/ { run = 0; next }
{
	if (!run) { printf "\037 %d\n", NR; run = 1 }
	print
}' "$PAGE" | unescape | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' >"$TMP/literal"

# The complete JSON documents the page shows: quoted texts that start with "{", with no
# elision (...) and no placeholder value (N); displays that start with { or [.
json_quoted=$(awk -F '\t' '$2 ~ /^[{[]/ && $2 !~ /\.\.\./ && $2 !~ /: [A-Z][A-Z_]*[ ,}]/' \
	"$TMP/quoted" | wc -l)
json_lit=$(awk '/^\037/ { getline; if ($0 ~ /^[{[]/) n++ } END { print n + 0 }' "$TMP/literal")
json_want=$((json_quoted + json_lit))

nquoted=$(wc -l <"$TMP/quoted")
nruns=$(grep -c "^$US" "$TMP/literal")
if [ "$nquoted" -gt 0 ] && [ "$nruns" -gt 0 ] && [ "$json_want" -gt 0 ]; then
	ok "the page quotes $nquoted texts and has $nruns literal displays and $json_want JSON documents"
else
	not_ok "the page quotes texts and has literal displays and JSON documents"
	diag "quoted: $nquoted, literal displays: $nruns, JSON documents: $json_want"
fi

# ---- the renderers ----------------------------------------------------------------------
renderers=
if [ "$has_mandoc" = 1 ]; then
	renderers=mandoc
elif [ "${NSRUN_MUST_WORK:-0}" = 1 ]; then
	not_ok "mandoc is installed (NSRUN_MUST_WORK=1)"
else
	skip "mandoc renders the page" "no mandoc"
fi
if [ "$has_groff" = 1 ]; then
	renderers="$renderers groff"
elif [ "${NSRUN_MUST_WORK:-0}" = 1 ]; then
	not_ok "man-db's man and groff are installed (NSRUN_MUST_WORK=1)"
else
	skip "man-db's groff renders the page" "no man-db or no groff"
fi

# render NAME PAGE OUT: PAGE as plain text in OUT, the renderer's messages in OUT.err.
# mandoc's widest line (1000), and 4000 for groff so that it hyphenates nothing; mandoc
# may wrap a paragraph, but never hyphenates, and the checks on running text join lines.
# The exit status is left alone (mandoc's says there were warnings, which OUT.err
# shows); only no text at all is a failure.
render() {
	case $1 in
	mandoc) mandoc -Tutf8 -W warning -O width=1000 "$2" >"$3.raw" 2>"$3.err" ;;
	groff) MANWIDTH=4000 man -E UTF-8 --warnings=w -l "$2" >"$3.raw" 2>"$3.err" ;;
	esac
	# No overstrikes; no-break spaces as blanks.
	col -b <"$3.raw" | sed "s/$NBSP/ /g" >"$3"
	[ -s "$3" ]
}

# One quote of each kind, to learn how a renderer quotes (UTF-8 or ASCII).
cat >"$TMP/probe.1" <<'EOF'
.Dd January 1, 2000
.Dt PROBE 1
.Os
.Sh NAME
.Nm probe
.Nd quotes
.Sh DESCRIPTION
Ql
.Ql x
.Pp
Sq
.Sq x
.Pp
Dq
.Dq x
.Pp
Qq
.Qq x
EOF

for r in $renderers; do
	if ! render "$r" "$PAGE" "$TMP/$r.txt" || ! render "$r" "$TMP/probe.1" "$TMP/$r.probe"; then
		not_ok "$r: renders the page"
		sed 's/^/# /' "$TMP/$r.txt.err" "$TMP/$r.probe.err" | head -n 10
		continue
	fi
	if [ -s "$TMP/$r.txt.err" ]; then
		not_ok "$r: renders the page without a warning"
		sed 's/^/# /' "$TMP/$r.txt.err" | head -n 10
	else
		ok "$r: renders the page without a warning"
	fi
	# Its quotes, as "MACRO OPEN CLOSE" lines.
	awk '$1 ~ /^(Ql|Sq|Dq|Qq)$/ && NF == 2 { i = index($2, "x")
		print $1, substr($2, 1, i - 1), substr($2, i + 1) }' "$TMP/$r.probe" >"$TMP/$r.quotes"
	if [ "$(wc -l <"$TMP/$r.quotes")" -ne 4 ]; then
		not_ok "$r: renders the quoting macros"
		sed 's/^/# /' "$TMP/$r.probe"
		continue
	fi
	# Its lines trimmed at both ends; its running text as one line with single blanks.
	sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' "$TMP/$r.txt" >"$TMP/$r.lines"
	tr '\n' ' ' <"$TMP/$r.txt" | sed 's/[[:space:]]\{1,\}/ /g' >"$TMP/$r.flat"

	# -- literal displays: each run of lines, one after the other, exactly. The runs
	# that are JSON documents go to $r.json as rendered, one per line.
	if awk -v json="$TMP/$r.json" '
		FNR == NR { line[++n] = $0; next }
		/^\037/ { if (nw) check(); src = $2; nw = 0; next }
		{ want[++nw] = $0 }
		END { if (nw) check(); exit bad }
		function check(   i, k, at, best, bk, doc) {
			bk = 0
			for (i = 1; i + nw - 1 <= n && !at; i++) {
				for (k = 1; k <= nw && line[i + k - 1] == want[k]; k++) {}
				if (k > nw) at = i
				else if (k > bk) { bk = k; best = i }
			}
			if (!at) {
				bad = 1
				printf "# the display at line %d renders otherwise:\n", src
				if (bk <= 1) {
					printf "#   want [%s]: not rendered\n", want[1]
				} else {
					printf "#   want [%s]\n", want[bk]
					printf "#   got  [%s]\n", line[best + bk - 1]
				}
			} else if (want[1] ~ /^[{[]/) {
				doc = ""
				for (k = 0; k < nw; k++) doc = doc " " line[at + k]
				print doc >json
			}
		}' "$TMP/$r.lines" "$TMP/literal" >"$TMP/$r.diag"; then
		ok "$r: every line of the $nruns literal displays renders as written, in order"
	else
		not_ok "$r: every line of the literal displays renders as written, in order"
		cat "$TMP/$r.diag"
	fi

	# -- quoted texts: whole, in their own quotes.
	if awk -F '\t' '
		FILENAME == ARGV[1] { split($0, q, " "); qo[q[1]] = q[2]; qc[q[1]] = q[3]; next }
		FILENAME == ARGV[2] { flat = $0; next }
		{
			want = $2
			gsub(/[ \t]+/, " ", want)
			if ($1 != "Dl") want = qo[$1] want qc[$1]
			if (!index(flat, want)) { bad = 1; printf "# %s [%s]\n", $1, want }
		}
		END { exit bad }' "$TMP/$r.quotes" "$TMP/$r.flat" "$TMP/quoted" >"$TMP/$r.diag"; then
		ok "$r: each of the $nquoted quoted texts renders whole in its quotes"
	else
		not_ok "$r: each quoted text renders whole in its quotes"
		echo "# not in the rendered text:"
		cat "$TMP/$r.diag"
	fi

	# -- sentinels, in this renderer's quotes.
	if awk -v lq="$LSQ" -v rq="$RSQ" '
		FILENAME == ARGV[1] { if ($1 == "Ql") { o = $2; c = $3 } next }
		FILENAME == ARGV[2] { flat = $0; next }
		{
			want = $0
			gsub(lq, o, want)
			gsub(rq, c, want)
			if (!index(flat, want)) { bad = 1; printf "# [%s]\n", want }
		}
		END { exit bad }' "$TMP/$r.quotes" "$TMP/$r.flat" "$TMP/sentinels" >"$TMP/$r.diag"; then
		ok "$r: the $(wc -l <"$TMP/sentinels") sentinel phrases render exactly"
	else
		not_ok "$r: the sentinel phrases render exactly"
		echo "# not in the rendered text:"
		cat "$TMP/$r.diag"
	fi

	# -- nested or doubled quotes: an opening quote inside a quote of the same kind (a
	# quoting macro swallowed by another), or "" outside the displays (quotes taken as
	# argument delimiters). Quotes that open and close alike cannot nest visibly; an
	# apostrophe rendered as a closing quote closes nothing that is not open.
	if awk '
		FILENAME == ARGV[1] { if ($2 != $3 && !(($2, $3) in seen)) { seen[$2, $3] = 1; o[++nq] = $2; c[nq] = $3 } next }
		FILENAME == ARGV[2] { lit[$0] = 1; next }
		{
			for (q = 1; q <= nq; q++) {
				s = $0
				gsub(o[q], "\001", s)
				gsub(c[q], "\002", s)
				depth = 0
				for (i = 1; i <= length(s); i++) {
					ch = substr(s, i, 1)
					if (ch == "\001" && depth++) { bad = 1; near(s, i); break }
					if (ch == "\002" && depth) depth--
				}
			}
			if (!($0 in lit) && (i = index($0, "\"\""))) {
				bad = 1
				printf "# %d: ...%s...\n", FNR, substr($0, (i > 60 ? i - 60 : 1), 90)
			}
		}
		END { exit bad }
		# near S I: line FNR around the second opening quote, at I in S.
		function near(s, i) {
			s = substr(s, (i > 60 ? i - 60 : 1), 90)
			gsub(/\001/, o[q], s)
			gsub(/\002/, c[q], s)
			printf "# %d: ...%s...\n", FNR, s
		}' "$TMP/$r.quotes" "$TMP/literal" "$TMP/$r.lines" >"$TMP/$r.diag"; then
		ok "$r: no nested or doubled quotes"
	else
		not_ok "$r: no nested or doubled quotes"
		head -n 5 "$TMP/$r.diag"
	fi

	# -- what a parse that went wrong leaves: an escape, or a macro name as a word.
	if grep -nE '\\([&(*|^e~]|f[A-Z0-9(]|s[-+0-9])' "$TMP/$r.lines" >"$TMP/$r.diag" ||
		grep -nwE 'Ns|Fl|Ar|Pa|Cm|Xr|Sx|Ql|Dq|Qq|Sq|Pq|Op|Dv|Er|Ev|Va|Pf|Ic|Li|Sy|Nm|Nd|Bl|El|Bd|Ed|Pp|Ss|Sh|Ux|Fn|Fa|Po|Pc|Oo|Oc|Bo|Bc|Bq|Brq|Bro|Brc|Aq|Ao|Ac|Qo|Qc|Dc|Sc|Xo|Xc|Dl|D1|Ta|Lk|Mt|Vt|Cd' \
			"$TMP/$r.lines" >"$TMP/$r.diag"; then
		not_ok "$r: no escape sequence or macro name is left in the text"
		sed 's/^/# /' "$TMP/$r.diag" | head -n 5
	else
		ok "$r: no escape sequence or macro name is left in the text"
	fi

	# -- options must copy and paste: every hyphen is ASCII, none a U+2010 hyphen, U+2011
	# no-break hyphen or U+2212 minus (a "-" the renderer typeset, or a hyphenation).
	if grep -n '[‐‑−]' "$TMP/$r.lines" >"$TMP/$r.diag"; then
		not_ok "$r: hyphens and option dashes render as ASCII '-'"
		sed 's/^/# /' "$TMP/$r.diag" | head -n 5
	else
		ok "$r: hyphens and option dashes render as ASCII '-'"
	fi

	# -- the quoted JSON documents as rendered, one per line, after the displays'.
	awk '
		FILENAME == ARGV[1] { if (!(($2, $3) in seen)) { seen[$2, $3] = 1; o[++nq] = $2; c[nq] = $3 } next }
		{
			for (q = 1; q <= nq; q++) {
				s = $0
				while ((i = index(s, o[q] "{"))) {
					s = substr(s, i + length(o[q]))
					j = index(s, "}" c[q])
					if (!j) break
					doc = substr(s, 1, j)
					s = substr(s, j + 1 + length(c[q]))
					if (doc !~ /\.\.\./ && doc !~ /: [A-Z][A-Z_]*[ ,}]/) print doc
				}
			}
		}' "$TMP/$r.quotes" "$TMP/$r.flat" >>"$TMP/$r.json"
done

# ---- the JSON shown parses, as rendered --------------------------------------------------
for r in $renderers; do
	[ -f "$TMP/$r.json" ] || continue
	if ! command -v python3 >/dev/null 2>&1; then
		skip "$r: the JSON documents the page shows parse as rendered" "no python3"
	elif python3 -c '
import json, sys
want = int(sys.argv[2])
docs = [line for line in open(sys.argv[1], encoding="utf-8") if line.strip()]
bad = 0
for doc in docs:
    try:
        json.loads(doc)
    except ValueError as e:
        bad = 1
        print("# %s: %s" % (e, doc.strip()))
if len(docs) != want:
    bad = 1
    print("# %d JSON documents rendered where the source shows %d" % (len(docs), want))
sys.exit(bad)
' "$TMP/$r.json" "$json_want" >"$TMP/$r.diag" 2>&1; then
		ok "$r: the $json_want JSON documents the page shows parse as rendered"
	else
		not_ok "$r: the JSON documents the page shows parse as rendered"
		cat "$TMP/$r.diag"
	fi
done

done_testing
