package ina

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A job series of two jobs and their summary. Job 0's row at 0.2 ms has
// finished (progress 1) and must not count: its means over the two rows
// before are a window of 15, 200 in flight and none GACKed. Job 1's are
// 5, 2,000 and 1,900. The summary's ECN cuts add up to 12.
const windowSeries = `t_ms,job,progress,cwd_mean,inflight,inflight_gacked
0,0,0,10,100,0
0,1,0,4,1000,900
0.1,0,0.5,20,300,0
0.1,1,0.2,6,3000,2900
0.2,0,1,99,999,999
`

const windowSummary = `job,ecn_cuts
0,7
1,5
`

// windows runs windows.py with args on a directory holding the series
// above (or only what files names) and returns its output lines and error.
func windows(t *testing.T, files map[string]string, args ...string) ([]string, error) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command("python3", append([]string{"windows.py"}, append(args, "r="+dir)...)...).CombinedOutput()
	return strings.Split(strings.TrimSpace(string(out)), "\n"), err
}

var windowFiles = map[string]string{
	"ina-leafspine_0_0_jobs.csv":        windowSeries,
	"ina-leafspine_0_0_job_summary.csv": windowSummary,
}

// TestWindowsMeans checks the means worked by hand above, the finished
// row left out, and the run's ECN cuts; then --until, which keeps only
// the first row of each job.
func TestWindowsMeans(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{nil, []string{"| r | 0 | 15.0 | 200 | 0 |", "| r | 1 | 5.0 | 2000 | 1900 |", "| r | ECN window cuts | 12 | | |"}},
		{[]string{"--until", "0.05"}, []string{"| r | 0 | 10.0 | 100 | 0 |", "| r | 1 | 4.0 | 1000 | 900 |", "| r | ECN window cuts | 12 | | |"}},
	} {
		rows, err := windows(t, windowFiles, c.args...)
		if err != nil {
			t.Fatalf("windows.py %v: %v\n%s", c.args, err, strings.Join(rows, "\n"))
		}
		if len(rows) != 2+len(c.want) {
			t.Fatalf("windows.py %v: got %d lines, want a header, a rule and %d rows:\n%s", c.args, len(rows), len(c.want), strings.Join(rows, "\n"))
		}
		for i, w := range c.want {
			if rows[2+i] != w {
				t.Errorf("windows.py %v, row %d:\n got %s\nwant %s", c.args, i, rows[2+i], w)
			}
		}
	}
}

// TestWindowsBadInput checks that a missing series, a missing summary and
// a series whose jobs had all finished end in one line and a non-zero exit.
func TestWindowsBadInput(t *testing.T) {
	for name, files := range map[string]map[string]string{
		"no series":  {},
		"no summary": {"ina-leafspine_0_0_jobs.csv": windowSeries},
		"all done":   {"ina-leafspine_0_0_jobs.csv": "t_ms,job,progress,cwd_mean,inflight,inflight_gacked\n0,0,1,1,0,0\n", "ina-leafspine_0_0_job_summary.csv": windowSummary},
	} {
		rows, err := windows(t, files)
		if err == nil {
			t.Errorf("%s: no error", name)
		}
		if len(rows) != 1 {
			t.Errorf("%s: %d lines of message:\n%s", name, len(rows), strings.Join(rows, "\n"))
		}
	}
}
