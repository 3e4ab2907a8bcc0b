package experiments

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// streamProbe is what the streaming experiment saw of its own writer
// and heap after its last row, while the writer was still open.
type streamProbe struct {
	buffered int
	heap     uint64
}

// streamExperiment writes rows rows of a series "a" (placed with
// SeriesWriter.Series between two in-memory series "before" and "after")
// and a series "tail" it never places, and reports in probe what it
// held after the last row.
func streamExperiment(probe *streamProbe) *Experiment {
	return &Experiment{
		Name:    "toy-stream",
		Summary: "test experiment",
		Params:  []Param{IntParam("rows", 10, 1, 1<<22, "rows of series a")},
		Metrics: []Metric{{Name: "rows", Help: "rows written"}},
		Run: func(r *Run) (*Result, error) {
			res := r.Exp.NewResult()
			n := r.Params.Int("rows")
			a := r.OpenSeries("a", "time_ms", "x", "y")
			tail := r.OpenSeries("tail", "k")
			for i := range n {
				a.Row(float64(i)*0.001, float64(i%97)/7, float64(i)*1e3)
			}
			tail.Row(1)
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			probe.buffered, probe.heap = a.Buffered(), ms.HeapAlloc
			res.Metrics["rows"] = float64(a.Rows())
			res.Series = append(res.Series, Series{Name: "before", Columns: []string{"v"}, Rows: [][]float64{{1}}},
				a.Series(), Series{Name: "after", Columns: []string{"v"}, Rows: [][]float64{{2}}})
			return res, nil
		},
	}
}

// runStream runs streamExperiment once with rows rows, streaming to dir
// when it is not empty, and writes its series there (or into a fresh
// directory when it is empty); it returns the probe and the outcome.
func runStream(t *testing.T, rows int, stream bool) (streamProbe, *Outcome, string) {
	t.Helper()
	var probe streamProbe
	e := streamExperiment(&probe)
	pts, err := Expand(e, []string{"rows=" + formatFloat(float64(rows))}, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	r := &Runner{Exp: e, Points: pts, Trials: 1, Parallel: 1, Series: true}
	if stream {
		r.SeriesDir = dir
	}
	var out *Outcome
	err = r.Run(context.Background(), func(o *Outcome) error {
		out = o
		_, err := WriteSeries(dir, e.Name, o)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return probe, out, dir
}

// TestSeriesStreamHoldsNoRows: with a series directory, a series written
// with OpenSeries holds at most its write buffer however many rows it
// has, and the heap after 4x the rows is no larger (within 256 KB);
// without one the rows are held (the control that shows the probe sees
// growth). The files and manifests are byte for byte those of the rows
// kept in memory, and a series placed with Series keeps its place in the
// manifest's list.
func TestSeriesStreamHoldsNoRows(t *testing.T) {
	const short, long = 20000, 80000
	s1, _, _ := runStream(t, short, true)
	s4, o4, dir4 := runStream(t, long, true)
	m1, _, _ := runStream(t, short, false)
	m4, om4, mdir4 := runStream(t, long, false)
	t.Logf("streamed: buffered %d / %d B, heap %d / %d B; in memory: buffered %d / %d B, heap %d / %d B",
		s1.buffered, s4.buffered, s1.heap, s4.heap, m1.buffered, m4.buffered, m1.heap, m4.heap)
	if s4.buffered > 64<<10 || s1.buffered > 64<<10 {
		t.Errorf("a streamed series buffers %d B after %d rows (%d after %d): more than its 64 KiB buffer", s4.buffered, long, s1.buffered, short)
	}
	if grow := int64(s4.heap) - int64(s1.heap); grow > 256<<10 {
		t.Errorf("streaming %d more rows grew the heap by %d B", long-short, grow)
	}
	if m4.buffered < 3*m1.buffered || int64(m4.heap)-int64(m1.heap) < int64(long-short)*24 {
		t.Errorf("in memory, 4x the rows: buffered %d -> %d B, heap %d -> %d B: the probe cannot see growth", m1.buffered, m4.buffered, m1.heap, m4.heap)
	}
	for _, s := range o4.Result.Series {
		if len(s.Rows) > 1 {
			t.Errorf("the streamed run's result holds %d rows of series %q", len(s.Rows), s.Name)
		}
	}
	if n := len(om4.Result.Series); n != 4 {
		t.Errorf("in memory the result has %d series, want before, a, after, tail", n)
	}
	// Same bytes either way, files and manifest.
	names, _ := filepath.Glob(filepath.Join(mdir4, "*"))
	if len(names) != 5 {
		t.Fatalf("%d files in memory, want 4 series and a manifest", len(names))
	}
	for _, p := range names {
		want, _ := os.ReadFile(p)
		got, err := os.ReadFile(filepath.Join(dir4, filepath.Base(p)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s differs when streamed (%v)", filepath.Base(p), err)
		}
	}
	var man Manifest
	b, _ := os.ReadFile(ManifestPath(dir4, "toy-stream", 0, 0))
	if err := json.Unmarshal(b, &man); err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, s := range man.Series {
		order = append(order, s.Name)
	}
	if len(order) != 4 || order[0] != "before" || order[1] != "a" || order[2] != "after" || order[3] != "tail" || man.Series[1].Rows != long {
		t.Errorf("manifest lists %v (a has %d rows), want [before a after tail] with %d", order, man.Series[1].Rows, long)
	}
}
