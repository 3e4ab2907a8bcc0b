package mixed

import (
	"math"
	"slices"
	"strings"
	"testing"

	"syncsim/experiments"
	"syncsim/experiments/exptest"
	"syncsim/inagg"
	"syncsim/topologies"
)

// mixedTiny is a small mixed fabric: 2 spines x 2 leaves x 4 hosts, one INA
// job of 3 workers + PS, one ring job of 3 hosts (one host idle), 0.5 MB per
// iteration, 2 iterations, Hadoop background at load 0.3 on every host.
var mixedTiny = []string{"spines=2", "leaves=2", "hosts_per_leaf=4", "ina_jobs=1", "workers=3",
	"ring_jobs=1", "ring_workers=3", "gradient_mb=0.5", "ring_mb=0.5", "iterations=2", "load=0.3"}

func mixedSets(extra ...string) []string {
	return append(append([]string(nil), mixedTiny...), extra...)
}

// TestMixedFabricChecked runs every tenant together at tiny scale with the
// books checked (exptest.Run sets Check: every INA job's exact sums and
// contribution counts, no leaked aggregator, every ring transfer delivered
// once, packet conservation), for each INA protocol, and checks bounds no
// correct run can break:
//
//   - an INA iteration lasts at least compute + the worker's push of its
//     gradient at the host rate, with inagg's 62 B header per 248 B payload;
//   - a ring iteration lasts at least compute + the ring all-reduce's
//     bandwidth term 2(n-1)/n S/B (the latency term only adds);
//   - INA protocols aggregate in the switch; BytePS never does.
func TestMixedFabricChecked(t *testing.T) {
	const (
		compute = 0.05e-3 // s, the default compute_ms
		grad    = 0.5e6   // B
		rate    = 100e9   // bit/s
		n       = 3
	)
	inaMin := (compute + grad*310/248*8/rate) * 1e3
	ringMin := (compute + 2*float64(n-1)/n*grad*8/rate) * 1e3
	for _, proto := range []string{"pa-atp", "atp", "switchml", "strawasyn", "byteps"} {
		t.Run(proto, func(t *testing.T) {
			m := exptest.Run(t, MixedFabric(), 1, mixedSets("protocol="+proto)...).Metrics
			if m["jobs_done_frac"] != 1 {
				t.Fatalf("jobs_done = %v", m["jobs_done_frac"])
			}
			if !(m["ina_iter_ms"] >= inaMin) || !(m["ring_iter_ms"] >= ringMin) {
				t.Errorf("ajct %.4f ms (min %.4f), ring iteration %.4f ms (min %.4f)", m["ina_iter_ms"], inaMin, m["ring_iter_ms"], ringMin)
			}
			if got := m["makespan_ms"]; !(got >= 2*math.Max(m["ina_iter_ms"], m["ring_iter_ms"])*0.999) {
				t.Errorf("makespan %.4f ms shorter than two iterations of the slower job", got)
			}
			p, _ := inagg.ParseProtocol(proto)
			if p.INA() {
				if !(m["switch_agg_frac"] > 0.5 && m["switch_agg_frac"] <= 1) || !(m["switch_agg_tput_gbps"] > 0) {
					t.Errorf("switch_agg_frac %v, agg_tput_gbps %v", m["switch_agg_frac"], m["switch_agg_tput_gbps"])
				}
			} else if m["switch_agg_frac"] != 0 || m["switch_agg_tput_gbps"] != 0 {
				t.Errorf("BytePS aggregated in a switch: frac %v, %v Gbit/s", m["switch_agg_frac"], m["switch_agg_tput_gbps"])
			}
			// The ideal FCT charges one full segment's store-and-forward
			// per switch (unloadedLatency), so flows smaller than a segment
			// (most Hadoop flows) can beat it by a few percent.
			if !(m["flows_done"] > 0 && m["flows_done"] <= m["flows_started"]) ||
				!(m["fct_slowdown_p50"] >= 0.9 && m["fct_slowdown_p99"] >= m["fct_slowdown_p50"]) {
				t.Errorf("background: %v of %v flows done, slowdown p50 %v p99 %v",
					m["flows_done"], m["flows_started"], m["fct_slowdown_p50"], m["fct_slowdown_p99"])
			}
		})
	}
}

