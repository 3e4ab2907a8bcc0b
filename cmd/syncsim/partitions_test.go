package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSwitchAloneSameAtThreads: with partitions=switch-alone (every switch
// a partition of its own, its hosts in their groups) every experiment
// that runs on the parallel engine writes byte-identical CSVs at 1 and 3
// threads with the books checked (--check), its INA and mixed-fabric jobs
// all finish, and the CSV records the choice. The sweeps are the
// partitioned ones of the other thread tests: every INA protocol, the
// testbed, mixed-fabric's rings and partial-reduce job, and the golden
// sweeps of the network experiments.
func TestSwitchAloneSameAtThreads(t *testing.T) {
	if testing.Short() {
		t.Skip("sweeps take CPU")
	}
	cases := []struct {
		name  string
		args  []string
		check func([]byte)
	}{
		{"permutation", goldenSweeps["permutation"], nil},
		{"background", goldenSweeps["background"], nil},
		{"incast", goldenSweeps["incast"], nil},
		{"ina-leafspine", inaPartitionedSweeps["ina-leafspine"], func(b []byte) { checkAllJobsDone(t, "ina-leafspine", b) }},
		{"ina-testbed", inaPartitionedSweeps["ina-testbed"], func(b []byte) { checkAllJobsDone(t, "ina-testbed", b) }},
		{"mixed-fabric", mixedPartitionedSweep, func(b []byte) { checkMixedJobsDone(t, b) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var first []byte
			for _, threads := range []string{"1", "3"} {
				path := filepath.Join(t.TempDir(), c.name+".csv")
				cmd := append([]string{"sweep", c.name, "--seed", "5", "--parallel", "1", "--check", "--threads", threads,
					"--csv", path, "--set", "partitions=switch-alone"}, c.args...)
				if _, stderr, code := runCLI(t, cmd...); code != 0 {
					t.Fatalf("syncsim %s: exit %d: %s", strings.Join(cmd, " "), code, stderr)
				}
				got, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if first != nil {
					if !bytes.Equal(got, first) {
						t.Fatalf("--threads %s differs from --threads 1:\n%s\n---\n%s", threads, got, first)
					}
					continue
				}
				first = got
				checkColumn(t, got, "partitions", "switch-alone")
				if c.check != nil {
					c.check(got)
				}
			}
		})
	}
}

// checkColumn fails unless every row of the CSV has value in column col.
func checkColumn(t *testing.T, data []byte, col, value string) {
	t.Helper()
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("bad CSV (%v):\n%s", err, data)
	}
	i := slices.Index(rows[0], col)
	if i < 0 {
		t.Fatalf("no column %s in %v", col, rows[0])
	}
	for _, r := range rows[1:] {
		if r[i] != value {
			t.Fatalf("row %v: %s = %q, want %q", r, col, r[i], value)
		}
	}
}

// TestPartitionsCut: the partitions parameter cuts the network as it
// says: on a leaf-spine of 3 leaves x 4 hosts and 2 spines, switch-hosts
// gives 5 partitions (each leaf with its hosts, each spine) and
// switch-alone 8 (the leaves, their host groups and the spines alone).
func TestPartitionsCut(t *testing.T) {
	for _, c := range []struct{ value, want string }{{"switch-hosts", "5 partitions"}, {"switch-alone", "8 partitions"}} {
		_, stderr, code := runCLI(t, "run", "permutation", "-q", "--set", "spines=2", "--set", "leaves=3", "--set", "hosts_per_leaf=4",
			"--set", "duration_ms=0.05", "--set", "partitions="+c.value, "--engine-profile")
		if code != 0 || !strings.Contains(stderr, "parallel engine: "+c.want+",") {
			t.Errorf("partitions=%s: exit %d, want %q in:\n%s", c.value, code, c.want, stderr)
		}
	}
}
