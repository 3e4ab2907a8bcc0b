package transport

import (
	"math"
	"testing"

	"syncsim/netsim"
)

// bottleneckRun is the outcome of N long-lived flows through one switch
// port, measured over [warm, end].
type bottleneckRun struct {
	util      float64 // bottleneck busy fraction (wire bytes / capacity)
	jain      float64 // Jain's index of per-flow goodput
	maxPkts   int     // peak queue in packets after warm-up
	minPkts   int     // trough seen by arrivals after warm-up
	maxBytes  netsim.Bytes
	drops     uint64
	marks     uint64
	timeouts  uint64
	alphaMean float64
	cuts      float64 // mean cuts per flow after warm-up
	meanRTT   float64 // mean SRTT at the end, seconds
}

func runBottleneck(t *testing.T, cc CC, n int, k int, buffer netsim.Bytes, delay, warm, end netsim.Time) bottleneckRun {
	t.Helper()
	const rate = 10 * netsim.Gbps
	q := newECNQueue(buffer, k)
	q.from = warm
	s := newStar(n, rate, delay, q)
	cfg := DefaultConfig()
	cfg.CC = cc
	st := NewStack(s.net, cfg)
	flows := make([]*Flow, n)
	for i, h := range s.senders {
		flows[i] = st.Start(h.ID(), s.recv.ID(), FlowOpts{}, nil)
	}
	s.sim.Run(warm)
	tx0 := s.bottle.TxBytes
	d0 := make([]netsim.Bytes, n)
	c0 := make([]uint64, n)
	for i, f := range flows {
		d0[i] = f.Delivered()
		c0[i] = f.Cuts
	}
	s.sim.Run(end)
	var r bottleneckRun
	r.util = float64(s.bottle.TxBytes-tx0) * 8 / (float64(rate) * (end - warm).Seconds())
	xs := make([]float64, n)
	for i, f := range flows {
		xs[i] = float64(f.Delivered() - d0[i])
		r.timeouts += f.Timeouts
		r.alphaMean += f.Alpha() / float64(n)
		r.cuts += float64(f.Cuts-c0[i]) / float64(n)
		r.meanRTT += f.SRTT().Seconds() / float64(n)
	}
	r.jain = jain(xs)
	r.minPkts = q.minPkts
	r.maxPkts, r.maxBytes, r.drops, r.marks = q.maxPkts, q.maxBytes, q.drops, q.marks
	for _, f := range flows {
		f.Stop()
	}
	s.sim.Run(netsim.Never)
	checkBooks(t, s.net)
	if s.sim.Packets().Live() != 0 {
		t.Fatalf("%d packets leaked", s.sim.Packets().Live())
	}
	return r
}

// TestDCTCPSteadyState puts N long-lived DCTCP flows through a 10 Gbps
// port marking at K = 65 packets. The DCTCP analysis (Alizadeh et al.,
// SIGCOMM 2010, Sec. 3.3) predicts a sawtooth whose peak is
// Q_max = K + N packets, full utilisation (K > C*RTT/7) and equal shares.
// The test allows a margin of 3 packets above K + N for per-ACK rather than
// per-RTT window growth and for the packet in service.
func TestDCTCPSteadyState(t *testing.T) {
	const k = 65
	delay := 5 * netsim.Microsecond // 4 links: base RTT ~ 23 us, C*RTT ~ 19 packets
	for _, n := range []int{2, 4} {
		t.Run(string(rune('0'+n))+"flows", func(t *testing.T) {
			r := runBottleneck(t, DCTCP, n, k, netsim.Megabyte, delay, 10*netsim.Millisecond, 30*netsim.Millisecond) // 20 ms measured
			// Sawtooth period (Sec. 3.3, Eq. 11): T_C = D round trips with
			// D = (1/2) sqrt(2 (C*RTT + K) / N); a round trip here is the
			// flows' SRTT, queueing included.
			D := 0.5 * math.Sqrt(2*(19+k)/float64(n))
			period := (20 * netsim.Millisecond).Seconds() / r.cuts
			ratio := period / (D * r.meanRTT)
			t.Logf("cuts per flow %.1f, SRTT %.1f us: period %.1f us = %.2f x the analysis (%.2f RTTs)",
				r.cuts, r.meanRTT*1e6, period*1e6, ratio, D)
			if ratio < 0.5 || ratio > 1.5 {
				t.Errorf("sawtooth period %.1f us is %.2f x the analysis, want within 50%%", period*1e6, ratio)
			}
			t.Logf("N=%d util %.4f jain %.5f Q in [%d, %d] pkts, marks %d, alpha %.3f", n, r.util, r.jain, r.minPkts, r.maxPkts, r.marks, r.alphaMean)
			if r.util < 0.95 {
				t.Errorf("utilisation %.4f, want > 0.95", r.util)
			}
			if r.jain < 0.99 {
				t.Errorf("Jain index %.5f, want > 0.99", r.jain)
			}
			if qmax := k + n + 3; r.maxPkts > qmax {
				t.Errorf("peak queue %d packets, want <= K+N+3 = %d", r.maxPkts, qmax)
			}
			if r.maxPkts < k {
				t.Errorf("peak queue %d packets never reached K = %d", r.maxPkts, k)
			}
			// The sawtooth amplitude of Sec. 3.3, Eq. 10:
			// A = (1/2) sqrt(2 N (C*RTT + K)); the trough
			// Q_min = Q_max - A. Arrivals see the extreme trough, with
			// flows not perfectly synchronised, so allow twice A.
			amp := 0.5 * math.Sqrt(2*float64(n)*(19+k))
			if lo := float64(k+n) - 2*amp; float64(r.minPkts) < lo {
				t.Errorf("queue trough %d packets, want >= K+N-2A = %.1f", r.minPkts, lo)
			}
			if r.drops != 0 || r.timeouts != 0 || r.marks == 0 {
				t.Errorf("drops %d timeouts %d marks %d, want 0 0 >0", r.drops, r.timeouts, r.marks)
			}
			// alpha at equilibrium is about sqrt(2/W*) with
			// W* = (C*RTT + K)/N (Sec. 3.3, Eq. 6).
			wstar := (19.0 + k) / float64(n)
			if want := math.Sqrt(2 / wstar); r.alphaMean < want/2 || r.alphaMean > 2*want {
				t.Errorf("mean alpha %.3f, want near sqrt(2/W*) = %.3f", r.alphaMean, want)
			}
		})
	}
}

