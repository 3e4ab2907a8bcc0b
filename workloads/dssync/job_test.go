package dssync

import (
	"testing"

	"syncsim/netsim"
	"syncsim/workloads/training"
)

// fixedRun is a collective that takes per(size) and logs its runs.
type fixedRun struct {
	sim  *netsim.Sim
	per  func(ws []int, size netsim.Bytes) netsim.Time
	runs []string
}

func (f *fixedRun) run(ws []int, size netsim.Bytes, done func()) error {
	f.runs = append(f.runs, Grouping{ws}.String()+"@"+f.sim.Now().String())
	f.sim.AfterFunc(f.per(ws, size), done)
	return nil
}

// The training loop worked out by hand: two pieces, forward 20, backward
// 40, a collective of 30 per piece. Iteration 0: forward 0-20, backward of
// piece 1 20-40 (invoked at 40, synchronised 40-70), of piece 0 40-60
// (invoked at 60, runs after piece 1: 70-100). Iteration 1's forward waits
// for piece 0 until 100: forward 100-120, backward 120-160, pieces
// synchronised 140-170 and 170-200. Every iteration then takes 100 and
// communicates for 60 (first invocation to last completion).
func TestJobHandWorked(t *testing.T) {
	sim := netsim.New(1)
	fr := &fixedRun{sim: sim, per: func([]int, netsim.Bytes) netsim.Time { return 30 }}
	j, err := NewJob(sim, JobConfig{Name: "t", Hosts: []netsim.NodeID{0, 1}, Pieces: []netsim.Bytes{1, 1},
		Forward: 20, Backward: 40, Iterations: 3, Record: true}, NewGroupSync(All(2), fr.run))
	if err != nil {
		t.Fatal(err)
	}
	var end netsim.Time
	j.Start(func() { end = sim.Now() })
	sim.Run(netsim.Never)
	if end != 300 {
		t.Errorf("job ended at %v, want 300 ps", end)
	}
	want := []string{"{0 1}@40ps", "{0 1}@70ps", "{0 1}@140ps", "{0 1}@170ps", "{0 1}@240ps", "{0 1}@270ps"}
	if len(fr.runs) != len(want) {
		t.Fatalf("runs %v, want %v", fr.runs, want)
	}
	for i := range want {
		if fr.runs[i] != want[i] {
			t.Errorf("run %d: %s, want %s", i, fr.runs[i], want[i])
		}
	}
	for w := 0; w < 2; w++ {
		st := j.Stats(w)
		if st.Iterations != 3 || st.Comm != 60 || st.Iter != 100 {
			t.Errorf("worker %d: %+v, want 3 iterations, comm 60, iteration 100", w, st)
		}
	}
	if len(j.Log) != 6 || j.Log[0].Start != 40 || j.Log[0].End != 100 {
		t.Errorf("log %+v", j.Log)
	}
}

// Groups progress independently: with groups {0 1} and {2} and a
// collective of 10 per worker in the group, the pair's iterations take
// compute + its synchronisation while the lone worker (nothing to send)
// runs at the pace of its compute; a worker's next iteration only waits
// for its own group. Warm-up iterations are left out.
func TestJobGroupsIndependent(t *testing.T) {
	sim := netsim.New(1)
	fr := &fixedRun{sim: sim, per: func(ws []int, _ netsim.Bytes) netsim.Time { return netsim.Time(10 * (len(ws) - 1)) }}
	g := Fixed{{0, 1}, {2}}
	j, err := NewJob(sim, JobConfig{Name: "t", Hosts: []netsim.NodeID{0, 1, 2}, Pieces: []netsim.Bytes{1},
		Forward: 10, Backward: 20, Iterations: 5, Warmup: 1}, NewGroupSync(g, fr.run))
	if err != nil {
		t.Fatal(err)
	}
	j.Start(nil)
	sim.Run(netsim.Never)
	for w, want := range []WorkerStats{{4, 10, 40}, {4, 10, 40}, {4, 0, 30}} {
		if st := j.Stats(w); st != want {
			t.Errorf("worker %d: %+v, want %+v", w, st, want)
		}
	}
	if !j.Done() {
		t.Error("job not done")
	}
}

func TestJobConfigErrors(t *testing.T) {
	sim := netsim.New(1)
	s := NewGroupSync(All(1), func([]int, netsim.Bytes, func()) error { return nil })
	ok := JobConfig{Hosts: []netsim.NodeID{0}, Pieces: []netsim.Bytes{1}, Iterations: 2}
	for _, tc := range []struct {
		name string
		mod  func(c *JobConfig)
	}{
		{"no hosts", func(c *JobConfig) { c.Hosts = nil }},
		{"no pieces", func(c *JobConfig) { c.Pieces = nil }},
		{"negative piece", func(c *JobConfig) { c.Pieces = []netsim.Bytes{-1} }},
		{"negative compute", func(c *JobConfig) { c.Forward = -1 }},
		{"spread 1", func(c *JobConfig) { c.Spread = 1 }},
		{"warm-up too long", func(c *JobConfig) { c.Warmup = 2 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.mod(&c)
			if _, err := NewJob(sim, c, s); err == nil {
				t.Fatal("no error")
			}
		})
	}
	if _, err := NewJob(sim, ok, nil); err == nil {
		t.Error("nil syncer accepted")
	}
}

// A compute trace replaces the nominal compute: a constant 120 ps trace
// over a nominal 20 + 40 doubles both passes, so TestJobHandWorked's
// iteration becomes forward 40, backward 80 with the same 30 per piece:
// the first pieces are invoked at 80 and 120 and synchronised by 110 and
// 150, and every iteration then takes 150, 70 of it communicating.
func TestJobComputeTrace(t *testing.T) {
	sim := netsim.New(1)
	fr := &fixedRun{sim: sim, per: func([]int, netsim.Bytes) netsim.Time { return 30 }}
	j, err := NewJob(sim, JobConfig{Name: "t", Hosts: []netsim.NodeID{0, 1}, Pieces: []netsim.Bytes{1, 1},
		Forward: 20, Backward: 40, Trace: training.Constant{T: 120e-12}, Spread: 0.5, Iterations: 3}, NewGroupSync(All(2), fr.run))
	if err != nil {
		t.Fatal(err)
	}
	j.Start(nil)
	sim.Run(netsim.Never)
	for w := 0; w < 2; w++ {
		if st := j.Stats(w); st.Comm != 70 || st.Iter != 150 {
			t.Errorf("worker %d: %+v, want comm 70, iteration 150", w, st)
		}
	}
}
