package ina

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// One job of three workers on a tiny idle leaf-spine at 10 Gbps, a
// 0.1 MB gradient in ResNet-50's layer proportions (404 packets), four
// iterations, the first left out.
var layerLeafSpine = []string{"spines=2", "leaves=2", "hosts_per_leaf=4", "jobs=1", "workers=3", "link_gbps=10",
	"model=custom", "gradient_mb=0.1", "iterations=4", "run_length=steady", "load=0", "max_ms=200"}

// TestINAOverlapAgainstComputeThenPush: with 2 ms of compute, 4 times the
// gradient's aggregation or more, an iteration without overlap is the
// compute plus the communication-only iteration exactly (the idle fabric
// repeats itself). With overlap and a bucket per layer (the default) it is
// the compute exactly: the input side's stem (9,408 of 25.6 M parameters)
// holds less than half a packet, so its bucket is empty, and the bucket
// before it is aggregated while the stem's backward runs. With DDP's 25
// MiB buckets the input side's bucket (2.3 of 97.5 MiB: 10 packets) is
// aggregated after the compute: compute plus that tail, less than a
// quarter of the whole aggregation. Both engines, ATP and PA-ATP.
func TestINAOverlapAgainstComputeThenPush(t *testing.T) {
	for _, proto := range []string{"atp", "pa-atp"} {
		for _, engine := range []string{"sequential", "partitioned"} {
			base := with(layerLeafSpine, "protocol="+proto, "engine="+engine)
			comm := runINA(t, "ina-leafspine", 3, base...)["ajct_ms"]
			none := runINA(t, "ina-leafspine", 3, with(base, "compute_ms=2", "overlap=none")...)["ajct_ms"]
			layer := runINA(t, "ina-leafspine", 3, with(base, "compute_ms=2")...)["ajct_ms"]
			ddp := runINA(t, "ina-leafspine", 3, with(base, "compute_ms=2", "bucket_mib=25")...)["ajct_ms"]
			t.Logf("%s %s: communication %.5f ms; compute 2 ms then push %.5f, per layer %.5f, DDP buckets %.5f", proto, engine, comm, none, layer, ddp)
			if !(comm > 0.05 && comm < 0.5) {
				t.Fatalf("%s %s: communication-only iteration %v ms, want 0.05..0.5", proto, engine, comm)
			}
			if math.Abs(none-(2+comm)) > 1e-9 {
				t.Errorf("%s %s: overlap=none %v ms, want compute + communication %v", proto, engine, none, 2+comm)
			}
			if math.Abs(layer-2) > 1e-9 {
				t.Errorf("%s %s: a bucket per layer %v ms, want the compute, 2", proto, engine, layer)
			}
			if !(ddp > 2 && ddp < 2+comm/4) {
				t.Errorf("%s %s: DDP buckets %v ms, want in (2, %v)", proto, engine, ddp, 2+comm/4)
			}
		}
	}
}

// TestINALayerTableRefused: a bad model_file or bucket_mib is refused by
// the point's validation (before anything runs) with the file and line.
func TestINALayerTableRefused(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	missing := write("missing.csv", "layer,params,forward_ms\na,10,1\n")
	negative := write("negative.csv", "layer,params,forward_ms,backward_ms\na,10,1,2\nb,10,1,-2\n")
	empty := write("empty.csv", "layer,params,forward_ms,backward_ms\n# none\n")
	for _, exp := range []string{"ina-testbed", "ina-leafspine"} {
		e := lookup(t, exp)
		for _, tc := range []struct {
			sets []string
			want string
		}{
			{[]string{"compute_ms=1", "model_file=" + missing}, "model_file " + missing + ":1: missing column \"backward_ms\""},
			{[]string{"compute_ms=1", "model_file=" + negative}, "model_file " + negative + ":3: layer \"b\": backward_ms \"-2\""},
			{[]string{"compute_ms=1", "model_file=" + empty}, "model_file " + empty + ": no layers"},
			{[]string{"compute_ms=1", "model_file=" + filepath.Join(dir, "absent.csv")}, "model_file: open "},
		} {
			ps, err := e.Resolve(tc.sets)
			if err == nil {
				err = e.Validate(ps)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s %v: error %v, want one line with %q", exp, tc.sets, err, tc.want)
			}
		}
		if _, err := e.Resolve([]string{"compute_ms=1", "bucket_mib=-1"}); err == nil || !strings.Contains(err.Error(), "bucket_mib") {
			t.Errorf("%s bucket_mib=-1: error %v, want one naming bucket_mib", exp, err)
		}
	}
}
