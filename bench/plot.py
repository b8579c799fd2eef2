# SPDX-License-Identifier: LGPL-2.1-or-later
# bench/plot.py RESULTS.json SVG [TITLE]: bench/report.py's figures drawn as one SVG of
# three panels: start-up latency (p50 bars, p99 whiskers) per mode and tool, sandboxes
# per second against the number in flight, and wall time against host submounts with
# each tool's least-squares line. Standard library only (no matplotlib).
import json
import math
import sys
from xml.sax.saxutils import escape

COLOURS = {"nsrun": "#1f77b4", "bwrap": "#d62728", "crun": "#2ca02c", "floor": "#7f7f7f",
           "unshare": "#bcbd22", "unshare-m": "#9467bd"}
DASH = {"root": "", "65534": "6,4"}
PW, PH = 300, 260  # the plot area of one panel
TOP, LEFT = 100, 60
W, H = LEFT + 3 * PW + 2 * 80 + 20, TOP + PH + 50


class Svg:
    def __init__(self):
        self.parts = []

    def add(self, s):
        self.parts.append(s)

    def text(self, x, y, s, size=11, anchor="start", **kw):
        extra = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in kw.items())
        self.add(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"'
                 f'{extra}>{escape(str(s))}</text>')

    def line(self, x1, y1, x2, y2, colour="#000", width=1, dash=""):
        d = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                 f'stroke="{colour}" stroke-width="{width}"{d}/>')

    def rect(self, x, y, w, h, colour):
        self.add(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
                 f'fill="{colour}"/>')

    def poly(self, pts, colour, dash=""):
        d = f' stroke-dasharray="{dash}"' if dash else ""
        p = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        self.add(f'<polyline points="{p}" fill="none" stroke="{colour}" stroke-width="2"{d}/>')

    def dot(self, x, y, colour):
        self.add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colour}"/>')


def nice_max(v):
    """A round number at or above v, and the tick step for it."""
    if v <= 0:
        return 1, 0.2
    e = 10 ** math.floor(math.log10(v))
    for m in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if m * e >= v:
            top = m * e
            break
    step = top / 5
    return top, step


def axes(svg, x0, title, ylabel, ymax):
    """Frame, title and y ticks of a panel at x0; returns the y mapping."""
    top, step = nice_max(ymax)
    y = lambda v: TOP + PH - v / top * PH  # noqa: E731
    svg.text(x0 + PW / 2, TOP - 14, title, 13, "middle", font_weight="bold")
    svg.line(x0, TOP, x0, TOP + PH)
    svg.line(x0, TOP + PH, x0 + PW, TOP + PH)
    for i in range(6):
        v = i * step
        svg.line(x0 - 4, y(v), x0, y(v))
        svg.line(x0, y(v), x0 + PW, y(v), "#e5e5e5")
        svg.text(x0 - 6, y(v) + 4, f"{v:g}", 10, "end")
    svg.text(x0 - 40, TOP + PH / 2, ylabel, 11, "middle",
             transform=f"rotate(-90 {x0 - 40} {TOP + PH / 2})")
    return y


def latency(svg, x0, lat):
    groups = [(m, lat[m]) for m in ("root", "65534") if m in lat]
    tools = [t for t in COLOURS if any(t in g for _, g in groups)]
    if not groups:
        return
    y = axes(svg, x0, "Start-up latency", "ms (bar: p50, whisker: p99)",
             max(r["p99"] for _, g in groups for r in g.values()))
    gw = PW / len(groups)
    bw = min(28, (gw - 20) / max(1, len(tools)))
    for gi, (mode, g) in enumerate(groups):
        gx = x0 + gi * gw + (gw - bw * len(tools)) / 2
        svg.text(x0 + gi * gw + gw / 2, TOP + PH + 16, "root" if mode == "root" else
                 "uid 65534", 11, "middle")
        for ti, t in enumerate(tools):
            if t not in g:
                continue
            r, bx = g[t], gx + ti * bw
            svg.rect(bx + 2, y(r["p50"]), bw - 4, TOP + PH - y(r["p50"]), COLOURS[t])
            svg.line(bx + bw / 2, y(r["p50"]), bx + bw / 2, y(r["p99"]))
            svg.line(bx + bw / 2 - 4, y(r["p99"]), bx + bw / 2 + 4, y(r["p99"]))
            svg.text(bx + bw / 2, y(r["p99"]) - 4, f"{r['p99']:.1f}", 9, "middle", fill="#555")
            if TOP + PH - y(r["p50"]) > 16:
                svg.text(bx + bw / 2, TOP + PH - 5, f"{r['p50']:.1f}", 9, "middle", fill="#fff")