// TestMixedFabricAggThroughput checks agg_tput_gbps against its definition
// with a hand count: one SwitchML job (slot pools, so no hash collisions)
// of W workers on an otherwise idle fabric aggregates every worker's G
// bytes in the switch in each of I iterations; divided by the job's
// makespan.
func TestMixedFabricAggThroughput(t *testing.T) {
	m := exptest.Run(t, MixedFabric(), 2, "spines=1", "leaves=2", "hosts_per_leaf=2", "ina_jobs=1", "workers=3",
		"protocol=switchml", "ring_jobs=0", "load=0", "gradient_mb=0.1", "iterations=2").Metrics
	if m["switch_agg_frac"] != 1 {
		t.Fatalf("switch_agg_frac = %v, want 1 on an otherwise idle fabric", m["switch_agg_frac"])
	}
	const W, I, G = 3, 2, 100000
	want := float64(W*I*G) * 8 / (m["makespan_ms"] * 1e-3) / 1e9
	if d := math.Abs(m["switch_agg_tput_gbps"]/want - 1); d > 1e-9 {
		t.Errorf("agg_tput_gbps %v, want %v", m["switch_agg_tput_gbps"], want)
	}
	if !math.IsNaN(m["ring_iter_ms"]) || !math.IsNaN(m["fct_slowdown_p50"]) {
		t.Errorf("ring and background metrics must be NaN without them: %v %v", m["ring_iter_ms"], m["fct_slowdown_p50"])
	}
}

// TestMixedFabricDeterminism: the same seed gives identical metrics; another
// seed moves the placement and the background flows.
func TestMixedFabricDeterminism(t *testing.T) {
	a := exptest.Run(t, MixedFabric(), 7, mixedTiny...).Metrics
	b := exptest.Run(t, MixedFabric(), 7, mixedTiny...).Metrics
	for k, v := range a {
		if !(v == b[k] || math.IsNaN(v) && math.IsNaN(b[k])) {
			t.Fatalf("%s differs between identical runs: %v vs %v", k, v, b[k])
		}
	}
	c := exptest.Run(t, MixedFabric(), 8, mixedTiny...).Metrics
	if c["events"] == a["events"] && c["ina_iter_ms"] == a["ina_iter_ms"] && c["ring_iter_ms"] == a["ring_iter_ms"] {
		t.Fatal("seeds 7 and 8 gave identical runs")
	}
}

// TestMixedFabricInteraction checks that the tenants really share the
// fabric: each would be unaffected by the others if they ran on separate
// networks or endpoints, so these orderings fail unless packets of
// different tenants meet in the same queues.
//
//   - A ring job's iterations slow down when Hadoop background load rises
//     from 0 to 0.6 (INA jobs absent).
//   - INA jobs' AJCT rises when ring jobs run beside them (no background).
//     Placement takes INA hosts first from the same seeded shuffle, so the
//     INA jobs sit on the same hosts in both runs. On separate queues the
//     two runs would give the same AJCT; the margin asserted is 5% on the
//     median of seeds 2-4 (observed 5.2-14.8% on seeds 1-8, 11.8% in
//     the median; one seed alone, seed 3 at 5.2%, moves across the margin
//     with the order of same-instant events: 4.7% with planned departures,
//     netsim/plan.go).
func TestMixedFabricInteraction(t *testing.T) {
	fab := []string{"spines=1", "leaves=2", "hosts_per_leaf=4", "gradient_mb=0.5", "ring_mb=0.5", "iterations=2"}
	with := func(extra ...string) []string { return append(append([]string(nil), fab...), extra...) }

	quiet := exptest.Run(t, MixedFabric(), 3, with("ina_jobs=0", "ring_jobs=1", "ring_workers=4", "load=0")...).Metrics
	busy := exptest.Run(t, MixedFabric(), 3, with("ina_jobs=0", "ring_jobs=1", "ring_workers=4", "load=0.6")...).Metrics
	if !(busy["ring_iter_ms"] > 1.1*quiet["ring_iter_ms"]) {
		t.Errorf("ring iteration %.4f ms without background, %.4f ms at load 0.6: want at least 10%% slower",
			quiet["ring_iter_ms"], busy["ring_iter_ms"])
	}

	var ratios []float64
	for seed := uint64(2); seed <= 4; seed++ {
		alone := exptest.Run(t, MixedFabric(), seed, with("ina_jobs=1", "workers=3", "ring_jobs=0", "load=0")...).Metrics
		shared := exptest.Run(t, MixedFabric(), seed, with("ina_jobs=1", "workers=3", "ring_jobs=1", "ring_workers=4", "load=0")...).Metrics
		ratios = append(ratios, shared["ina_iter_ms"]/alone["ina_iter_ms"])
	}
	slices.Sort(ratios)
	if !(ratios[1] > 1.05) {
		t.Errorf("INA AJCT beside a ring job over alone, seeds 2-4: %.3f; want the median at least 5%% slower", ratios)
	}
	t.Logf("ring %.4f -> %.4f ms; INA beside a ring job over alone %.3f", quiet["ring_iter_ms"], busy["ring_iter_ms"], ratios)
}

