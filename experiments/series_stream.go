package experiments

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// SeriesWriter receives the rows of one time series while a run
// produces them. When the command writes series to a directory
// (Runner.SeriesDir), each row goes to the series' file as it comes
// (buffered), so a run's memory does not grow with its length; the file
// is written under a temporary name and renamed when the run succeeds,
// before the manifest, as WriteSeries does. Without a directory (a
// library caller, a test) the rows are kept and appear in Result.Series
// after the run. Either way the bytes of the file are those WriteSeries
// writes for the same rows.
type SeriesWriter struct {
	name    string
	columns []string
	scale   []float64
	rows    int
	mem     *Series // rows kept in memory (no directory)
	path    string  // final file name (streaming)
	f       *os.File
	buf     *bufio.Writer
	csv     *csv.Writer
	rec     []string
	err     error
	placed  bool // Series was called: the series has its place in Result.Series
	done    bool // the streamed file is complete under its final name
}

// OpenSeries starts the time series name with the given columns and
// returns its writer. Call it only when r.Series is set. A run opens
// each name once; rows are added with Row.
func (r *Run) OpenSeries(name string, columns ...string) *SeriesWriter {
	w := &SeriesWriter{name: name, columns: columns, scale: make([]float64, len(columns)), rec: make([]string, len(columns))}
	for i, c := range columns {
		w.scale[i] = timeScale(c)
	}
	r.streams = append(r.streams, w)
	switch {
	case !seriesName.MatchString(name):
		w.err = errors.New("series name must be lower-case letters, digits, '_' or '-'")
	case len(columns) == 0:
		w.err = errors.New("series has no columns")
	}
	for _, o := range r.streams[:len(r.streams)-1] {
		if o.name == name {
			w.err = fmt.Errorf("the run opened two series named %q", name)
		}
	}
	if w.err != nil {
		return w
	}
	if r.seriesDir == "" {
		w.mem = &Series{Name: name, Columns: columns}
		return w
	}
	w.path = SeriesPath(r.seriesDir, r.Exp.Name, r.point, r.Trial, name)
	f, err := os.CreateTemp(filepath.Dir(w.path), "."+filepath.Base(w.path)+".tmp-*")
	if err != nil {
		w.err = err
		return w
	}
	w.f, w.buf = f, bufio.NewWriterSize(f, 64<<10)
	w.csv = csv.NewWriter(w.buf)
	w.err = w.csv.Write(columns)
	return w
}

// Row adds one row; it must have one value per column. Errors (a wrong
// row length, a full disk) are kept and make the run fail when it ends.
func (w *SeriesWriter) Row(values ...float64) {
	if w.err != nil {
		return
	}
	if len(values) != len(w.columns) {
		w.err = fmt.Errorf("row %d has %d values for %d columns", w.rows, len(values), len(w.columns))
		return
	}
	w.rows++
	if w.mem != nil {
		w.mem.Rows = append(w.mem.Rows, append([]float64(nil), values...))
		return
	}
	for i, v := range values {
		w.rec[i] = FormatFloat(roundTime(v, w.scale[i]))
	}
	w.err = w.csv.Write(w.rec)
}

// Rows is the number of rows added so far.
func (w *SeriesWriter) Rows() int { return w.rows }

// Buffered is the number of bytes the writer holds for rows not yet
// handed to the operating system: the rows kept in memory (8 bytes a
// value) without a series directory, the bytes in its write buffer
// (at most 64 KiB) with one.
func (w *SeriesWriter) Buffered() int {
	if w.mem != nil {
		return 8 * len(w.columns) * len(w.mem.Rows)
	}
	if w.buf != nil {
		return w.buf.Buffered()
	}
	return 0
}

// Series returns the series for a run's Result.Series, which it should
// append at the place the series takes in the manifest's list (after
// the run's last row). Without a series directory it is the series with
// every row added so far, as a run that built it in memory would
// return; with one, it stands for the streamed file, and WriteSeries
// lists that file at its place. A series the run never places this way
// is listed after those of Result.Series.
func (w *SeriesWriter) Series() Series {
	w.placed = true
	if w.mem != nil {
		return *w.mem
	}
	return Series{Name: w.name, Columns: w.columns, stream: w}
}

// finish completes the run's series: on success, in-memory series join
// res.Series and streamed files are flushed, synced and renamed to their
// final names (their records join res.streamed); otherwise the
// temporary files are removed. It returns the first error of any series.
func (r *Run) finishSeries(res *Result, ok bool) error {
	var first error
	for _, w := range r.streams {
		err := w.err
		if ok && err == nil {
			err = w.complete(res)
		}
		if w.f != nil && (!ok || err != nil) {
			w.f.Close()
			os.Remove(w.f.Name())
		}
		if err != nil && first == nil {
			first = fmt.Errorf("series %q: %w", w.name, err)
		}
	}
	r.streams = nil
	return first
}

// complete publishes one successful series.
func (w *SeriesWriter) complete(res *Result) error {
	if w.mem != nil {
		if !w.placed {
			res.Series = append(res.Series, *w.mem)
		}
		return nil
	}
	w.csv.Flush()
	if err := w.csv.Error(); err != nil {
		return err
	}
	if err := w.buf.Flush(); err != nil {
		return err
	}
	if err := w.f.Chmod(0o644); err != nil {
		return err
	}
	if err := w.f.Sync(); err != nil {
		return err
	}
	if err := w.f.Close(); err != nil {
		return err
	}
	if err := os.Rename(w.f.Name(), w.path); err != nil {
		return err
	}
	w.f = nil
	w.done = true
	if !w.placed {
		res.streamed = append(res.streamed, w.record())
	}
	return nil
}

// record is the manifest's entry of a streamed series.
func (w *SeriesWriter) record() SeriesRecord {
	return SeriesRecord{Name: w.name, File: filepath.Base(w.path), Rows: w.rows}
}
