package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"syncsim/experiments"
	"syncsim/internal/timeline"
)

// checkOutputs refuses, before anything runs, to write over results or
// into outputs another command is writing: an existing non-empty CSV
// needs --resume (continue it) or --force (replace it), and so does a
// provenance sidecar without its CSV and a series directory that holds
// this experiment's series. open checks again under the outputs' locks.
func (p *plan) checkOutputs() error {
	if p.csvPath != "" {
		if locked, who := isLocked(p.csvPath); locked {
			return fmt.Errorf("%s is being written by %s; wait for it to end, or write to another file", p.csvPath, who)
		}
		if err := p.checkCSV(); err != nil {
			return err
		}
	}
	if p.seriesDir != "" {
		if locked, who := isLocked(p.seriesDir); locked {
			return fmt.Errorf("--series-dir %s is being written by %s; wait for it to end, or use another directory", p.seriesDir, who)
		}
		if err := p.checkSeriesDir(); err != nil {
			return err
		}
	}
	return p.checkFCT()
}

// checkCSV applies the --force rule to the CSV and its sidecar.
func (p *plan) checkCSV() error {
	if p.resume || p.force {
		return nil
	}
	st, err := os.Stat(p.csvPath)
	if err == nil && st.Mode().IsRegular() && st.Size() > 0 {
		return fmt.Errorf("%s exists (%d bytes); continue it with --resume or replace it with --force", p.csvPath, st.Size())
	}
	if _, err := os.Stat(experiments.SidecarPath(p.csvPath)); err == nil {
		return fmt.Errorf("%s exists (the provenance of an earlier %s); replace it with --force, or write to another file",
			experiments.SidecarPath(p.csvPath), p.csvPath)
	}
	return nil
}

// checkSeriesDir applies the --force rule to the series directory.
func (p *plan) checkSeriesDir() error {
	if p.resume || p.force {
		return nil
	}
	if n := countSeries(p.seriesDir, p.exp.Name); n > 0 {
		return fmt.Errorf("--series-dir %s already holds %d files of %s; continue with --resume, replace them with --force, or use another directory",
			p.seriesDir, n, p.exp.Name)
	}
	return nil
}

// countSeries counts the files of experiment exp in dir (series and
// manifests); a missing directory holds none.
func countSeries(dir, exp string) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, en := range entries {
		if strings.HasPrefix(en.Name(), exp+"_") {
			n++
		}
	}
	return n
}

// seriesFile matches the names WriteSeries gives series and manifests.
var seriesFile = regexp.MustCompile(`^(.+)_[0-9]+_[0-9]+(_[a-z0-9][a-z0-9_-]*\.csv|\.json)$`)

