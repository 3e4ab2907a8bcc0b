package ina

import (
	"testing"

	"syncsim/experiments"
)

// BenchmarkFig14Point runs one point of PA-ATP Fig. 14 on the full NS3
// leaf-spine (8 x 8 x 16 hosts, 100 Gbps): 8 PA-ATP jobs of 12 workers
// (ResNet50:VGG19 1:1), Hadoop background at host-basis load 0.5 on all
// hosts starting with the jobs (no warm-up), one iteration of 0.5% of each model (490 KB and 2.74 MB per worker), about
// 11 s on one core (the README quotes larger scales run from the CLI). It
// reports simulator events per second of wall time and the run's AJCT.
func BenchmarkFig14Point(b *testing.B) {
	e := LeafSpine()
	ps, err := e.Resolve([]string{"protocol=pa-atp", "jobs=8", "workers=12", "model=mix", "gradient_scale=0.005",
		"iterations=1", "workload=hadoop", "load=0.5", "load_basis=host", "bg_warmup_ms=0"})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var events uint64
	var ajct float64
	for i := 0; i < b.N; i++ {
		res, err := e.Run(&experiments.Run{Exp: e, Params: ps, Seed: uint64(i + 1)})
		if err != nil {
			b.Fatal(err)
		}
		if res.Metrics["jobs_done"] != 8 {
			b.Fatalf("%v jobs done", res.Metrics["jobs_done"])
		}
		events += res.Events
		ajct += res.Metrics["ajct_ms"]
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(events)/float64(b.N), "events/op")
	b.ReportMetric(ajct/float64(b.N), "ajct_ms")
}

// BenchmarkLeafSpineDefault runs `syncsim run ina-leafspine` at its
// defaults (PA-ATP, 8 jobs x 12 workers, run_length=steady) once per op:
// the point whose CPU docs/performance.md compares across engines. Profile
// it with -cpuprofile.
func BenchmarkLeafSpineDefault(b *testing.B) {
	b.ReportAllocs()
	benchLeafSpine(b, nil)
}

// BenchmarkFullSizeSlice runs the first 40 ms of the full-size PA-ATP
// point (docs/ina-reproduction.md, "A full-size point": whole ResNet50
// and VGG19 gradients, `--set gradient_scale=1 --set iterations=2 --set
// skip_iters=1`, seed 1) once per op, about 40 s of CPU and 243 M events:
// the run whose profile (-cpuprofile) docs/performance.md reads for the
// cost of the full-size point.
func BenchmarkFullSizeSlice(b *testing.B) {
	benchLeafSpine(b, []string{"protocol=pa-atp", "gradient_scale=1", "iterations=2", "skip_iters=1", "max_ms=40"})
}

// benchLeafSpine runs ina-leafspine with parameters set (seed 1) once per
// op and reports its events per op, split by kind (netsim.Sim.EventMix):
// link arrivals, port starts and events with a payload.
func benchLeafSpine(b *testing.B, set []string) {
	e := LeafSpine()
	ps, err := e.Resolve(set)
	if err != nil {
		b.Fatal(err)
	}
	var events, arrivals, starts, others uint64
	for i := 0; i < b.N; i++ {
		res, g, err := runLeafSpineRig(&experiments.Run{Exp: e, Params: ps, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		events += res.Events
		a, st, o := g.Sim.EventMix()
		arrivals, starts, others = arrivals+a, starts+st, others+o
	}
	n := float64(b.N)
	b.ReportMetric(float64(events)/n, "events/op")
	b.ReportMetric(float64(arrivals)/n, "arrivals/op")
	b.ReportMetric(float64(starts)/n, "starts/op")
	b.ReportMetric(float64(others)/n, "others/op")
}
