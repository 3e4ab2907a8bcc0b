package inagg

import (
	"slices"
	"testing"

	"syncsim/netsim"
	"syncsim/switchmodel"
	"syncsim/topologies"
)

// TestATPWindowRule walks one thread window (310 B packets, cap 100
// packets = 31 000 B) through hand-worked window-closing results.
func TestATPWindowRule(t *testing.T) {
	type step struct {
		k      int64 // thread-local sequence of the result
		ecn    bool
		wnd    int64 // window after the result, packets
		winEnd int64 // closing sequence after the result
		change int
	}
	for _, tc := range []struct {
		name  string
		cc    bool
		steps []step
	}{
		{"starts at the cap; results before the window's end change nothing", true, []step{
			{0, true, 100, 99, atpKept},
			{50, true, 100, 99, atpKept},
			{98, false, 100, 99, atpKept},
		}},
		{"unmarked closing result at the cap stays at the cap", true, []step{
			{99, false, 100, 199, atpIncreased}, // 31 000 + 1500 capped at 31 000
		}},
		{"marked closing results halve down to one packet", true, []step{
			{99, true, 50, 149, atpHalved},     // 15 500 B
			{149, true, 25, 174, atpHalved},    // 7 750 B
			{174, true, 12, 186, atpHalved},    // 3 875 B -> 12 packets = 3 720 B
			{186, true, 6, 192, atpHalved},     // 1 860 B
			{192, true, 3, 195, atpHalved},     // 930 B
			{195, true, 1, 196, atpHalved},     // 465 B -> 1 packet
			{196, true, 1, 197, atpHalved},     // 155 B, floored at one packet
			{197, false, 5, 202, atpIncreased}, // 310 + 1500 = 1 810 B -> 5 packets
			{200, false, 5, 202, atpKept},
			{202, false, 9, 211, atpIncreased}, // 1 550 + 1500 = 3 050 B -> 9 packets
		}},
		{"unmarked growth is in whole packets", true, []step{
			{99, true, 50, 149, atpHalved},      // 15 500 B
			{149, false, 54, 203, atpIncreased}, // 17 000 B -> 54 packets = 16 740 B
			{203, false, 58, 261, atpIncreased}, // 18 240 B -> 58 packets = 17 980 B
		}},
		{"a lost closing result: the next result past the end closes", true, []step{
			{99, true, 50, 149, atpHalved},
			{152, false, 54, 206, atpIncreased},
		}},
		{"without congestion control the window stays at the cap", false, []step{
			{99, true, 100, 99, atpKept},
			{199, true, 100, 99, atpKept},
			{300, false, 100, 99, atpKept},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newATPWindow(100, 310, tc.cc)
			for i, s := range tc.steps {
				got := w.onResult(s.k, s.ecn)
				if got != s.change || w.wnd != s.wnd || w.winEnd != s.winEnd {
					t.Fatalf("step %d (k=%d ecn=%v): change %d window %d end %d, want %d %d %d",
						i, s.k, s.ecn, got, w.wnd, w.winEnd, s.change, s.wnd, s.winEnd)
				}
				if w.bytes != float64(w.wnd)*310 {
					t.Fatalf("step %d: %v B is not %d whole packets", i, w.bytes, w.wnd)
				}
			}
		})
	}
}

// TestATPIndexNeverRepeatsInAThreadWindow: for every thread of a job, any
// W consecutive packets of the thread (a window can hold no more) use W
// different aggregators, all inside [0, M), over several iterations,
// thread counts, window sizes and memories (including M < threads x W,
// where threads must share aggregators).
func TestATPIndexNeverRepeatsInAThreadWindow(t *testing.T) {
	for _, tc := range []struct {
		job              int32
		packets, threads int64
		window           int64
		m                int
	}{
		{0, 4033, 12, 100, 40960},
		{7, 1000, 12, 100, 1200},
		{3, 777, 5, 37, 100}, // M < threads x W
		{1, 50, 12, 100, 40960},
		{2, 999, 1, 100, 100},
	} {
		j := &Job{packets: tc.packets, atpThreads: min(tc.threads, tc.packets), atpWindow: tc.window}
		j.atpIdx = atpIndexTable(tc.job, int(j.atpThreads*tc.window), tc.m)
		for it := int64(0); it < 3; it++ {
			base := it * tc.packets
			for th := int64(0); th < j.atpThreads; th++ {
				var idx []int64 // the thread's indexes in order
				for s := base + th; s < base+tc.packets; s += j.atpThreads {
					x := j.atpIndex(s)
					if x < 0 || x >= int64(tc.m) {
						t.Fatalf("%+v: index %d of seq %d outside [0, %d)", tc, x, s, tc.m)
					}
					idx = append(idx, x)
				}
				for k := range idx {
					seen := map[int64]int{}
					for d := 0; d < int(tc.window) && k+d < len(idx); d++ {
						if p, ok := seen[idx[k+d]]; ok {
							t.Fatalf("%+v: thread %d packets %d and %d share aggregator %d", tc, th, p, k+d, idx[k+d])
						}
						seen[idx[k+d]] = k + d
					}
				}
			}
		}
	}
}

