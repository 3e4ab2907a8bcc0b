package experiments

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"
)

// Provenance is what a CSV's sidecar (FILE.csv.json, see SidecarPath)
// records about how the CSV was made, so a figure can be traced back to
// the program, the command and the configuration behind it. The CSV
// itself stays tidy; everything here is also what --resume and merge
// check before they add to or combine files.
type Provenance struct {
	Program    Program  `json:"program"`
	Command    []string `json:"command"`
	Created    string   `json:"created"` // RFC 3339, UTC
	Experiment string   `json:"experiment"`
	// Params holds every parameter of the base point (the defaults with
	// --set applied) in schema order; Grid the varied parameters, first
	// (outermost) first. Values are canonical.
	Params []Setting `json:"params"`
	Grid   []Axis    `json:"grid"`
	Points int       `json:"points"`
	Seed   uint64    `json:"seed"`
	Trials int       `json:"trials"`
	Timing bool      `json:"timing"`
	// Shard is set when the CSV holds one shard of a sweep.
	Shard *ShardID `json:"shard,omitempty"`
	// MergedFrom lists the shard files a merged CSV was made from.
	MergedFrom []string `json:"merged_from,omitempty"`
	// Resumed lists the commands that later completed the CSV.
	Resumed []Resumption `json:"resumed,omitempty"`
}

// Program identifies the syncsim build.
type Program struct {
	Name     string `json:"name"`
	Version  string `json:"version"`
	Commit   string `json:"commit"`             // VCS revision, "unknown" when not built from a repository
	Modified bool   `json:"modified,omitempty"` // built from a tree with uncommitted changes
	Go       string `json:"go"`
}

// Setting is one parameter and its canonical value.
type Setting struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// ShardID names one shard of a sweep as the command line does: Index in
// [1, Count].
type ShardID struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// Resumption records one --resume of the CSV.
type Resumption struct {
	Command []string `json:"command"`
	Time    string   `json:"time"`
}

// MarshalJSON writes an axis as {"name": ..., "values": [...]}.
func (a Axis) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Name   string   `json:"name"`
		Values []string `json:"values"`
	}{a.Name, a.Values})
}