// TestMixedFabricIdleBackground: with bg_hosts=idle no background flow
// touches a job host, so on a fabric whose only shared element would be the
// job hosts' NICs (one leaf, so every path is host-leaf-host) the ring job
// is exactly as fast as without background; with bg_hosts=all it is not.
func TestMixedFabricIdleBackground(t *testing.T) {
	base := []string{"spines=1", "leaves=1", "hosts_per_leaf=8", "ina_jobs=0", "ring_jobs=1", "ring_workers=4",
		"ring_mb=1", "iterations=2"}
	with := func(extra ...string) []string { return append(append([]string(nil), base...), extra...) }
	none := exptest.Run(t, MixedFabric(), 4, with("load=0")...).Metrics
	idle := exptest.Run(t, MixedFabric(), 4, with("load=0.5", "bg_hosts=idle")...).Metrics
	all := exptest.Run(t, MixedFabric(), 4, with("load=0.5", "bg_hosts=all")...).Metrics
	if idle["ring_iter_ms"] != none["ring_iter_ms"] {
		t.Errorf("bg_hosts=idle changed the ring job: %v vs %v ms", idle["ring_iter_ms"], none["ring_iter_ms"])
	}
	if !(idle["flows_done"] > 0) {
		t.Errorf("bg_hosts=idle ran no background flows")
	}
	if all["ring_iter_ms"] == none["ring_iter_ms"] {
		t.Errorf("bg_hosts=all left the ring job untouched (%v ms)", all["ring_iter_ms"])
	}
}

// TestMixedFabricErrors: impossible set-ups are errors naming the problem.
func TestMixedFabricErrors(t *testing.T) {
	e := MixedFabric()
	for _, c := range []struct {
		name string
		sets []string
		want string
	}{
		{"too many hosts", []string{"spines=1", "leaves=2", "hosts_per_leaf=2", "ina_jobs=1", "workers=4"}, "need"},
		{"no jobs", []string{"ina_jobs=0", "ring_jobs=0"}, "no jobs"},
		{"no idle hosts", []string{"spines=1", "leaves=1", "hosts_per_leaf=5", "ina_jobs=1", "workers=2", "ring_jobs=1",
			"ring_workers=2", "bg_hosts=idle"}, "background hosts"},
		{"warm-up beyond the run", []string{"spines=1", "leaves=1", "hosts_per_leaf=4", "ina_jobs=0", "ring_workers=2",
			"ring_mb=0.01", "iterations=1", "warmup_ms=100"}, "warmup"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ps, err := e.Resolve(c.sets)
			if err != nil {
				t.Fatal(err)
			}
			_, err = e.Run(&experiments.Run{Exp: e, Params: ps, Seed: 1, Check: true})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one mentioning %q", err, c.want)
			}
		})
	}
}

// TestMixedBDP checks the BDP used for the aggregators on the PA-ATP NS3
// fabric by hand: 8 x 2 us + 4 x 24.8 ns (310 B at 100 Gbps) + 4 x 4.96 ns
// (62 B) = 16.119 us; 100 Gbps x 16.119 us = 201 488 B = 649 packets of 310 B.
func TestMixedBDP(t *testing.T) {
	got := mixedBDPPackets(topologies.DefaultLeafSpine(), 4)
	if got != 649 {
		t.Fatalf("BDP = %d packets, want 649", got)
	}
}

// TestMixedFabricSeries checks the iterations series against the metrics:
// one row per job and iteration, the last end is the jobs' start (the
// background's 12 ms warm-up) plus the makespan (the run stops when the
// last job finishes), and the rows' mean durations are ina_iter_ms and
// ring_iter_ms.
func TestMixedFabricSeries(t *testing.T) {
	e := MixedFabric()
	ps, err := e.Resolve(mixedTiny)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(&experiments.Run{Exp: e, Params: ps, Seed: 5, Check: true, Series: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Series) != 1 || res.Series[0].Name != "iterations" {
		t.Fatalf("series %+v", res.Series)
	}
	rows := res.Series[0].Rows
	if len(rows) != 2*2 {
		t.Fatalf("%d rows, want 2 jobs x 2 iterations", len(rows))
	}
	var last float64
	var sum, n [2]float64
	for _, r := range rows {
		last = math.Max(last, r[3])
		sum[int(r[1])] += r[4]
		n[int(r[1])]++
	}
	m := res.Metrics
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Abs(b) }
	if !near(last, 12+m["makespan_ms"]) || !near(sum[0]/n[0], m["ina_iter_ms"]) || !near(sum[1]/n[1], m["ring_iter_ms"]) {
		t.Fatalf("series: last end %v, means %v %v; metrics: makespan %v, ajct %v, ring %v",
			last, sum[0]/n[0], sum[1]/n[1], m["makespan_ms"], m["ina_iter_ms"], m["ring_iter_ms"])
	}
}

// BenchmarkMixedFabric runs the tiny mixed fabric (one INA job, one ring
// job, Hadoop background at load 0.3) end to end; events/s is the
// simulator's throughput on a mix of INA, DCTCP and background traffic.
func BenchmarkMixedFabric(b *testing.B) {
	b.ReportAllocs()
	e := MixedFabric()
	ps, err := e.Resolve(mixedTiny)
	if err != nil {
		b.Fatal(err)
	}
	var events uint64
	for i := 0; i < b.N; i++ {
		res, err := e.Run(&experiments.Run{Exp: e, Params: ps, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		events += res.Events
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}
