package inagg

import (
	"testing"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

// checkSwitchShares verifies that the jobs' SwitchStats add up to the
// switch's counters: overflow = collisions + gradients whose partner had
// passed + forwarded resends, and the AECN marks.
func checkSwitchShares(t *testing.T, a *Aggregator, jobs ...*Job) {
	t.Helper()
	var over, aecn uint64
	for _, j := range jobs {
		over += j.SwitchStats().Overflowed
		aecn += j.SwitchStats().AECNMarked
	}
	if want := a.Stats.Collisions + a.Stats.PassedForwarded + a.Stats.RetxForwarded; over != want {
		t.Errorf("jobs' overflow adds up to %d, the switch's collisions + passed + forwarded resends to %d", over, want)
	}
	if aecn != a.Stats.AECNMarked {
		t.Errorf("jobs' AECN marks add up to %d, the switch's to %d", aecn, a.Stats.AECNMarked)
	}
}

// TestSwitchStatsSplitByJob: three jobs share a switch of 64 aggregators
// and an AECN threshold it exceeds. Each hashed job overflows; only the
// asynchrony-limited protocol (PA-ATP) has results marked AECN (Sec.
// III-B3); BytePS never reaches the aggregators; and the jobs' shares add
// up to the switch's counters.
func TestSwitchStatsSplitByJob(t *testing.T) {
	cfg := DefaultAggregatorConfig()
	cfg.Memory = 64 * AggregatorBytes
	cfg.BDPPackets = 16
	cfg.Eta = 0.3
	s := newStar(t, starCfg{workers: 3, agg: cfg, slowRate: 10 * netsim.Gbps,
		queue: switchmodel.QueueConfig{ECNBytes: 30 * netsim.KiB}})
	pa := s.job(t, JobConfig{ID: 0, Protocol: PAATP, Gradient: 400 * netsim.Kilobyte, Iterations: 2})
	atp := s.job(t, JobConfig{ID: 1, Protocol: ATP, Gradient: 400 * netsim.Kilobyte, Iterations: 2})
	bps := s.job(t, JobConfig{ID: 2, Protocol: BytePS, Gradient: 100 * netsim.Kilobyte, Iterations: 2})
	s.net.Sim.Run(netsim.Second)
	checkAll(t, s, pa, atp, bps)
	checkSwitchShares(t, s.agg, pa, atp, bps)
	if pa.SwitchStats().Overflowed == 0 || atp.SwitchStats().Overflowed == 0 {
		t.Errorf("a hashed job never overflowed with 64 aggregators: %+v, %+v", pa.SwitchStats(), atp.SwitchStats())
	}
	if pa.SwitchStats().AECNMarked == 0 || atp.SwitchStats().AECNMarked != 0 {
		t.Errorf("AECN marks: PA-ATP %d (want > 0), ATP %d (want 0)", pa.SwitchStats().AECNMarked, atp.SwitchStats().AECNMarked)
	}
	if bps.SwitchStats() != (SwitchJobStats{}) {
		t.Errorf("BytePS job has switch counters %+v", bps.SwitchStats())
	}
}

// TestSwitchStatsWithLoss: resends forwarded to the PS count as the
// job's overflow, so under loss the shares still add up.
func TestSwitchStatsWithLoss(t *testing.T) {
	cfg := DefaultAggregatorConfig()
	cfg.Memory = 8 * AggregatorBytes
	cfg.BDPPackets = 64
	s, _ := lossyStar(t, 4, 0.01, cfg, 5)
	a := s.job(t, JobConfig{ID: 0, Protocol: PAATP, Gradient: 100 * netsim.Kilobyte, Iterations: 2})
	b := s.job(t, JobConfig{ID: 3, Protocol: StrawAsynAL, Gradient: 60 * netsim.Kilobyte, Iterations: 2})
	s.net.Sim.Run(10 * netsim.Second)
	checkAll(t, s, a, b)
	if s.agg.Stats.RetxForwarded == 0 {
		t.Fatal("no resend reached the switch: the test exercises nothing")
	}
	checkSwitchShares(t, s.agg, a, b)
}