// removeSeries removes the series files and manifests of experiment exp
// from dir (--force replaces them).
func removeSeries(dir, exp string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, en := range entries {
		if m := seriesFile.FindStringSubmatch(en.Name()); m != nil && m[1] == exp && en.Type().IsRegular() {
			if err := os.Remove(filepath.Join(dir, en.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// output holds the open CSV and series destination of a plan, and the
// locks that keep other commands out of them until the command ends.
type output struct {
	file      *os.File
	csv       *experiments.CSVWriter
	resume    *experiments.Resume
	csvPath   string
	seriesDir string
	exp       string
	series    int // series files written
	manifests int // runs whose series were written

	// trace writes --trace's files, traced counts the runs that
	// recorded a timeline.
	trace      *timeline.Writer
	traceFiles []*os.File
	traced     int

	csvLock, dirLock *lock
	fresh            bool // the CSV holds nothing but what this command wrote
	sidecar          bool // this command wrote the sidecar
	dirCreated       bool // this command created the series directory
}

// open locks and creates the outputs before anything runs, so a bad
// path fails early and a second command writing the same outputs is
// refused. With resume, rows already in the CSV are kept and skipped;
// with force, an existing CSV is replaced. On error nothing it created
// is left behind.
func (p *plan) open() (_ *output, err error) {
	out := &output{seriesDir: p.seriesDir, exp: p.exp.Name, csvPath: p.csvPath}
	defer func() {
		if err != nil {
			out.discard()
		}
	}()
	if p.seriesDir != "" {
		_, statErr := os.Stat(p.seriesDir)
		if err := prepareDir(p.seriesDir); err != nil {
			return nil, fmt.Errorf("--series-dir: %w", err)
		}
		out.dirCreated = errors.Is(statErr, fs.ErrNotExist)
		if out.dirLock, err = lockDir(p.seriesDir); err != nil {
			return nil, err
		}
		if err := p.checkSeriesDir(); err != nil {
			return nil, err
		}
		if p.force {
			if err := removeSeries(p.seriesDir, p.exp.Name); err != nil {
				return nil, fmt.Errorf("--series-dir: %w", err)
			}
		}
	}
	if p.tracePath != "" {
		if err := out.openTrace(p.tracePath, p.force); err != nil {
			return nil, err
		}
	}
	if p.csvPath == "" {
		return out, nil
	}
	if out.csvLock, err = lockCSV(p.csvPath); err != nil {
		return nil, err
	}
	out.fresh = out.csvLock.created
	if err := p.checkCSV(); err != nil {
		return nil, err
	}
	pv := p.provenance()
	header := true
	if p.resume {
		out.file, out.resume, header, err = experiments.OpenResume(p.csvPath, p.sweepOf(), pv)
		if err == nil {
			if old, rerr := experiments.ReadSidecar(p.csvPath); rerr == nil {
				old.Resumed = append(old.Resumed, experiments.Resumption{Command: p.args, Time: time.Now().UTC().Format(time.RFC3339)})
				pv = old
			} else if !errors.Is(rerr, fs.ErrNotExist) {
				err = rerr
			}
		}
	} else {
		out.file, err = os.Create(p.csvPath)
		out.fresh = err == nil
	}
	if err != nil {
		if strings.HasPrefix(err.Error(), "cannot resume") {
			return nil, err
		}
		return nil, fmt.Errorf("cannot write CSV: %w", err)
	}
	if err := experiments.WriteSidecar(p.csvPath, pv); err != nil {
		return nil, fmt.Errorf("cannot write the provenance of %s: %w", p.csvPath, err)
	}
	out.sidecar = true
	out.csv = experiments.NewCSVWriter(out.file, p.exp, p.timing)
	if header {
		if err := out.csv.WriteHeader(); err != nil {
			return nil, fmt.Errorf("%s: %w", p.csvPath, err)
		}
	}
	return out, nil
}

// prepareDir makes sure dir exists (creating it if its parent exists)
// and is writable.
func prepareDir(dir string) error {
	if err := os.Mkdir(dir, 0o755); err != nil && !os.IsExist(err) {
		return err
	}
	if st, err := os.Stat(dir); err != nil {
		return err
	} else if !st.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	probe, err := os.CreateTemp(dir, ".syncsim-probe-*")
	if err != nil {
		return fmt.Errorf("%s is not writable: %w", dir, bareError(err))
	}
	probe.Close()
	return os.Remove(probe.Name())
}

// write records one outcome: its series first (each file atomic, the
// manifest last), then its CSV row, so a row in the CSV always has
// complete series.
func (o *output) write(oc *experiments.Outcome) error {
	if o.trace != nil && oc.Result != nil && oc.Result.Trace != nil {
		label := fmt.Sprintf("%s point %d trial %d seed %d", o.exp, oc.Point, oc.Trial, oc.Seed)
		if err := o.trace.Run(label, oc.Point, oc.Trial, oc.Seed, oc.Result.Trace); err != nil {
			return fmt.Errorf("--trace: %w", err)
		}
		o.traced++
	}
	if o.seriesDir != "" {
		n, err := experiments.WriteSeries(o.seriesDir, o.exp, oc)
		if err != nil {
			return err
		}
		o.series += n
		o.manifests++
	}
	if o.csv != nil {
		return o.csv.Write(oc)
	}
	return nil
}

// rows is the number of rows the CSV holds: kept and written.
func (o *output) rows() int {
	n := 0
	if o.csv != nil {
		n = o.csv.Rows()
	}
	if o.resume != nil {
		n += o.resume.Rows()
	}
	return n
}

// close closes the CSV; its rows are already flushed. Closing twice is
// harmless.
func (o *output) close() error {
	if err := o.closeTrace(); err != nil {
		o.closeCSV()
		return err
	}
	return o.closeCSV()
}

// closeCSV closes the CSV file.
func (o *output) closeCSV() error {
	if o.file == nil {
		return nil
	}
	f := o.file
	o.file = nil
	return f.Close()
}

// release closes the CSV and drops the locks; the command is done with
// its outputs. Releasing twice is harmless.
func (o *output) release() {
	o.close()
	o.csvLock.release()
	o.dirLock.release()
}

// discard ends a command that failed, was refused or was interrupted:
// a CSV that holds no row (only what this command wrote: a header) is
// removed with the sidecar this command wrote, and so is a series
// directory this command created that holds nothing; then the locks are
// released. It reports whether the CSV was removed.
func (o *output) discard() bool {
	o.close()
	removed := false
	if o.fresh && o.rows() == 0 && o.csvPath != "" {
		removed = os.Remove(o.csvPath) == nil
		if o.sidecar {
			os.Remove(experiments.SidecarPath(o.csvPath))
		}
	}
	if o.dirCreated {
		os.Remove(o.seriesDir) // only when empty
	}
	o.release()
	return removed
}

// commPath is the exposed-time CSV beside the trace at path: FILE.json's
// is FILE.comm.csv.
func commPath(path string) string {
	return strings.TrimSuffix(path, ".json") + ".comm.csv"
}

// openTrace creates --trace's two files, refusing to replace existing
// ones without force.
func (o *output) openTrace(path string, force bool) error {
	var files []*os.File
	for _, name := range []string{path, commPath(path)} {
		if _, err := os.Stat(name); err == nil && !force {
			for _, f := range files {
				f.Close()
			}
			return fmt.Errorf("--trace: %s exists; replace it with --force, or use another name", name)
		}
		f, err := os.Create(name)
		if err != nil {
			for _, f := range files {
				f.Close()
			}
			return fmt.Errorf("--trace: %w", bareError(err))
		}
		files = append(files, f)
	}
	o.traceFiles = files
	o.trace = timeline.NewWriter(files[0], files[1])
	return nil
}

// closeTrace ends and closes --trace's files. Closing twice is harmless.
func (o *output) closeTrace() error {
	if o.trace == nil {
		return nil
	}
	err := o.trace.Close()
	for _, f := range o.traceFiles {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}
	o.trace, o.traceFiles = nil, nil
	if err != nil {
		return fmt.Errorf("--trace: %w", err)
	}
	return nil
}
