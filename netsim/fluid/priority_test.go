package fluid

import (
	"fmt"
	"testing"

	"syncsim/netsim"
)

// keyOfTag is the priority key used by the tests: BulkOpts.Tag.
func keyOfTag(o netsim.BulkOpts) int64 { return o.Tag }

// TestPriorityHandComputed checks strict priorities on two-flow cases
// worked by hand on a star of 10 Gbps cables (1 MB = 8e6 bits takes 800 us
// at 10 Gbps); both flows go to host 2, so they share its downlink.
func TestPriorityHandComputed(t *testing.T) {
	type pflow struct {
		src     int
		key     int64
		latency netsim.Time
		want    netsim.Time
	}
	cases := []struct {
		name  string
		flows []pflow
	}{
		{
			// f1 (key 0) arrives at 400 us and preempts f0 (key 1), which
			// has 4e6 bits left: f1 runs alone 400-1200 us, f0 resumes
			// and ends at 1600 us.
			name: "later flow of lower key preempts",
			flows: []pflow{
				{0, 1, 0, us(1600)},
				{1, 0, us(400), us(1200)},
			},
		},
		{
			// f1 has the higher key: it waits until f0 ends at 800 us,
			// then runs alone: 1600 us.
			name: "later flow of higher key waits",
			flows: []pflow{
				{0, 0, 0, us(800)},
				{1, 1, us(400), us(1600)},
			},
		},
		{
			// One key: the FCFS rule, the earlier flow keeps the link.
			name: "equal keys are FCFS",
			flows: []pflow{
				{0, 5, 0, us(800)},
				{1, 5, us(400), us(1600)},
			},
		},
		{
			// Same key and same instant: one rank, max-min halves.
			name: "equal keys at one instant share",
			flows: []pflow{
				{0, 2, 0, us(1600)},
				{1, 2, 0, us(1600)},
			},
		},
		{
			// Same instant, different keys: the lower key runs alone.
			name: "different keys at one instant: strict order",
			flows: []pflow{
				{0, 3, 0, us(1600)},
				{1, -3, 0, us(800)},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			net, hosts := star(1, 3, 10*netsim.Gbps, 0, nil)
			e := NewPriority(net, keyOfTag)
			got := make([]netsim.Time, len(tc.flows))
			for i, f := range tc.flows {
				i := i
				got[i] = -1
				e.Send(hosts[f.src], hosts[2], mb, netsim.BulkOpts{Tag: f.key, StartLatency: f.latency}, func() { got[i] = net.Sim.Now() })
			}
			for at := us(50); at < ms(3); at += us(50) {
				net.Sim.Run(at)
				mustCheck(t, e)
			}
			net.Sim.Run(netsim.Never)
			for i, f := range tc.flows {
				if d := got[i] - f.want; d < 0 || d > 4 {
					t.Errorf("flow %d done at %v, want %v", i, got[i], f.want)
				}
			}
		})
	}
}

// TestPriorityCheckDetectsFCFSAllocation: an allocation that is right for
// FCFS is wrong for Priority when a later flow has the lower key; Check
// must say so (the audit can fail).
func TestPriorityCheckDetectsFCFSAllocation(t *testing.T) {
	net, hosts := star(1, 3, 10*netsim.Gbps, 0, nil)
	e := NewPriority(net, keyOfTag)
	e.Send(hosts[0], hosts[2], mb, netsim.BulkOpts{Tag: 1}, nil)
	e.Send(hosts[1], hosts[2], mb, netsim.BulkOpts{Tag: 0, StartLatency: us(100)}, nil)
	net.Sim.Run(us(200))
	mustCheck(t, e)
	// Swap the rates by hand: the early, higher-key flow takes the link.
	var early, late *transfer
	for _, tr := range e.slots {
		if tr.st == stActive && tr.key == 1 {
			early = tr
		} else if tr.st == stActive {
			late = tr
		}
	}
	early.rate, late.rate = late.rate, early.rate
	early.finish, late.finish = late.finish, early.finish
	if err := e.Check(); err == nil {
		t.Fatal("Check accepted an FCFS allocation under Priority")
	}
}

