package collective

import (
	"slices"
	"testing"

	"syncsim/netsim"
)

// checkRingLog verifies a ring run's send log against the dependency rule
// and the chunk rotation: host i's step-k send carries chunk RingChunk(i,k)
// and is issued exactly when the later of its own step k-1 send and its
// predecessor's step k-1 send completed (at time 0 for step 0).
func checkRingLog(t *testing.T, log []*sendRec, hosts []netsim.NodeID, chunks []netsim.Bytes) {
	t.Helper()
	n := len(hosts)
	idx := map[netsim.NodeID]int{}
	for i, h := range hosts {
		idx[h] = i
	}
	per := make([][]*sendRec, n) // per[i][k]: host i's step-k send
	for _, r := range log {
		i := idx[r.src]
		if r.dst != hosts[(i+1)%n] {
			t.Fatalf("host %d sent to %d, not its successor", i, r.dst)
		}
		per[i] = append(per[i], r)
	}
	for i := range per {
		if len(per[i]) != 2*(n-1) {
			t.Fatalf("host %d made %d sends, want %d", i, len(per[i]), 2*(n-1))
		}
		for k, r := range per[i] {
			if want := chunks[RingChunk(n, i, k)]; r.size != want {
				t.Errorf("host %d step %d sent %d bytes, want chunk %d (%d bytes)", i, k, r.size, RingChunk(n, i, k), want)
			}
			var ready netsim.Time
			if k > 0 {
				ready = max(per[i][k-1].at, per[(i-1+n)%n][k-1].at)
			}
			if r.issued != ready {
				t.Errorf("host %d step %d issued at %v, want %v (own send %v, predecessor's %v)",
					i, k, r.issued, ready, per[i][k-1].at, per[(i-1+n)%n][k-1].at)
			}
		}
	}
}

func TestRingDependencyRule(t *testing.T) {
	cases := []struct {
		name    string
		n       int
		size    netsim.Bytes
		weights []float64
		// per-host time per byte (ps), nil: instantaneous
		slow []netsim.Time
	}{
		{"instantaneous n=4", 4, 1000, nil, nil},
		{"heterogeneous senders n=5", 5, 1003, nil, []netsim.Time{1, 7, 2, 2, 30}},
		{"weighted n=4", 4, 1000, []float64{1, 2, 3, 4}, []netsim.Time{5, 1, 1, 3}},
		{"n=2", 2, 10, nil, []netsim.Time{1, 2}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sim := netsim.New(1)
			hosts := make([]netsim.NodeID, tc.n)
			for i := range hosts {
				hosts[i] = netsim.NodeID(10 + 3*i)
			}
			fb := &fakeBulk{sim: sim}
			if tc.slow != nil {
				fb.delay = func(src netsim.NodeID, size netsim.Bytes) netsim.Time {
					return tc.slow[(int(src)-10)/3] * netsim.Time(size)
				}
			}
			calls := 0
			var at netsim.Time
			done := func() { calls++; at = sim.Now() }
			var err error
			chunks := EqualChunks(tc.size, tc.n)
			if tc.weights != nil {
				err = WeightedRingAllReduce(sim, fb, hosts, tc.size, tc.weights, netsim.BulkOpts{}, done)
				chunks, _ = WeightedChunks(tc.size, tc.weights)
			} else {
				err = RingAllReduce(sim, fb, hosts, tc.size, netsim.BulkOpts{}, done)
			}
			if err != nil {
				t.Fatal(err)
			}
			sim.Run(netsim.Never)
			if calls != 1 {
				t.Fatalf("done called %d times", calls)
			}
			checkRingLog(t, fb.log, hosts, chunks)
			var last netsim.Time
			for _, r := range fb.log {
				last = max(last, r.at)
			}
			if at != last {
				t.Errorf("done at %v, last chunk arrived at %v", at, last)
			}
			// done must come after every send completed, in event order.
			if fb.order[len(fb.order)-1][:4] != "done" {
				t.Errorf("log ends with %q", fb.order[len(fb.order)-1])
			}
		})
	}
}

