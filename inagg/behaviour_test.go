package inagg

import (
	"math"
	"slices"
	"testing"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

// runSame runs the same small multi-job scenario and returns a fingerprint.
func fingerprint(t *testing.T, seed uint64) [4]int64 {
	s := newStar(t, starCfg{workers: 4, seed: seed, slowRate: 25 * netsim.Gbps,
		queue: switchmodel.QueueConfig{Buffer: 64 * netsim.KiB, ECNBytes: 20 * netsim.KiB}})
	a := s.job(t, JobConfig{ID: 0, Protocol: PAATP, Gradient: 300 * netsim.Kilobyte, Iterations: 2})
	b := s.job(t, JobConfig{ID: 1, Protocol: ATP, Gradient: 200 * netsim.Kilobyte, Iterations: 2})
	s.net.Sim.Run(netsim.Second)
	checkAll(t, s, a, b)
	return [4]int64{int64(a.AJCT()), int64(b.AJCT()), int64(s.net.Sim.Events()), int64(s.agg.Stats.Collisions)}
}

func TestDeterministic(t *testing.T) {
	x, y := fingerprint(t, 5), fingerprint(t, 5)
	if x != y {
		t.Fatalf("same seed, different runs: %v vs %v", x, y)
	}
}

// TestAsynchronyLimit: with a straggler and a small aggregator memory,
// used aggregators + overflow exceed eta (M + BDP), AACKs are marked AECN,
// AWD is cut, and no PA-ATP worker ever runs more than AWD sequences
// ahead of its results (Sec. III-B1). StrawAsyn, without the limit, runs
// further ahead.
func TestAsynchronyLimit(t *testing.T) {
	ahead := map[Protocol]int64{}
	for _, proto := range []Protocol{PAATP, StrawAsyn} {
		cfg := DefaultAggregatorConfig()
		cfg.Memory = 512 * AggregatorBytes
		cfg.BDPPackets = 64
		cfg.Eta = 0.5
		s := newStar(t, starCfg{workers: 4, slowRate: 10 * netsim.Gbps, agg: cfg,
			queue: switchmodel.QueueConfig{ECNBytes: 30 * netsim.KiB}})
		j := s.job(t, JobConfig{ID: 0, Protocol: proto, Gradient: 2 * netsim.Megabyte, Iterations: 2})
		var maxAhead int64
		var probe func()
		probe = func() {
			for w := 0; w < j.Workers(); w++ {
				st := j.Window(w)
				d := st.SndNext - 1 - st.LastAACK
				if d > maxAhead {
					maxAhead = d
				}
			}
			if !j.Done() {
				s.net.Sim.AfterFunc(2*netsim.Microsecond, probe)
			}
		}
		probe()
		s.net.Sim.Run(netsim.Second)
		checkAll(t, s, j)
		ahead[proto] = maxAhead
		if proto == PAATP {
			if s.agg.Stats.AECNMarked == 0 {
				t.Fatal("no AACK was marked AECN")
			}
			// AWD starts at AWD* and oscillates about it (Sec. III-C); the
			// occupancy counts only what the switch holds (sequences in
			// flight or answered are not in it), so AWD may end above AWD*,
			// but the marks must have cut it.
			if w := j.Window(0); w.AWDCuts == 0 {
				t.Fatalf("AWD was never cut (AWD %v, initial AWD* %v)", w.AWD, AWDStar(cfg.Eta, 512, 64, 1))
			}
		}
		t.Logf("%s: max ahead %d, AJCT %v, %+v", proto, maxAhead, j.AJCT(), s.agg.Stats)
	}
	if ahead[StrawAsyn] <= ahead[PAATP] {
		t.Fatalf("StrawAsyn ran %d ahead, PA-ATP %d: the limit had no effect", ahead[StrawAsyn], ahead[PAATP])
	}
}

// TestDualWindowEdges: snd_next is limited by the smaller right edge of
// CWD (last_GACK + CWD) and AWD (last_AACK + AWD) (Sec. III-B1, Fig. 5:
// AWD = 15, CWD = 5).
func TestDualWindowEdges(t *testing.T) {
	c := newPAATPCtl(DefaultParams(), 1000, INAHeaderBytes+INAPayloadBytes, nil, 15)
	c.cwd = 5
	tests := []struct {
		name               string
		lastGACK, lastAACK int64
		seq                int64
		want               bool
	}{
		{"T=0: CWD edge 13+5 = 18 binds (AWD edge 19)", 13, 4, 18, true},
		{"T=0: 19 is past the CWD edge", 13, 4, 19, false},
		{"T=1: CWD slid to 20 but AWD edge 4+15 = 19 binds", 15, 4, 19, true},
		{"T=1: 20 is past the AWD edge", 15, 4, 20, false},
		{"T=3: AWD slid by one", 15, 5, 20, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := &worker{lastGACK: tc.lastGACK, lastAACK: tc.lastAACK}
			if got := c.allow(w, tc.seq); got != tc.want {
				t.Fatalf("allow(%d) = %v, want %v", tc.seq, got, tc.want)
			}
		})
	}
	st := newStrawAsynCtl(DefaultParams(), 1000, INAHeaderBytes+INAPayloadBytes, false, false, nil, 15)
	st.cwd = 5
	if !st.allow(&worker{lastGACK: 15, lastAACK: 4}, 20) {
		t.Fatal("StrawAsyn has no asynchrony limit")
	}
}

