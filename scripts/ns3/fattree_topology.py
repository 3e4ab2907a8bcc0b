#!/usr/bin/env python3
"""fattree_topology.py: a k-ary three-tier fat-tree in the HPCC ns-3 branch's
topology.txt format (alibaba-edu/High-Precision-Congestion-Control,
simulation/scratch/third.cc lines 697-758: "nodes switches links", the
switch ids, then "src dst rate delay error_rate" per link).

The fat-tree is Al-Fares, Loukissas and Vahdat's (SIGCOMM 2008, Sec. 3.2):
k pods of k/2 edge and k/2 aggregation switches, every edge switch wired to
every aggregation switch of its pod and to k/2 hosts, aggregation switch a
of every pod wired to the k/2 core switches a*k/2 .. a*k/2 + k/2 - 1;
k^3/4 hosts, 5k^2/4 switches, 3k^3/4 links, full bisection.

Numbering, hosts first as in the branch's own fat.txt: hosts 0 .. k^3/4 - 1
(host h of edge e of pod p is p*k^2/4 + e*k/2 + h), then edge switches
(pod-major), aggregation switches (pod-major), core switches. Links are
listed host-edge, edge-aggregation, aggregation-core.

    python3 fattree_topology.py --k 8 --rate 100Gbps --delay 0.001ms -o fattree-k8.txt
"""

import argparse
import re
import sys


def fattree(k, rate, delay):
    """Returns (nodes, switch ids, links) of a k-ary fat-tree; a link is
    (src, dst, rate, delay)."""
    half = k // 2
    hosts = k * k * k // 4
    edge0 = hosts
    agg0 = edge0 + k * half
    core0 = agg0 + k * half
    nodes = core0 + half * half
    links = []
    for p in range(k):
        for e in range(half):
            edge = edge0 + p * half + e
            for h in range(half):
                links.append((p * half * half + e * half + h, edge))
    for p in range(k):
        for e in range(half):
            for a in range(half):
                links.append((edge0 + p * half + e, agg0 + p * half + a))
    for p in range(k):
        for a in range(half):
            for c in range(half):
                links.append((agg0 + p * half + a, core0 + a * half + c))
    return nodes, list(range(hosts, nodes)), [(s, d, rate, delay) for s, d in links]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--k", type=int, default=8, help="switch radix, even (default 8: 128 hosts, 80 switches)")
    ap.add_argument("--rate", default="100Gbps", help="rate of every link, as ns-3 writes it (default 100Gbps)")
    ap.add_argument("--delay", default="0.001ms", help="propagation delay of every link (default 0.001ms = 1 us)")
    ap.add_argument("-o", "--output", default="-", help="output file (default stdout)")
    a = ap.parse_args()
    if a.k < 2 or a.k % 2 or a.k > 64:
        sys.exit("fattree_topology.py: --k must be an even number from 2 to 64, got %d" % a.k)
    if not re.fullmatch(r"[0-9.]+(bps|Kbps|Mbps|Gbps|Tbps)", a.rate):
        sys.exit("fattree_topology.py: --rate must be like 100Gbps, got %r" % a.rate)
    if not re.fullmatch(r"[0-9.]+(s|ms|us|ns)", a.delay):
        sys.exit("fattree_topology.py: --delay must be like 0.001ms or 1000ns, got %r" % a.delay)
    nodes, switches, links = fattree(a.k, a.rate, a.delay)
    out = sys.stdout if a.output == "-" else open(a.output, "w")
    out.write("%d %d %d\n" % (nodes, len(switches), len(links)))
    out.write(" ".join(map(str, switches)) + "\n")
    for s, d, r, dl in links:
        out.write("%d %d %s %s 0\n" % (s, d, r, dl))
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