// With an instantaneous Bulk every step happens at time 0, so the rule can
// only be seen in the order of events: a host's step-k send is issued
// after both completions it depends on.
func TestRingOrderInstantaneous(t *testing.T) {
	const n = 4
	sim := netsim.New(1)
	hosts := []netsim.NodeID{0, 1, 2, 3}
	fb := &fakeBulk{sim: sim}
	if err := RingAllReduce(sim, fb, hosts, 400, netsim.BulkOpts{}, nil); err != nil {
		t.Fatal(err)
	}
	sim.Run(netsim.Never)
	pos := map[string]int{}
	for p, s := range fb.order {
		pos[s] = p
	}
	step := map[int]int{} // log index -> step of its host
	cnt := make([]int, n)
	byHostStep := map[[2]int]int{}
	for li, r := range fb.log {
		i := int(r.src)
		step[li] = cnt[i]
		byHostStep[[2]int{i, cnt[i]}] = li
		cnt[i]++
	}
	for li, r := range fb.log {
		i, k := int(r.src), step[li]
		if k == 0 {
			continue
		}
		own := byHostStep[[2]int{i, k - 1}]
		pred := byHostStep[[2]int{(i + n - 1) % n, k - 1}]
		s := pos["send "+itoa(li)]
		if s < pos["done "+itoa(own)] || s < pos["done "+itoa(pred)] {
			t.Errorf("host %d step %d sent before its dependencies completed", i, k)
		}
	}
	if len(fb.log) != n*2*(n-1) {
		t.Errorf("%d sends, want %d", len(fb.log), n*2*(n-1))
	}
}

func TestSingleParticipant(t *testing.T) {
	sim := netsim.New(1)
	fb := &fakeBulk{sim: sim}
	calls := 0
	sim.Run(5 * netsim.Microsecond)
	for _, f := range []func() error{
		func() error {
			return RingAllReduce(sim, fb, []netsim.NodeID{3}, 100, netsim.BulkOpts{}, func() { calls++ })
		},
		func() error { return AllToAll(sim, fb, []netsim.NodeID{3}, 100, netsim.BulkOpts{}, func() { calls++ }) },
		func() error {
			return WeightedRingAllReduce(sim, fb, []netsim.NodeID{3}, 100, []float64{1}, netsim.BulkOpts{}, func() { calls++ })
		},
	} {
		if err := f(); err != nil {
			t.Fatal(err)
		}
	}
	if calls != 0 {
		t.Error("done called from inside the call")
	}
	sim.Run(netsim.Never)
	if calls != 3 || sim.Now() != 5*netsim.Microsecond || len(fb.log) != 0 {
		t.Errorf("calls %d at %v with %d sends; want 3 at 5us with none", calls, sim.Now(), len(fb.log))
	}
}

func TestInvalidArguments(t *testing.T) {
	sim := netsim.New(1)
	fb := &fakeBulk{sim: sim}
	o := netsim.BulkOpts{}
	h := []netsim.NodeID{1, 2, 3}
	cases := []struct {
		name string
		err  error
	}{
		{"ring: no hosts", RingAllReduce(sim, fb, nil, 10, o, nil)},
		{"ring: repeated host", RingAllReduce(sim, fb, []netsim.NodeID{1, 2, 1}, 10, o, nil)},
		{"ring: negative size", RingAllReduce(sim, fb, h, -1, o, nil)},
		{"weighted: length mismatch", WeightedRingAllReduce(sim, fb, h, 10, []float64{1, 2}, o, nil)},
		{"weighted: negative weight", WeightedRingAllReduce(sim, fb, h, 10, []float64{1, -2, 1}, o, nil)},
		{"weighted: all zero", WeightedRingAllReduce(sim, fb, h, 10, []float64{0, 0, 0}, o, nil)},
		{"ps: server is a worker", PSPushPull(sim, fb, h, 2, 10, o, nil)},
		{"ps: no workers", PSPushPull(sim, fb, nil, 9, 10, o, nil)},
		{"all-to-all: negative size", AllToAll(sim, fb, h, -5, o, nil)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.err == nil {
				t.Error("accepted")
			}
		})
	}
	if len(fb.log) != 0 {
		t.Errorf("%d sends issued by rejected calls", len(fb.log))
	}
}

