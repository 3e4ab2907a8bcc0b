package ina

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"syncsim/experiments"
	"syncsim/experiments/exptest"
	"syncsim/inagg"
	"syncsim/netsim"
)

// runINA resolves sets over the experiment's defaults and runs one checked
// run (job sums, aggregator leaks, packet conservation).
func runINA(t *testing.T, name string, seed uint64, sets ...string) map[string]float64 {
	t.Helper()
	return exptest.Run(t, lookup(t, name), seed, sets...).Metrics
}

// with returns base with each key=value of over replacing base's value of
// that key, or appended.
func with(base []string, over ...string) []string {
	out := append([]string(nil), base...)
	for _, o := range over {
		k := o[:strings.IndexByte(o, '=')+1]
		found := false
		for i, b := range out {
			if strings.HasPrefix(b, k) {
				out[i], found = o, true
			}
		}
		if !found {
			out = append(out, o)
		}
	}
	return out
}

// Tiny settings of each experiment, small enough for unit tests.
var (
	tinyLeafSpine = []string{"spines=2", "leaves=2", "hosts_per_leaf=4", "jobs=2", "workers=3", "link_gbps=10",
		"model=custom", "gradient_mb=0.1", "iterations=2", "load=0.3", "max_ms=200"}
	tinyTestbed = []string{"model=custom", "gradient_mb=0.2", "iterations=2", "load=0.3", "max_ms=200"}
	tinyBasic   = []string{"gradient_a_mb=0.7", "gradient_b_mb=0.3", "udp_ms=0.1", "job_b_start_ms=0.1"}
)

// TestINATinyRunsBalanceAndRepeat runs every INA experiment at a tiny scale
// with the books checked, and again with the same seed: the metrics must be
// identical, every job must finish, and the aggregation books must add up.
func TestINATinyRunsBalanceAndRepeat(t *testing.T) {
	cases := []struct {
		exp  string
		sets []string
		jobs float64
	}{
		{"ina-basic", with(tinyBasic, "protocol=pa-atp"), 2},
		{"ina-basic", with(tinyBasic, "protocol=switchml"), 2},
		{"ina-motivation", []string{"example=sync-vs-async", "unit_ms=0.1", "protocol=atp"}, 2},
		{"ina-motivation", []string{"example=sync-vs-async", "unit_ms=0.1", "protocol=strawasyn"}, 2},
		{"ina-testbed", with(tinyTestbed, "protocol=pa-atp"), 2},
		{"ina-testbed", with(tinyTestbed, "protocol=byteps", "jobs=1"), 1},
		{"ina-leafspine", with(tinyLeafSpine, "protocol=pa-atp"), 2},
		{"ina-leafspine", with(tinyLeafSpine, "protocol=strawasyn-al", "load=0"), 2},
	}
	for _, c := range cases {
		t.Run(c.exp+"/"+c.sets[len(c.sets)-1], func(t *testing.T) {
			a := runINA(t, c.exp, 7, c.sets...)
			b := runINA(t, c.exp, 7, c.sets...)
			for k, v := range a {
				if w := b[k]; v != w && !(math.IsNaN(v) && math.IsNaN(w)) {
					t.Errorf("same seed, %s differs: %v vs %v", k, v, w)
				}
			}
			if a["jobs_done"] != c.jobs {
				t.Fatalf("jobs_done = %v, want %v", a["jobs_done"], c.jobs)
			}
			if !(a["ajct_ms"] > 0) || !(a["jct_max_ms"] >= a["ajct_ms"]) {
				t.Errorf("ajct_ms %v, jct_max_ms %v", a["ajct_ms"], a["jct_max_ms"])
			}
			if f := a["switch_agg_frac"]; !(f >= 0 && f <= 1) {
				t.Errorf("switch_agg_frac = %v", f)
			}
			if !(a["agg_tput_gbps"] > 0) || a["events"] <= 0 {
				t.Errorf("agg_tput_gbps %v events %v", a["agg_tput_gbps"], a["events"])
			}
		})
	}
}

