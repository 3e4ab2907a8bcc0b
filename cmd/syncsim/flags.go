package main

import (
	"runtime"
	"time"

	"github.com/urfave/cli/v2"

	"syncsim/experiments"
)

// Flags shared by run and sweep.
func gridFlags(sweep bool) []cli.Flag {
	csvUsage := "also write one row per trial to `FILE` (tidy CSV, flushed per row) and its provenance to FILE.json; " +
		"a run replaying a flows_file at packet level writes its flows to FILE.fct.txt (trial t > 0 FILE.fct.t<t>.txt) unless fct_out is set"
	if sweep {
		csvUsage = "write one row per point and trial to `FILE` (tidy CSV, flushed per row; required) and its provenance to FILE.json; " +
			"points replaying a flows_file at packet level write their flows to FILE.fct.txt (FILE.p<point>.fct.txt with several points) unless fct_out is set"
	}
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "set", Usage: "set a parameter, `key=value` (repeatable; see 'syncsim describe EXP')"},
		&cli.StringFlag{Name: "scenario", Usage: "read the experiment, parameters, grid, trials and seed from the TOML `FILE`; flags override it"},
		&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "base seed; trial t runs with seed+t"},
		&cli.IntFlag{Name: "trials", Value: 1, Usage: "independent trials per point, 1 to 1000000"},
		&cli.IntFlag{Name: "parallel", Value: runtime.GOMAXPROCS(0), Usage: "runs at a time, 1 to 1024; results do not depend on it"},
		&cli.IntFlag{Name: "threads", Value: 1, Usage: "threads of each run on the parallel engine, 1 to 256 (" + experiments.ThreadedHint + "); results do not depend on it"},
		&cli.BoolFlag{Name: "engine-profile", Usage: "after each run on the parallel engine, print its partitions, windows and predicted speedups on stderr"},
		&cli.StringFlag{Name: "csv", Usage: csvUsage},
		&cli.BoolFlag{Name: "resume", Usage: "continue the CSV of an interrupted command: keep its rows and run only the missing ones (the same command otherwise)"},
		&cli.BoolFlag{Name: "force", Usage: "replace an existing CSV, its provenance, its series and its --plot figures instead of refusing"},
		&cli.StringFlag{Name: "series-dir", Usage: "collect time series and write them to `DIR`/<exp>_<point>_<trial>_<name>.csv, with a manifest per run"},
		&cli.StringFlag{Name: "trace", Usage: "write the jobs' timelines (per worker, compute and each synchronisation) as a Chrome/Perfetto trace to `FILE`.json, " +
			"and each collective's exposed communication time to FILE.comm.csv (experiments whose workers compute layer by layer)"},
		&cli.BoolFlag{Name: "timing", Usage: "add wall_s and events_per_s (wall-clock, not reproducible)"},
		&cli.BoolFlag{Name: "check", Usage: "verify conservation books at the end of every run, fail if they do not balance, and print their totals"},
		&cli.Float64Flag{Name: "stall-ms", Value: 1000, Usage: "end a run that makes no progress for this much simulated time, `ms` (0: never)"},
		&cli.DurationFlag{Name: "progress-every", Value: 10 * time.Second, Usage: "off a terminal, report runs in progress on stderr this often (0: only finished runs)"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress on stderr"},
		&cli.BoolFlag{Name: "dry-run", Usage: "check every point, parameter and output, say what would run, and stop without running or writing anything"},
	}
}
