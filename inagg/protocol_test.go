package inagg

import (
	"slices"
	"testing"

	"syncsim/netsim"
)

func TestEveryProtocolMovesExactGradient(t *testing.T) {
	for _, name := range ProtocolNames() {
		t.Run(name, func(t *testing.T) {
			proto, err := ParseProtocol(name)
			if err != nil {
				t.Fatal(err)
			}
			s := newStar(t, starCfg{workers: 4})
			j := s.job(t, JobConfig{ID: 3, Protocol: proto, Gradient: 200 * netsim.Kilobyte, Iterations: 3,
				Compute: func(w, k int) netsim.Time { return netsim.Time(w+1) * 5 * netsim.Microsecond }})
			s.net.Sim.Run(netsim.Second)
			checkAll(t, s, j)
			its := j.IterationTimes()
			var sum netsim.Time
			for _, it := range its {
				sum += it
			}
			if len(its) != 3 || j.AJCT() != sum/3 || !near(j.IterationsPerSecond(), 3/sum.Seconds(), 1e-12) {
				t.Fatalf("iteration times %v, AJCT %v, %v iterations/s", its, j.AJCT(), j.IterationsPerSecond())
			}
			// Every iteration pushes 200 kB in 807 packets; at 100 Gbps a
			// worker needs 20 us for its share, so no iteration is shorter
			// than compute + serialisation.
			if min := 20*netsim.Microsecond + netsim.TxTime(807*INAHeaderBytes+200*netsim.Kilobyte, 100*netsim.Gbps); proto.INA() && its[1] < min {
				t.Fatalf("iteration of %v is faster than the wire allows (%v)", its[1], min)
			}
			t.Logf("%s: iters %v AJCT %v, switch %d PS %d contributions, %+v", name, j.IterationTimes(), j.AJCT(), j.Stats().SwitchContributions, j.Stats().PSContributions, s.agg.Stats)
		})
	}
}

// TestProtocolRegistrations: every protocol has an entry of its own in
// protocols, and its name parses back to it; a table with an empty entry
// or a name twice is refused (init stops every program with that error),
// so a forgotten entry never falls back to another protocol's behaviour.
func TestProtocolRegistrations(t *testing.T) {
	if err := checkProtocols(protocols[:]); err != nil {
		t.Fatal(err)
	}
	for p := range numProtocols {
		if q, err := ParseProtocol(p.String()); err != nil || q != p {
			t.Errorf("ParseProtocol(%q) = %v, %v", p, q, err)
		}
	}
	hole := slices.Clone(protocols[:])
	hole[StrawAsynAL] = protocolSpec{}
	twice := slices.Clone(protocols[:])
	twice[PAATP].name = "atp"
	for name, table := range map[string][]protocolSpec{"empty entry": hole, "name twice": twice} {
		if err := checkProtocols(table); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
