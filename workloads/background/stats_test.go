package background

import (
	"math"
	"strings"
	"testing"

	"syncsim/netsim"
)

func TestNewDistByHand(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name string
		xs   []float64
		want Dist
	}{
		{"empty", nil, Dist{0, nan, nan, nan, nan}},
		{"single", []float64{5}, Dist{1, 5, 5, 5, 5}},
		// Type 7: rank = p/100 * (n-1). p95: rank 2.85 -> 3 + 0.85*(4-3).
		{"four unsorted", []float64{4, 1, 3, 2}, Dist{4, 2.5, 2.5, 3.85, 3.97}},
		// n = 101: rank p exactly, so p95 = 95 and p99 = 99 on 0..100.
		{"0 to 100", seq(101), Dist{101, 50, 50, 95, 99}},
		{"ties", []float64{7, 7, 7, 1}, Dist{4, 5.5, 7, 7, 7}},
	}
	same := func(a, b float64) bool { return (math.IsNaN(a) && math.IsNaN(b)) || near(a, b, 1e-12) }
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := NewDist(tc.xs)
			if got.N != tc.want.N || !same(got.Mean, tc.want.Mean) || !same(got.P50, tc.want.P50) ||
				!same(got.P95, tc.want.P95) || !same(got.P99, tc.want.P99) {
				t.Errorf("NewDist = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func seq(n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(n - 1 - i) // descending, to exercise the sort
	}
	return xs
}

// handFlows is a worked example at 8 Gbps (1 byte/ns) with a 1 us path
// latency, window [10 us, 110 us):
//
//	id start  size        bucket  end              ideal        slowdown
//	0  10us-1ps 1000      -       (before warm-up: excluded)
//	1  10us   1000        small   +4us             2us          2
//	2  20us   100000      small   +303us           101us        3
//	3  30us   100001      medium  not done
//	4  40us   10000000    large   +10001us         10001us      1
//	5  50us   10000001    xlarge  +4*10001.001us   10001.001us  4
//	6  110us  1000        -       (at Stop: excluded)
func handFlows() []Flow {
	us := netsim.Microsecond
	return []Flow{
		{ID: 0, Size: 1000, Start: 10*us - 1, End: 14 * us, Done: true},
		{ID: 1, Size: 1000, Start: 10 * us, End: 14 * us, Done: true},
		{ID: 2, Size: 100000, Start: 20 * us, End: 323 * us, Done: true},
		{ID: 3, Size: 100001, Start: 30 * us},
		{ID: 4, Size: 10000000, Start: 40 * us, End: 10041 * us, Done: true},
		{ID: 5, Size: 10000001, Start: 50 * us, End: 50*us + 4*10001001*netsim.Nanosecond, Done: true},
		{ID: 6, Size: 1000, Start: 110 * us, End: 112 * us, Done: true},
	}
}

func handConfig() StatsConfig {
	return StatsConfig{
		Warmup: 10 * netsim.Microsecond, Stop: 110 * netsim.Microsecond,
		HostRate: 8 * netsim.Gbps, Capacity: 2e9,
		Latency: ConstLatency(netsim.Microsecond),
	}
}

func TestSummarizeByHand(t *testing.T) {
	s, err := Summarize(handFlows(), handConfig())
	if err != nil {
		t.Fatal(err)
	}
	if s.Excluded != 2 || s.All.Started != 5 || s.All.Done != 4 {
		t.Fatalf("excluded %d started %d done %d, want 2 5 4", s.Excluded, s.All.Started, s.All.Done)
	}
	const offered = 1000 + 100000 + 100001 + 10000000 + 10000001
	if s.OfferedBytes != offered || !near(s.OfferedLoad, offered/(100e-6*2e9), 1e-9) {
		t.Errorf("offered %d bytes, load %v", s.OfferedBytes, s.OfferedLoad)
	}
	// Slowdowns 2, 3, 1, 4.
	if d := s.All.Slowdown; d.N != 4 || !near(d.Mean, 2.5, 1e-12) || !near(d.P50, 2.5, 1e-12) || !near(d.P95, 3.85, 1e-12) || !near(d.P99, 3.97, 1e-12) {
		t.Errorf("all slowdown %+v", d)
	}
	// FCTs 4, 303, 10001, 40004.004 us.
	fct := s.All.FCT
	if !near(fct.Mean, 50312.004e-6/4, 1e-12) || !near(fct.P50, (303+10001)/2*1e-6, 1e-12) ||
		!near(fct.P95, (10001+0.85*(40004.004-10001))*1e-6, 1e-12) {
		t.Errorf("all FCT %+v", fct)
	}
	want := []struct {
		name          string
		started, done int
		slowMean      float64
		slowP99       float64
	}{
		{"small", 2, 2, 2.5, 2.99},
		{"medium", 1, 0, math.NaN(), math.NaN()},
		{"large", 1, 1, 1, 1},
		{"xlarge", 1, 1, 4, 4},
	}
	if len(s.Buckets) != len(want) {
		t.Fatalf("%d buckets", len(s.Buckets))
	}
	for i, w := range want {
		b := s.Buckets[i]
		okMean := near(b.Slowdown.Mean, w.slowMean, 1e-12) || (math.IsNaN(w.slowMean) && math.IsNaN(b.Slowdown.Mean))
		okP99 := near(b.Slowdown.P99, w.slowP99, 1e-12) || (math.IsNaN(w.slowP99) && math.IsNaN(b.Slowdown.P99))
		if b.Name != w.name || b.Started != w.started || b.Done != w.done || !okMean || !okP99 {
			t.Errorf("bucket %d: %+v, want %+v", i, b, w)
		}
	}
}