// TestCancel covers Sent and Cancel in every state of a transfer.
func TestCancel(t *testing.T) {
	t.Run("active: bandwidth freed, bytes sent reported", func(t *testing.T) {
		net, hosts := star(1, 3, 10*netsim.Gbps, us(1), nil)
		e := New(net, MaxMin)
		var d0, d1 netsim.Time = -1, -1
		h0 := e.Start(hosts[0], hosts[2], mb, netsim.BulkOpts{}, func() { d0 = net.Sim.Now() })
		send(e, hosts[1], hosts[2], mb, 0, &d1)
		// Both at 5 Gbps; at 400 us each has sent 2e6 bits = 250000 B.
		net.Sim.Run(us(400))
		if s, ok := e.Sent(h0); !ok || s != 250000 {
			t.Fatalf("Sent = %d, %v; want 250000, true", s, ok)
		}
		net.Sim.At(us(400), func() {
			s, ok := e.Cancel(h0)
			if !ok || s != 250000 {
				t.Errorf("Cancel = %d, %v; want 250000, true", s, ok)
			}
			if _, ok := e.Cancel(h0); ok {
				t.Error("second Cancel succeeded")
			}
		})
		// f1 has 6e6 bits left at 10 Gbps: 600 us more, + 2 us propagation.
		net.Sim.Run(netsim.Never)
		mustCheck(t, e)
		if d0 != -1 {
			t.Errorf("cancelled transfer's done fired at %v", d0)
		}
		if want := us(1002); d1-want < 0 || d1-want > 4 {
			t.Errorf("survivor done at %v, want %v", d1, want)
		}
		if n, sent := e.Cancelled(); n != 1 || sent != 250000 {
			t.Errorf("Cancelled = %d, %d", n, sent)
		}
		if _, ok := e.Sent(h0); ok {
			t.Error("Sent reports a cancelled transfer as under way")
		}
	})
	t.Run("pending: never starts", func(t *testing.T) {
		net, hosts := star(1, 2, 10*netsim.Gbps, 0, nil)
		e := New(net, FCFS)
		fired := false
		h := e.Start(hosts[0], hosts[1], mb, netsim.BulkOpts{StartLatency: us(100)}, func() { fired = true })
		if s, ok := e.Cancel(h); !ok || s != 0 {
			t.Fatalf("Cancel = %d, %v", s, ok)
		}
		net.Sim.Run(netsim.Never)
		mustCheck(t, e)
		if fired || e.Pending() != 0 || e.Active() != 0 {
			t.Errorf("fired %v pending %d active %d", fired, e.Pending(), e.Active())
		}
	})
	t.Run("draining: done suppressed, size reported", func(t *testing.T) {
		net, hosts := star(1, 2, 10*netsim.Gbps, us(100), nil)
		e := New(net, MaxMin)
		fired := false
		h := e.Start(hosts[0], hosts[1], mb, netsim.BulkOpts{}, func() { fired = true })
		net.Sim.Run(us(850)) // last byte left at 800 us, arrives at 1000 us
		if s, ok := e.Cancel(h); !ok || s != mb {
			t.Fatalf("Cancel = %d, %v", s, ok)
		}
		net.Sim.Run(netsim.Never)
		mustCheck(t, e)
		if fired || e.Pending() != 0 {
			t.Errorf("fired %v pending %d", fired, e.Pending())
		}
	})
	t.Run("completed: handle is inert, slot reuse is safe", func(t *testing.T) {
		net, hosts := star(1, 2, 10*netsim.Gbps, 0, nil)
		e := New(net, MaxMin)
		h := e.Start(hosts[0], hosts[1], mb, netsim.BulkOpts{}, nil)
		net.Sim.Run(netsim.Never)
		var d netsim.Time = -1
		h2 := e.Start(hosts[0], hosts[1], mb, netsim.BulkOpts{}, func() { d = net.Sim.Now() })
		if h2.slot != h.slot {
			t.Fatalf("slot not reused (%d, %d): the test needs reuse", h.slot, h2.slot)
		}
		if _, ok := e.Cancel(h); ok {
			t.Error("Cancel of a completed transfer succeeded")
		}
		net.Sim.Run(netsim.Never)
		if d < 0 {
			t.Error("the reused slot's transfer was cancelled through the stale handle")
		}
	})
	t.Run("from a done callback", func(t *testing.T) {
		net, hosts := star(1, 3, 10*netsim.Gbps, 0, nil)
		e := New(net, MaxMin)
		var other Handle
		e.Send(hosts[0], hosts[2], mb/2, netsim.BulkOpts{}, func() {
			if _, ok := e.Cancel(other); !ok {
				t.Error("cancel from done failed")
			}
		})
		other = e.Start(hosts[1], hosts[2], mb, netsim.BulkOpts{}, func() { t.Error("cancelled transfer completed") })
		net.Sim.Run(netsim.Never)
		mustCheck(t, e)
		if e.Pending() != 0 || e.Completed() != 1 {
			t.Errorf("pending %d completed %d", e.Pending(), e.Completed())
		}
	})
}

