package crew

import (
	"testing"

	"syncsim/netsim"
)

// TestPoliciesTwoFlows checks each flow scheduling policy (Sec. IV-C) on
// two transfers sharing the directed connection 0 -> 1 of 100 Mbit/s, no
// latency. Each carries 1 MB = 8 Mbit (80 ms alone); the second starts 40
// ms after the first, when the first has 4 Mbit left.
//
// Case A: first a scatter of task 2, then a multicast of task 1.
//
//	FS: both at 50 Mbit/s from 40 ms: the first ends at 120 ms, the
//	    second has 4 Mbit left then and ends at 160 ms.
//	FL: the first keeps the connection: 80 ms, then the second: 160 ms.
//	TL: task 1 < task 2: the multicast preempts: 40-120 ms, the scatter
//	    resumes: 160 ms.
//	C1: multicast preempts scatter: as TL.
//	C2: scatter before multicast: as FL.
//
// Case B: first a multicast of task 2, then a scatter of task 1.
//
//	TL: the scatter (task 1) preempts: scatter 120, multicast 160.
//	C1: the multicast keeps priority: multicast 80, scatter 160.
//	C2: the scatter preempts: scatter 120, multicast 160.
func TestPoliciesTwoFlows(t *testing.T) {
	type flow struct {
		cls uint8
		pid int
		at  netsim.Time
	}
	ms := netsim.Millisecond
	caseA := [2]flow{{ClassScatter, 2, 0}, {ClassMulticast, 1, 40 * ms}}
	caseB := [2]flow{{ClassMulticast, 2, 0}, {ClassScatter, 1, 40 * ms}}
	cases := []struct {
		name  string
		flows [2]flow
		pol   Policy
		want  [2]netsim.Time
	}{
		{"A/fs", caseA, FS, [2]netsim.Time{120 * ms, 160 * ms}},
		{"A/fl", caseA, FL, [2]netsim.Time{80 * ms, 160 * ms}},
		{"A/tl", caseA, TL, [2]netsim.Time{160 * ms, 120 * ms}},
		{"A/c1", caseA, C1, [2]netsim.Time{160 * ms, 120 * ms}},
		{"A/c2", caseA, C2, [2]netsim.Time{80 * ms, 160 * ms}},
		{"B/fs", caseB, FS, [2]netsim.Time{120 * ms, 160 * ms}},
		{"B/fl", caseB, FL, [2]netsim.Time{80 * ms, 160 * ms}},
		{"B/tl", caseB, TL, [2]netsim.Time{160 * ms, 120 * ms}},
		{"B/c1", caseB, C1, [2]netsim.Time{80 * ms, 160 * ms}},
		{"B/c2", caseB, C2, [2]netsim.Time{160 * ms, 120 * ms}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sim := netsim.New(1)
			bw := Matrix{{0, 100e6}, {100e6, 0}}
			nt, err := NewNet(sim, bw, ConstLatency(2, 0), Flow, tc.pol)
			if err != nil {
				t.Fatal(err)
			}
			var got [2]netsim.Time
			for i, f := range tc.flows {
				i, f := i, f
				sim.At(f.at, func() {
					nt.send(0, 1, netsim.Megabyte, f.cls, legTag(f.pid, int64(i+1)), nil, nil, func() { got[i] = sim.Now() })
				})
			}
			sim.Run(netsim.Never)
			if err := nt.Check(); err != nil {
				t.Fatal(err)
			}
			for i := range got {
				if d := got[i] - tc.want[i]; d < 0 || d > 4 {
					t.Errorf("flow %d done at %v, want %v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// TestPolicyPacketRefusal: the packet engine offers FS and FL only.
func TestPolicyPacketRefusal(t *testing.T) {
	bw := Matrix{{0, 100e6}, {100e6, 0}}
	for _, pol := range []Policy{TL, C1, C2} {
		t.Run(pol.String(), func(t *testing.T) {
			_, err := NewNet(netsim.New(1), bw, ConstLatency(2, 0), Packet, pol)
			if err == nil {
				t.Fatal("packet fidelity accepted", pol)
			}
		})
	}
	for _, s := range []string{"fs", "FL", "tl", "c1", "C2"} {
		if _, err := ParsePolicy(s); err != nil {
			t.Error(err)
		}
	}
	if _, err := ParsePolicy("fifo"); err == nil {
		t.Error("unknown policy accepted")
	}
}