// WireBytes enters the ideal FCT: with 20% framing overhead, flow 1's ideal
// becomes 1.2 us + 1 us and its slowdown 4 / 2.2.
func TestSummarizeWireBytes(t *testing.T) {
	cfg := handConfig()
	cfg.WireBytes = func(b netsim.Bytes) netsim.Bytes { return b * 6 / 5 }
	cfg.Buckets = []Bucket{{"tiny", 0, 1000}}
	s, err := Summarize(handFlows(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Buckets) != 1 || s.Buckets[0].Done != 1 || !near(s.Buckets[0].Slowdown.Mean, 4/2.2, 1e-12) {
		t.Errorf("tiny bucket %+v, want one flow with slowdown %v", s.Buckets[0], 4/2.2)
	}
	if s.All.Done != 4 {
		t.Errorf("flows outside every bucket must still count in all: done %d", s.All.Done)
	}
}

func TestSummarizeRejectsBadInput(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(c *StatsConfig, f []Flow)
		wants string
	}{
		{"stop at warm-up", func(c *StatsConfig, f []Flow) { c.Stop = c.Warmup }, "not after warm-up"},
		{"zero rate", func(c *StatsConfig, f []Flow) { c.HostRate = 0 }, "rate"},
		{"zero capacity", func(c *StatsConfig, f []Flow) { c.Capacity = 0 }, "capacity"},
		{"nan capacity", func(c *StatsConfig, f []Flow) { c.Capacity = math.NaN() }, "capacity"},
		{"empty bucket", func(c *StatsConfig, f []Flow) { c.Buckets = []Bucket{{"x", 5, 5}} }, "bucket \"x\""},
		{"end before start", func(c *StatsConfig, f []Flow) { f[1].End = f[1].Start - 1 }, "before it starts"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg, flows := handConfig(), handFlows()
			tc.edit(&cfg, flows)
			if _, err := Summarize(flows, cfg); err == nil || !strings.Contains(err.Error(), tc.wants) {
				t.Fatalf("err = %v, want one containing %q", err, tc.wants)
			}
		})
	}
}

func TestMetrics(t *testing.T) {
	s, err := Summarize(handFlows(), handConfig())
	if err != nil {
		t.Fatal(err)
	}
	ms := s.Metrics("bg_")
	schema := MetricSchema("bg_", nil)
	if len(ms) != 3+8+4*9 || len(schema) != len(ms) {
		t.Fatalf("%d metrics, %d in the schema; want 47", len(ms), len(schema))
	}
	seen := map[string]float64{}
	for i, m := range ms {
		if m.Name != schema[i].Name || !strings.HasPrefix(m.Name, "bg_") || m.Help == "" {
			t.Errorf("metric %d: %q, schema %q", i, m.Name, schema[i].Name)
		}
		if _, dup := seen[m.Name]; dup {
			t.Errorf("duplicate metric %q", m.Name)
		}
		seen[m.Name] = m.Value
		if !math.IsNaN(schema[i].Value) && !strings.HasSuffix(m.Name, "_flows_done") && !strings.HasSuffix(m.Name, "flows_started") {
			t.Errorf("schema value of %q is %v, want NaN", m.Name, schema[i].Value)
		}
	}
	checks := map[string]float64{
		"bg_flows_started":       5,
		"bg_flows_done":          4,
		"bg_fct_p50_us":          5152,
		"bg_slowdown_mean":       2.5,
		"bg_small_slowdown_p99":  2.99,
		"bg_small_flows_done":    2,
		"bg_xlarge_fct_mean_us":  40004.004,
		"bg_large_slowdown_p50":  1,
		"bg_medium_flows_done":   0,
		"bg_medium_fct_p99_us":   math.NaN(),
		"bg_medium_slowdown_p95": math.NaN(),
	}
	for name, want := range checks {
		got, ok := seen[name]
		if !ok || !(near(got, want, 1e-6) || (math.IsNaN(want) && math.IsNaN(got))) {
			t.Errorf("%s = %v (present %v), want %v", name, got, ok, want)
		}
	}
}

func TestGeneratorStatsNeedsStop(t *testing.T) {
	g, err := New(netsim.New(1), &instantBulk{}, Config{CDF: workload(t, "hadoop"), Load: 0.5, Hosts: hostIDs(2), HostRate: netsim.Gbps})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Stats(StatsConfig{}); err == nil || !strings.Contains(err.Error(), "no stop time") {
		t.Errorf("err = %v", err)
	}
}
