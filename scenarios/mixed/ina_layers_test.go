package mixed

import (
	"math"
	"testing"

	"syncsim/experiments/exptest"
)

// One INA job of 3 workers alone on an idle fabric, a 1 MB gradient in
// ResNet-50's layer proportions (4033 packets), 5 ms of compute. Without
// overlap (ina_overlap=none, the default) an iteration is the compute plus
// the communication-only iteration exactly; with ina_overlap=layer and
// DDP's 25 MiB buckets, only the input side's bucket (2.3 of 97.5 MiB)
// follows the compute, so the iteration is longer than the compute and
// shorter than the compute plus a quarter of the communication. The
// parallel engine gives the same iteration at 1 and 3 threads.
func TestINAOverlapInTheMix(t *testing.T) {
	base := []string{"spines=1", "leaves=2", "hosts_per_leaf=4", "ina_jobs=1", "workers=3", "ring_jobs=0", "pr_jobs=0",
		"load=0", "iterations=4", "gradient_mb=1", "protocol=pa-atp"}
	for _, engine := range []string{"sequential", "partitioned"} {
		run := func(sets ...string) float64 {
			m := exptest.Run(t, MixedFabric(), 1, append(append(append([]string(nil), base...), "engine="+engine), sets...)...).Metrics
			if m["jobs_done_frac"] != 1 {
				t.Fatalf("%s %v: jobs done %v", engine, sets, m["jobs_done_frac"])
			}
			return m["ina_iter_ms"]
		}
		comm := run("compute_ms=0")
		none := run("compute_ms=5")
		layer := run("compute_ms=5", "ina_overlap=layer")
		t.Logf("%s: communication %.4f ms, compute then push %.4f, overlapped %.4f", engine, comm, none, layer)
		if math.Abs(none-(5+comm)) > 1e-9 {
			t.Errorf("%s: ina_overlap=none %v ms, want compute + communication %v", engine, none, 5+comm)
		}
		if !(layer > 5 && layer < 5+comm/4) {
			t.Errorf("%s: ina_overlap=layer %v ms, want in (5, %v)", engine, layer, 5+comm/4)
		}
		if engine == "partitioned" {
			sets := append(append([]string(nil), base...), "engine=partitioned", "compute_ms=5", "ina_overlap=layer")
			if a, b := runMixed(t, 1, sets...).Metrics["ina_iter_ms"], runMixed(t, 3, sets...).Metrics["ina_iter_ms"]; a != b {
				t.Errorf("partitioned at 3 threads %v ms, at 1 %v", b, a)
			}
		}
	}
}