// TestINATestbedLastHop checks Fig. 9's premise against the wire: without
// background, BytePS pushes every worker's gradient through the PS's 40 Gbps
// last hop, so one iteration takes at least workers x G x 1514/1460 / 40
// Gbps, while INA protocols send each gradient once per worker link and
// cannot beat G x 310/248 / 40 Gbps. The INA protocols must come within
// 40% of their bound, and BytePS must be at least twice as slow as them.
func TestINATestbedLastHop(t *testing.T) {
	const mb = 1.0
	g := mb * 1e6
	rate := 40e9 / 8
	byteps := 3 * g * float64(inagg.BytePSPayloadBytes+inagg.BytePSHeaderBytes) / float64(inagg.BytePSPayloadBytes) / rate * 1e3
	ina := g * float64(inagg.INAPayloadBytes+inagg.INAHeaderBytes) / float64(inagg.INAPayloadBytes) / rate * 1e3
	sets := []string{"jobs=1", "load=0", "model=custom", "gradient_mb=1", "iterations=2"}
	bp := runINA(t, "ina-testbed", 1, append(sets, "protocol=byteps")...)["ajct_ms"]
	if bp < byteps {
		t.Errorf("byteps AJCT %.4f ms below the last-hop bound %.4f ms", bp, byteps)
	}
	for _, p := range []string{"atp", "strawasyn", "pa-atp"} {
		a := runINA(t, "ina-testbed", 1, append(sets, "protocol="+p)...)["ajct_ms"]
		t.Logf("%s AJCT %.4f ms (bound %.4f), byteps %.4f ms (bound %.4f)", p, a, ina, bp, byteps)
		if a < ina || a > 1.4*ina {
			t.Errorf("%s AJCT %.4f ms outside [%.4f, %.4f]", p, a, ina, 1.4*ina)
		}
		if bp < 2*a {
			t.Errorf("byteps %.4f ms not twice %s's %.4f ms", bp, p, a)
		}
	}
}

// TestINABasicAsyncUsesSparePath is Fig. 8's point: while the UDP burst
// holds p1, ATP clocks f_A2 to f_A1's pace, whereas PA-ATP lets f_A2 fill
// p2 (the paper's Fig. 8(e)); and under ATP both of A's flows send at the
// same rate.
func TestINABasicAsyncUsesSparePath(t *testing.T) {
	sets := []string{"gradient_a_mb=2", "gradient_b_mb=0.5", "udp_ms=0.3", "job_b_start_ms=0.3"}
	atp := runINA(t, "ina-basic", 1, append(sets, "protocol=atp")...)
	pa := runINA(t, "ina-basic", 1, append(sets, "protocol=pa-atp")...)
	t.Logf("f_A1/f_A2 during the burst: atp %.2f/%.2f Gbps, pa-atp %.2f/%.2f Gbps",
		atp["fa1_early_gbps"], atp["fa2_early_gbps"], pa["fa1_early_gbps"], pa["fa2_early_gbps"])
	if d := math.Abs(atp["fa1_early_gbps"] - atp["fa2_early_gbps"]); d > 0.05*atp["fa2_early_gbps"] {
		t.Errorf("atp flows of job A not clocked together: %.2f vs %.2f", atp["fa1_early_gbps"], atp["fa2_early_gbps"])
	}
	// p2 is free of other traffic before job B starts: 40 Gbps less
	// headers. ATP's 12 thread windows per worker take about half of p1
	// from the UDP flow (observed 20 Gbps), so PA-ATP's f_A2 is about
	// twice ATP's.
	if pa["fa2_early_gbps"] < 0.8*40 || pa["fa2_early_gbps"] < 1.5*atp["fa2_early_gbps"] {
		t.Errorf("pa-atp f_A2 %.2f Gbps during the burst, atp %.2f", pa["fa2_early_gbps"], atp["fa2_early_gbps"])
	}
	// 32 of p1's 40 Gbps go to UDP: f_A1 cannot exceed the remaining 8 Gbps by much.
	if pa["fa1_early_gbps"] > 8*1.1 {
		t.Errorf("f_A1 %.2f Gbps beside a 32 Gbps UDP flow on 40 Gbps", pa["fa1_early_gbps"])
	}
}