// TestNewRenoFillsBuffer is the contrast: NewReno ignores ECN, so on the
// same link with a 1 MB buffer the queue grows until it overflows.
func TestNewRenoFillsBuffer(t *testing.T) {
	const buffer = netsim.Megabyte
	r := runBottleneck(t, NewReno, 2, 65, buffer, 5*netsim.Microsecond, 5*netsim.Millisecond, 30*netsim.Millisecond)
	t.Logf("util %.4f jain %.5f maxQ %d B, drops %d", r.util, r.jain, r.maxBytes, r.drops)
	if r.maxBytes < buffer-1500 {
		t.Errorf("peak queue %d B, want the full %d B buffer", r.maxBytes, buffer)
	}
	if r.drops == 0 || r.marks != 0 {
		t.Errorf("drops %d marks %d: want overflow drops and no marks (not ECN-capable)", r.drops, r.marks)
	}
	if r.util < 0.95 {
		t.Errorf("utilisation %.4f, want > 0.95", r.util)
	}
}

// markAll marks CE on every ECN-capable packet it queues.
type markAll struct{ netsim.FIFO }

func (q *markAll) Enqueue(p *netsim.Packet, now netsim.Time) bool {
	if p.Flags&netsim.FlagECT != 0 {
		p.Flags |= netsim.FlagCE
	}
	return q.FIFO.Enqueue(p, now)
}

// TestDCTCPOneCutPerWindow marks every segment. A sender that cut on every
// ECE would cut two or more times per round trip; DCTCP cuts once per
// window of data, i.e. about once per RTT, and alpha converges to 1 so the
// window sits at the 2-MSS floor.
func TestDCTCPOneCutPerWindow(t *testing.T) {
	const d = 10 * netsim.Microsecond
	net, a, b := pair(10*netsim.Gbps, d, &markAll{})
	st := NewStack(net, DefaultConfig())
	f := st.Start(a.ID(), b.ID(), FlowOpts{}, nil)
	const dur = 2 * netsim.Millisecond
	minCwnd := netsim.Bytes(1 << 62)
	for net.Sim.Now() < dur {
		net.Sim.Run(net.Sim.Now() + netsim.Microsecond)
		minCwnd = min(minCwnd, f.Cwnd())
	}
	// Base RTT: 2d plus one data and one ACK serialisation; at a window of
	// 2-3 segments the queue adds at most two more data serialisations.
	rtt := 2*d + netsim.TxTime(1500, 10*netsim.Gbps) + netsim.TxTime(40, 10*netsim.Gbps)
	lo := int(dur / (rtt + 2*netsim.TxTime(1500, 10*netsim.Gbps)))
	hi := int(dur/rtt) + 1
	t.Logf("cuts %d, rounds %d-%d, alpha %.4f, cwnd %d", f.Cuts, lo, hi, f.Alpha(), f.Cwnd())
	if int(f.Cuts) < lo-2 || int(f.Cuts) > hi {
		t.Fatalf("%d cuts in %v, want one per round trip: %d-%d", f.Cuts, dur, lo-2, hi)
	}
	if f.Alpha() < 0.99 {
		t.Fatalf("alpha %.4f with every byte marked, want -> 1", f.Alpha())
	}
	if minCwnd != 2*1460 {
		t.Fatalf("smallest cwnd %d, want the 2-MSS floor %d", minCwnd, 2*1460)
	}
	f.Stop()
	net.Sim.Run(netsim.Never)
	checkBooks(t, net)
}
