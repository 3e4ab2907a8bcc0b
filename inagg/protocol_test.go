package inagg

import (
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
			t.Logf("%s: iters %v AJCT %v, switch %d PS %d contributions, %+v", name, j.IterationTimes(), j.AJCT(), j.Stats().SwitchContributions, j.Stats().PSContributions, s.agg.Stats)
		})
	}
}