// TestUncapped: a transfer leaves uncapped links out of its path (so their
// capacity does not limit it) but still pays their propagation delay.
func TestUncapped(t *testing.T) {
	// Host 0's cable is 1 Gbps but declared uncapped; host 1's is 10 Gbps.
	net, hosts := star(1, 2, 0, us(5), []netsim.Rate{netsim.Gbps, 10 * netsim.Gbps})
	e := New(net, MaxMin)
	up := linkBetween(t, net, hosts[0], 0)
	if err := e.SetUncapped(up); err != nil {
		t.Fatal(err)
	}
	var at netsim.Time
	send(e, hosts[0], hosts[1], mb, 0, &at)
	net.Sim.Run(netsim.Never)
	mustCheck(t, e)
	if want := us(810); at-want < 0 || at-want > 4 {
		t.Errorf("done at %v, want %v (10 Gbps, two 5 us hops)", at, want)
	}
	// Errors: unknown link, link in use.
	if err := e.SetUncapped(netsim.LinkID(len(net.Links()))); err == nil {
		t.Error("unknown link accepted")
	}
	e.Send(hosts[1], hosts[0], mb, netsim.BulkOpts{}, nil)
	net.Sim.Run(us(1))
	if err := e.SetUncapped(linkBetween(t, net, hosts[1], 0)); err == nil {
		t.Error("link in use accepted")
	}
}

// TestPriorityRandomConservation runs random transfers with random keys
// and random cancellations through a leaf-spine, auditing the allocation
// every 100 us, and checks the books at the end.
func TestPriorityRandomConservation(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			net, hosts := leafSpine(seed, 4, 2, 4, 10*netsim.Gbps, 20*netsim.Gbps, netsim.Microsecond)
			e := NewPriority(net, keyOfTag)
			rng := net.Sim.Rand("fluid-test")
			const n = 300
			doneCount := 0
			var handles []Handle
			var total netsim.Bytes
			for i := 0; i < n; i++ {
				src := hosts[rng.IntN(len(hosts))]
				dst := hosts[rng.IntN(len(hosts))]
				size := netsim.Bytes(1000 + rng.Int64N(4_000_000))
				total += size
				opts := netsim.BulkOpts{Tag: rng.Int64N(4), StartLatency: netsim.Time(rng.Int64N(int64(2 * netsim.Millisecond)))}
				fired := false
				handles = append(handles, e.Start(src, dst, size, opts, func() {
					if fired {
						t.Error("done fired twice")
					}
					fired = true
					doneCount++
				}))
			}
			for k := 0; k < 60; k++ {
				h := handles[rng.IntN(n)]
				at := netsim.Time(rng.Int64N(int64(3 * netsim.Millisecond)))
				net.Sim.At(at, func() { e.Cancel(h) })
			}
			for at := us(100); e.Pending() > 0 && at < netsim.Second; at += us(100) {
				net.Sim.Run(at)
				mustCheck(t, e)
			}
			net.Sim.Run(netsim.Never)
			mustCheck(t, e)
			cancels, _ := e.Cancelled()
			if uint64(doneCount) != e.Completed() || e.Completed()+cancels != n || e.Pending() != 0 {
				t.Errorf("done %d, completed %d, cancelled %d of %d, pending %d", doneCount, e.Completed(), cancels, n, e.Pending())
			}
			if e.BytesDelivered()+e.cancelledSize != total {
				t.Errorf("delivered %d + cancelled %d != sent %d", e.BytesDelivered(), e.cancelledSize, total)
			}
			if cancels == 0 {
				t.Error("no cancellation hit a live transfer: the test exercises nothing")
			}
		})
	}
}
