package crew

import (
	"testing"

	"syncsim/netsim"
)

func TestSmoke(t *testing.T) {
	for _, sch := range []Scheme{CREW, OPR, A2A} {
		for _, pol := range []Policy{FS, FL, TL, C1, C2} {
			nt := testNet(t, 1, 8, 10*netsim.Millisecond, Flow, pol)
			_, m := runCluster(t, nt, testConfig(sch, 4))
			t.Logf("%v %v: rounds %.2f prs %d prtime %v lp %.3f", sch, pol, m.RoundsPerWorker, m.PRs, m.PRTime, m.LPObjective)
		}
	}
}
