package crew

import (
	"slices"
	"testing"

	"syncsim/netsim"
	"syncsim/workloads/layers"
	"syncsim/workloads/training"
)

// timeRec records when each worker became ready and held each result.
type timeRec struct {
	sim      *netsim.Sim
	computed [][]netsim.Time
	holds    [][]netsim.Time
	formed   []int
}

func newTimeRec(sim *netsim.Sim, n int) *timeRec {
	return &timeRec{sim: sim, computed: make([][]netsim.Time, n), holds: make([][]netsim.Time, n)}
}

func (r *timeRec) Computed(w int) { r.computed[w] = append(r.computed[w], r.sim.Now()) }
func (r *timeRec) Formed(pid int, members []int) {
	r.formed = append(r.formed, pid)
	r.formed = append(r.formed, members...)
}
func (r *timeRec) Holds(w int)    { r.holds[w] = append(r.holds[w], r.sim.Now()) }
func (r *timeRec) Released(w int) { r.holds[w] = append(r.holds[w], -r.sim.Now()) }

// twoWorkerNet is two workers joined at 8 Mbit/s both ways without
// latency: a 1 MB chunk takes 1 s on either connection.
func twoWorkerNet(t testing.TB) *Net {
	t.Helper()
	nt, err := NewNet(netsim.New(1), Matrix{{0, 8e6}, {8e6, 0}}, ConstLatency(2, 0), Flow, FL)
	if err != nil {
		t.Fatal(err)
	}
	return nt
}

// twoBuckets is a model whose output side's bucket holds 3/4 of the bytes
// (1 s forward, 1 s backward) and the input side's 1/4 (1 s forward, 3 s
// backward): 6 s of compute.
var twoBuckets = []layers.Bucket{
	{Lo: 0, Hi: 1, Bytes: 1, Forward: netsim.Second, Backward: 3 * netsim.Second},
	{Lo: 1, Hi: 2, Bytes: 3, Forward: netsim.Second, Backward: netsim.Second},
}

func twoWorkerConfig(buckets []layers.Bucket) Config {
	return Config{
		Options: Options{Scheme: CREW, P: 2, Split: Even, Model: 4 * netsim.Megabyte, Chunks: 4},
		Compute: training.Constant{T: 6}, ComputeScale: 1, Duration: 40500 * netsim.Millisecond,
		Buckets: buckets,
	}
}

// TestOverlapTwoWorkersByHand works two workers, p = 2, by hand. The
// even split puts chunks 1-2 on worker 0 and 3-4 on worker 1; a chunk
// takes tau = 1 s on a connection, and under FL a connection's scatter
// stream (started first) goes before its multicast.
//
// Without overlap both are ready at 6 s; each scatters its other block
// (2 tau), the aggregators multicast both chunks at once after (2 tau):
// every round ends 4 tau after the compute, at 10, 20, 30, 40 s.
//
// With overlap (chunks 1-3 the output side's bucket, chunk 4 the input
// side's) both are ready at F = 3 s (forward 2 s, first backward 1 s).
// Worker 1 streams chunks 1-2 to worker 0 over [F, F+2]; worker 0 chunk
// 3 to worker 1 over [F, F+1]; the multicasts of chunks 1-3 end at F+3.
// Chunk 4 is produced at F+3 (the input side's 3 s backward), crosses to
// worker 1 over [F+3, F+4], whose result is back at worker 0 at F+5.
// Worker 1 holds every result at F+4, worker 0 at F+5; worker 0's next
// forward pass waits for chunk 4 until F+5, so the next P forms at F+5+3
// = F+8 (11, 19, 27, 35 s; results at 8, 16, ... and 7, 15, ... s): a round is the compute plus the input side's bucket's scatter
// and multicast, 6 + 2 tau = 8 s, 2 tau shorter than without overlap
// (the output side's exchange hides behind the 3 s backward).
func TestOverlapTwoWorkersByHand(t *testing.T) {
	s := netsim.Second
	for _, tc := range []struct {
		name    string
		buckets []layers.Bucket
		holds   [2][]netsim.Time
		ready   []netsim.Time
	}{
		{"none", nil, [2][]netsim.Time{{10 * s, 20 * s, 30 * s, 40 * s}, {10 * s, 20 * s, 30 * s, 40 * s}}, []netsim.Time{6 * s, 16 * s, 26 * s, 36 * s}},
		{"one bucket", []layers.Bucket{{Hi: 2, Bytes: 4, Forward: 2 * s, Backward: 4 * s}},
			[2][]netsim.Time{{10 * s, 20 * s, 30 * s, 40 * s}, {10 * s, 20 * s, 30 * s, 40 * s}}, []netsim.Time{6 * s, 16 * s, 26 * s, 36 * s}},
		{"two buckets", twoBuckets,
			[2][]netsim.Time{{8 * s, 16 * s, 24 * s, 32 * s, 40 * s}, {7 * s, 15 * s, 23 * s, 31 * s, 39 * s}},
			[]netsim.Time{3 * s, 11 * s, 19 * s, 27 * s, 35 * s}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nt := twoWorkerNet(t)
			rec := newTimeRec(nt.Sim, 2)
			cfg := twoWorkerConfig(tc.buckets)
			cfg.Recorder = rec
			_, m := runCluster(t, nt, cfg)
			for w := range 2 {
				if !slices.Equal(rec.holds[w], tc.holds[w]) {
					t.Errorf("worker %d holds results at %v, want %v", w, rec.holds[w], tc.holds[w])
				}
			}
			if !slices.Equal(rec.computed[0], tc.ready) {
				t.Errorf("worker 0 ready at %v, want %v", rec.computed[0], tc.ready)
			}
			if want := float64(len(tc.holds[0])); m.RoundsPerWorker != want {
				t.Errorf("rounds per worker %v, want %v", m.RoundsPerWorker, want)
			}
		})
	}
}

