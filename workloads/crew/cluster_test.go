package crew

import (
	"testing"

	"syncsim/netsim"
)

// TestPoliciesBooks runs every scheme under every scheduling policy and
// checks the books (Cluster.Check: chunks and results delivered exactly
// once; the engine's conservation and allocation) and that partial
// reduces complete.
func TestPoliciesBooks(t *testing.T) {
	for _, sch := range []Scheme{CREW, OPR, A2A} {
		for _, pol := range []Policy{FS, FL, TL, C1, C2} {
			t.Run(sch.String()+"/"+pol.String(), func(t *testing.T) {
				nt := testNet(t, 1, 8, 10*netsim.Millisecond, Flow, pol)
				_, m := runCluster(t, nt, testConfig(sch, 4))
				if m.PRs == 0 || m.RoundsPerWorker <= 0 {
					t.Errorf("%+v", m)
				}
			})
		}
	}
}
