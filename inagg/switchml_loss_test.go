package inagg

import (
	"fmt"
	"testing"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

// dropOnce drops the first packet offered that match accepts, then defers
// to the wrapped queue.
type dropOnce struct {
	netsim.Queue
	match   func(p *netsim.Packet) bool
	dropped bool
}

func (q *dropOnce) Enqueue(p *netsim.Packet, now netsim.Time) bool {
	if !q.dropped && q.match(p) {
		q.dropped = true
		return false
	}
	return q.Queue.Enqueue(p, now)
}

// runSwitchMLOneLoss runs one iteration of a 4-worker SwitchML job of 200
// packets with a pool of 16 and a 1 ms timeout on a star, losing worker 1's
// gradient (kind KindGradient, on its uplink) or its result (KindResult, on
// its downlink) of sequence 40 once. Every thread's polls are at whole
// milliseconds. It returns the job, each worker's timeouts and worker
// 1's resends.
func runSwitchMLOneLoss(t *testing.T, kind uint8, inOrder bool) (*Job, []uint64, uint64) {
	t.Helper()
	sim := netsim.New(3)
	net := netsim.NewNetwork(sim)
	sw := switchmodel.Add(net, "sw")
	var hosts []*netsim.Host
	var dq *dropOnce
	for i := 0; i < 5; i++ {
		h := net.AddHost(fmt.Sprintf("h%d", i))
		var up, down netsim.Queue = netsim.NewFIFO(0), switchmodel.NewQueue(sim, switchmodel.QueueConfig{})
		if i == 1 {
			dq = &dropOnce{match: func(p *netsim.Packet) bool { return p.Kind == kind && p.Seq == 40 }}
			if kind == KindGradient {
				dq.Queue, up = up, dq
			} else {
				dq.Queue, down = down, dq
			}
		}
		net.Connect(h.ID(), sw.ID(), 100*netsim.Gbps, 2*netsim.Microsecond, up, down)
		hosts = append(hosts, h)
	}
	net.BuildRoutes()
	agg, err := NewAggregator(sw, DefaultAggregatorConfig())
	if err != nil {
		t.Fatal(err)
	}
	s := &star{net: net, sw: sw, agg: agg, workers: hosts[:4], ps: hosts[4]}
	p := DefaultParams()
	p.SwitchMLPool, p.SwitchMLTimeout, p.SwitchMLInOrder = 16, netsim.Millisecond, inOrder
	j := s.job(t, JobConfig{ID: 0, Protocol: SwitchML, Gradient: 200 * INAPayloadBytes, Iterations: 1, Params: &p})
	for _, w := range j.workers {
		for k := range w.ctl.(*switchmlCtl).threads {
			w.ctl.(*switchmlCtl).threads[k].lastPoll = 0
		}
	}
	sim.Run(netsim.Second)
	checkAll(t, s, j)
	if !dq.dropped {
		t.Fatal("the loss was not injected")
	}
	var to []uint64
	for _, w := range j.workers {
		to = append(to, w.stats.Timeouts)
	}
	return j, to, j.workers[1].stats.Retransmits
}

// TestSwitchMLRecoversOneLossInOneTimeout: one lost gradient, and one lost
// result, each cost one expiry per worker and one timeout of time. Worked by
// hand (T = 1 ms, polls at whole ms): the lost packet and every other
// packet outstanding then were sent in the first tens of us, so their
// timers expire just after T and fire at the poll at 2T. A lost gradient:
// every worker's slot 8 (sequence 40) waits; all four timers fire at 2T,
// worker 1's resend completes the slot (the others' resends reach a slot
// that already has them and are dropped), and the iteration ends just
// after 2T. A lost result: worker 1 resends 40 and the switch answers
// from the complete slot; the other workers' slot 8 holds 56, which waits
// for worker 1's 56, which waits for the result of 40: one expiry each. As
// the public client runs it, each slot is its own stream, so the job's
// other slots finish meanwhile. With SwitchMLInOrder (the earlier model)
// the lost result holds up worker 1's sequences from 56 on, and the other
// workers, who have the result, fill all 16 slots (56-71) with packets
// waiting for worker 1: 16 expiries each, 49 in all, for one loss.
func TestSwitchMLRecoversOneLossInOneTimeout(t *testing.T) {
	const T = netsim.Millisecond
	for _, tc := range []struct {
		name     string
		kind     uint8
		inOrder  bool
		timeouts []uint64
	}{
		{"gradient", KindGradient, false, []uint64{1, 1, 1, 1}},
		{"result", KindResult, false, []uint64{1, 1, 1, 1}},
		{"gradient/in-order", KindGradient, true, []uint64{1, 1, 1, 1}},
		{"result/in-order", KindResult, true, []uint64{16, 1, 16, 16}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j, to, retx := runSwitchMLOneLoss(t, tc.kind, tc.inOrder)
			if fmt.Sprint(to) != fmt.Sprint(tc.timeouts) {
				t.Fatalf("timeouts per worker %v, want %v", to, tc.timeouts)
			}
			if retx != 1 {
				t.Fatalf("worker 1 resent %d packets, want 1 (the lost one, once)", retx)
			}
			if it := j.IterationTimes()[0]; it < 2*T || it > 2*T+T/10 {
				t.Fatalf("iteration took %v, want just after 2T = %v (one timeout past the first poll after the loss)", it, 2*T)
			}
		})
	}
}