// fakeATPWorker is a worker with just what atpCtl reads: the parameters,
// last_AACK and the flags ring.
func fakeATPWorker() *worker {
	net := netsim.NewNetwork(netsim.New(1))
	// Every sequence may go: no bucket holds any back (gateEnd).
	w := &worker{j: &Job{params: DefaultParams(), net: net}, host: net.AddHost("w"), lastAACK: -1, gateEnd: 1 << 62}
	w.flags, w.mask = make([]uint8, 64), 63
	return w
}

// TestATPThreadsAreIndependent: three threads of window 4 over 30
// packets; thread 1's window is cut to one packet and its result never
// comes, yet threads 0 and 2 send their whole parts as their results
// return, and thread 1 sends nothing beyond its one packet.
func TestATPThreadsAreIndependent(t *testing.T) {
	p := DefaultParams()
	p.ATPThreads, p.ATPThreadWindow = 3, 4
	c := newATPCtl(p, 30, 310)
	c.th[1].win.wnd = 1
	w := fakeATPWorker()
	sent := map[int][]int64{} // thread -> labels in send order
	pump := func() {
		for {
			s, ok := c.nextSeq(w)
			if !ok {
				return
			}
			w.flags[s&w.mask] = fSent
			c.sent(w, s, false)
			th, _ := c.locate(s)
			sent[th] = append(sent[th], s)
		}
	}
	pump()
	if len(sent[0]) != 4 || len(sent[1]) != 1 || len(sent[2]) != 4 {
		t.Fatalf("first round sent %d/%d/%d packets per thread, want 4/1/4", len(sent[0]), len(sent[1]), len(sent[2]))
	}
	result := &netsim.Packet{}
	for round := 0; round < 20; round++ {
		// Results for every packet of threads 0 and 2 sent so far.
		for _, th := range []int{0, 2} {
			for _, s := range sent[th] {
				if w.flags[s&w.mask]&fResult == 0 {
					w.flags[s&w.mask] |= fResult
					c.onResult(w, s, result)
				}
			}
		}
		pump()
	}
	if len(sent[0]) != 10 || len(sent[2]) != 10 {
		t.Fatalf("threads 0 and 2 sent %d and %d of their 10 packets while thread 1 was stuck", len(sent[0]), len(sent[2]))
	}
	if len(sent[1]) != 1 || sent[1][0] != 1 {
		t.Fatalf("thread 1 sent %v, want only label 1", sent[1])
	}
	for th, labels := range sent {
		for k, s := range labels {
			if want := int64(k)*3 + int64(th); s != want {
				t.Fatalf("thread %d's packet %d has label %d, want %d", th, k, s, want)
			}
		}
	}
}

// runATPOnSharedPath runs one ATP job of 4 workers sharing one 100 Gbps
// path (as TestCongestionControlOnSharedPath) with 4 threads of at most
// 50 packets and returns it after checking its books.
func runATPOnSharedPath(t *testing.T, cc bool) *Job {
	t.Helper()
	net := netsim.NewNetwork(netsim.New(1))
	q := switchmodel.QueueConfig{Buffer: 256 * netsim.Kilobyte, ECNBytes: 30 * netsim.Kilobyte}
	f, err := topologies.Dumbbell(net, 4, 1, 1, 100*netsim.Gbps, 100*netsim.Gbps, 2*netsim.Microsecond, q)
	if err != nil {
		t.Fatal(err)
	}
	agg, err := NewAggregator(f.Edge[1], DefaultAggregatorConfig())
	if err != nil {
		t.Fatal(err)
	}
	p := DefaultParams()
	p.ATPThreads, p.ATPThreadWindow, p.ATPCC = 4, 50, cc
	j, err := NewJob(net, JobConfig{ID: 0, Protocol: ATP, Workers: f.HostsOf(0), PS: f.HostsOf(1)[0],
		Switch: agg, Gradient: netsim.Megabyte, Iterations: 2, Params: &p})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Start(); err != nil {
		t.Fatal(err)
	}
	net.Sim.Run(netsim.Second)
	checkBooks(t, net, agg, j)
	return j
}

