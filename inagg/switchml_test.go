package inagg

import (
	"fmt"
	"testing"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

// TestSMLBackoffSequence: the client's backoff, worked by hand. With
// timeout 1 ms, threshold 3 and increment 2 the timeout doubles at the
// 3rd expiry (count restarts, threshold 5), at the 8th (threshold 7) and
// at the 15th; an iteration boundary (reset) returns the timeout to 1 ms
// but keeps count and threshold, so after a reset at expiry 10 the 15th
// still doubles, from 1 ms.
func TestSMLBackoffSequence(t *testing.T) {
	ms := netsim.Millisecond
	for _, tc := range []struct {
		name      string
		threshold int
		increment int
		resetAt   int           // reset before this expiry (0: never)
		want      []netsim.Time // timeout after expiry 1, 2, ...
	}{
		{"client rule", 3, 2, 0, []netsim.Time{
			1 * ms, 1 * ms, 2 * ms, // 3rd: threshold 3 -> 5
			2 * ms, 2 * ms, 2 * ms, 2 * ms, 4 * ms, // 8th: 5 more; threshold -> 7
			4 * ms, 4 * ms, 4 * ms, 4 * ms, 4 * ms, 4 * ms, 8 * ms, // 15th: 7 more
		}},
		{"reset keeps the count", 3, 2, 10, []netsim.Time{
			1 * ms, 1 * ms, 2 * ms,
			2 * ms, 2 * ms, 2 * ms, 2 * ms, 4 * ms,
			4 * ms, 1 * ms, 1 * ms, 1 * ms, 1 * ms, 1 * ms, 2 * ms,
		}},
		{"no increment", 2, 0, 0, []netsim.Time{1 * ms, 2 * ms, 2 * ms, 4 * ms, 4 * ms, 8 * ms}},
		{"threshold 1 doubles every time", 1, 0, 0, []netsim.Time{2 * ms, 4 * ms, 8 * ms}},
		{"client defaults", 100, 100, 0, func() []netsim.Time {
			// Doublings at the 100th, 300th and 600th expiry.
			var w []netsim.Time
			for k := 1; k <= 650; k++ {
				d := 10 * ms
				for _, at := range []int{100, 300, 600} {
					if k >= at {
						d *= 2
					}
				}
				w = append(w, d)
			}
			return w
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := DefaultParams()
			p.SwitchMLTimeout = 1 * ms
			if tc.threshold == 100 {
				p.SwitchMLTimeout = 10 * ms
			}
			p.SwitchMLTimeoutThreshold, p.SwitchMLThresholdIncrement = tc.threshold, tc.increment
			b := newSMLBackoff(&p)
			for k, want := range tc.want {
				if k+1 == tc.resetAt {
					b.reset(&p)
				}
				b.expire(p.SwitchMLThresholdIncrement)
				if b.timeout != want {
					t.Fatalf("after expiry %d: timeout %v, want %v", k+1, b.timeout, want)
				}
			}
		})
	}
}

func TestNextPoll(t *testing.T) {
	ms := netsim.Millisecond
	for _, tc := range []struct {
		name              string
		last, now, period netsim.Time
		want              netsim.Time
	}{
		{"at the last poll", 10 * ms, 10 * ms, ms, 11 * ms},
		{"between polls", 10 * ms, 10*ms + 1, ms, 11 * ms},
		{"on the grid", 10 * ms, 13 * ms, ms, 13 * ms},
		{"just past the grid", 10 * ms, 13*ms + 1, ms, 14 * ms},
		{"long period", 0, 5 * ms, 4 * ms, 8 * ms},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := nextPoll(tc.last, tc.now, tc.period); got != tc.want {
				t.Fatalf("nextPoll(%v, %v, %v) = %v, want %v", tc.last, tc.now, tc.period, got, tc.want)
			}
		})
	}
}

// gateQueue drops the gradients offered while drop(now) holds and records
// when retransmitted gradients arrive; it then defers to the wrapped queue.
type gateQueue struct {
	netsim.Queue
	drop   func(now netsim.Time) bool
	resent []netsim.Time
}

func (q *gateQueue) Enqueue(p *netsim.Packet, now netsim.Time) bool {
	if p.Kind == KindGradient {
		if p.Flags&netsim.FlagRetx != 0 {
			q.resent = append(q.resent, now)
		}
		if q.drop(now) {
			return false
		}
	}
	return q.Queue.Enqueue(p, now)
}

