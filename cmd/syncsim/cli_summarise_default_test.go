package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSummariseDefaultsToHeadline: without --metric, summarise reports
// the experiment's headline metrics (crew-single names four of its five:
// not transfers) less those undefined in every row (a2a plans no LP, so
// lp_objective_s and t_split_s are NaN for it), and says so on stderr;
// --metric all reports every metric defined somewhere.
func TestSummariseDefaultsToHeadline(t *testing.T) {
	csv := filepath.Join(t.TempDir(), "cs.csv")
	if _, stderr, code := runCLI(t, "sweep", "crew-single", "--set", "n=8", "--set", "p=3", "--vary", "scheme=crew,a2a", "--trials", "2", "--csv", csv); code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	for _, tc := range []struct {
		args   []string
		header string
		note   []string
	}{
		{nil, "| scheme | pr_time_s | t_split_s | lp_objective_s | traffic_mb |", []string{"the headline metrics of crew-single (--metric all: all 5"}},
		{[]string{"--where", "scheme=a2a"}, "| pr_time_s | traffic_mb |", []string{"the headline metrics", "left out as undefined in every row: t_split_s, lp_objective_s"}},
		{[]string{"--metric", "all", "--where", "scheme=a2a"}, "| pr_time_s | traffic_mb | transfers |", []string{"left out as undefined in every row: lp_objective_s, t_split_s"}},
		{[]string{"--metric", "transfers"}, "| scheme | transfers |", nil},
	} {
		out, stderr, code := runCLI(t, append([]string{"summarise", csv}, tc.args...)...)
		if code != 0 || !strings.HasPrefix(out, tc.header+"\n") {
			t.Errorf("%v: exit %d, want the header %s:\n%s%s", tc.args, code, tc.header, out, stderr)
		}
		for _, n := range tc.note {
			if !strings.Contains(stderr, n) {
				t.Errorf("%v: stderr %q lacks %q", tc.args, stderr, n)
			}
		}
		if tc.note == nil && stderr != "" {
			t.Errorf("%v: a note where --metric names the metrics: %q", tc.args, stderr)
		}
	}
	if _, stderr, code := runCLI(t, "summarise", csv, "--metric", "all,pr_time_s"); code != 1 || !strings.Contains(stderr, "--metric all names every metric; give it alone") {
		t.Errorf("--metric all,pr_time_s: exit %d %s", code, stderr)
	}
}
