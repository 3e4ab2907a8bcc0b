package mixed

import (
	"math"
	"testing"

	"syncsim/experiments/exptest"
	"syncsim/workloads/syncctl"
)

// prTiny: one INA job (3 workers + PS) and one partial-reduce job of 4
// workers (p = 2) on 2 x 2 x 4 hosts, 0.5 MB, 2 iterations, Hadoop at
// fabric-basis load 0.3.
var prTiny = []string{"spines=2", "leaves=2", "hosts_per_leaf=4", "ina_jobs=1", "workers=3", "ring_jobs=0",
	"pr_jobs=1", "pr_workers=4", "pr_p=2", "pr_mb=0.5", "gradient_mb=0.5", "iterations=2", "load=0.3", "pr_compute_ms=0.2"}

// TestPartialReduceTenant runs a partial-reduce tenant beside an INA job
// and background with the books checked (every transfer of every group
// delivered once, the cluster's rounds, packets), for both schemes, and
// checks what no correct run can break: partial reduce's groups have
// exactly p workers and selective reduce's at least p+1 (BAG's seed); a
// group's ring all-reduce of v over g workers takes at least its
// bandwidth term 2(g-1)/g v / 100 Gbit/s; the job finishes after its
// workers averaged `iterations` rounds, each a compute of at least 0.16 ms
// (0.2 ms less 20 %) and a sync.
func TestPartialReduceTenant(t *testing.T) {
	for _, scheme := range []string{"partial-reduce", "selective-reduce"} {
		t.Run(scheme, func(t *testing.T) {
			m := exptest.Run(t, MixedFabric(), 1, append(append([]string(nil), prTiny...), "pr_scheme="+scheme)...).Metrics
			if m["jobs_done_frac"] != 1 {
				t.Fatalf("jobs done %v", m["jobs_done_frac"])
			}
			g := m["pr_scale"]
			switch scheme {
			case "partial-reduce":
				if g != 2 {
					t.Errorf("partial reduce groups of %v workers, want p = 2", g)
				}
			default:
				if g < 3 {
					t.Errorf("selective reduce groups of %v workers, want at least p+1 = 3", g)
				}
			}
			if min := 2 * (g - 1) / g * 0.5e6 * 8 / 100e9 * 1e3; !(m["pr_sync_ms"] >= min) {
				t.Errorf("sync %v ms below the bandwidth term %v ms", m["pr_sync_ms"], min)
			}
			if min := 2 * (0.16 + m["pr_sync_ms"]); !(m["pr_jct_ms"] >= min*0.999) {
				t.Errorf("job time %v ms below two rounds of compute and sync (%v ms)", m["pr_jct_ms"], min)
			}
			if !(m["ina_jct_ms"] > 0) || math.IsNaN(m["ina_iter_ms"]) {
				t.Errorf("INA job: jct %v, iteration %v", m["ina_jct_ms"], m["ina_iter_ms"])
			}
		})
	}
}

// TestPartialReduceStragglers: a 10x straggler among 4 workers with p = 2
// slows partial reduce's job much less than it slows its own compute: the
// other three keep pairing up, so the job (which ends when the workers
// averaged 4 rounds) finishes in well under twice its time without the
// straggler, and determinism holds.
func TestPartialReduceStragglers(t *testing.T) {
	base := []string{"spines=2", "leaves=2", "hosts_per_leaf=4", "ina_jobs=0", "ring_jobs=0", "load=0",
		"pr_jobs=1", "pr_workers=4", "pr_p=2", "pr_mb=0.5", "iterations=4", "pr_compute_ms=0.2"}
	h := exptest.Run(t, MixedFabric(), 3, base...).Metrics["pr_jct_ms"]
	s := exptest.Run(t, MixedFabric(), 3, append(base, "stragglers=1", "straggler_slowdown=10")...).Metrics["pr_jct_ms"]
	s2 := exptest.Run(t, MixedFabric(), 3, append(base, "stragglers=1", "straggler_slowdown=10")...).Metrics["pr_jct_ms"]
	if s != s2 {
		t.Errorf("same seed, job times %v and %v", s, s2)
	}
	if !(s > h && s < 2*h) {
		t.Errorf("job time %v ms with a 10x straggler, %v without: want longer but under twice", s, h)
	}
}