func TestWeightedChunks(t *testing.T) {
	cases := []struct {
		name    string
		size    netsim.Bytes
		weights []float64
		want    []netsim.Bytes
	}{
		{"proportional", 1000, []float64{1, 2, 3, 4}, []netsim.Bytes{100, 200, 300, 400}},
		{"largest remainder", 10, []float64{1, 1, 1}, []netsim.Bytes{4, 3, 3}},
		{"remainder to largest fraction", 10, []float64{1, 2}, []netsim.Bytes{3, 7}}, // 3.33, 6.67
		{"zero weight gets nothing", 7, []float64{0, 1}, []netsim.Bytes{0, 7}},
		{"bandwidths as weights", 500_000_000, []float64{20, 5, 1}, []netsim.Bytes{384615385, 96153846, 19230769}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := WeightedChunks(tc.size, tc.weights)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	if c := EqualChunks(10, 4); !slices.Equal(c, []netsim.Bytes{3, 3, 2, 2}) {
		t.Errorf("EqualChunks(10, 4) = %v", c)
	}
}

// Equal weights make the weighted ring identical to the plain one, down to
// the picosecond on the fluid engine.
func TestWeightedEqualsPlainWithEqualWeights(t *testing.T) {
	const n = 5
	run := func(weighted bool) netsim.Time {
		sim, eng, hosts := fluidStar(n, rate, delay)
		return runTimed(t, sim, func(done func()) error {
			if weighted {
				return WeightedRingAllReduce(sim, eng, hosts, 10*netsim.Megabyte, []float64{2, 2, 2, 2, 2}, netsim.BulkOpts{StartLatency: lat}, done)
			}
			return RingAllReduce(sim, eng, hosts, 10*netsim.Megabyte, netsim.BulkOpts{StartLatency: lat}, done)
		})
	}
	if a, b := run(false), run(true); a != b {
		t.Errorf("plain %v, weighted with equal weights %v", a, b)
	}
}

// syncBulk calls done from inside Send, as an engine with nothing to
// simulate might; collectives must tolerate the re-entrancy.
type syncBulk struct{ sends int }

func (s *syncBulk) Send(_, _ netsim.NodeID, _ netsim.Bytes, _ netsim.BulkOpts, done func()) {
	s.sends++
	done()
}

func TestReentrantBulk(t *testing.T) {
	const n = 7
	hosts := []netsim.NodeID{0, 1, 2, 3, 4, 5, 6}
	cases := []struct {
		name  string
		run   func(sim *netsim.Sim, b netsim.Bulk, done func()) error
		sends int
	}{
		{"ring", func(sim *netsim.Sim, b netsim.Bulk, done func()) error {
			return RingAllReduce(sim, b, hosts, 700, netsim.BulkOpts{}, done)
		}, n * 2 * (n - 1)},
		{"ps", func(sim *netsim.Sim, b netsim.Bulk, done func()) error {
			return PSPushPull(sim, b, hosts[1:], hosts[0], 700, netsim.BulkOpts{}, done)
		}, 2 * (n - 1)},
		{"all-to-all", func(sim *netsim.Sim, b netsim.Bulk, done func()) error {
			return AllToAll(sim, b, hosts, 700, netsim.BulkOpts{}, done)
		}, n * (n - 1)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sim := netsim.New(1)
			sb := &syncBulk{}
			calls := 0
			if err := tc.run(sim, sb, func() { calls++ }); err != nil {
				t.Fatal(err)
			}
			sim.Run(netsim.Never)
			if calls != 1 || sb.sends != tc.sends {
				t.Errorf("done called %d times after %d sends; want once after %d", calls, sb.sends, tc.sends)
			}
		})
	}
}
