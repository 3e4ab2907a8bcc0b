// Package ina holds the tests of scripts/ina's helpers; the scripts
// themselves are bash, awk and Python (reproduce.sh, claims.awk,
// storms.py, windows.py).
package ina

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A job series of two jobs, 0.1 ms apart. Job 0 stalls from 0.1 to 0.3
// ms (windows at the floor, everything in flight GACKed), leaves the
// stall at 0.3 (CWD 5) and stalls again from 0.4 to 0.7 with 99.5
// percent GACKed; at 0.7 only 98 percent are, which ends the stall. Job
// 1 never stalls.
const stormSeries = `t_ms,job,progress,cwd_mean,inflight,inflight_gacked,timeouts,retransmits,drops
0,0,0,10,100,100,0,0,0
0,1,0,10,100,0,0,0,0
0.1,0,0.1,1,100,100,0,0,0
0.2,0,0.1,1.5,100,100,2,200,50
0.3,0,0.2,5,100,100,4,400,80
0.4,0,0.2,2,1000,995,4,400,80
0.5,0,0.3,1,1000,995,5,500,90
0.6,0,0.3,1,1000,1000,6,600,100
0.7,0,0.4,1,1000,980,8,800,100
0.8,0,0.5,1,1000,980,9,900,120
0.8,1,1,1,100,50,3,10,7
`

// storms runs storms.py with args on stormSeries and returns its rows.
func storms(t *testing.T, args ...string) []string {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ina-leafspine_0_0_jobs.csv"), []byte(stormSeries), 0o644); err != nil {
		t.Fatal(err)
	}
	args = append([]string{"storms.py"}, append(args, "r="+dir)...)
	out, err := exec.Command("python3", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("storms.py: %v\n%s", err, out)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

// TestStormsStalls checks the stalls of the hand-built series: job 0's
// longest stall is the second (0.4 to 0.7 ms), both together 0.5 ms with
// 8 timeouts and 800 resends (100 a timeout) and 100 of its 120 drops,
// and it held at most 1,000 GACKed; job 1 has none; the run's row sums
// them, averages the progress and takes the largest backlog.
func TestStormsStalls(t *testing.T) {
	rows := storms(t)
	want := []string{
		"| r | 0 | 0.3 | 0.5 | 8.0 | 800 | 100 | 100 / 120 | 0.500 | 1,000 |",
		"| r | 1 | 0.0 | 0.0 | 0.0 | 0.0 | - | 0.0 / 7.0 | 1.000 | 50.0 |",
		"| r | all | 0.3 | 0.5 | 8.0 | 800 | 100 | 100 / 127 | 0.750 | 1,000 |",
	}
	if len(rows) != 2+len(want) {
		t.Fatalf("got %d lines, want a header, a rule and %d rows:\n%s", len(rows), len(want), strings.Join(rows, "\n"))
	}
	for i, w := range want {
		if rows[2+i] != w {
			t.Errorf("row %d:\n got %s\nwant %s", i, rows[2+i], w)
		}
	}
}

// TestStormsUntil checks --until: rows after it are left out, so job 0
// has only its first stall (0.1 to 0.3 ms, 4 timeouts, 400 resends, 80
// drops), and job 1, whose only later row is cut, keeps its first.
func TestStormsUntil(t *testing.T) {
	rows := storms(t, "--until", "0.45")
	if got, want := rows[2], "| r | 0 | 0.2 | 0.2 | 4.0 | 400 | 100 | 80.0 / 80.0 | 0.200 | 995 |"; got != want {
		t.Errorf("job 0:\n got %s\nwant %s", got, want)
	}
	if got, want := rows[3], "| r | 1 | 0.0 | 0.0 | 0.0 | 0.0 | - | 0.0 / 0.0 | 0.000 | 0.0 |"; got != want {
		t.Errorf("job 1:\n got %s\nwant %s", got, want)
	}
}

// TestStormsBadInput checks that a missing series and a malformed
// argument end in one line and a non-zero exit.
func TestStormsBadInput(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	for _, args := range [][]string{{"r=" + t.TempDir()}, {"notaname"}, {"--until"}, {}} {
		out, err := exec.Command("python3", append([]string{"storms.py"}, args...)...).CombinedOutput()
		if err == nil {
			t.Errorf("storms.py %v: no error", args)
		}
		if lines := strings.Split(strings.TrimSpace(string(out)), "\n"); len(lines) != 1 {
			t.Errorf("storms.py %v: %d lines of message:\n%s", args, len(lines), out)
		}
	}
}