// TestLoadBasisAndWarmup: on the fabric basis the background's host-basis
// load is load over the busiest tier's utilisation at host load 1. On 2
// spines x 2 leaves x 4 hosts at 100 Gbit/s with every host sending to
// every other, a leaf's uplinks carry 4 x 4/7 of a host rate over 200
// Gbit/s: 8/7, so load 0.3 is host load 0.2625; on the host basis it stays
// 0.3. The jobs start after the 12 ms warm-up by default, or at
// bg_warmup_ms.
func TestLoadBasisAndWarmup(t *testing.T) {
	e := MixedFabric()
	fab := exptest.Run(t, e, 1, prTiny...).Metrics["host_load"]
	host := exptest.Run(t, e, 1, append(append([]string(nil), prTiny...), "load_basis=host")...).Metrics["host_load"]
	if math.Abs(fab-0.3*7/8) > 1e-12 || host != 0.3 {
		t.Errorf("host load %v (fabric basis), %v (host basis); want %v, 0.3", fab, host, 0.3*7/8)
	}
	for _, tc := range []struct {
		sets []string
		want float64
	}{{nil, 12}, {[]string{"bg_warmup_ms=0"}, 0}, {[]string{"load=0"}, 12}, {[]string{"bg_warmup_ms=3"}, 3}} {
		sets := []string{"ina_jobs=1", "ring_jobs=0"}
		if tc.sets == nil || tc.sets[0] != "load=0" {
			sets = append(sets, "load=0.3")
		}
		ps, err := e.Resolve(append(sets, tc.sets...))
		if err != nil {
			t.Fatal(err)
		}
		if got := mixedWarmup(ps); got != tc.want {
			t.Errorf("%v: warm-up %v ms, want %v", tc.sets, got, tc.want)
		}
	}
}

// TestSelectiveTenantWaitsForSlowNIC: one of 8 workers has a 10 Gbit/s
// NIC (pr_slow_nics=1) among 100 Gbit/s ones; no other tenant, pr_mb = 2,
// pr_dt_ms = 0.1. The controller reads the rates from the cables, so when
// BPAWR looks at a group holding the slow worker while fast ones compute,
// replacing it saves t_X = 2v/10G - 2v/100G = 3.2 - 0.32 = 2.88 ms (Alg. 2,
// line 15), more than theta x dt for theta < 28.8: the tenant waits. Every
// other group's t_X is 0 (its slowest worker is already the fastest kind,
// or g* keeps the slow one), so every theta below 28.8 makes the same
// decisions: theta = 28 repeats theta = 1's run exactly, and theta = 29
// never waits. With every NIC at host_gbps (the constant rate the tenant
// used to assume) t_X is always 0 and it never waits.
func TestSelectiveTenantWaitsForSlowNIC(t *testing.T) {
	base := []string{"spines=2", "leaves=4", "hosts_per_leaf=4", "ina_jobs=0", "ring_jobs=0", "load=0",
		"pr_jobs=1", "pr_workers=8", "pr_p=3", "pr_scheme=selective-reduce", "pr_mb=2", "pr_dt_ms=0.1", "iterations=10"}
	run := func(sets ...string) map[string]float64 {
		m := exptest.Run(t, MixedFabric(), 1, append(append([]string(nil), base...), sets...)...).Metrics
		if m["jobs_done_frac"] != 1 {
			t.Fatalf("%v: jobs done %v", sets, m["jobs_done_frac"])
		}
		return m
	}
	slow := run("pr_slow_nics=1", "pr_slow_nic_gbps=10")
	if !(slow["pr_bpawr_waits"] > 0) {
		t.Errorf("one slow NIC: %v wait-and-replace decisions, want some", slow["pr_bpawr_waits"])
	}
	if same := run("pr_slow_nics=1", "pr_slow_nic_gbps=10", "pr_theta=28"); !sameMetrics(same, slow) {
		t.Errorf("theta = 28 differs from theta = 1 (both below t_X / dt = 28.8):\n%v\n%v", same, slow)
	}
	if m := run("pr_slow_nics=1", "pr_slow_nic_gbps=10", "pr_theta=29"); m["pr_bpawr_waits"] != 0 {
		t.Errorf("theta = 29 (above t_X / dt = 28.8): %v waits, want 0", m["pr_bpawr_waits"])
	}
	if m := run(); m["pr_bpawr_waits"] != 0 {
		t.Errorf("every NIC at 100 Gbit/s: %v waits, want 0", m["pr_bpawr_waits"])
	}
}