// UnmarshalJSON reads an axis written by MarshalJSON.
func (a *Axis) UnmarshalJSON(b []byte) error {
	var v struct {
		Name   string   `json:"name"`
		Values []string `json:"values"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	a.Name, a.Values = v.Name, v.Values
	return nil
}

// ThisProgram describes the running binary: version as given (set at
// release with -ldflags), and the VCS revision: commit when given (set
// with -ldflags "-X main.commit=$(git rev-parse HEAD)"), else the one Go
// records at build time, else "unknown".
func ThisProgram(version, commit string) Program {
	p := Program{Name: "syncsim", Version: version, Commit: "unknown", Go: runtime.Version()}
	if commit != "" {
		p.Commit = commit
	} else if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				p.Commit = s.Value
			case "vcs.modified":
				p.Modified = s.Value == "true"
			}
		}
	}
	return p
}

// NewProvenance describes a sweep of grid with the given seed, trials and
// timing, made by command.
func NewProvenance(prog Program, command []string, g *Grid, seed uint64, trials int, timing bool) *Provenance {
	pv := &Provenance{
		Program: prog, Command: append([]string(nil), command...),
		Created:    time.Now().UTC().Format(time.RFC3339),
		Experiment: g.exp.Name, Grid: g.axes, Points: g.n, Seed: seed, Trials: trials, Timing: timing,
	}
	if pv.Grid == nil {
		pv.Grid = []Axis{}
	}
	for i, p := range g.exp.Params {
		pv.Params = append(pv.Params, Setting{Name: p.Name, Value: g.base.text[i]})
	}
	return pv
}

// SidecarPath is the provenance file of a CSV: the CSV's path with
// ".json" appended (out.csv.json).
func SidecarPath(csvPath string) string { return csvPath + ".json" }

// WriteSidecar writes pv next to csvPath, atomically (a temporary file
// renamed over the old one), so a sidecar is never half written.
func WriteSidecar(csvPath string, pv *Provenance) error {
	b, err := json.MarshalIndent(pv, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(SidecarPath(csvPath), append(b, '\n'))
}

// ReadSidecar reads the provenance of csvPath. A missing sidecar returns
// an error satisfying errors.Is(err, fs.ErrNotExist).
func ReadSidecar(csvPath string) (*Provenance, error) {
	b, err := os.ReadFile(SidecarPath(csvPath))
	if err != nil {
		return nil, err
	}
	var pv Provenance
	if err := json.Unmarshal(b, &pv); err != nil {
		return nil, fmt.Errorf("%s: %w", SidecarPath(csvPath), err)
	}
	return &pv, nil
}

// HasSidecar reports whether csvPath has a provenance file.
func HasSidecar(csvPath string) bool {
	_, err := os.Stat(SidecarPath(csvPath))
	return !errors.Is(err, fs.ErrNotExist)
}

// SameSweep reports the first difference between the configuration of
// two provenances (experiment, parameters, grid, seed, trials, timing),
// or "" when they describe the same sweep. Shards, commands and times
// are not compared.
func SameSweep(a, b *Provenance) string {
	switch {
	case a.Experiment != b.Experiment:
		return fmt.Sprintf("experiment %s, not %s", a.Experiment, b.Experiment)
	case a.Seed != b.Seed:
		return fmt.Sprintf("--seed %d, not %d", a.Seed, b.Seed)
	case a.Trials != b.Trials:
		return fmt.Sprintf("--trials %d, not %d", a.Trials, b.Trials)
	case a.Timing != b.Timing:
		return fmt.Sprintf("--timing %t, not %t", a.Timing, b.Timing)
	}
	varied := map[string]bool{}
	for _, ax := range a.Grid {
		varied[ax.Name] = true
	}
	for _, ax := range b.Grid {
		varied[ax.Name] = true
	}
	av, bv := settings(a.Params), settings(b.Params)
	for _, s := range a.Params {
		if !varied[s.Name] && av[s.Name] != bv[s.Name] {
			return fmt.Sprintf("%s=%s, not %s=%s", s.Name, s.Value, s.Name, bv[s.Name])
		}
	}
	for _, s := range b.Params {
		if _, ok := av[s.Name]; !ok {
			return fmt.Sprintf("no parameter %s", s.Name)
		}
	}
	if len(a.Grid) != len(b.Grid) {
		return fmt.Sprintf("%d varied parameters (%s), not %d (%s)", len(a.Grid), axisList(a.Grid), len(b.Grid), axisList(b.Grid))
	}
	for i := range a.Grid {
		x, y := a.Grid[i], b.Grid[i]
		if x.Name != y.Name || !slices.Equal(x.Values, y.Values) {
			return fmt.Sprintf("--vary %s=%s, not --vary %s=%s", x.Name, strings.Join(x.Values, ","), y.Name, strings.Join(y.Values, ","))
		}
	}
	return ""
}

func settings(ss []Setting) map[string]string {
	m := make(map[string]string, len(ss))
	for _, s := range ss {
		m[s.Name] = s.Value
	}
	return m
}

func axisList(axes []Axis) string {
	if len(axes) == 0 {
		return "none"
	}
	return strings.Join(AxisNames(axes), ", ")
}

// WriteFileAtomic writes data to path through a temporary file in the
// same directory, synced and renamed over path, so readers (and a
// resumed sweep after a kill) see the old file or the new one, never a
// part. Its errors name no temporary file (the caller names path), and a
// failure leaves none behind.
func WriteFileAtomic(path string, data []byte) (err error) {
	if st, serr := os.Stat(path); serr == nil && st.IsDir() {
		return errors.New("is a directory")
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return bare(err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
			err = bare(err)
		}
	}()
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// bare drops the file names an *os.PathError or *os.LinkError carries.
func bare(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