// TestProgressAwareCut: at the same alpha, a leading worker cuts CWD more
// than a straggling one (Sec. III-B2, Fig. 4), and StrawAsyn cuts both by
// alpha.
func TestProgressAwareCut(t *testing.T) {
	j := &Job{workers: make([]*worker, 4)}
	mk := func(lastGACK int64) *worker {
		return &worker{j: j, lastGACK: lastGACK, lastAACK: 100, sndNext: lastGACK + 1}
	}
	leader, straggler := mk(160), mk(104)
	p := DefaultParams()
	pa := newPAATPCtl(p, 1000, INAHeaderBytes+INAPayloadBytes, nil, 80)
	pa.alpha, pa.ssum = 0.3, 4*130 // s_avg = 130, p_avg = 30
	dl, ds := pa.decrease(leader), pa.decrease(straggler)
	// leader: p_l = 60, p = 2, p_max = 80/30: d = 0.3^(1 - 60/80)
	// straggler: p_l = 4: d = 0.3^(1 - 4/80)
	if !near(dl, 0.7400828044922853, 1e-12) || !near(ds, 0.31861424728108906, 1e-12) {
		t.Fatalf("d(leader) = %v, d(straggler) = %v", dl, ds)
	}
	st := newStrawAsynCtl(p, 1000, INAHeaderBytes+INAPayloadBytes, false, false, nil, 0)
	st.alpha = 0.3
	if st.decrease(leader) != 0.3 || st.decrease(straggler) != 0.3 {
		t.Fatal("StrawAsyn's cut must not depend on progress")
	}
	// StrawAsyn+PC, as the paper defines progress: p_max = AWD / p_avg
	// with the job's initial AWD (80 here), the same d as PA-ATP's.
	pc := newStrawAsynCtl(p, 1000, INAHeaderBytes+INAPayloadBytes, true, false, nil, 80)
	pc.alpha, pc.ssum, pc.smax = 0.3, 4*130, 160
	if d := pc.decrease(leader); d != dl {
		t.Fatalf("StrawAsyn+PC leader d = %v, want PA-ATP's %v", d, dl)
	}
	// PMaxLeader: s_max - last_AACK = 60 stands in for AWD, so the leader
	// (p_l = 60) is at p_max and halves.
	p.PCMax = PMaxLeader
	pc = newStrawAsynCtl(p, 1000, INAHeaderBytes+INAPayloadBytes, true, false, nil, 80)
	pc.alpha, pc.ssum, pc.smax = 0.3, 4*130, 160
	if d := pc.decrease(leader); d != 1 {
		t.Fatalf("StrawAsyn+PC (leader p_max) leader d = %v, want 1", d)
	}
	if d := pc.decrease(straggler); !near(d, math.Pow(0.3, 1-4.0/60), 1e-12) {
		t.Fatalf("StrawAsyn+PC (leader p_max) straggler d = %v, want 0.3^(1 - 4/60)", d)
	}
}

func TestATPWindowsMoveTogether(t *testing.T) {
	s := newStar(t, starCfg{workers: 4, slowRate: 25 * netsim.Gbps,
		queue: switchmodel.QueueConfig{ECNBytes: 20 * netsim.KiB}})
	j := s.job(t, JobConfig{ID: 0, Protocol: ATP, Gradient: netsim.Megabyte, Iterations: 2})
	s.net.Sim.Run(netsim.Second)
	checkAll(t, s, j)
	w0 := j.Window(0)
	if len(w0.Threads) != DefaultParams().ATPThreads {
		t.Fatalf("worker 0 has %d thread windows, want %d", len(w0.Threads), DefaultParams().ATPThreads)
	}
	for w := 1; w < j.Workers(); w++ {
		ws := j.Window(w)
		if ws.CWD != w0.CWD || !slices.Equal(ws.Threads, w0.Threads) {
			t.Fatalf("ATP worker %d windows %v != worker 0's %v: the result clock is shared", w, ws.Threads, w0.Threads)
		}
	}
}

