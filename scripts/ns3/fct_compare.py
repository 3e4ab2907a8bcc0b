#!/usr/bin/env python3
"""fct_compare.py: FCT slowdown p50/p95/p99 per flow-size bucket of one or
more fct.txt files (the HPCC ns-3 branch's layout: "sip dip sport dport size
start_ns fct_ns ideal_ns" per flow), side by side, with the CPU each run
took.

The buckets and percentiles are those of the branch's analysis/fct_analysis.py
(alibaba-edu/High-Precision-Congestion-Control at 9f4be2a9, lines 31-58):
slowdown = fct / ideal, at least 1; the completed flows sorted by size and cut
into 100/step groups of equal count (flows [i*n/100, (i+step)*n/100) for
i = 0, step, ...), each labelled by the largest size in it; the p-th
percentile of a group's sorted slowdowns is element int(len * p). Two
departures: that script keeps only destination port 100 (here --dport, off
by default) and drops the last line of its sorted input (the largest flow)
with its [:-2]; here every completed flow counts.

The ideal FCT is recomputed from the topology for every file by default, on
a shortest path through switches, so the tools are compared on one yardstick
whatever each writes in its last column (--ideal=file uses that column):
--ideal=hpcc (default) is qp_finish's standalone_fct (third.cc lines
165-167 and 917-919) with syncsim's packet, payload 1460 B and header 40 B:
twice the path's propagation plus one payload's serialisation per link, plus
size + 40 B per segment at the path's slowest link, in integer nanoseconds;
it goes with FCTs that end at the sender's last ACK (filerun --fct_end=ack,
syncsim's fct_out). --ideal=oneway goes with FCTs that end at the receiver
(filerun --fct_end=rx): the wire bytes at the slowest link, plus the
propagation, plus the store-and-forward of the last segment (at most
1460 + 40 B) at every link after the first.

    python3 fct_compare.py --topology topo.txt --run ns-3 ns3.fct 86.2 --run syncsim syncsim.fct.txt 12.0
"""

import argparse
import collections
import re
import sys

UNITS = {"bps": 1, "Kbps": 1e3, "Mbps": 1e6, "Gbps": 1e9, "Tbps": 1e12}
DUNITS = {"s": 1e9, "ms": 1e6, "us": 1e3, "ns": 1}
MSS, HDR = 1460, 40


def die(msg):
    sys.exit("fct_compare.py: " + msg)


def read_topology(path):
    try:
        tok = open(path).read().split()
        n, s, l = int(tok[0]), int(tok[1]), int(tok[2])
        switches = set(int(x) for x in tok[3 : 3 + s])
        rest = tok[3 + s :]
        adj = collections.defaultdict(list)
        for i in range(l):
            a, b, r, d = int(rest[5 * i]), int(rest[5 * i + 1]), rest[5 * i + 2], rest[5 * i + 3]
            mr = re.fullmatch(r"([0-9.]+)(bps|Kbps|Mbps|Gbps|Tbps)", r)
            md = re.fullmatch(r"([0-9.]+)(s|ms|us|ns)", d)
            if not mr or not md:
                die("%s link %d: rate %r or delay %r not understood" % (path, i + 1, r, d))
            bps = float(mr.group(1)) * UNITS[mr.group(2)]
            ns = float(md.group(1)) * DUNITS[md.group(2)]
            adj[a].append((b, bps, ns))
            adj[b].append((a, bps, ns))
    except (IndexError, ValueError, OSError) as e:
        die("%s: not a topology.txt (%s)" % (path, e))
    return n, switches, adj


def make_ideal(topo, kind):
    n, switches, adj = topo
    dist_cache = {}

    def dist_to(h):
        if h not in dist_cache:
            dist = {h: 0}
            q = [h]
            for u in q:
                if u != h and u not in switches:
                    continue  # hosts do not forward
                for v, _, _ in adj[u]:
                    if v not in dist:
                        dist[v] = dist[u] + 1
                        q.append(v)
            dist_cache[h] = dist
        return dist_cache[h]

    def ideal(src, dst, size):
        dist = dist_to(dst)
        if src not in dist:
            die("no path from host %d to %d" % (src, dst))
        wire = size + (size + MSS - 1) // MSS * HDR
        last = min(size, MSS) + HDR
        u, first, slowest, prop, fwd, txp = src, True, float("inf"), 0, 0.0, 0
        while u != dst:
            for v, bps, ns in adj[u]:
                if dist.get(v, -1) == dist[u] - 1 and (v == dst or v in switches):
                    break
            slowest = min(slowest, bps)
            prop += ns
            txp += MSS * 8 * 10**9 // int(bps)
            if not first:
                fwd += last * 8 / bps
            first = False
            u = v
        if kind == "hpcc":
            return 2 * int(prop) + txp + wire * 8 * 10**9 // int(slowest)
        return prop + round((wire * 8 / slowest + fwd) * 1e9)

    return ideal


