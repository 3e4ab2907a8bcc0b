package experiments

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
)

// GridOf rebuilds the grid a provenance describes, for experiment e.
func GridOf(e *Experiment, pv *Provenance) (*Grid, error) {
	if pv.Experiment != e.Name {
		return nil, fmt.Errorf("the sidecar names experiment %s, not %s", pv.Experiment, e.Name)
	}
	sets := make([]string, 0, len(pv.Params))
	for _, s := range pv.Params {
		sets = append(sets, s.Name+"="+s.Value)
	}
	base, err := e.Resolve(sets)
	if err != nil {
		return nil, err
	}
	g, err := NewGrid(base, pv.Grid)
	if err != nil {
		return nil, err
	}
	if pv.Points != g.Len() {
		return nil, fmt.Errorf("the sidecar counts %d points, its grid has %d", pv.Points, g.Len())
	}
	return g, nil
}

// Merge combines the shards of one sweep (CSV files, each with the sidecar
// its sweep wrote) into the CSV the unsharded sweep writes, byte for
// byte, on w. It checks before and while it writes that the files are
// the shards 1..N of one sweep, each exactly once (no shard missing,
// duplicated or from another sweep) and each complete, with every row
// the one the sweep puts there. lookup finds an experiment by name. It
// returns the provenance of the merged file (the sweep's, with
// MergedFrom set and no shard); on error what was written to w is
// incomplete and must be discarded.
func Merge(w io.Writer, lookup func(string) (*Experiment, error), paths []string) (*Provenance, error) {
	if len(paths) == 0 {
		return nil, errors.New("no shard files to merge")
	}
	pvs := make([]*Provenance, len(paths))
	for i, p := range paths {
		pv, err := ReadSidecar(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s has no sidecar %s: merge needs the sidecar each shard's sweep wrote", p, SidecarPath(p))
		}
		if err != nil {
			return nil, err
		}
		if pv.Shard == nil {
			return nil, fmt.Errorf("%s is not a shard (its sidecar has no shard); it was written by an unsharded sweep", p)
		}
		pvs[i] = pv
	}
	first := pvs[0]
	n := first.Shard.Count
	byIndex := make([]int, n+1) // 1-based shard index -> position in paths + 1
	for i, pv := range pvs {
		if d := SameSweep(pv, first); d != "" {
			return nil, fmt.Errorf("%s is from another sweep than %s: it has %s", paths[i], paths[0], strings.Replace(d, ", not ", " where the other has ", 1))
		}
		if pv.Shard.Count != n {
			return nil, fmt.Errorf("%s is shard %d/%d but %s is shard %d/%d: the shards come from sweeps split differently",
				paths[i], pv.Shard.Index, pv.Shard.Count, paths[0], first.Shard.Index, n)
		}
		if pv.Shard.Index < 1 || pv.Shard.Index > n {
			return nil, fmt.Errorf("%s: shard %d/%d is out of range", paths[i], pv.Shard.Index, n)
		}
		if j := byIndex[pv.Shard.Index]; j != 0 {
			return nil, fmt.Errorf("%s and %s are both shard %d/%d", paths[j-1], paths[i], pv.Shard.Index, n)
		}
		byIndex[pv.Shard.Index] = i + 1
	}
	var missing []string
	for s := 1; s <= n; s++ {
		if byIndex[s] == 0 {
			missing = append(missing, fmt.Sprintf("%d/%d", s, n))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("shard %s missing: give all %d shards of the sweep", strings.Join(missing, ", "), n)
	}
	e, err := lookup(first.Experiment)
	if err != nil {
		return nil, err
	}
	g, err := GridOf(e, first)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", SidecarPath(paths[0]), err)
	}

	// Open every shard and check its header; then interleave the rows:
	// job k of the sweep is row k/n of shard k mod n.
	type shard struct {
		path string
		f    *os.File
		cr   *csv.Reader
		sw   *Sweep
		rows int
	}
	shards := make([]*shard, n)
	defer func() {
		for _, s := range shards {
			if s != nil {
				s.f.Close()
			}
		}
	}()
	header := CSVHeader(e, first.Timing)
	for s := 0; s < n; s++ {
		path := paths[byIndex[s+1]-1]
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		sh := &shard{path: path, f: f, cr: csv.NewReader(f),
			sw: &Sweep{Grid: g, Seed: first.Seed, Trials: first.Trials, Timing: first.Timing, Shard: s, Shards: n}}
		shards[s] = sh
		got, err := sh.cr.Read()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		if !slices.Equal(got, header) {
			return nil, fmt.Errorf("%s: its header is not the %s columns its sidecar implies", path, e.Name)
		}
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return nil, err
	}
	total := g.Len() * first.Trials
	for k := 0; k < total; k++ {
		sh := shards[k%n]
		rec, err := sh.cr.Read()
		if err == io.EOF {
			return nil, fmt.Errorf("%s (shard %d/%d) ends after %d of its %d rows: complete it with the same sweep and --resume before merging",
				sh.path, k%n+1, n, sh.rows, sh.sw.jobs())
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", sh.path, err)
		}
		if err := sh.sw.checkRow(rec, sh.rows, sh.sw.jobs()); err != nil {
			line, _ := sh.cr.FieldPos(0)
			return nil, fmt.Errorf("%s: line %d %v", sh.path, line, err)
		}
		sh.rows++
		if err := cw.Write(rec); err != nil {
			return nil, err
		}
	}
	for s, sh := range shards {
		if _, err := sh.cr.Read(); err != io.EOF {
			return nil, fmt.Errorf("%s (shard %d/%d) has more than its %d rows", sh.path, s+1, n, sh.rows)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return nil, err
	}
	out := *first
	out.Shard = nil
	out.Resumed = nil
	out.MergedFrom = nil
	for s := 1; s <= n; s++ {
		out.MergedFrom = append(out.MergedFrom, paths[byIndex[s]-1])
	}
	return &out, nil
}
