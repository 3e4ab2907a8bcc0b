package experiments

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"
)

// Sweep describes what a CSV holds: the grid, the seed and trials, whether
// wall-clock columns are present, and which shard of the jobs. Resume and
// merge check files against it.
type Sweep struct {
	Grid   *Grid
	Seed   uint64
	Trials int
	Timing bool
	// Shard and Shards as in Runner: job k belongs to shard k mod Shards.
	Shard, Shards int
	// SeriesDir, when set, holds the sweep's series; a row whose series
	// are incomplete is run again (see OpenResume).
	SeriesDir string
	// Keep asks OpenResume to keep the rows it reads (Resume.Records),
	// for a summary of every trial.
	Keep bool
}

// jobs returns the number of jobs of the shard.
func (s *Sweep) jobs() int {
	n, sh := s.Grid.Len()*s.Trials, max(1, s.Shards)
	if s.Shard >= n {
		return 0
	}
	return (n - s.Shard + sh - 1) / sh
}

// job returns the (point, trial) of the shard's i-th job.
func (s *Sweep) job(i int) (point, trial int) {
	k := s.Shard + i*max(1, s.Shards)
	return k / s.Trials, k % s.Trials
}

// Resume records how much of a sweep a CSV already holds: its first
// Rows jobs (of its shard, in grid order).
type Resume struct {
	sw      *Sweep
	rows    int
	records [][]string
	// Rerun is set when rows had to be run again because their series
	// were incomplete: it says which and why.
	Rerun string
}

// Rows returns the number of data rows kept.
func (rs *Resume) Rows() int { return rs.rows }

// Records returns the rows kept, when the sweep asked for them (Keep).
func (rs *Resume) Records() [][]string { return rs.records[:min(len(rs.records), rs.rows)] }

// Done reports whether the job (point, trial) is among the rows kept;
// use it as Runner.Done with DoneCount = Rows.
func (rs *Resume) Done(point, trial int) bool {
	k := point*rs.sw.Trials + trial
	sh := max(1, rs.sw.Shards)
	if k%sh != rs.sw.Shard {
		return false
	}
	return k/sh < rs.rows
}

// OpenResume opens path for appending the rows of a resumed sweep. A
// missing or empty file is created and gets the header (the caller
// writes it when header is true). An existing file must have been
// written by this very sweep: its sidecar (when present) must describe
// the same configuration, its header must be the experiment's columns,
// and its rows must be the sweep's first jobs in grid order, each with
// the parameters, trial and seed the sweep gives it; otherwise the file
// is left untouched and the error names what differs. A last line cut
// short by an interruption is removed; so are the rows from the first
// one whose series (in sw.SeriesDir) are incomplete, which are run again.
func OpenResume(path string, sw *Sweep, pv *Provenance) (f *os.File, rs *Resume, header bool, err error) {
	if err := checkResumeSidecar(path, pv); err != nil {
		return nil, nil, false, err
	}
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, false, err
	}
	defer func() {
		if err != nil {
			f.Close()
			f = nil
		}
	}()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, nil, false, err
	}
	rs = &Resume{sw: sw}
	if len(data) == 0 {
		return f, rs, true, nil
	}
	// Check the complete lines before touching the file; then drop a
	// last row cut short by an interruption, and rows whose series are
	// incomplete.
	cut := bytes.LastIndexByte(data, '\n') + 1
	if cut == 0 {
		return nil, nil, false, fmt.Errorf("cannot resume %s: it has no complete header line", path)
	}
	ends, err := rs.read(data[:cut], sw)
	if err != nil {
		return nil, nil, false, fmt.Errorf("cannot resume %s: %w", path, err)
	}
	cut = ends[rs.rows] // blank lines after the last row go too
	if sw.SeriesDir != "" {
		for i := 0; i < rs.rows; i++ {
			p, t := sw.job(i)
			if why := SeriesComplete(sw.SeriesDir, sw.Grid.exp.Name, p, t, sw.Seed+uint64(t)); why != nil {
				rs.Rerun = fmt.Sprintf("the series of point %d trial %d are incomplete (%v): %d rows from line %d are run again",
					p, t, why, rs.rows-i, i+2)
				rs.rows, cut = i, ends[i]
				break
			}
		}
	}
	if cut < len(data) {
		if err := f.Truncate(int64(cut)); err != nil {
			return nil, nil, false, err
		}
	}
	if _, err := f.Seek(int64(cut), io.SeekStart); err != nil {
		return nil, nil, false, err
	}
	return f, rs, false, nil
}