def rate(svg, x0, rates):
    js = sorted({int(j) for m in rates.values() for j in m})
    if not js:
        return
    y = axes(svg, x0, "Sandboxes per second", "sandboxes/s (median)",
             max(v for m in rates.values() for r in m.values() for v in r.values()))
    x = lambda j: x0 + 20 + js.index(j) * (PW - 40) / max(1, len(js) - 1)  # noqa: E731
    for j in js:
        svg.text(x(j), TOP + PH + 16, j, 11, "middle")
    svg.text(x0 + PW / 2, TOP + PH + 34, "sandboxes in flight", 11, "middle")
    for mode, m in rates.items():
        for t in COLOURS:
            pts = [(x(int(j)), y(r[t])) for j, r in sorted(m.items(), key=lambda i: int(i[0]))
                   if t in r]
            if pts:
                svg.poly(pts, COLOURS[t], DASH[mode])
                for p in pts:
                    svg.dot(*p, COLOURS[t])


def submounts(svg, x0, sub):
    ns = sorted({int(n) for m in sub.values() for r in m.values() for n in r["ms"]})
    if not ns:
        return
    xmax, xstep = nice_max(max(ns))
    rows = sum(len(m) for m in sub.values())  # slope labels, above the points
    y = axes(svg, x0, "Time against host submounts", "wall ms (median)",
             max(v for m in sub.values() for r in m.values() for v in r["ms"].values()) *
             (1 + 0.06 * rows))
    x = lambda n: x0 + n / xmax * PW  # noqa: E731
    for i in range(6):
        svg.line(x(i * xstep), TOP + PH, x(i * xstep), TOP + PH + 4)
        svg.text(x(i * xstep), TOP + PH + 16, f"{i * xstep:g}", 10, "middle")
    svg.text(x0 + PW / 2, TOP + PH + 34, "host submounts under --ro-bind / /", 11, "middle")
    ly = TOP + 6
    for mode, m in sub.items():
        for t, r in m.items():
            c = COLOURS.get(t, "#000")
            svg.line(x(0), y(r["intercept"]), x(max(ns)),
                     y(r["intercept"] + r["slope"] * max(ns)), c, 1.5, DASH[mode])
            for n, v in r["ms"].items():
                svg.dot(x(int(n)), y(v), c)
            svg.text(x0 + 8, ly, f"{t} {mode}: {r['slope'] * 1000:.2f} ms/1000", 10, fill=c)
            ly += 13


def legend(svg, tools, title):
    svg.text(W / 2, 22, title, 14, "middle", font_weight="bold")
    width = sum(30 + 7 * len(t) for t in tools) + 190
    x = (W - width) / 2
    for t in tools:
        svg.rect(x, 36, 12, 12, COLOURS[t])
        svg.text(x + 16, 46, t, 11)
        x += 30 + 7 * len(t)
    svg.line(x, 42, x + 24, 42, "#000", 2)
    svg.text(x + 28, 46, "root", 11)
    svg.line(x + 70, 42, x + 94, 42, "#000", 2, DASH["65534"])
    svg.text(x + 98, 46, "uid 65534", 11)


def main():
    res = json.load(open(sys.argv[1]))
    title = sys.argv[3] if len(sys.argv) > 3 else "nsrun bench"
    svg = Svg()
    used = set()
    for m in res.get("latency", {}).values():
        used |= set(m)
    for m in res.get("rate", {}).values():
        for r in m.values():
            used |= set(r)
    for m in res.get("submounts", {}).values():
        used |= set(m)
    legend(svg, [t for t in COLOURS if t in used], title)
    latency(svg, LEFT, res.get("latency", {}))
    rate(svg, LEFT + PW + 80, res.get("rate", {}))
    submounts(svg, LEFT + 2 * (PW + 80), res.get("submounts", {}))
    with open(sys.argv[2], "w") as f:
        f.write(f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
                f'viewBox="0 0 {W} {H}" font-family="sans-serif">\n'
                f'<rect width="{W}" height="{H}" fill="#fff"/>\n')
        f.write("\n".join(svg.parts))
        f.write("\n</svg>\n")


main()