// TestSwitchMLTimerSequence: two workers, one packet per iteration, and
// worker 1's gradients lost when sent before 20 ms or in (22 ms, 30 ms).
// With timeout 1 ms, first-window timers of 3 timeouts, threshold 2 and
// increment 1, worked by hand (worker 1's polls at multiples of the
// timeout from the last poll, the first at 0; "cN" is the expiry count
// after the expiry):
//
//	iteration 0, seq 0 sent at 0, deadline 3:
//	  3 c1; 4 c2 -> double (2 ms, threshold 3); 6 c1; 8 c2;
//	  10 c3 -> double (4 ms, threshold 4); 14 c1; 18 c2; 22 c3, delivered.
//	iteration 1 starts just after 22 with the timeout back at 1 ms:
//	  deadline just after 25, polls at 23, 24, 25, 26:
//	  26 c4 -> double (2 ms, threshold 5); 28 c1; 30 c2, delivered.
func TestSwitchMLTimerSequence(t *testing.T) {
	ms := netsim.Millisecond
	sim := netsim.New(3)
	net := netsim.NewNetwork(sim)
	sw := switchmodel.Add(net, "sw")
	gate := &gateQueue{Queue: netsim.NewFIFO(0), drop: func(now netsim.Time) bool {
		return now < 20*ms || (now > 22*ms && now < 30*ms)
	}}
	var hosts []*netsim.Host
	for i := 0; i < 3; i++ {
		h := net.AddHost(fmt.Sprintf("h%d", i))
		var up netsim.Queue
		if i == 1 {
			up = gate
		}
		net.Connect(h.ID(), sw.ID(), 100*netsim.Gbps, 2*netsim.Microsecond, up, switchmodel.NewQueue(sim, switchmodel.QueueConfig{}))
		hosts = append(hosts, h)
	}
	net.BuildRoutes()
	agg, err := NewAggregator(sw, DefaultAggregatorConfig())
	if err != nil {
		t.Fatal(err)
	}
	s := &star{net: net, sw: sw, agg: agg, workers: hosts[:2], ps: hosts[2]}
	p := DefaultParams()
	p.SwitchMLTimeout, p.SwitchMLFirstTimeouts = ms, 3
	p.SwitchMLTimeoutThreshold, p.SwitchMLThresholdIncrement = 2, 1
	j := s.job(t, JobConfig{ID: 0, Protocol: SwitchML, Gradient: INAPayloadBytes, Iterations: 2, Params: &p})
	j.workers[1].ctl.(*switchmlCtl).threads[0].lastPoll = 0 // polls at whole milliseconds
	sim.Run(netsim.Second)
	checkAll(t, s, j)
	want := []netsim.Time{3 * ms, 4 * ms, 6 * ms, 8 * ms, 10 * ms, 14 * ms, 18 * ms, 22 * ms, 26 * ms, 28 * ms, 30 * ms}
	if fmt.Sprint(gate.resent) != fmt.Sprint(want) {
		t.Fatalf("worker 1 resent at %v, want %v", gate.resent, want)
	}
	if got := j.workers[1].stats.Timeouts; got != uint64(len(want)) {
		t.Fatalf("worker 1 counted %d timeouts, want %d", got, len(want))
	}
	if it := j.IterationTimes(); len(it) != 2 || it[0] < 22*ms || it[0] > 22*ms+ms/10 {
		t.Fatalf("iteration times %v: the first should end just after 22 ms", it)
	}
}

// tapQueue calls f for every packet offered, then defers to the wrapped
// queue.
type tapQueue struct {
	netsim.Queue
	f func(p *netsim.Packet)
}

func (q *tapQueue) Enqueue(p *netsim.Packet, now netsim.Time) bool {
	q.f(p)
	return q.Queue.Enqueue(p, now)
}

// TestSwitchMLPoolLimit: a worker never has more than its pool of
// sequences sent without their results, and it does fill the pool, with
// a pool set explicitly and with one BDP (64 packets), with and without
// loss; the books (exact sums, no leaks, packet conservation) hold. The
// star's round trip holds about 180 packets (4 us at 100 Gbps and the
// NIC queue), so the pools here, unlike the client's 256, bind.
func TestSwitchMLPoolLimit(t *testing.T) {
	for _, tc := range []struct {
		pool, want int
		loss       float64
	}{{100, 100, 0}, {100, 100, 0.01}, {0, 64, 0}, {0, 64, 0.01}} {
		t.Run(fmt.Sprintf("pool=%d/loss=%v", tc.pool, tc.loss), func(t *testing.T) {
			cfg := DefaultAggregatorConfig()
			cfg.BDPPackets = 64
			s, qs := lossyStar(t, 4, tc.loss, cfg, 5)
			p := DefaultParams()
			p.SwitchMLPool = tc.pool
			var j *Job
			peak := 0
			for i := range s.workers {
				up := qs[2*i]
				i := i
				up.Queue = &tapQueue{Queue: up.Queue, f: func(pk *netsim.Packet) {
					if pk.Kind != KindGradient || pk.Flags&netsim.FlagRetx != 0 {
						return
					}
					w := j.workers[i]
					n := 0
					for q := w.lastAACK + 1; q < w.sndNext; q++ {
						if w.flag(q)&(fResult|fSent) == fSent {
							n++
						}
					}
					if n > tc.want {
						t.Fatalf("worker %d: %d sequences outstanding after sending %d, pool %d", i, n, pk.Seq, tc.want)
					}
					peak = max(peak, n)
				}}
			}
			j = s.job(t, JobConfig{ID: 0, Protocol: SwitchML, Gradient: 300 * netsim.Kilobyte, Iterations: 2, Params: &p})
			s.net.Sim.Run(100 * netsim.Second)
			checkAll(t, s, j)
			if peak != tc.want {
				t.Fatalf("at most %d sequences outstanding, want the pool of %d filled", peak, tc.want)
			}
			if st := j.TotalWorkerStats(); (tc.loss > 0) != (st.Retransmits > 0) {
				t.Fatalf("loss %v but %d retransmissions", tc.loss, st.Retransmits)
			}
		})
	}
}