// TestATPWithoutCCKeepsWindowsFixed: on a path that marks (with
// congestion control the windows are halved), atp_cc=false keeps every
// thread window of every worker at atp_thread_window.
func TestATPWithoutCCKeepsWindowsFixed(t *testing.T) {
	if ws := runATPOnSharedPath(t, true).Window(0); ws.CWDCuts == 0 {
		t.Fatalf("no halving with congestion control: %+v (the test exercises nothing)", ws)
	}
	j := runATPOnSharedPath(t, false)
	for w := 0; w < j.Workers(); w++ {
		ws := j.Window(w)
		if ws.CWDCuts != 0 || ws.WindowIncreases != 0 || ws.CWD != 4*50 || len(ws.Threads) != 4 {
			t.Fatalf("worker %d: %+v, want 4 fixed windows of 50", w, ws)
		}
		for th, x := range ws.Threads {
			if x != 50 {
				t.Fatalf("worker %d thread %d window %v, want 50", w, th, x)
			}
		}
	}
}

// TestATPJobDoesNotCollideWithItself: with M above threads x W, one ATP
// job's packets in flight use distinct aggregators (a thread reuses one
// only for the packet W later, sent after the earlier one's result), so
// a lossless job aggregates everything at the switch. A slow worker keeps
// the aggregators of up to 12 x 100 sequences waiting for its
// contribution; with hash(job, seq) mod M some of them would collide.
func TestATPJobDoesNotCollideWithItself(t *testing.T) {
	s := newStar(t, starCfg{workers: 5, slowRate: 50 * netsim.Gbps})
	j := s.job(t, JobConfig{ID: 3, Protocol: ATP, Gradient: 4 * netsim.Megabyte, Iterations: 2})
	s.net.Sim.Run(netsim.Second)
	checkAll(t, s, j)
	if c := s.agg.Stats.Collisions; c != 0 || j.Stats().PSContributions != 0 {
		t.Fatalf("%d collisions, %d contributions at the PS", c, j.Stats().PSContributions)
	}
	if s.net.Stats().Dropped != 0 {
		t.Fatalf("%d drops: the test assumes a lossless run", s.net.Stats().Dropped)
	}
}

// TestATPTimeoutResendsAsTheClient: on a timeout a thread that heard
// nothing for RTO resends from its last_ACK + 1 up to the first result it
// holds beyond it, or last_ACK + 1 alone when it holds none; a thread that
// heard a result within RTO, or has nothing outstanding, resends nothing.
// Three threads of window 4 over 30 packets (labels k*3 + t).
func TestATPTimeoutResendsAsTheClient(t *testing.T) {
	p := DefaultParams()
	p.ATPThreads, p.ATPThreadWindow = 3, 4
	c := newATPCtl(p, 30, 310)
	w := fakeATPWorker()
	for {
		s, ok := c.nextSeq(w)
		if !ok {
			break
		}
		w.flags[s&w.mask] = fSent
		c.sent(w, s, false)
	}
	give := func(s int64) {
		w.flags[s&w.mask] |= fResult
		c.onResult(w, s, &netsim.Packet{})
	}
	// Thread 0 (labels 0 3 6 9): results for 0 and 6: last_ACK is its
	// packet 0, and packet 2 (label 6) is the first held beyond it.
	give(0)
	give(6)
	// Thread 1 (1 4 7 10): nothing back. Thread 2 (2 5 8 11): all back.
	for _, s := range []int64{2, 5, 8, 11} {
		give(s)
	}
	rto := p.RTO
	if got := c.timeoutLabels(w, rto/2); len(got) != 0 {
		t.Fatalf("before RTO of silence: resent %v, want nothing", got)
	}
	got := c.timeoutLabels(w, rto)
	want := []int64{3, 1} // thread 0: label 3 up to (not incl.) 6; thread 1: last_ACK + 1 alone
	if !slices.Equal(got, want) {
		t.Fatalf("resent %v, want %v", got, want)
	}
	// The clocks restarted: another half RTO later nothing is due.
	if got := c.timeoutLabels(w, rto+rto/2); len(got) != 0 {
		t.Fatalf("half an RTO after a resend: %v, want nothing", got)
	}
	if got := c.timeoutLabels(w, 2*rto); !slices.Equal(got, want) {
		t.Fatalf("second timeout resent %v, want %v", got, want)
	}
}
