// Command libperm runs one experiment point through the library, without
// the command line: the experiment's Run on one seed, its metrics
// printed as name=value lines. docs/performance.md compares its peak RSS
// with `syncsim run` of the same point:
//
//	go build -o /tmp/libperm ./scripts/perf/libperm
//	/usr/bin/time -v /tmp/libperm permutation
//	/usr/bin/time -v /tmp/libperm permutation duration_ms=2
//
// It knows the network family's experiments (permutation, incast,
// background); further arguments are name=value parameter settings.
package main

import (
	"fmt"
	"os"
	"slices"

	"syncsim/experiments"
	"syncsim/scenarios/network"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: libperm EXPERIMENT [name=value ...]")
		os.Exit(2)
	}
	var e *experiments.Experiment
	switch os.Args[1] {
	case "permutation":
		e = network.Permutation()
	case "incast":
		e = network.Incast()
	case "background":
		e = network.Background()
	default:
		fmt.Fprintf(os.Stderr, "libperm: unknown experiment %q (permutation, incast, background)\n", os.Args[1])
		os.Exit(2)
	}
	ps, err := e.Resolve(os.Args[2:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "libperm:", err)
		os.Exit(2)
	}
	res, err := e.Run(&experiments.Run{Exp: e, Params: ps, Seed: 1, Threads: 1})
	if err != nil {
		fmt.Fprintln(os.Stderr, "libperm:", err)
		os.Exit(1)
	}
	names := make([]string, 0, len(res.Metrics))
	for k := range res.Metrics {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		fmt.Printf("%s=%v\n", k, res.Metrics[k])
	}
}
