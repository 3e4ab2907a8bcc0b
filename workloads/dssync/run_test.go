package dssync

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"

	"syncsim/netsim"
	"syncsim/workloads/collective"
)

// smallConfig is a small, fast run: a 16 MB model in 4 pieces over the
// paper's racks (20 Gbps, oversubscription 1), a 64 MB background model;
// at packet fidelity a quarter of those.
func smallConfig(scheme string, sc Scenario, fidelity string) Config {
	mb := 16.0
	if fidelity == "packet" {
		mb = 4
	}
	m, _ := LookupModel("custom", mb, 20*netsim.Millisecond)
	bg, _ := LookupModel("custom", 4*mb, 30*netsim.Millisecond)
	return Config{Scheme: scheme, Scenario: sc, Delayed: -1, Model: m, Layers: 4, BackwardFrac: 2.0 / 3, Spread: 0.05,
		LinkRate: 20 * netsim.Gbps, Oversub: 1, Delay: netsim.Microsecond, Alpha: 10 * netsim.Microsecond,
		Background: "job", BGModel: bg, BGFlows: 1, Iterations: 12, Warmup: 2, Fidelity: fidelity,
		AdjustEvery: 4, Detect: "measure", Threshold: DefaultThreshold, GroupAlgo: "ring", TreeChunks: 4,
		HierMode: collective.HierShard, ConsensusTol: 1e-3, Check: true, Record: true}
}

// Every scheme in every scenario runs to the end at both fidelities with
// its books balanced (every transfer of the job completed exactly once,
// the flow engine's invariants, packet conservation), moves the bytes its
// collective must move, and reports finite times.
func TestRunsBalanceTheirBooks(t *testing.T) {
	for _, fid := range []string{"flow", "packet"} {
		for _, sc := range []Scenario{Static, Both} {
			if fid == "packet" && sc == Static {
				continue
			}
			for _, s := range Schemes {
				t.Run(fmt.Sprintf("%s/%s/%s", fid, sc, s), func(t *testing.T) {
					c := smallConfig(s, sc, fid)
					if fid == "packet" {
						c.Iterations, c.Warmup = 3, 1
					}
					res, err := Run(netsim.New(1), c)
					if err != nil {
						t.Fatal(err)
					}
					if !(res.CommMs > 0) || !(res.IterMs > res.CommMs/2) || math.IsInf(res.IterMs, 0) {
						t.Errorf("comm %v ms, iteration %v ms", res.CommMs, res.IterMs)
					}
					if sc == Both && !(res.BGGbps > 0) {
						t.Errorf("background moved nothing")
					}
					// Inter-rack bytes per iteration: a ring crosses twice
					// with 2(n-1)/n... each scheme has its own; all move some.
					if !(res.InterRackGB > 0) {
						t.Errorf("no inter-rack traffic")
					}
					if len(res.Log) != 8*c.Iterations {
						t.Errorf("%d communication records, want %d", len(res.Log), 8*c.Iterations)
					}
				})
			}
		}
	}
}

// The bytes each scheme moves between racks per iteration, worked out for
// the 4+4 layout and a model of S bytes: a rack-ordered ring crosses the
// core twice with a chunk S/8 per step, 2 x 14 x S/8 = 3.5 S; the
// hierarchical shard mode runs four two-worker rings of S/4, 8 x S/4 = 2S;
// DS-Sync's inter-rack pair exchanges S each way, 2S; gossip crosses with
// 1, 1, 2, 2 and 4 of the 4 workers of each rack in its five shifts,
// 2 x 2 x S on average; ASP's server is in rack 0, so rack 1's four
// workers push and pull across the core, 8S.
func TestInterRackBytes(t *testing.T) {
	const s = 16e6 / 1e9 // GB
	for _, tc := range []struct {
		scheme string
		want   float64
	}{{"allreduce", 3.5 * s}, {"hier-allreduce", 2 * s}, {"dssync", 2 * s}, {"gossip", 4 * s}, {"asp", 8 * s}} {
		c := smallConfig(tc.scheme, Static, "flow")
		c.Iterations, c.Warmup, c.Layers = 10, 0, 1
		if tc.scheme == "gossip" {
			c.Iterations = 5 // one period of shifts
		}
		res, err := Run(netsim.New(1), c)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(res.InterRackGB-tc.want) > 1e-9 {
			t.Errorf("%s: %.6f GB across racks per iteration, want %.6f", tc.scheme, res.InterRackGB, tc.want)
		}
	}
}

// Same seed, same result, to the last record; another seed draws other
// compute times and another background phase.
func TestRunDeterminism(t *testing.T) {
	for _, s := range []string{"dssync", "gossip", "asp"} {
		c := smallConfig(s, Both, "flow")
		a, err := Run(netsim.New(7), c)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Run(netsim.New(7), c)
		if fmt.Sprintf("%+v", *a) != fmt.Sprintf("%+v", *b) { // NaN-safe
			t.Errorf("%s: two runs of seed 7 differ", s)
		}
		d, _ := Run(netsim.New(8), c)
		if reflect.DeepEqual(a.Log, d.Log) {
			t.Errorf("%s: seeds 7 and 8 gave the same run", s)
		}
	}
}