// sameMetrics: a and b hold the same metrics with the same values (NaN
// equal to NaN).
func sameMetrics(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, x := range a {
		y, ok := b[k]
		if !ok || x != y && !(math.IsNaN(x) && math.IsNaN(y)) {
			return false
		}
	}
	return true
}

// TestSelectiveTenantParams: the tenant's selective-reduce parameters
// reach its controller, under sr-cluster's names with the pr_ prefix, and
// their defaults are the paper's (eta = 0.3, theta = 1, Sec. IV-A).
func TestSelectiveTenantParams(t *testing.T) {
	e := MixedFabric()
	def, err := e.Resolve([]string{"pr_jobs=1", "pr_scheme=selective-reduce"})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := selectiveConfig(def, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := syncctl.SelectiveConfig{P: 3, Eta: 0.3, Theta: 1, Dt: 0.1e-3, Seed: syncctl.SeedPseudocode, KRound: syncctl.KFloor}
	if cfg != want {
		t.Errorf("defaults %+v, want %+v", cfg, want)
	}
	ps, err := e.Resolve([]string{"pr_jobs=1", "pr_scheme=selective-reduce", "pr_bag_eta=0.5", "pr_theta=4", "pr_dt_ms=2",
		"pr_bw_error=0.2", "pr_bag_seed=p", "pr_k_round=round", "pr_predict=conditional"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err = selectiveConfig(ps, 2); err != nil {
		t.Fatal(err)
	}
	want = syncctl.SelectiveConfig{P: 2, Eta: 0.5, Theta: 4, Dt: 2e-3, BWError: 0.2, ExactConditional: true,
		Seed: syncctl.SeedProse, KRound: syncctl.KRound}
	if cfg != want {
		t.Errorf("set %+v, want %+v", cfg, want)
	}
}

// TestPartialReduceTenantOverlap: with pr_overlap=layer the tenant's
// groups all-reduce bucket by bucket during their members' backprop, with
// every book checked (every transfer of every bucket delivered once, the
// cluster's rounds), the same group sizes as without overlap, and, on an
// idle fabric where a round's compute (2 ms) is comparable to a 20 MB
// all-reduce among two hosts at 100 Gbit/s (1.6 ms of bandwidth term), a
// job that ends sooner than compute then synchronise, and no sooner than
// its compute alone.
func TestPartialReduceTenantOverlap(t *testing.T) {
	base := []string{"spines=2", "leaves=2", "hosts_per_leaf=4", "ina_jobs=0", "ring_jobs=0", "load=0",
		"pr_jobs=1", "pr_workers=4", "pr_p=2", "pr_mb=20", "iterations=4", "pr_compute_ms=2", "pr_compute_spread=0"}
	for _, scheme := range []string{"partial-reduce", "selective-reduce"} {
		t.Run(scheme, func(t *testing.T) {
			sets := append(append([]string(nil), base...), "pr_scheme="+scheme)
			none := exptest.Run(t, MixedFabric(), 2, sets...).Metrics
			layer := exptest.Run(t, MixedFabric(), 2, append(sets, "pr_overlap=layer")...).Metrics
			if none["jobs_done_frac"] != 1 || layer["jobs_done_frac"] != 1 {
				t.Fatalf("jobs done: %v without overlap, %v with", none["jobs_done_frac"], layer["jobs_done_frac"])
			}
			if none["pr_scale"] != layer["pr_scale"] {
				t.Errorf("group sizes %v without overlap, %v with", none["pr_scale"], layer["pr_scale"])
			}
			if !(layer["pr_jct_ms"] < none["pr_jct_ms"]) || !(layer["pr_jct_ms"] >= 4*2) {
				t.Errorf("job time %v ms with overlap, %v without: want below it and above 4 rounds of 2 ms compute", layer["pr_jct_ms"], none["pr_jct_ms"])
			}
		})
	}
}