// TestOverlapOneBucketIsNone: with the model in one bucket a worker is
// ready when its compute ends and its next iteration waits for the whole
// result, so a run is what it is without overlap, event for event, on
// a 12-worker N2 network with random compute and latency.
func TestOverlapOneBucketIsNone(t *testing.T) {
	for _, sch := range []Scheme{CREW, OPR} {
		for _, pl := range []Pipeline{PipelineChunk, PipelineBlock} {
			run := func(bs []layers.Bucket) (*timeRec, Metrics) {
				nt := testNet(t, 3, 12, 20*netsim.Millisecond, Flow, FL)
				cfg := testConfig(sch, 4)
				cfg.Pipeline = pl
				cfg.Buckets = bs
				rec := newTimeRec(nt.Sim, 12)
				cfg.Recorder = rec
				_, m := runCluster(t, nt, cfg)
				return rec, m
			}
			r0, m0 := run(nil)
			r1, m1 := run([]layers.Bucket{{Hi: 3, Bytes: 100, Forward: netsim.Second, Backward: 2 * netsim.Second}})
			if m0.Events != m1.Events || !slices.Equal(m0.Rounds, m1.Rounds) || m0.PRTime != m1.PRTime || m0.PRs != m1.PRs {
				t.Errorf("%v %d: one bucket %+v, without overlap %+v", sch, pl, m1, m0)
			}
			if !slices.Equal(r0.formed, r1.formed) {
				t.Errorf("%v %d: the groups differ", sch, pl)
			}
			for w := range r0.holds {
				if !slices.Equal(r0.holds[w], r1.holds[w]) || !slices.Equal(r0.computed[w], r1.computed[w]) {
					t.Errorf("%v %d: worker %d's schedule differs", sch, pl, w)
				}
			}
		}
	}
}

// TestOverlapBooks: ResNet-50's DDP buckets over 12 workers on N2 with
// latency, random compute, p = 4, both schemes and pipelines, at flow
// and packet fidelity: the books balance (every aggregator got every
// chunk of its block from every member once; every member holds every
// result once), every worker's ready signals and results alternate, and
// a worker's ready signal never comes before it held the previous result.
func TestOverlapBooks(t *testing.T) {
	m, err := layers.Builtin("resnet50")
	if err != nil {
		t.Fatal(err)
	}
	bs, err := layers.Buckets(m.WithBytes(18*netsim.Megabyte), layers.Bucketing{CapMB: 2, FirstCapMB: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) < 4 {
		t.Fatalf("%d buckets, want several", len(bs))
	}
	for _, tc := range []struct {
		sch Scheme
		pl  Pipeline
		fid Fidelity
	}{{CREW, PipelineChunk, Flow}, {CREW, PipelineBlock, Flow}, {OPR, PipelineChunk, Flow}, {CREW, PipelineChunk, Packet}} {
		n := 12
		cfg := testConfig(tc.sch, 4)
		if tc.fid == Packet {
			n, cfg.Model, cfg.Chunks, cfg.Duration = 4, 400*netsim.Kilobyte, 40, 2*netsim.Second
			cfg.P = 2
		}
		cfg.Pipeline, cfg.Buckets = tc.pl, bs
		nt := testNet(t, 5, n, 10*netsim.Millisecond, tc.fid, FL)
		rec := newTimeRec(nt.Sim, n)
		cfg.Recorder = rec
		c, met := runCluster(t, nt, cfg)
		if met.PRs == 0 {
			t.Fatalf("%v %d %v: no partial reduce completed", tc.sch, tc.pl, tc.fid)
		}
		if want := int64(met.PRs) * int64(cfg.Chunks) * int64(cfg.P); c.accepted != want {
			t.Errorf("%v %d %v: %d chunk copies reduced, want %d (%d partial reduces x k x p)", tc.sch, tc.pl, tc.fid, c.accepted, want, met.PRs)
		}
		for w := range n {
			r, h := rec.computed[w], rec.holds[w]
			if len(r) < len(h) || len(r) > len(h)+1 {
				t.Errorf("worker %d: %d ready signals, %d results", w, len(r), len(h))
				continue
			}
			for i := range h {
				if h[i] < r[i] || (i+1 < len(r) && r[i+1] < h[i]) {
					t.Errorf("worker %d: ready %v, results %v out of order", w, r, h)
					break
				}
			}
		}
	}
}

// TestOverlapRefusals: the settings overlap does not run with are refused
// before the run.
func TestOverlapRefusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Config)
	}{
		{"a2a", func(c *Config) { c.Scheme = A2A }},
		{"non-blocking", func(c *Config) { c.Scatter = NonBlocking }},
		{"outages", func(c *Config) { c.Faults = []Fault{{Kind: FaultLink, A: 0, B: 1, At: netsim.Second}} }},
		{"budget", func(c *Config) { c.Budget = netsim.Second }},
		{"no bytes", func(c *Config) { c.Buckets = []layers.Bucket{{Hi: 1, Forward: 1}} }},
	} {
		nt := twoWorkerNet(t)
		cfg := twoWorkerConfig(twoBuckets)
		tc.edit(&cfg)
		if _, err := NewCluster(nt, cfg); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}
