// Command syncsim runs the simulator's named experiments.
//
//	syncsim list                      one experiment per line with its summary
//	syncsim describe EXP              its description, parameters and metrics
//	syncsim run EXP [flags]           one point over --trials seeds: median [min, max] per metric
//	syncsim sweep EXP --csv FILE ...  a grid of points, one CSV row per point and trial
//	syncsim plot CSV --x P --y M -o F a figure (SVG or PNG) of a sweep CSV
//
// Parameters are set with --set key=value and swept with --vary
// key=v1,v2,... (numbers also as start:stop:step); the grid is the
// cartesian product of the --vary lists, first --vary outermost. Trial t
// runs with seed --seed + t. Flags may come before or after EXP:
//
//	syncsim sweep incast --vary senders=2,4,8 --trials 5 --csv incast.csv
//
// The CSV is tidy: the columns are experiment, every parameter (schema
// order), trial, seed, every metric (schema order), then wall_s and
// events_per_s with --timing. Metrics are written as the shortest decimal
// that reads back exactly; undefined values as NaN. Rows come in grid
// order whatever --parallel is and each is flushed when written, so the
// file is byte-identical for any --parallel and an interrupted sweep
// keeps a complete prefix, which --resume completes.
//
// With --series-dir DIR every time series a run collects is written to
// DIR/<exp>_<point>_<trial>_<name>.csv, where point is the 0-based index
// of the parameter point in grid order.
//
// Errors (unknown names, malformed or out-of-range values, unwritable
// files, failed runs) are reported as one line on stderr with exit
// status 1.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		// The first SIGINT or SIGTERM stops the runs in progress: they
		// end within a fraction of a second, nothing half-done is
		// written, and the command says how to continue. A second one
		// ends the process at once.
		s := <-sigs
		cancel(&signalError{s})
		s = <-sigs
		os.Exit(exitCode(s))
	}()
	code := run(ctx, newRegistry(), os.Args, os.Stdout, os.Stderr)
	os.Exit(code)
}