func TestTinyMemoryOverflowsToPS(t *testing.T) {
	cfg := DefaultAggregatorConfig()
	cfg.Memory = 4 * AggregatorBytes
	s := newStar(t, starCfg{workers: 3, agg: cfg, slowRate: 40 * netsim.Gbps})
	j := s.job(t, JobConfig{ID: 2, Protocol: PAATP, Gradient: 100 * netsim.Kilobyte, Iterations: 2})
	s.net.Sim.Run(netsim.Second)
	checkAll(t, s, j)
	st := j.Stats()
	if st.PSContributions == 0 || st.SwitchContributions == 0 || s.agg.Stats.Collisions == 0 {
		t.Fatalf("expected aggregation at both switch and PS with 4 aggregators: %+v, %+v", st, s.agg.Stats)
	}
	if s.agg.Memory().Peak() > 4 {
		t.Fatalf("peak occupancy %d above M = 4", s.agg.Memory().Peak())
	}
	if s.agg.Memory().Used() != 0 || s.agg.Overflowed() != 0 {
		t.Fatalf("after the job: %d aggregators used, %d overflow counts", s.agg.Memory().Used(), s.agg.Overflowed())
	}
}

func TestSwitchMLPoolMustFit(t *testing.T) {
	cfg := DefaultAggregatorConfig()
	cfg.Memory = 100 * AggregatorBytes
	s := newStar(t, starCfg{workers: 2, agg: cfg})
	p := DefaultParams()
	p.SwitchMLPool = 40
	if _, err := NewJob(s.net, JobConfig{ID: 0, Protocol: SwitchML, Workers: s.workers, PS: s.ps, Switch: s.agg,
		Gradient: netsim.Megabyte, Iterations: 1, Params: &p}); err != nil {
		t.Fatal(err) // 80 of 100 aggregators
	}
	_, err := NewJob(s.net, JobConfig{ID: 1, Protocol: SwitchML, Workers: s.workers, PS: s.ps, Switch: s.agg,
		Gradient: netsim.Megabyte, Iterations: 1, Params: &p})
	if err == nil {
		t.Fatal("a second 80-aggregator pool fitted into 20 free aggregators")
	}
	if s.agg.Jobs() != 1 || s.agg.Memory().Reserved() != 80 {
		t.Fatalf("failed registration left state behind: %d jobs, %d reserved", s.agg.Jobs(), s.agg.Memory().Reserved())
	}
}

func TestJobConfigErrors(t *testing.T) {
	s := newStar(t, starCfg{workers: 2})
	good := JobConfig{ID: 0, Protocol: PAATP, Workers: s.workers, PS: s.ps, Switch: s.agg, Gradient: netsim.Megabyte, Iterations: 1}
	bad := func(f func(c *JobConfig)) JobConfig { c := good; f(&c); return c }
	badParams := DefaultParams()
	badParams.F = 0
	tests := []struct {
		name string
		cfg  JobConfig
	}{
		{"no workers", bad(func(c *JobConfig) { c.Workers = nil })},
		{"no PS", bad(func(c *JobConfig) { c.PS = nil })},
		{"PS is a worker", bad(func(c *JobConfig) { c.PS = s.workers[0] })},
		{"INA without switch", bad(func(c *JobConfig) { c.Switch = nil })},
		{"zero gradient", bad(func(c *JobConfig) { c.Gradient = 0 })},
		{"zero iterations", bad(func(c *JobConfig) { c.Iterations = 0 })},
		{"negative ID", bad(func(c *JobConfig) { c.ID = -1 })},
		{"bad params", bad(func(c *JobConfig) { c.Params = &badParams })},
		{"flows mismatch", bad(func(c *JobConfig) { c.Flows = []uint64{1} })},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := NewJob(s.net, tc.cfg); err == nil {
				t.Fatal("accepted")
			}
		})
	}
	if _, err := NewJob(s.net, good); err != nil {
		t.Fatal(err)
	}
	if _, err := NewJob(s.net, good); err == nil {
		t.Fatal("duplicate job ID accepted at one switch")
	}
	if _, err := ParseProtocol("atp2"); err == nil {
		t.Fatal("unknown protocol accepted")
	}
	if _, err := NewAggregator(s.sw, AggregatorConfig{Memory: 100, Eta: 0.9, BDPPackets: 1}); err == nil {
		t.Fatal("memory below one aggregator accepted")
	}
}
