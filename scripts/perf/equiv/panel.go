package main

import (
	"fmt"
	"slices"
	"strings"
)

// Point is one parameter point of the panel: an experiment and the
// settings that keep it to a few CPU-seconds per seed.
type Point struct {
	Name string   // the point's name in reports and file names
	Exp  string   // the experiment
	Sets []string // --set name=value settings
}

// args is the sweep command of the point over seeds 1..seeds, writing
// csv, with parallel runs at a time.
func (p Point) args(seeds, parallel int, csv string) []string {
	a := []string{"sweep", p.Exp}
	for _, s := range p.Sets {
		a = append(a, "--set", s)
	}
	return append(a, "--seed", "1", "--trials", fmt.Sprint(seeds), "--parallel", fmt.Sprint(parallel),
		"--csv", csv, "--force", "-q")
}

// inaQuick is the quick ina-leafspine point of one protocol, shrunk to
// a few CPU-seconds: 4 jobs of 6 workers and a 1 ms background warm-up
// (the quick preset's 8 x 12 costs 6-19 s a seed, SwitchML and ATP the
// most; shrunk, PA-ATP takes 1-2 s, SwitchML 0.5-12 s as its workers'
// 10 ms timeouts fire or not).
func inaQuick(protocol string) Point {
	return Point{Name: "ina-" + protocol, Exp: "ina-leafspine", Sets: []string{
		"protocol=" + protocol, "run_length=quick", "bg_warmup_ms=1", "jobs=4", "workers=6"}}
}

// fullPanel is the panel every engine change is checked on: the network
// experiments at their reference sizes (R1's incast, the permutation at
// 16 and 128 hosts, the background alone), the quick INA point for
// every protocol, the mixed fabric, and DS-Sync and selective reduce at
// packet fidelity.
func fullPanel() []Point {
	ps := []Point{
		{Name: "incast", Exp: "incast", Sets: []string{"senders=8", "link_gbps=10", "delay_us=10",
			"ecn_k_pkts=65", "buffer_kb=1000", "duration_ms=1000"}},
		{Name: "perm16", Exp: "permutation", Sets: []string{"spines=4", "leaves=2", "hosts_per_leaf=8"}},
		{Name: "perm128", Exp: "permutation", Sets: []string{"duration_ms=2"}},
		{Name: "background", Exp: "background", Sets: []string{"duration_ms=3"}},
	}
	for _, p := range []string{"byteps", "switchml", "atp", "strawasyn", "strawasyn-pc", "strawasyn-al", "pa-atp"} {
		ps = append(ps, inaQuick(p))
	}
	return append(ps,
		Point{Name: "mixed", Exp: "mixed-fabric"},
		Point{Name: "dssync", Exp: "dssync", Sets: []string{"fidelity=packet", "iterations=3"}},
		Point{Name: "sr-cluster", Exp: "sr-cluster", Sets: []string{"fidelity=packet", "n=16", "model_mb=10",
			"duration_s=5"}},
	)
}

// ciPanel is the reduced panel of the tool's own test: two points that
// cost well under a CPU-second a seed and still have seed-to-seed noise:
// the incast at 100 ms, and the 128-host permutation at 0.5 ms, whose 24
// partitions see packets from different partitions arrive at one
// instant on every seed (so a reordering of those moves every row).
func ciPanel() []Point {
	return []Point{
		{Name: "incast", Exp: "incast", Sets: []string{"duration_ms=100"}},
		{Name: "perm128", Exp: "permutation", Sets: []string{"duration_ms=0.5"}},
	}
}

// panels are the named panels (--panel).
var panels = map[string]func() []Point{"full": fullPanel, "ci": ciPanel}

// selectPoints returns the panel's points named in only (a comma list;
// empty: all), or an error naming the unknown ones and what is known.
func selectPoints(panel, only string) ([]Point, error) {
	mk, ok := panels[panel]
	if !ok {
		return nil, fmt.Errorf("unknown panel %q (full, ci)", panel)
	}
	all := mk()
	if only == "" {
		return all, nil
	}
	var names []string
	for _, p := range all {
		names = append(names, p.Name)
	}
	var out []Point
	for _, n := range strings.Split(only, ",") {
		i := slices.Index(names, n)
		if i < 0 {
			return nil, fmt.Errorf("panel %s has no point %q (%s)", panel, n, strings.Join(names, ", "))
		}
		out = append(out, all[i])
	}
	return out, nil
}
