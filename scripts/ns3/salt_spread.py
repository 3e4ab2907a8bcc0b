#!/usr/bin/env python3
"""salt_spread.py: how far one tool's FCT-slowdown bucket medians move when
only its ECMP hash draw changes, beside how far they are from another tool's
on the same files. Buckets, percentiles and the ideal FCT are
fct_compare.py's (the HPCC branch's fct_analysis.py, 20 groups of equal
count by size).

--ref is the reference run (ns-3 at its default salt), --base the compared
tool at its first draw (syncsim at --seed 1), --alt the same tool at other
draws (syncsim at other seeds: on a flows_file replay the seed changes only
the ECMP salt), --ref-alt the reference at other draws (filerun
--ecmp_salt). Per bucket it prints:

  base/ref     the head to head's ratio of medians (h2h.sh's last column)
  alt/base     each other draw's median over the first draw's, median
               [min-max] over the draws: the ratio a rerun of the SAME tool
               with another hash shows
  base range   the compared tool's median over all its draws, [min-max]
  ref in       whether the reference's median lies inside that range
  ref-alt/ref  the reference's other draws over its first (if given)

and then, over the buckets, how many have |log(base/ref)| no larger than the
largest |log(alt/base)| of the bucket, and the median slowdown of every flow
larger than --above bytes pooled (about 70 flows of 500, so less noisy than
one bucket's 25) for each draw.

    python3 salt_spread.py --topology t.topo --ref ns3.fct --base s1.fct \\
        --alt s2.fct --alt s3.fct [--ref-alt ns3-salt1.fct]
"""

import argparse
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fct_compare as fc  # noqa: E402


def medians(path, ideal, step, above):
    """The bucket medians, the buckets' largest sizes, and the median
    slowdown of all flows larger than above (pooled) with their count."""
    rows = fc.read_fct(path, ideal, 0)
    if len(rows) < 100 // step:
        fc.die("%s: %d completed flows, fewer than the %d buckets" % (path, len(rows), 100 // step))
    bs = fc.buckets(rows, step)
    big = sorted(x[1] for x in rows if x[0] > above)
    pooled = (statistics.median(big), len(big)) if big else (float("nan"), 0)
    return [b[2] if b else None for b in bs], [b[0] if b else None for b in bs], pooled


def span(xs):
    return "%.3f [%.3f-%.3f]" % (statistics.median(xs), min(xs), max(xs))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--topology", required=True, help="the topology.txt every run used")
    ap.add_argument("--ref", required=True, help="the reference tool's fct.txt (ns-3, default salt)")
    ap.add_argument("--base", required=True, help="the compared tool's fct.txt at its first hash draw")
    ap.add_argument("--alt", action="append", default=[], help="the compared tool at another hash draw; repeat")
    ap.add_argument("--ref-alt", action="append", default=[], help="the reference at another hash draw; repeat")
    ap.add_argument("--step", type=int, default=5, help="bucket width in percent of the flows (default 5)")
    ap.add_argument("--above", type=int, default=1000000, help="also count the buckets whose sizes exceed this (bytes)")
    a = ap.parse_args()
    if not a.alt:
        fc.die("give at least one --alt")
    if not 1 <= a.step <= 100 or 100 % a.step:
        fc.die("--step must divide 100, got %d" % a.step)
    ideal = fc.make_ideal(fc.read_topology(a.topology), "hpcc")
    ref, sizes, rpool = medians(a.ref, ideal, a.step, a.above)
    base, _, bpool = medians(a.base, ideal, a.step, a.above)
    alt3 = [medians(p, ideal, a.step, a.above) for p in a.alt]
    ralt3 = [medians(p, ideal, a.step, a.above) for p in a.ref_alt]
    alts, ralts = [x[0] for x in alt3], [x[0] for x in ralt3]
    print("draws: compared tool %d (base + %d alt), reference %d" % (1 + len(alts), len(alts), 1 + len(ralts)))
    head = "%-7s %-9s | %-6s %-6s | %-8s | %-26s | %-26s | %-6s" % (
        "flows", "size<=", "ref", "base", "base/ref", "alt/base med [min-max]", "base p50 over draws", "ref in")
    if ralts:
        head += " | ref-alt/ref"
    print(head)
    within = within_big = big = 0
    for i, r in enumerate(ref):
        if r is None or base[i] is None or any(x[i] is None for x in alts):
            continue
        ratios = [x[i] / base[i] for x in alts]
        allb = [base[i]] + [x[i] for x in alts]
        inside = min(allb) <= r <= max(allb)
        line = "%-7s %-9s | %-6.3f %-6.3f | %-8.3f | %-26s | %-26s | %-6s" % (
            "%d-%d%%" % (i * a.step, (i + 1) * a.step), sizes[i], r, base[i], base[i] / r,
            span(ratios), span(allb), "yes" if inside else "no")
        if ralts:
            line += " | " + " ".join("%.3f" % (x[i] / r) for x in ralts if x[i] is not None)
        print(line)
        ok = abs(math.log(base[i] / r)) <= max(abs(math.log(q)) for q in ratios)
        within += ok
        if sizes[i] > a.above:
            big += 1
            within_big += ok
    print()
    print("buckets where |log(base/ref)| <= the largest |log(alt/base)|: %d of %d; above %d B: %d of %d" % (
        within, len(ref), a.above, within_big, big))
    print("median slowdown of the %d flows above %d B pooled: reference %.3f%s; compared tool %s over its draws (first %.3f)" % (
        rpool[1], a.above, rpool[0],
        " (other draws: %s)" % " ".join("%.3f" % x[2][0] for x in ralt3) if ralt3 else "",
        span([bpool[0]] + [x[2][0] for x in alt3]), bpool[0]))


if __name__ == "__main__":
    main()
