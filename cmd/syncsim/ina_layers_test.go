package main

import "testing"

// TestINALayerRefusals: the INA experiments refuse a bad layer table or
// bucket cap in one line naming the parameter, or the file and line,
// before anything runs, in a run and with --dry-run.
func TestINALayerRefusals(t *testing.T) {
	dir := t.TempDir()
	missing := writeLines(t, dir, "missing.csv", "layer,params,forward_ms", "a,10,1")
	negative := writeLines(t, dir, "negative.csv", "layer,params,forward_ms,backward_ms", "a,10,1,2", "b,10,1,-2")
	noLayers := writeLines(t, dir, "none.csv", "layer,params,forward_ms,backward_ms", "# no rows")
	badSize := writeLines(t, dir, "size.csv", "layer,bytes,forward_ms,backward_ms", "a,1.5,1,2")
	for _, exp := range []string{"ina-testbed", "ina-leafspine"} {
		for _, tc := range []refusalCase{
			{exp + " model_file missing column", []string{"run", exp, "--set", "compute_ms=1", "--set", "model_file=" + missing},
				[]string{"model_file", "missing.csv:1", `missing column "backward_ms"`}},
			{exp + " model_file negative time", []string{"run", exp, "--set", "compute_ms=1", "--set", "model_file=" + negative},
				[]string{"model_file", "negative.csv:3", `backward_ms "-2"`}},
			{exp + " model_file no layers", []string{"run", exp, "--set", "compute_ms=1", "--set", "model_file=" + noLayers},
				[]string{"model_file", "none.csv", "no layers"}},
			{exp + " model_file fractional bytes", []string{"run", exp, "--set", "compute_ms=1", "--set", "model_file=" + badSize},
				[]string{"model_file", "size.csv:2", `bytes "1.5" is not a whole number`}},
			{exp + " bucket_mib negative", []string{"run", exp, "--set", "compute_ms=1", "--set", "bucket_mib=-1"},
				[]string{"bucket_mib", "out of range"}},
			{exp + " bucket_mib without overlap", []string{"run", exp, "--set", "compute_ms=1", "--set", "overlap=none", "--set", "bucket_mib=25"},
				[]string{"bucket_mib has no effect unless overlap=layer"}},
			{exp + " overlap without compute", []string{"run", exp, "--set", "overlap=none"},
				[]string{"overlap has no effect unless compute_ms>0"}},
		} {
			checkRefusals(t, tc, false, true)
		}
	}
}