def node_of(hexip):
    return (int(hexip, 16) >> 8) & 0xFFFF  # third.cc's ip_to_node_id


def read_fct(path, ideal, dport):
    rows = []
    try:
        f = open(path)
    except OSError as e:
        die("cannot read %s (%s)" % (path, e))
    with f:
        for i, line in enumerate(f, 1):
            p = line.split()
            if not p:
                continue
            if len(p) != 8:
                die("%s line %d: expected 8 fields (sip dip sport dport size start fct ideal)" % (path, i))
            try:
                src, dst = node_of(p[0]), node_of(p[1])
                port, size, fct, ideal_file = int(p[3]), int(p[4]), float(p[6]), float(p[7])
            except ValueError:
                die("%s line %d: not an fct.txt line" % (path, i))
            if dport and port != dport:
                continue
            base = ideal(src, dst, size) if ideal else ideal_file
            if base <= 0:
                die("%s line %d: ideal FCT %g is not positive" % (path, i, base))
            rows.append((size, max(1.0, fct / base)))
    rows.sort()
    return rows


def pctl(a, p):
    return a[int(len(a) * p)]


def buckets(rows, step):
    n = len(rows)
    out = []
    for i in range(0, 100, step):
        d = rows[i * n // 100 : (i + step) * n // 100]
        if not d:
            out.append(None)
            continue
        s = sorted(x[1] for x in d)
        out.append((d[-1][0], len(d), pctl(s, 0.5), pctl(s, 0.95), pctl(s, 0.99)))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--topology", required=True, help="the topology.txt both runs used")
    ap.add_argument("--run", nargs=3, action="append", metavar=("LABEL", "FCT_FILE", "CPU_S"), required=True,
                    help="a run: its label, its fct.txt and the CPU seconds it took ('-' if unknown); repeat")
    ap.add_argument("--flows", type=int, default=0, help="flows the file asked for (to report completion)")
    ap.add_argument("--step", type=int, default=5, help="bucket width in percent of the flows (default 5)")
    ap.add_argument("--ideal", choices=["hpcc", "oneway", "file"], default="hpcc",
                    help="the ideal FCT: hpcc (qp_finish's, default), oneway, or each file's last column")
    ap.add_argument("--dport", type=int, default=0, help="keep only this destination port (0: all)")
    a = ap.parse_args()
    if not 1 <= a.step <= 100 or 100 % a.step:
        die("--step must divide 100, got %d" % a.step)
    ideal = make_ideal(read_topology(a.topology), a.ideal) if a.ideal != "file" else None
    runs = [(lab, read_fct(path, ideal, a.dport), cpu) for lab, path, cpu in a.run]
    for lab, rows, cpu in runs:
        done = "%d" % len(rows) + (" of %d" % a.flows if a.flows else "")
        print("%-10s flows completed %s, CPU %s s" % (lab, done, cpu))
    print()
    if min(len(r) for _, r, _ in runs) < 100 // a.step:
        print("fewer completed flows than buckets: per flow (size, slowdown), in size order")
        for lab, rows, _ in runs:
            print("%-10s %s" % (lab, " ".join("%d:%.4f" % r for r in rows)))
        return
    bs = [buckets(rows, a.step) for _, rows, _ in runs]
    head = "%-7s %-11s" % ("flows", "size<=")
    for lab, _, _ in runs:
        head += " | %-26s" % (lab + " p50 p95 p99")
    if len(runs) > 1:
        head += " | p50 %s/%s" % (runs[1][0], runs[0][0])
    print(head)
    for i in range(len(bs[0])):
        b0 = bs[0][i]
        line = "%-7s %-11s" % ("%d-%d%%" % (i * a.step, (i + 1) * a.step), b0[0] if b0 else "-")
        for b in bs:
            line += " | %-26s" % ("%.3f %.3f %.3f" % b[i][2:] if b[i] else "-")
        if len(runs) > 1 and bs[0][i] and bs[1][i]:
            line += " | %.3f" % (bs[1][i][2] / bs[0][i][2])
        print(line)
    print()
    for lab, rows, _ in runs:
        s = sorted(x[1] for x in rows)
        print("%-10s all flows: slowdown p50 %.3f p95 %.3f p99 %.3f" % (lab, pctl(s, 0.5), pctl(s, 0.95), pctl(s, 0.99)))


if __name__ == "__main__":
    main()
