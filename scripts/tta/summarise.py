#!/usr/bin/env python3
"""Summarise a time-to-accuracy sweep CSV as Markdown tables.

For every point (the parameters other than the compared one, trial and
seed that vary in the file) it prints, for each value of the compared
parameter (--by, default scheme), every metric asked for as median
[min-max] over seeds (with "k/n" when only k of n seeds define it, e.g. a
target never reached), then the paired ratio of the reference's metric to
each other's (--ratio, default tta_s), seed by seed, as median [min-max]
over the seeds where both are defined.

--by may name several columns (scheme,p_frac): their values joined by
"/" are the compared values, and the reference is one such value.

usage: summarise.py FILE.csv [--by scheme] [--ref dssync]
                     [--metrics final_acc,iters_to_target,tta_s] [--ratio tta_s]
"""
import csv
import statistics
import sys


def fmt(x):
    if x != x:
        return "NaN"
    a = abs(x)
    if a >= 100:
        return "%.0f" % x
    if a >= 10:
        return "%.1f" % x
    if a >= 1:
        return "%.2f" % x
    return "%.3f" % x


def cell(vals):
    v = sorted(x for x in vals if x == x)
    if not v:
        return "never (0/%d)" % len(vals)
    note = "" if len(v) == len(vals) else " (%d/%d)" % (len(v), len(vals))
    return "%s [%s-%s]%s" % (fmt(statistics.median(v)), fmt(v[0]), fmt(v[-1]), note)


def main():
    args = sys.argv[1:]
    opts = {"--by": "scheme", "--ref": None, "--metrics": "final_acc,iters_to_target,tta_s", "--ratio": "tta_s"}
    files = []
    i = 0
    while i < len(args):
        if args[i] in opts:
            opts[args[i]] = args[i + 1]
            i += 2
        else:
            files.append(args[i])
            i += 1
    rows = []
    for f in files:
        with open(f, newline="") as fh:
            rows += list(csv.DictReader(fh))
    if not rows:
        sys.exit("no rows")
    bys, metrics, ratio = opts["--by"].split(","), opts["--metrics"].split(","), opts["--ratio"]
    by = "/".join(bys)
    for r in rows:
        r[by] = "/".join(r[b] for b in bys)
    header = list(rows[0])
    params = header[1:header.index("trial")]
    varying = [k for k in params if k not in bys and len({r[k] for r in rows}) > 1]
    values = []
    for r in rows:
        if r[by] not in values:
            values.append(r[by])
    ref = opts["--ref"] or values[0]
    groups = {}
    for r in rows:
        key = tuple(r[k] for k in varying)
        groups.setdefault(key, {}).setdefault(r[by], {})[r["seed"]] = r
    others = [v for v in values if v != ref]
    head = varying + [by] + metrics + ["%s %s / this" % (ref, ratio)]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for key, per in groups.items():
        for v in values:
            if v not in per:
                continue
            cells = list(key) + [v]
            for m in metrics:
                cells.append(cell([float(r[m]) for r in per[v].values()]))
            if v == ref:
                cells.append("1")
            else:
                a, b = per.get(ref, {}), per[v]
                d = []
                for s in a:
                    if s in b:
                        x, y = float(a[s][ratio]), float(b[s][ratio])
                        if x == x and y == y and y > 0:
                            d.append(x / y)
                if d:
                    d.sort()
                    n = "" if len(d) == len(b) else " (%d seeds)" % len(d)
                    cells.append("%.2f [%.2f-%.2f]%s" % (statistics.median(d), d[0], d[-1], n))
                else:
                    cells.append("-")
            print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
