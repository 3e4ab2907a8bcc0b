package hostsync

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"syncsim/experiments"
	"syncsim/experiments/exptest"
)

// streamRun runs one trial of exp (seed 2) through the harness with series on
// (exptest.SeriesRun).
func streamRun(t *testing.T, exp string, stream bool, sets ...string) (*experiments.Outcome, string) {
	t.Helper()
	return exptest.SeriesRun(t, lookup(t, exp), 2, stream, sets...)
}

// TestSeriesStreamedNotHeld: dssync's comm series, sr-cluster's syncs and
// a one-job learning series are written as the run produces them: with
// a series directory the result holds none of their rows, at a run 4x
// longer too, while the in-memory run's rows grow with it (at least 2.5x; the
// learning series starts with a row at time zero); the files
// and manifests are byte for byte the in-memory ones.
func TestSeriesStreamedNotHeld(t *testing.T) {
	learn := []string{"learn_model=softmax", "dataset=synthetic", "eval_every=2"}
	cases := []struct {
		exp         string
		short, long string
		sets        []string
		growing     []string
		filesPerRun int
	}{
		{"dssync", "iterations=20", "iterations=80", learn, []string{"comm", "learning"}, 3},
		{"sr-cluster", "duration_s=25", "duration_s=100", learn, []string{"syncs", "learning"}, 3},
	}
	for _, c := range cases {
		t.Run(c.exp, func(t *testing.T) {
			rows := map[string]int{}
			for _, length := range []string{c.short, c.long} {
				sets := append(append([]string(nil), c.sets...), length)
				streamed, sdir := streamRun(t, c.exp, true, sets...)
				kept, mdir := streamRun(t, c.exp, false, sets...)
				for _, s := range streamed.Result.Series {
					if len(s.Rows) != 0 {
						t.Errorf("%s: the streamed run holds %d rows of %s", length, len(s.Rows), s.Name)
					}
				}
				names, _ := filepath.Glob(filepath.Join(mdir, "*"))
				if len(names) != c.filesPerRun {
					t.Fatalf("%s: %d files, want %d", length, len(names), c.filesPerRun)
				}
				for _, p := range names {
					want, _ := os.ReadFile(p)
					got, err := os.ReadFile(filepath.Join(sdir, filepath.Base(p)))
					if err != nil || !bytes.Equal(got, want) {
						t.Errorf("%s: %s differs when streamed (%v)", length, filepath.Base(p), err)
					}
				}
				for _, s := range kept.Result.Series {
					rows[length+"/"+s.Name] = len(s.Rows)
				}
			}
			t.Logf("rows in memory: %v", rows)
			for _, name := range c.growing {
				if short, long := rows[c.short+"/"+name], rows[c.long+"/"+name]; short == 0 || 2*long < 5*short {
					t.Errorf("%s: %d rows at %s, %d at %s: 4x the run length should give at least 2.5x the rows", name, short, c.short, long, c.long)
				}
			}
		})
	}
}