// Detection from measured transfers finds the contention each scenario
// creates, and nothing in the static one: on the paper's two racks, and
// on four racks of three with the background task between racks 0 and 3
// (at packet fidelity Table III's scenario).
func TestDetectionFindsTheScenario(t *testing.T) {
	for _, fid := range []string{"flow", "packet"} {
		for _, tc := range []struct {
			sc     Scenario
			layout Layout
		}{
			{Static, nil}, {InterRack, nil}, {EndHost, nil}, {Both, nil},
			{InterRack, LayoutOf(3, 3, 3, 3)}, {Both, LayoutOf(3, 3, 3, 3)},
		} {
			if fid == "packet" && (tc.sc != Both || tc.layout != nil) {
				continue
			}
			t.Run(fmt.Sprintf("%s/%s/%v", fid, tc.sc, tc.layout), func(t *testing.T) {
				// Transfers of a few hundred kilobytes are too short
				// for the detector at packet fidelity (a round trip is
				// a tenth of them): both fidelities use the 16 MB model.
				c := smallConfig("dssync", tc.sc, "flow")
				c.Fidelity = fid
				c.Layout = tc.layout
				c.Background = "flows"
				c.Iterations, c.Warmup, c.AdjustEvery = 6, 1, 5
				res, err := Run(netsim.New(1), c)
				if err != nil {
					t.Fatal(err)
				}
				l := tc.layout
				if l == nil {
					l = PaperLayout(tc.sc)
				}
				p, _ := Place(tc.sc, l, -1)
				if !res.Detected.Equal(p.Truth) {
					t.Errorf("detected %v, scenario has %v", res.Detected, p.Truth)
				}
				want, _ := AdjustGroups(l, p.Truth)
				if res.Period != want.Period() {
					t.Errorf("final period %d, want %d", res.Period, want.Period())
				}
			})
		}
	}
}

// Tables III and IV's orderings on five seeds, per seed: DS-Sync beats
// ring all-reduce in both contention scenarios; hierarchical all-reduce
// is slower than ring all-reduce under end-host contention (it cannot
// avoid the shared NIC and pays three serial phases) and faster under
// inter-rack contention only (it crosses the core with less than a ring).
func TestTablesIIIandIVOrderings(t *testing.T) {
	for _, sc := range []Scenario{Both, InterRack} {
		for seed := uint64(1); seed <= 5; seed++ {
			comm := map[string]float64{}
			for _, s := range []string{"dssync", "allreduce", "hier-allreduce"} {
				c := smallConfig(s, sc, "flow")
				c.Model, _ = LookupModel("custom", 146, 0)
				c.BGModel = Models["bert"]
				c.Layers, c.Iterations, c.Warmup, c.Detect, c.Check, c.Record = 1, 12, 2, "given", false, false
				res, err := Run(netsim.New(seed), c)
				if err != nil {
					t.Fatal(err)
				}
				comm[s] = res.CommMs
			}
			ds, ar, hier := comm["dssync"], comm["allreduce"], comm["hier-allreduce"]
			if !(ds < ar) {
				t.Errorf("%s seed %d: DS-Sync %.1f ms not below all-reduce %.1f ms", sc, seed, ds, ar)
			}
			if sc == Both && !(hier > ar) || sc == InterRack && !(hier < ar) {
				t.Errorf("%s seed %d: hierarchical %.1f ms vs all-reduce %.1f ms", sc, seed, hier, ar)
			}
		}
	}
}

func TestRunErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(c *Config)
	}{
		{"unknown scheme", func(c *Config) { c.Scheme = "ps" }},
		{"no iterations", func(c *Config) { c.Iterations = 0 }},
		{"warm-up too long", func(c *Config) { c.Warmup = c.Iterations }},
		{"unknown fidelity", func(c *Config) { c.Fidelity = "analytic" }},
		{"unknown detection", func(c *Config) { c.Detect = "guess" }},
		{"unknown group algorithm", func(c *Config) { c.GroupAlgo = "butterfly" }},
		{"zero oversubscription", func(c *Config) { c.Oversub = 0 }},
		{"too many layers", func(c *Config) { c.Layers = 20000 }},
		{"delayed worker out of range", func(c *Config) { c.Delayed = 8 }},
		{"inter-rack on one rack", func(c *Config) { c.Scenario, c.Layout = InterRack, LayoutOf(8) }},
		{"no background flows", func(c *Config) { c.Background, c.BGFlows = "flows", 0 }},
		{"unknown background", func(c *Config) { c.Background = "hadoop" }},
		{"detection every 0", func(c *Config) { c.AdjustEvery = 0 }},
		{"threshold above 1", func(c *Config) { c.Threshold = 2 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := smallConfig("dssync", Both, "flow")
			tc.mod(&c)
			if _, err := Run(netsim.New(1), c); err == nil {
				t.Fatal("no error")
			}
		})
	}
	if _, err := ParseScenario("rack"); err == nil {
		t.Error("ParseScenario accepted rack")
	}
	if _, err := LookupModel("resnet", 0, 0); err == nil {
		t.Error("LookupModel accepted resnet")
	}
	if !slices.Contains(ModelNames, "custom") {
		t.Error("custom missing from ModelNames")
	}
}