// TestINAMotivationDirections checks the direction of each Sec. II-B
// example: asynchronous AJCT below synchronous (Fig. 1), progress-aware
// aggregation throughput above progress-agnostic (Fig. 2), and the switch
// aggregating more with the asynchrony limit (Fig. 3).
func TestINAMotivationDirections(t *testing.T) {
	cases := []struct {
		example, better, worse, metric string
		lower                          bool
	}{
		{"sync-vs-async", "strawasyn", "atp", "ajct_ms", true},
		{"progress", "strawasyn-pc", "strawasyn", "agg_window_gbps", false},
		{"async-limit", "strawasyn-al", "strawasyn", "switch_agg_window_gbps", false},
	}
	for _, c := range cases {
		t.Run(c.example, func(t *testing.T) {
			sets := []string{"example=" + c.example, "unit_ms=0.5", "duration_ms=2"}
			b := runINA(t, "ina-motivation", 1, append(sets, "protocol="+c.better)...)[c.metric]
			w := runINA(t, "ina-motivation", 1, append(sets, "protocol="+c.worse)...)[c.metric]
			t.Logf("%s: %s %.3f, %s %.3f", c.metric, c.better, b, c.worse, w)
			if (c.lower && !(b < w)) || (!c.lower && !(b > w)) {
				t.Errorf("%s: %s %.3f vs %s %.3f has the wrong direction", c.metric, c.better, b, c.worse, w)
			}
		})
	}
}

// TestINAMotivationIdeals checks the fluid ideals against the paper's
// arithmetic: Fig. 1's 1.625 and 1.125 units, and Fig. 2's aggregation
// rates, 2 (1/2 + 1 - f) C and 2 C (wire to payload 248/310).
func TestINAMotivationIdeals(t *testing.T) {
	sync := runINA(t, "ina-motivation", 1, "example=sync-vs-async", "protocol=switchml", "unit_ms=0.1")
	async := runINA(t, "ina-motivation", 1, "example=sync-vs-async", "protocol=pa-atp", "unit_ms=0.1")
	if sync["ideal_ajct_units"] != 1.625 || async["ideal_ajct_units"] != 1.125 {
		t.Errorf("ideal AJCT %v / %v, want 1.625 / 1.125", sync["ideal_ajct_units"], async["ideal_ajct_units"])
	}
	// 248 B of payload per 310 B packet: g = 0.75 x 310 / 248 = 0.9375.
	if sync["wire_ajct_units"] != 2 || async["wire_ajct_units"] != 1.3125 {
		t.Errorf("wire AJCT %v / %v, want 2 / 1.3125", sync["wire_ajct_units"], async["wire_ajct_units"])
	}
	if r := sync["ajct_units"] * 0.1; math.Abs(r-sync["ajct_ms"]) > 1e-9 {
		t.Errorf("ajct_units %v does not match ajct_ms %v at unit 0.1 ms", sync["ajct_units"], sync["ajct_ms"])
	}
	pay := 248.0 / 310
	for _, c := range []struct {
		proto string
		frac  float64
		want  float64
	}{
		{"strawasyn", 0.75, 2 * (0.5 + 0.25) * 40 * pay},
		{"strawasyn-pc", 0.75, 2 * 40 * pay},
		{"atp", 0.75, 2 * 40 * pay},
		{"strawasyn", 0.25, 2 * (0.5 + 0.5) * 40 * pay},
	} {
		m := runINA(t, "ina-motivation", 1, "example=progress", "protocol="+c.proto, "duration_ms=0.2",
			"bg_frac="+strconv.FormatFloat(c.frac, 'g', -1, 64), "gradient_units=0.5")
		if math.Abs(m["ideal_agg_gbps"]-c.want) > 1e-9 {
			t.Errorf("%s bg_frac %v: ideal %v, want %v", c.proto, c.frac, m["ideal_agg_gbps"], c.want)
		}
	}
}

// TestINALeafSpinePlacement checks the placement rule: distinct hosts within
// a job, disjoint jobs while the hosts last, and reproducible by seed.
func TestINALeafSpinePlacement(t *testing.T) {
	hosts := make([]*netsim.Host, 10)
	for i := range hosts {
		hosts[i] = netsim.NewHost()
	}
	for _, c := range []struct{ jobs, workers int }{{2, 4}, {3, 4}, {5, 6}} {
		a, err := placeJobs(netsim.New(3), hosts, c.jobs, c.workers)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := placeJobs(netsim.New(3), hosts, c.jobs, c.workers)
		seen := map[*netsim.Host]int{}
		for j, hs := range a {
			if len(hs) != c.workers+1 {
				t.Fatalf("job %d has %d hosts", j, len(hs))
			}
			in := map[*netsim.Host]bool{}
			for i, h := range hs {
				if in[h] {
					t.Fatalf("job %d uses a host twice", j)
				}
				in[h] = true
				seen[h]++
				if b[j][i] != h {
					t.Fatalf("placement differs for the same seed")
				}
			}
		}
		if c.jobs*(c.workers+1) <= len(hosts) {
			for _, n := range seen {
				if n > 1 {
					t.Fatalf("jobs=%d workers=%d: a host shared although hosts suffice", c.jobs, c.workers)
				}
			}
		}
	}
}

