package hostsync

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"syncsim/experiments"
)

// TestSRClusterComputeTraces checks the compute-time choices of sr-cluster:
// a trace file holding one time is the constant distribution of that time
// (identical metrics for the same seed); a two-valued file differs from
// either constant; and the all-reduce iteration count follows the compute
// time (a constant 50 ms runs more iterations than a constant 500 ms).
func TestSRClusterComputeTraces(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one.txt")
	two := filepath.Join(dir, "two.txt")
	if err := os.WriteFile(one, []byte("# measured\n0.25\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(two, []byte("0.05\n\n0.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"n=12", "duration_s=20", "model_mb=50"}
	run := func(sets ...string) map[string]float64 {
		return srRun(t, 3, append(append([]string(nil), base...), sets...)...).Metrics
	}
	file := run("trace=file", "trace_file="+one)
	constant := run("trace=constant", "compute_ms=250")
	for k, v := range constant {
		if file[k] != v && !(math.IsNaN(v) && math.IsNaN(file[k])) {
			t.Errorf("%s: file of one 0.25 s time gives %v, constant 250 ms %v", k, file[k], v)
		}
	}
	mixed := run("trace=file", "trace_file="+two)
	if mixed["total_iteration"] == constant["total_iteration"] {
		t.Errorf("a two-valued trace ran exactly as many iterations as the constant: %v", mixed["total_iteration"])
	}
	fast := run("scheme=allreduce", "trace=constant", "compute_ms=50")
	slow := run("scheme=allreduce", "trace=constant", "compute_ms=500")
	if !(fast["total_iteration"] > slow["total_iteration"]) {
		t.Errorf("all reduce iterations %v at 50 ms compute, %v at 500 ms", fast["total_iteration"], slow["total_iteration"])
	}
	for _, sets := range [][]string{{"trace=uniform", "compute_spread=0.5"}, {"trace=lognormal", "compute_spread=0.3"}} {
		if m := run(sets...); !(m["total_iteration"] > 0) {
			t.Errorf("%v: %v iterations", sets, m["total_iteration"])
		}
	}
}

// TestSRClusterTraceErrors checks that a missing or unreadable trace file
// and an impossible spread are errors naming the parameter.
func TestSRClusterTraceErrors(t *testing.T) {
	e := SRCluster()
	for _, tc := range []struct {
		sets []string
		want string
	}{
		{[]string{"trace=file"}, "trace_file"},
		{[]string{"trace=file", "trace_file=" + filepath.Join(t.TempDir(), "missing.txt")}, "trace_file"},
		{[]string{"trace=uniform", "compute_spread=1"}, "compute_spread"},
	} {
		ps, err := e.Resolve(append(tc.sets, "n=4", "duration_s=1"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = e.Run(&experiments.Run{Exp: e, Params: ps, Seed: 1})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one naming %s", tc.sets, err, tc.want)
		}
	}
	if _, err := e.Resolve([]string{"trace_file=a,b"}); err == nil {
		t.Error("a trace_file with a comma was accepted")
	}
}
