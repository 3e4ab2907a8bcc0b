package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"syncsim/experiments"
)

// The per-flow output beside the CSV: a run or sweep with --csv FILE.csv
// whose point replays a flow file (flows_file) with fct_out empty, where
// fct_out has an effect (the packet engine), writes the point's flows in
// the HPCC ns-3 branch's fct.txt layout to FILE.fct.txt, which that
// branch's analysis scripts read unchanged. A grid of several points
// writes FILE.p<point>.fct.txt (points numbered in grid order, as
// --series-dir numbers them); trial t > 0 inserts .t<t> before .txt, as
// fct_out's files do (FILE.fct.t1.txt).

// fctBeside reports whether point ps of e writes its flows beside the
// CSV: e takes flows_file and fct_out, flows_file is set, fct_out is
// empty, and fct_out has an effect at ps (sr-cluster's needs
// fidelity=packet).
func fctBeside(e *experiments.Experiment, ps experiments.Params) bool {
	p, ok := e.Param("fct_out")
	if !ok || !ps.Has("flows_file") || ps.Str("flows_file") == "" || ps.Str("fct_out") != "" {
		return false
	}
	return p.Only == nil || p.Only.Holds(ps)
}

// fctPath names the fct.txt of (point, trial) beside csv, of a grid of
// points points: FILE.fct.txt for FILE.csv (FILE.p<point>.fct.txt with
// several points), trial t > 0 FILE.fct.t<t>.txt.
func fctPath(csv string, points, point, trial int) string {
	base := strings.TrimSuffix(csv, ".csv")
	if points > 1 {
		base += fmt.Sprintf(".p%d", point)
	}
	if trial > 0 {
		return fmt.Sprintf("%s.fct.t%d.txt", base, trial)
	}
	return base + ".fct.txt"
}

// fctFile is the Runner's FCTFile: the file (point, trial) writes beside
// the CSV, or "" for none.
func (p *plan) fctFile(point, trial int) string {
	if p.csvPath == "" || !fctBeside(p.exp, p.grid.Point(point)) {
		return ""
	}
	return fctPath(p.csvPath, p.grid.Len(), point, trial)
}

// fctFiles lists the files beside the CSV that this command's runs
// (this shard's, with --shard) would write.
func (p *plan) fctFiles() []string {
	if p.csvPath == "" {
		return nil
	}
	var out []string
	for i := 0; i < p.grid.Len(); i++ {
		if !fctBeside(p.exp, p.grid.Point(i)) {
			continue
		}
		for t := 0; t < p.trials; t++ {
			if k := i*p.trials + t; p.shards > 1 && k%p.shards != p.shard {
				continue
			}
			out = append(out, fctPath(p.csvPath, p.grid.Len(), i, t))
		}
	}
	return out
}

// checkFCT refuses, before any run, per-flow files that would clash: a
// file beside the CSV that exists (without --force; --resume keeps the
// earlier runs' files and rewrites those of the runs it does), and one
// fct_out value at two points of the grid, whose runs would write the
// same files.
func (p *plan) checkFCT() error {
	if _, ok := p.exp.Param("fct_out"); !ok {
		return nil
	}
	at := map[string]int{}
	for i := 0; i < p.grid.Len(); i++ {
		ps := p.grid.Point(i)
		out := ps.Str("fct_out")
		if out == "" {
			continue
		}
		if prm, _ := p.exp.Param("fct_out"); prm.Only != nil && !prm.Only.Holds(ps) {
			continue
		}
		if j, ok := at[out]; ok {
			return fmt.Errorf("fct_out=%s at points %d and %d of the grid: their runs would write the same files; give each point its own fct_out, "+
				"or leave it empty with --csv FILE.csv (each point then writes FILE.p<point>.fct.txt)", out, j, i)
		}
		at[out] = i
	}
	if p.force || p.resume {
		return nil
	}
	for _, f := range p.fctFiles() {
		if _, err := os.Stat(f); err == nil {
			return fmt.Errorf("%s exists (the flows of an earlier run beside %s); replace it with --force, or write the CSV to another file",
				f, filepath.Base(p.csvPath))
		}
	}
	return nil
}
