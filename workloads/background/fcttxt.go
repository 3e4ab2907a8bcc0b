package background

import (
	"bufio"
	"fmt"
	"io"
	"math/big"
	"sort"

	"syncsim/netsim"
)

// The per-flow output in the layout of the HPCC ns-3 branch's fct.txt
// (github.com/alibaba-edu/High-Precision-Congestion-Control,
// simulation/scratch/third.cc, qp_finish): one line per completed flow,
//
//	sip dip sport dport size start_ns fct_ns standalone_fct_ns
//
// with the addresses as eight hex digits ("%08x"), the size in bytes and
// the times in nanoseconds, so that its analysis/fct_analysis.py (which
// keeps dport 100, or 200 for incast, and a start before its -T limit,
// and plots fct / standalone_fct by size) reads it unchanged.

// NodeIP is the IPv4 address, as a 32-bit number, that the HPCC branch
// gives node id: 0x0b000001 + (id/256)*0x10000 + (id%256)*0x100
// (node_id_to_ip in third.cc), so 11.0.x.1 with the id in the middle
// two bytes.
func NodeIP(id int) uint32 {
	return 0x0b000001 + uint32(id/256)*0x00010000 + uint32(id%256)*0x00000100
}

// IPNode is the node id of an address NodeIP gave: (ip >> 8) & 0xffff
// (ip_to_node_id in third.cc).
func IPNode(ip uint32) int { return int((ip >> 8) & 0xffff) }

// FirstSPort is the first source port of every host: third.cc numbers
// each host's flows from 10000 in the order they start (portNumder, one
// counter per source at alibaba-edu/High-Precision-Congestion-Control
// 4b78df6, simulation/scratch/third.cc ScheduleFlowInputs; some later
// versions and forks keep one per source and destination pair).
const FirstSPort = 10000

// Hop is one link of a flow's path: its propagation delay and rate.
type Hop struct {
	Delay netsim.Time
	Rate  netsim.Rate
}

// IdealFCT is a flow's standalone FCT in nanoseconds as qp_finish
// computes it: the base RTT of the path, twice the sum of the links'
// propagation delays plus one payload's serialisation on every link
// (pairRtt = 2 delay + txDelay, CalculateRoute), plus the flow's bytes
// with one header per packet at the path's slowest rate (pairBw):
//
//	standalone = base_rtt + (size + ceil(size/payload) * header) * 8e9 / min rate
//
// in integer nanoseconds, each term rounded down as the branch's integer
// arithmetic rounds it. payload is the packet payload (the branch's
// PACKET_PAYLOAD_SIZE; syncsim's MSS) and header the bytes each packet
// adds (syncsim's transport header). hops must not be empty.
func IdealFCT(hops []Hop, size, payload, header netsim.Bytes) int64 {
	var delay, tx int64
	bw := hops[0].Rate
	for _, h := range hops {
		delay += int64(h.Delay / netsim.Nanosecond)
		tx += mulDiv(int64(payload), 8e9, int64(h.Rate))
		bw = min(bw, h.Rate)
	}
	total := int64(size) + (int64(size)-1)/int64(payload)*int64(header) + int64(header)
	return 2*delay + tx + mulDiv(total, 8e9, int64(bw))
}

// mulDiv is a * b / c rounded down, exact for any int64 operands (the
// branch's 64-bit product overflows only past 2 GB flows on 1 Tbps
// links; this does not).
func mulDiv(a, b, c int64) int64 {
	var x big.Int
	x.Mul(big.NewInt(a), big.NewInt(b))
	return x.Quo(&x, big.NewInt(c)).Int64()
}

// FCTLine is one line of an fct.txt file.
type FCTLine struct {
	// Src and Dst are the node ids written as addresses (NodeIP).
	Src, Dst     int
	SPort, DPort int
	Size         netsim.Bytes
	// Start, FCT and Ideal are in nanoseconds.
	Start, FCT, Ideal int64
}

// FCTLines turns the records of a run into fct.txt lines: one per flow
// whose sender had every byte acknowledged, in the order they were
// (ties by start order), as qp_finish writes them. The node ids are the
// file's (m.FileID); source ports number each source's flows from
// FirstSPort in start order (wrapping at 65536, as the branch's uint16
// does); ideal gives each flow's standalone FCT in nanoseconds.
func FCTLines(recs []*FlowRecord, m *HostMap, ideal func(r *FlowRecord) int64) ([]FCTLine, error) {
	sport := map[netsim.NodeID]int{}
	type done struct {
		at   netsim.Time
		i    int
		line FCTLine
	}
	var out []done
	for i, r := range recs {
		p, ok := sport[r.Src]
		if !ok {
			p = FirstSPort
		}
		sport[r.Src] = (p + 1) % 65536
		if !r.AckedDone {
			continue
		}
		s, ok1 := m.FileID(r.Src)
		d, ok2 := m.FileID(r.Dst)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("background: flow %d from %d to %d is not between hosts of the map", r.ID, r.Src, r.Dst)
		}
		out = append(out, done{at: r.Acked, i: i, line: FCTLine{
			Src: s, Dst: d, SPort: p, DPort: r.DPort, Size: r.Size,
			Start: int64(r.Start / netsim.Nanosecond), FCT: int64((r.Acked - r.Start) / netsim.Nanosecond), Ideal: ideal(r),
		}})
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].at < out[b].at })
	lines := make([]FCTLine, len(out))
	for i, d := range out {
		lines[i] = d.line
	}
	return lines, nil
}

// WriteFCT writes lines in the fct.txt layout.
func WriteFCT(w io.Writer, lines []FCTLine) error {
	bw := bufio.NewWriter(w)
	for _, l := range lines {
		fmt.Fprintf(bw, "%08x %08x %d %d %d %d %d %d\n", NodeIP(l.Src), NodeIP(l.Dst), l.SPort, l.DPort, l.Size, l.Start, l.FCT, l.Ideal)
	}
	return bw.Flush()
}
