package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"syncsim/experiments"
)

// version is the program version; release builds set it with
// -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// newApp builds the command-line application over the experiments of reg,
// writing to stdout and stderr. It never exits the process, so tests can
// run it in-process.
func newApp(reg *experiments.Registry, stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:    "syncsim",
		Usage:   "simulate how distributed-training workers synchronise on heterogeneous networks",
		Version: version,
		Description: "Experiments are named scenarios with typed parameters (see 'syncsim list' and\n" +
			"'syncsim describe EXP'). 'run' runs one parameter point over several trials and\n" +
			"prints the median and [min-max] of every metric; 'sweep' runs a grid of points\n" +
			"and streams one CSV row per point and trial. Output is identical for any\n" +
			"--parallel; the seed of every row is in the CSV. Flags may come before or after\n" +
			"the experiment name.",
		Writer:                    stdout,
		ErrWriter:                 stderr,
		DisableSliceFlagSeparator: true, // --vary n=1,2,3 keeps its commas
		ExitErrHandler:            func(*cli.Context, error) {},
		OnUsageError:              usageError,
		Commands: []*cli.Command{
			listCommand(reg),
			describeCommand(reg),
			runCommand(reg),
			sweepCommand(reg),
			plotCommand(reg),
		},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return fmt.Errorf("unknown command %q (commands: list, describe, run, sweep, plot, help; see 'syncsim --help')", c.Args().First())
			}
			return cli.ShowAppHelp(c)
		},
	}
	for _, cmd := range app.Commands {
		cmd.OnUsageError = usageError
	}
	return app
}

// usageError turns a flag parsing error into a one-line message that
// points at the help, instead of printing the whole help text.
func usageError(c *cli.Context, err error, isSub bool) error {
	where := "syncsim"
	if isSub && c.Command != nil {
		where += " " + c.Command.Name
	}
	return fmt.Errorf("%v (see '%s --help')", err, where)
}

// run runs the application over the experiments of reg on args (args[0] is the program name) and
// returns the process exit code: 0 on success, 1 on any error. Errors are
// printed to stderr as one line; a run that panicked (an engine invariant
// violation, a bug) also prints its stack.
func run(ctx context.Context, reg *experiments.Registry, args []string, stdout, stderr io.Writer) int {
	app := newApp(reg, stdout, stderr)
	err := app.RunContext(ctx, hoistFlags(app, args))
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "syncsim: %s\n", oneLine(err.Error()))
	var re *experiments.RunError
	if errors.As(err, &re) && re.Panics {
		fmt.Fprintf(stderr, "%s\n", re.Stack)
	}
	return 1
}

// oneLine folds a multi-line message into one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}
