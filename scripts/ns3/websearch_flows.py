#!/usr/bin/env python3
"""websearch_flows.py: a flow.txt (the HPCC ns-3 branch's format: a count,
then "src dst pg dport size start_s" per flow in ascending start time) of
web-search flows between the hosts of a topology.txt.

Sizes come from workloads/background/data/websearch.cdf (the branch's
traffic_gen/WebSearch_distribution.txt; see that directory's SOURCES.md),
read as the branch's generator reads it: a piecewise-linear CDF in percent,
sampled by drawing u ~ U(0, 100) and interpolating, the size truncated to
an integer and at least 1 (traffic_gen/custom_rand.py and traffic_gen.py).
Arrivals are Poisson at every host, at the rate that offers --load of the
host's link rate on average (rate * load / 8 / mean size flows per second),
each to a destination drawn uniformly among the other hosts, as that
generator does; here the run ends after --flows flows instead of after a
time. Every flow gets priority 3 and destination port 100, as the
generator's. The same arguments and --seed give the same file.

    python3 websearch_flows.py --topology fattree-k8.txt --flows 2000 --load 0.3 --seed 1 -o ws.txt
"""

import argparse
import heapq
import math
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CDF = os.path.join(HERE, "..", "..", "workloads", "background", "data", "websearch.cdf")


def die(msg):
    sys.exit("websearch_flows.py: " + msg)


def read_cdf(path):
    """Returns [(size, percent)] from an HPCC-format CDF file."""
    pts = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                x, y = map(float, line.split())
            except ValueError:
                die("%s line %d: expected 'size percent'" % (path, n))
            if pts and (x < pts[-1][0] or y <= pts[-1][1]):
                die("%s line %d: sizes and percentages must increase" % (path, n))
            pts.append((x, y))
    if len(pts) < 2 or pts[0][1] != 0 or pts[-1][1] != 100:
        die("%s: the CDF must run from 0 to 100 percent" % path)
    return pts


def cdf_mean(pts):
    """Mean of the piecewise-linear CDF (the trapezoid sum)."""
    return sum((pts[i][0] + pts[i - 1][0]) / 2 * (pts[i][1] - pts[i - 1][1]) / 100 for i in range(1, len(pts)))


def cdf_draw(pts, rng):
    u = rng.random() * 100
    for i in range(1, len(pts)):
        if u <= pts[i][1]:
            x0, y0 = pts[i - 1]
            x1, y1 = pts[i]
            return x0 + (x1 - x0) * (u - y0) / (y1 - y0)
    return pts[-1][0]


def hosts_and_rates(path):
    """Host ids of a topology.txt and each host's link rate in bit/s."""
    units = {"bps": 1, "Kbps": 1e3, "Mbps": 1e6, "Gbps": 1e9, "Tbps": 1e12}
    try:
        tok = open(path).read().split()
        n, s, l = int(tok[0]), int(tok[1]), int(tok[2])
        switches = set(int(x) for x in tok[3 : 3 + s])
        rate = {}
        rest = tok[3 + s :]
        for i in range(l):
            a, b, r = int(rest[5 * i]), int(rest[5 * i + 1]), rest[5 * i + 2]
            m = re.fullmatch(r"([0-9.]+)(bps|Kbps|Mbps|Gbps|Tbps)", r)
            if not m:
                die("%s link %d: rate %r is not like 100Gbps" % (path, i + 1, r))
            for h in (a, b):
                if h not in switches:
                    rate[h] = float(m.group(1)) * units[m.group(2)]
    except (IndexError, ValueError, OSError) as e:
        die("%s: not a topology.txt (%s)" % (path, e))
    hosts = sorted(rate)
    if len(hosts) < 2:
        die("%s: fewer than two linked hosts" % path)
    return hosts, rate


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--topology", required=True, help="topology.txt whose hosts send and receive")
    ap.add_argument("--flows", type=int, default=2000, help="number of flows (default 2000)")
    ap.add_argument("--load", type=float, default=0.3, help="offered load per host, fraction of its link rate (default 0.3)")
    ap.add_argument("--start", type=float, default=0.0, help="time of the first possible arrival, s (default 0)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--cdf", default=CDF, help="flow-size CDF in the HPCC format (default: the web-search CDF)")
    ap.add_argument("-o", "--output", default="-", help="output file (default stdout)")
    a = ap.parse_args()
    if a.flows < 1:
        die("--flows must be at least 1, got %d" % a.flows)
    if not 0 < a.load <= 1:
        die("--load must be in (0, 1], got %g" % a.load)
    if a.start < 0:
        die("--start must not be negative, got %g" % a.start)
    pts = read_cdf(a.cdf)
    mean = cdf_mean(pts)
    hosts, rate = hosts_and_rates(a.topology)
    rng = random.Random(a.seed)
    # Next arrival of every host, in ns (integers, as the branch's generator).
    gap = {h: 1e9 / (rate[h] * a.load / 8 / mean) for h in hosts}
    heap = [(int(a.start * 1e9) + int(-math.log(1 - rng.random()) * gap[h]), h) for h in hosts]
    heapq.heapify(heap)
    lines = []
    while len(lines) < a.flows:
        t, src = heap[0]
        i = int(rng.random() * (len(hosts) - 1))  # uniform over the others
        if hosts[i] >= src:
            i += 1
        dst = hosts[i]
        size = max(1, int(cdf_draw(pts, rng)))
        lines.append("%d %d 3 100 %d %.9f" % (src, dst, size, t * 1e-9))
        heapq.heapreplace(heap, (t + int(-math.log(1 - rng.random()) * gap[src]), src))
    out = sys.stdout if a.output == "-" else open(a.output, "w")
    out.write("%d\n" % len(lines))
    out.write("\n".join(lines) + "\n")
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
