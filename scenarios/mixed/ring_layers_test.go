package mixed

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"syncsim/experiments/exptest"
)

// A ring job of 2 hosts on an idle fabric training a two-layer table:
// layer 0 (input side) 64 KB, layer 1 4 MB, each forward 1 ms and backward
// 10 ms, a bucket per layer. By hand, with overlap=layer bucket 1 is
// produced 10 ms before the backward ends, and its ring all-reduce (2(n-1)/n
// x 4 MB at 100 Gbps = 0.32 ms plus a few round trips) hides behind layer
// 0's backward; what is left after the compute (22 ms) is bucket 0's 64 KB
// all-reduce, tens of microseconds: the iteration lies in [22, 22.1] ms.
// With overlap=none the whole 4.064 MB follows the compute: at least 22 +
// 0.325 ms. Both engines give the same bounds, and the parallel one the
// same result at every thread count.
func TestRingOverlapByHand(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "two.csv")
	if err := os.WriteFile(path, []byte("layer,bytes,forward_ms,backward_ms\nl0,64000,1,10\nl1,4000000,1,10\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"spines=1", "leaves=2", "hosts_per_leaf=2", "ina_jobs=0", "pr_jobs=0", "ring_jobs=1", "ring_workers=2",
		"load=0", "iterations=4", "bucket_mib=0", "model_file=" + path}
	const compute = 22.0
	bw := 2 * 1.0 / 2 * 4.064e6 * 8 / 100e9 * 1e3 // ms
	for _, engine := range []string{"sequential", "partitioned"} {
		layer := exptest.Run(t, MixedFabric(), 1, append(base, "overlap=layer", "engine="+engine)...).Metrics
		none := exptest.Run(t, MixedFabric(), 1, append(base, "overlap=none", "engine="+engine)...).Metrics
		if layer["jobs_done_frac"] != 1 || none["jobs_done_frac"] != 1 {
			t.Fatalf("%s: jobs done %v, %v", engine, layer["jobs_done_frac"], none["jobs_done_frac"])
		}
		if it := layer["ring_iter_ms"]; !(it >= compute && it <= compute+0.1) {
			t.Errorf("%s, overlap=layer: iteration %.4f ms, by hand in [22, 22.1]", engine, it)
		}
		if it := none["ring_iter_ms"]; !(it >= compute+bw) {
			t.Errorf("%s, overlap=none: iteration %.4f ms, by hand at least %.4f", engine, it, compute+bw)
		}
		if engine == "partitioned" {
			one := runMixed(t, 1, append(base, "overlap=layer", "engine="+engine)...).Metrics
			three := runMixed(t, 3, append(base, "overlap=layer", "engine="+engine)...).Metrics
			if fmt.Sprint(one) != fmt.Sprint(three) {
				t.Errorf("partitioned at 3 threads: %v, at 1: %v", three, one)
			}
		}
	}
}
