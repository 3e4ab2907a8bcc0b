package mixed

import (
	"testing"

	"syncsim/experiments"
	"syncsim/experiments/exptest"
	"syncsim/transport"
)

// TestDCTCPCWRReachesTheStack: dctcp_cwr sets the CWR mode of the stack
// every DCTCP tenant of mixed-fabric sends through (ring, partial-reduce
// and background flows), its default is the transport's, and on two ring
// jobs sharing a leaf's uplink, whose DCTCP windows are cut by marks, grow
// and hold give different iterations.
func TestDCTCPCWRReachesTheStack(t *testing.T) {
	for _, tc := range []struct {
		set  []string
		want transport.CWR
	}{
		{nil, transport.DefaultConfig().CWR},
		{[]string{"dctcp_cwr=grow"}, transport.CWRGrow},
		{[]string{"dctcp_cwr=hold"}, transport.CWRHold},
		{[]string{"dctcp_cwr=cut"}, transport.CWRCut},
	} {
		r := &experiments.Run{Exp: MixedFabric(), Seed: 1, Threads: 1}
		var err error
		if r.Params, err = r.Exp.Resolve(tc.set); err != nil {
			t.Fatal(err)
		}
		rig, err := buildMixedFabric(r)
		if err != nil {
			t.Fatal(err)
		}
		if got := rig.stack.Config().CWR; got != tc.want {
			t.Errorf("%v: stack's CWR %v, want %v", tc.set, got, tc.want)
		}
	}
	sets := []string{"ina_jobs=0", "ring_jobs=2", "load=0", "iterations=2", "spines=1", "leaves=2", "hosts_per_leaf=4"}
	grow := exptest.Run(t, MixedFabric(), 1, append(sets, "dctcp_cwr=grow")...).Metrics
	hold := exptest.Run(t, MixedFabric(), 1, append(sets, "dctcp_cwr=hold")...).Metrics
	if grow["ring_iter_ms"] == hold["ring_iter_ms"] {
		t.Errorf("ring iteration %v ms under both grow and hold: the mode does not reach the rings' connections", grow["ring_iter_ms"])
	}
}
