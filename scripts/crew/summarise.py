#!/usr/bin/env python3
"""Summarise a sweep CSV as a Markdown table, paired seed by seed.

Rows are grouped by every parameter that varies in the file except the one
compared (--by), the trial and the seed. For each group it prints, for each
value of --by, the metric as median [min-max] over seeds, and for each
value other than the reference (--ref, default the first value) the paired
ratio ref / other computed seed by seed, as median [min-max].

usage: summarise.py FILE.csv [FILE.csv ...] --metric M --by PARAM [--ref VALUE]
       [--where PARAM=VALUE ...] [--ignore PARAM ...] [--inverse]
--inverse prints other / ref instead (for times: a ratio above 1 means the
reference is faster). --ignore PARAM leaves PARAM out when a reference row
is matched to a group: one baseline run (e.g. no faults, where the detection
time changes nothing) then serves every value of PARAM.
"""
import csv
import statistics
import sys


def fmt(x):
    if x != x:
        return "NaN"
    if abs(x) >= 1000:
        return "%.0f" % x
    if abs(x) >= 100:
        return "%.1f" % x
    if abs(x) >= 10:
        return "%.2f" % x
    return "%.3g" % x


def cell(v):
    v = sorted(x for x in v if x == x)
    if not v:
        return "-"
    return "%s [%s-%s]" % (fmt(statistics.median(v)), fmt(v[0]), fmt(v[-1]))


def main():
    args = sys.argv[1:]
    metric = by = ref = None
    where = []
    ignore = []
    inverse = False
    files = []
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--metric", "--by", "--ref", "--where", "--ignore"):
            v = args[i + 1]
            if a == "--metric":
                metric = v
            elif a == "--by":
                by = v
            elif a == "--ref":
                ref = v
            elif a == "--ignore":
                ignore.append(v)
            else:
                where.append(v.split("=", 1))
            i += 2
        elif a == "--inverse":
            inverse = True
            i += 1
        else:
            files.append(a)
            i += 1
    if not files or not metric or not by:
        sys.exit(__doc__)
    rows = []
    for f in files:
        with open(f, newline="") as fh:
            rows += list(csv.DictReader(fh))
    rows = [r for r in rows if all(r.get(k) == v for k, v in where)]
    if not rows:
        sys.exit("no rows")
    cols = list(rows[0])
    params = cols[: cols.index("seed") + 1]
    skip = {"experiment", "trial", "seed", by}
    varying = [k for k in params if k not in skip and len({r.get(k) for r in rows}) > 1]
    values = []
    for r in rows:
        if r[by] not in values:
            values.append(r[by])
    ref = ref or values[0]
    others = [v for v in values if v != ref]
    groups = {}
    for r in rows:
        if r[by] == ref and ignore:
            continue
        key = tuple(r[k] for k in varying)
        groups.setdefault(key, {}).setdefault(r[by], {})[r["seed"]] = float(r[metric])
    if ignore:
        for r in rows:
            if r[by] != ref:
                continue
            for key, byv in groups.items():
                if all(r[k] == key[i] for i, k in enumerate(varying) if k not in ignore):
                    byv.setdefault(ref, {})[r["seed"]] = float(r[metric])
    head = varying + ["%s=%s" % (by, v) for v in values]
    head += [("%s / %s" % (o, ref)) if inverse else ("%s / %s" % (ref, o)) for o in others]
    print("%s, median [min-max] over seeds; ratios paired seed by seed" % metric)
    print()
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for key, byv in groups.items():
        cells = list(key)
        for v in values:
            cells.append(cell(byv.get(v, {}).values()))
        for o in others:
            a, b = byv.get(ref, {}), byv.get(o, {})
            rs = []
            for s in a:
                if s in b and a[s] == a[s] and b[s] == b[s] and a[s] != 0 and b[s] != 0:
                    rs.append(b[s] / a[s] if inverse else a[s] / b[s])
            cells.append(cell(rs))
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