// checkResumeSidecar refuses to resume path when its sidecar describes
// another sweep or shard than pv (nil: no check).
func checkResumeSidecar(path string, pv *Provenance) error {
	if pv == nil {
		return nil
	}
	old, err := ReadSidecar(path)
	switch {
	case err == nil:
		if d := SameSweep(old, pv); d != "" {
			return fmt.Errorf("cannot resume %s: it was written with %s (see %s); run the same sweep, or write to a new file",
				path, d, SidecarPath(path))
		}
		if old.Shard != nil && (pv.Shard == nil || *old.Shard != *pv.Shard) {
			return fmt.Errorf("cannot resume %s: it holds shard %d/%d", path, old.Shard.Index, old.Shard.Count)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("cannot resume %s: %w", path, err)
	}
	return nil
}

// CheckResume reports what OpenResume would refuse, without touching
// path: a sidecar or rows of another sweep, a header of other columns.
// A missing or empty file can be resumed.
func CheckResume(path string, sw *Sweep, pv *Provenance) error {
	if err := checkResumeSidecar(path, pv); err != nil {
		return err
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) || err == nil && len(data) == 0 {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot resume %s: %w", path, err)
	}
	cut := bytes.LastIndexByte(data, '\n') + 1
	if cut == 0 {
		return fmt.Errorf("cannot resume %s: it has no complete header line", path)
	}
	rs := &Resume{sw: sw}
	if _, err := rs.read(data[:cut], sw); err != nil {
		return fmt.Errorf("cannot resume %s: %w", path, err)
	}
	return nil
}

// read checks the header and rows of a CSV against the sweep and counts
// the rows; ends[i] is the byte offset where row i begins (ends[0] is the
// end of the header).
func (rs *Resume) read(data []byte, sw *Sweep) (ends []int, err error) {
	e := sw.Grid.exp
	cr := csv.NewReader(bytes.NewReader(data))
	cr.ReuseRecord = true
	want := CSVHeader(e, sw.Timing)
	got, err := cr.Read()
	if err != nil {
		return nil, err
	}
	if !slices.Equal(got, want) {
		return nil, errors.New("its header differs from this experiment's columns (other experiment, parameters or --timing); write to a new file")
	}
	ends = append(ends, int(cr.InputOffset()))
	n := sw.jobs()
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return ends, nil
		}
		if err != nil {
			return nil, err
		}
		line, _ := cr.FieldPos(0)
		if line != rs.rows+2 {
			return nil, fmt.Errorf("line %d is blank: the file was edited after syncsim wrote it", rs.rows+2)
		}
		if err := sw.checkRow(rec, rs.rows, n); err != nil {
			return nil, fmt.Errorf("line %d %w", line, err)
		}
		rs.rows++
		if sw.Keep {
			rs.records = append(rs.records, append([]string(nil), rec...))
		}
		ends = append(ends, int(cr.InputOffset()))
	}
}

// checkRow checks that rec is the i-th row (of n) of the sweep.
func (sw *Sweep) checkRow(rec []string, i, n int) error {
	e := sw.Grid.exp
	np := len(e.Params)
	if len(rec) < np+3 {
		return errors.New("too few columns")
	}
	if rec[0] != e.Name {
		return fmt.Errorf("holds experiment %q, not %s", rec[0], e.Name)
	}
	if i >= n {
		return fmt.Errorf("is one row more than the %d this sweep has", n)
	}
	point, trial := sw.job(i)
	if t, err := strconv.Atoi(rec[1+np]); err == nil && (t < 0 || t >= sw.Trials) {
		return fmt.Errorf("has trial %d but this sweep has --trials %d", t, sw.Trials)
	}
	vals := rec[1 : 1+np]
	if got, ok := sw.Grid.Find(vals); !ok {
		return fmt.Errorf("has %s (other --set, --vary or scenario than this sweep); run the same sweep, or write to a new file", sw.Grid.Mismatch(vals))
	} else if got != point {
		return fmt.Errorf("holds point %d where this sweep has point %d: the rows are not this sweep's, in grid order", got, point)
	}
	if t, err := strconv.Atoi(rec[1+np]); err != nil || t != trial {
		return fmt.Errorf("has trial %s where this sweep has trial %d", rec[1+np], trial)
	}
	seed, err := strconv.ParseUint(rec[2+np], 10, 64)
	if want := sw.Seed + uint64(trial); err != nil || seed != want {
		return fmt.Errorf("has seed %s for trial %d, where this sweep (--seed %d) has %d", rec[2+np], trial, sw.Seed, want)
	}
	return nil
}
