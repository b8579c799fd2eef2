# SPDX-License-Identifier: LGPL-2.1-or-later
# bench/overhead.py RAW LOG MODE: one table from bench/pair.c's raw times (RAW) and its
# own table (LOG, for the CPU column): per case the median and min wall ms, the median
# CPU ms, and the overhead over the first case (median of the per-round differences,
# and the difference of the CPU medians). Used through bench/lib.sh's bench_table.
import statistics as st
import sys

raw, log, mode = sys.argv[1:4]
t = {l.split()[0]: [float(x) for x in l.split()[1:]] for l in open(raw)}
cpu = {p[0]: float(p[5]) for p in (l.split() for l in open(log)) if len(p) == 8 and p[0] in t}
first = next(iter(t))
base = t[first]
w = max(len(k) for k in t)
print(f"[{mode}] {'case':<{w}} {'median ms':>10} {'min ms':>8} {'cpu ms':>8} {'+wall ms':>9} {'+cpu ms':>8}")
for k, v in t.items():
    extra = st.median([a - b for a, b in zip(v, base)])
    print(f"[{mode}] {k:<{w}} {st.median(v):10.2f} {min(v):8.2f} {cpu[k]:8.2f} {extra:9.2f} "
          f"{cpu[k] - cpu[first]:8.2f}")