// TestINABadParameters checks that impossible combinations are errors.
func TestINABadParameters(t *testing.T) {
	cases := []struct {
		exp  string
		sets []string
		want string
	}{
		{"ina-basic", []string{"udp_gbps=50"}, "udp_gbps"},
		{"ina-leafspine", []string{"spines=1", "leaves=1", "hosts_per_leaf=4", "workers=4"}, "distinct hosts"},
		{"ina-motivation", []string{"example=progress", "duration_ms=1", "warmup_ms=2"}, "warmup_ms"},
		{"ina-testbed", []string{"jobs=4"}, "jobs"},
		{"ina-leafspine", []string{"protocol=tcp"}, "protocol"},
		{"ina-testbed", []string{"model=gpt"}, "model"},
	}
	for _, c := range cases {
		t.Run(c.exp+"/"+c.sets[0], func(t *testing.T) {
			_, err := exptest.Try(lookup(t, c.exp), 1, c.sets...)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one naming %q", err, c.want)
			}
		})
	}
}

// TestINABasicSeries checks the throughput series of Fig. 8 against the
// run's own books: the UDP column is the CBR rate while it runs and zero
// after, agg_total is agg_a + agg_b in every row, and the f_a1 column
// integrates to what the worker put on the wire up to the last sample.
func TestINABasicSeries(t *testing.T) {
	e := Basic()
	ps, err := e.Resolve(with(tinyBasic, "protocol=atp", "sample_us=10"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(&experiments.Run{Exp: e, Params: ps, Seed: 1, Series: true, Check: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Series) != 1 {
		t.Fatalf("%d series", len(res.Series))
	}
	s := res.Series[0]
	col := map[string]int{}
	for i, c := range s.Columns {
		col[c] = i
	}
	for _, c := range []string{"time_ms", "f_a1_gbps", "f_a2_gbps", "f_b1_gbps", "f_b2_gbps", "udp_gbps", "agg_a_gbps", "agg_b_gbps", "agg_total_gbps"} {
		if _, ok := col[c]; !ok {
			t.Fatalf("column %s missing from %v", c, s.Columns)
		}
	}
	if len(s.Rows) < 10 {
		t.Fatalf("%d rows", len(s.Rows))
	}
	var a1 float64
	for _, row := range s.Rows {
		at := row[col["time_ms"]]
		u := row[col["udp_gbps"]]
		switch {
		case at <= 0.1 && math.Abs(u-32) > 32*0.05: // 1500 B packets quantise a 10 us sample
			t.Errorf("t=%.3f ms: udp %.2f Gbps during the burst", at, u)
		case at > 0.11 && u != 0:
			t.Errorf("t=%.3f ms: udp %.2f Gbps after the burst", at, u)
		}
		if d := row[col["agg_a_gbps"]] + row[col["agg_b_gbps"]] - row[col["agg_total_gbps"]]; math.Abs(d) > 1e-9 {
			t.Errorf("t=%.3f ms: agg_total differs from the sum by %g", at, d)
		}
		a1 += row[col["f_a1_gbps"]] * 1e9 / 8 * 10e-6
	}
	// The job ran to completion; the series stops with the run, so the
	// integral is at most the worker's bytes, its resends included (at
	// most every worker's), and misses at most one sample.
	total := float64(0.7e6) / 248 * 310
	resent := res.Metrics["retransmits"] * 310
	if a1 > total*1.01+resent || a1 < total-40e9/8*10e-6-total*0.01 {
		t.Errorf("f_a1 integrates to %.0f B, worker sent about %.0f B (the workers resent %.0f B)", a1, total, resent)
	}
}
