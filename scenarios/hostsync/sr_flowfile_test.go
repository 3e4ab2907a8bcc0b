package hostsync

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSRClusterFlowFile replays a flow file at packet fidelity beside
// partial-reduce training: every flow completes (bg_flows_done) and has
// its fct.txt line with the file's hosts (a worker's host among them),
// size and start in nanoseconds.
func TestSRClusterFlowFile(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "flow.txt"), filepath.Join(dir, "fct.txt")
	const text = "3\n0 5 3 100 100000 0.5\n6 1 3 200 200000 1.0\n2 3 3 100 50000 1.5\n"
	if err := os.WriteFile(in, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	m := srRun(t, 1, "n=6", "fidelity=packet", "model_mb=1", "duration_s=2", "scheme=partial-reduce", "p_frac=0.5",
		"topology=leaf-spine", "flows_file="+in, "fct_out="+out).Metrics
	if m["bg_flows_done"] != 3 {
		t.Errorf("bg_flows_done %v, want 3", m["bg_flows_done"])
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"0b000001 0b000501 10000 100 100000 500000000", "0b000601 0b000101 10000 200 200000 1000000000", "0b000201 0b000301 10000 100 50000 1500000000"}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != len(want) {
		t.Fatalf("fct.txt:\n%s\nwant %d lines", b, len(want))
	}
	for i, l := range lines {
		if !strings.HasPrefix(l, want[i]+" ") {
			t.Errorf("line %d %q, want it to start %q", i+1, l, want[i])
		}
	}
}
