# SPDX-License-Identifier: LGPL-2.1-or-later
# bench/report.py OUT: bench/run.sh's tables from the raw files it left in OUT, printed,
# and the same figures as OUT/results.json for bench/plot.py. Standard library only.
#   app-MODE.raw/.log   bench/pair.c: per tool the wall ms of every run (raw) and its
#                       own table (log: the CPU and peak RSS columns);
#   rate-MODE.raw       bench/rate.c: per TOOL@J (J in flight) the sandboxes/s of every
#                       round;
#   sub-MODE.raw        bench/pair.c under --ro-bind / /: per TOOL@N (N host submounts)
#                       the wall ms of every run.
# MODE is root or unpriv (uid/gid 65534, no groups). A tool missing from a file (left
# out, or its case failed) is missing from the tables.
import json
import math
import os
import statistics as st
import sys

MODES = {"root": "root", "unpriv": "65534"}


def raw(path):
    """{tool: [values]} from a raw file, in the file's order."""
    out = {}
    if os.path.exists(path):
        for line in open(path):
            p = line.split()
            if p:
                out[p[0]] = [float(x) for x in p[1:]]
    return out


def pair_cols(path):
    """{tool: (cpu ms, peak RSS KiB)} from pair's table."""
    cols = {}
    if os.path.exists(path):
        for line in open(path):
            p = line.split()
            if len(p) == 8 and p[0] != "command":
                cols[p[0]] = (float(p[5]), int(p[6]))
    return cols


def pct(v, q):
    """The q-th percentile by nearest rank: the smallest value with q % at or below it."""
    s = sorted(v)
    return s[max(0, math.ceil(q / 100 * len(s)) - 1)]


def ratio(a, b):
    return "%.3f" % (a / b) if a and b else "-"


def latency(out, res):
    print("1. Start-up latency, desktop-app sandbox: wall ms, fork to reaped exit")
    print("%-6s %-9s %5s %8s %8s %8s %8s %9s %8s %8s" % (
        "mode", "tool", "runs", "p50", "p99", "min", "cpu ms", "RSS KiB", "p50/bw", "p99/bw"))
    for mode, label in MODES.items():
        t, cols = raw(f"{out}/app-{mode}.raw"), pair_cols(f"{out}/app-{mode}.log")
        if not t:
            continue
        rows = res.setdefault("latency", {}).setdefault(label, {})
        for tool, v in t.items():
            rows[tool] = {"p50": st.median(v), "p99": pct(v, 99), "min": min(v),
                          "cpu": cols.get(tool, (0, 0))[0], "rss": cols.get(tool, (0, 0))[1]}
        bw = rows.get("bwrap", {})
        for tool, r in rows.items():
            print("%-6s %-9s %5d %8.2f %8.2f %8.2f %8.2f %9d %8s %8s" % (
                label, tool, len(t[tool]), r["p50"], r["p99"], r["min"], r["cpu"], r["rss"],
                ratio(r["p50"], bw.get("p50")), ratio(r["p99"], bw.get("p99"))))
        if "nsrun" in t and "bwrap" in t:
            paired = st.median([a / b for a, b in zip(t["nsrun"], t["bwrap"])])
            print("%-6s nsrun/bwrap, median of the per-round ratios: %.3f" % (label, paired))
    print("(p99 by nearest rank; cpu: user+system of the whole tree, median; RSS: the largest"
          " process; /bw: over bwrap's; unshare: the same namespaces, no filesystem; floor:"
          " bench/floor.c, this sandbox and nothing else)")


def rates(out, res):
    med = {}  # {mode label: {J: {tool: median rate}}}
    for mode, label in MODES.items():
        for case, v in raw(f"{out}/rate-{mode}.raw").items():
            tool, j = case.rsplit("@", 1)
            med.setdefault(label, {}).setdefault(int(j), {})[tool] = st.median(v)
    tools = []
    for m in med.values():
        for r in m.values():
            tools += [k for k in r if k not in tools]
    if not tools:
        return
    print("\n2. Sandboxes per second, J in flight (median over the rounds; every tool and J"
          " interleaved batch by batch)")
    print("%-6s %3s " % ("mode", "J") + "".join("%9s " % k for k in tools) + "%11s" % "nsrun/bwrap")
    for label, m in med.items():
        res.setdefault("rate", {})[label] = m
        for j, r in sorted(m.items()):
            print("%-6s %3d " % (label, j) + "".join(
                "%9.1f " % r[k] if k in r else "%9s " % "-" for k in tools) +
                "%11s" % ratio(r.get("nsrun"), r.get("bwrap")))


def fit(points):
    """(slope, intercept) of the least-squares line through (x, y) points; a flat line
    through the mean with fewer than two distinct x."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    b = sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0
    return b, my - b * mx


def submounts(out, res):
    med = {}  # {mode label: {tool: {count: median ms}}}
    for mode, label in MODES.items():
        for case, v in raw(f"{out}/sub-{mode}.raw").items():
            tool, n = case.rsplit("@", 1)
            med.setdefault(label, {}).setdefault(tool, {})[int(n)] = st.median(v)
    counts = sorted({n for m in med.values() for v in m.values() for n in v})
    if not counts:
        return
    print("\n3. Per-submount cost under --ro-bind / /: median wall ms at N host submounts;"
          " slope: least squares over the medians, ms per 1000 submounts")
    print("%-6s %-9s " % ("mode", "tool") + "".join("%8d " % n for n in counts) +
          "%10s %8s" % ("ms/1000", "x bwrap"))
    for label, m in med.items():
        fits = {k: fit(sorted(v.items())) for k, v in m.items()}
        res.setdefault("submounts", {})[label] = {
            k: {"ms": v, "slope": fits[k][0], "intercept": fits[k][1]} for k, v in m.items()}
        bw = fits.get("bwrap", (0, 0))[0]
        for tool, v in m.items():
            print("%-6s %-9s " % (label, tool) + "".join(
                "%8.2f " % v[n] if n in v else "%8s " % "-" for n in counts) +
                "%10.3f %8s" % (fits[tool][0] * 1000, ratio(fits[tool][0], bw)))
    print("(all counts and tools interleaved in one run per mode; unshare-m: `unshare -m` as"
          " root, `unshare -U -r -m` as 65534: the kernel's own copy of the mount tree, once;"
          " a sandbox copies it and tears it down twice)")


def main():
    out = sys.argv[1]
    res = {}
    latency(out, res)
    rates(out, res)
    submounts(out, res)
    with open(f"{out}/results.json", "w") as f:
        json.dump(res, f, indent=1)


main()
