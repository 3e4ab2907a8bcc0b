package mixed

import (
	"math"
	"reflect"
	"testing"

	"syncsim/experiments"
)

// runMixed runs one trial of mixed-fabric with the books checked, at
// threads threads, with series.
func runMixed(t *testing.T, threads int, sets ...string) *experiments.Result {
	t.Helper()
	e := MixedFabric()
	ps, err := e.Resolve(sets)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(&experiments.Run{Exp: e, Params: ps, Seed: 3, Check: true, Series: true, Threads: threads})
	if err != nil {
		t.Fatalf("%v: %v", sets, err)
	}
	if res.Metrics["jobs_done_frac"] != 1 {
		t.Fatalf("%v: jobs_done_frac %v", sets, res.Metrics["jobs_done_frac"])
	}
	return res
}

// iterMs is the iteration times (ms) of the run's iterations series.
func iterMs(t *testing.T, res *experiments.Result) []float64 {
	t.Helper()
	for _, s := range res.Series {
		if s.Name == "iterations" {
			var out []float64
			for _, r := range s.Rows {
				out = append(out, r[4])
			}
			return out
		}
	}
	t.Fatal("no iterations series")
	return nil
}

// ringAlone is one ring of 4 hosts, each alone under its leaf (4
// partitions, lookahead = delay_us = 2 us), one spine and buffers deep
// enough for no drop: every step of the ring is the same on both engines
// but for when it starts.
var ringAlone = []string{"ina_jobs=0", "ring_workers=4", "spines=1", "leaves=4", "hosts_per_leaf=1", "load=0",
	"buffer_kb=100000", "ring_mb=1", "iterations=3"}

// TestPartitionedRingHandWorked: on the partitioned engine a ring host
// learns that its send to the next host (another partition) completed one
// lookahead L later, so each of the 2(n-1) = 6 steps but the first
// starts L later than on the sequential engine, where the receipt of the
// predecessor's chunk and the completion of the own send coincide (to
// the few nanoseconds by which the hosts' steps drift apart, here 3.2 ns
// a step): an iteration lasts 5 L = 10 us longer, less that drift. With a
// compute time (1 us) below the lookahead, iterations after the first
// start their all-reduce at the barrier after the previous end instead:
// up to one more L.
func TestPartitionedRingHandWorked(t *testing.T) {
	const (
		L     = 0.002   // ms
		drift = 0.00005 // ms: 10 ns a step
	)
	seq := iterMs(t, runMixed(t, 1, ringAlone...))
	par := iterMs(t, runMixed(t, 2, append(ringAlone, "engine=partitioned")...))
	if len(seq) != 3 || len(par) != 3 {
		t.Fatalf("iterations: %d sequential, %d partitioned", len(seq), len(par))
	}
	for k := range seq {
		if d := par[k] - seq[k]; d > 5*L+1e-9 || d < 5*(L-drift) {
			t.Errorf("iteration %d: partitioned %.7f ms, sequential %.7f ms: +%.7f ms, want +5 L = %.3f ms", k, par[k], seq[k], d, 5*L)
		}
	}
	short := append(ringAlone, "compute_ms=0.001")
	seq = iterMs(t, runMixed(t, 1, short...))
	par = iterMs(t, runMixed(t, 2, append(short, "engine=partitioned")...))
	for k := range seq {
		d, hi := par[k]-seq[k], 5*L
		if k > 0 {
			hi = 6 * L
		}
		if d < 5*(L-drift) || d > hi+1e-9 {
			t.Errorf("compute 1 us, iteration %d: partitioned %.7f ms, sequential %.7f ms: +%.7f ms, want in [5 L, %.3f ms]", k, par[k], seq[k], d, hi)
		}
	}
}

// TestMixedPartitionedThreads: INA, ring, partial-reduce and background tenants on the
// parallel engine give the same metrics and series at 1 and 3 threads
// (more threads than cores, under -race too), with every book checked
// and every job done; ring hosts lie in several partitions.
func TestMixedPartitionedThreads(t *testing.T) {
	sets := []string{"spines=2", "leaves=3", "hosts_per_leaf=5", "ina_jobs=1", "workers=3", "ring_jobs=2", "ring_workers=3",
		"gradient_mb=0.3", "ring_mb=0.5", "iterations=2", "load=0.3", "bg_warmup_ms=0.2", "engine=partitioned",
		"pr_jobs=1", "pr_workers=3", "pr_p=2", "pr_mb=0.3", "pr_compute_ms=0.05", "pr_scheme=selective-reduce"}
	for _, overlap := range []string{"none", "layer"} {
		// The ring jobs and the partial-reduce job all-reduce after the
		// compute, or bucket by bucket during it (ring_partitioned.go,
		// ring_layers.go, pr_partitioned.go).
		sets := append(sets[:len(sets):len(sets)], "overlap="+overlap, "pr_overlap="+overlap)
		one := runMixed(t, 1, sets...)
		three := runMixed(t, 3, sets...)
		if !reflect.DeepEqual(one.Metrics, three.Metrics) && !sameNaN(one.Metrics, three.Metrics) {
			t.Fatalf("overlap=%s: metrics differ:\n%v\n%v", overlap, one.Metrics, three.Metrics)
		}
		if !reflect.DeepEqual(iterMs(t, one), iterMs(t, three)) {
			t.Fatalf("overlap=%s: iteration series differ", overlap)
		}
		if one.Metrics["flows_done"] == 0 || math.IsNaN(one.Metrics["ring_iter_ms"]) || math.IsNaN(one.Metrics["ina_iter_ms"]) ||
			math.IsNaN(one.Metrics["pr_jct_ms"]) {
			t.Fatalf("overlap=%s: tenants missing: %v", overlap, one.Metrics)
		}
	}
	// The ring hosts cross partitions (a leaf per partition).
	r := &experiments.Run{Exp: MixedFabric(), Seed: 3, Threads: 1}
	var err error
	if r.Params, err = r.Exp.Resolve(sets); err != nil {
		t.Fatal(err)
	}
	rig, err := buildMixedFabric(r)
	if err != nil {
		t.Fatal(err)
	}
	cross := false
	for _, j := range rig.rings {
		for i := range j.lay.hosts {
			cross = cross || j.lay.hosts[i].sim != j.lay.hosts[0].sim
		}
	}
	if !cross {
		t.Fatal("no ring crosses partitions")
	}
}

// sameNaN reports whether a and b hold the same values, NaN equal to NaN.
func sameNaN(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || (v != w && !(math.IsNaN(v) && math.IsNaN(w))) {
			return false
		}
	}
	return true
}
