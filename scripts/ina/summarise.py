#!/usr/bin/env python3
"""Summarise an INA sweep CSV as a Markdown table.

For every point (the parameters other than protocol, trial and seed that
vary in the file) it prints each protocol's metric as median [min-max] over
seeds, and PA-ATP's paired change against every other protocol: for each
seed, pa-atp / other - 1, as median [min-max] in percent (negative: PA-ATP
is faster).

usage: summarise.py FILE.csv [--metric ajct_ms] [--ref pa-atp]
"""
import csv
import statistics
import sys


def fmt(x):
    if x != x:
        return "NaN"
    if abs(x) >= 100:
        return "%.0f" % x
    if abs(x) >= 10:
        return "%.1f" % x
    return "%.2f" % x


def main():
    args = sys.argv[1:]
    metric, ref = "ajct_ms", "pa-atp"
    files = []
    i = 0
    while i < len(args):
        if args[i] == "--metric":
            metric = args[i + 1]
            i += 2
        elif args[i] == "--ref":
            ref = args[i + 1]
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
    skip = {"experiment", "protocol", "trial", "seed", metric}
    params = [k for k in rows[0] if k not in skip]
    metrics_start = list(rows[0]).index("seed") + 1
    params = [k for k in list(rows[0])[:metrics_start] if k not in skip]
    varying = [k for k in params if len({r[k] for r in rows}) > 1]
    groups = {}
    for r in rows:
        key = tuple(r[k] for k in varying)
        groups.setdefault(key, {}).setdefault(r["protocol"], {})[r["seed"]] = float(r[metric])
    protos = []
    for r in rows:
        if r["protocol"] not in protos:
            protos.append(r["protocol"])
    others = [p for p in protos if p != ref]
    head = varying + ["%s %s" % (p, metric) for p in protos] + ["%s vs %s" % (ref, p) for p in others]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for key, by in groups.items():
        cells = list(key)
        for p in protos:
            allv = list(by.get(p, {}).values())
            v = sorted(x for x in allv if x == x)
            if not v:
                cells.append("unfinished (0/%d)" % len(allv) if allv else "-")
                continue
            note = "" if len(v) == len(allv) else " (%d/%d finished)" % (len(v), len(allv))
            cells.append("%s [%s-%s]%s" % (fmt(statistics.median(v)), fmt(v[0]), fmt(v[-1]), note))
        for p in others:
            a, b = by.get(ref, {}), by.get(p, {})
            seeds = [s for s in a if s in b and b[s] > 0 and a[s] == a[s] and b[s] == b[s]]
            if not seeds:
                cells.append("-")
                continue
            d = sorted(100 * (a[s] / b[s] - 1) for s in seeds)
            note = "" if len(seeds) == len(a) else " (%d seeds)" % len(seeds)
            cells.append("%+.0f%% [%+.0f, %+.0f]%s" % (statistics.median(d), d[0], d[-1], note))
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
