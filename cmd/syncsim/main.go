// Command syncsim runs the simulator's named experiments.
//
//	syncsim list                      one experiment per line (--format json: their schemas)
//	syncsim describe EXP              description, parameters and metrics (--format toml|json)
//	syncsim run EXP [flags]           one point over --trials seeds: median [min, max] per metric
//	syncsim sweep EXP --csv FILE ...  a grid of points, one CSV row per point and trial
//	syncsim plot FILE.csv ...         a figure of a sweep
//	syncsim merge -o OUT SHARD...     the shards of a sweep joined into its CSV
//	syncsim completion bash|zsh       the shell completion script
//
// Parameters are set with --set key=value and swept with --vary
// key=v1,v2,... (numbers also as start:stop:step), or read from a TOML
// --scenario file that the flags override; the grid is the cartesian
// product of the --vary lists, first --vary outermost. Trial t runs with
// seed --seed + t. Flags may come before or after EXP, and --help works
// after EXP too:
//
//	syncsim sweep incast --vary senders=2,4,8 --trials 5 --csv incast.csv
//
// The CSV is tidy: the columns are experiment, every parameter (schema
// order; an automatic value as what it resolved to), trial, seed, every
// metric (schema order), then wall_s and events_per_s with --timing.
// Whole numbers are written as integers, other values as the shortest
// decimal that reads back exactly, undefined values as NaN. Rows come in
// grid order whatever --parallel is and each is flushed when written, so
// the file is byte-identical for any --parallel and an interrupted sweep
// keeps a complete prefix, which --resume completes after checking that
// the file holds this very sweep. FILE.json records its provenance. An
// existing CSV is never overwritten without --force. --shard I/N runs a
// deterministic slice of the jobs; merge rebuilds the whole file.
//
// With --series-dir DIR every time series a run collects is written to
// DIR/<exp>_<point>_<trial>_<name>.csv, with DIR/<exp>_<point>_<trial>.json
// naming the point's parameters, seed and files, where point is the
// 0-based index of the parameter point in grid order.
//
// The first SIGINT or SIGTERM halts the runs in progress, keeps the
// complete rows and exits with 128 + the signal's number, saying how to
// continue; a second one ends the process at once. Errors (unknown
// names, malformed or out-of-range values, unwritable files, failed or
// stalled runs) are reported as one line on stderr with exit status 1.
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
