package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"syncsim/experiments"
)

// version is the program version; release builds set it with
// -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// commit is the VCS revision of the build, recorded in every CSV's
// provenance; builds set it with -ldflags "-X main.commit=$(git rev-parse
// HEAD)" where Go does not stamp it itself.
var commit = ""

// commandNames lists the commands for messages.
const commandNames = "list, describe, run, sweep, plot, summarise, merge, completion, help"

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
			"and streams one CSV row per point and trial; 'merge' joins the shards of a sweep\n" +
			"run on several machines. Output is identical for any --parallel; the seed of\n" +
			"every row is in the CSV. Flags may come before or after the experiment name.\n\n" +
			"EXAMPLES:\n" +
			"   syncsim list\n" +
			"   syncsim describe incast\n" +
			"   syncsim run incast --set senders=32 --trials 5\n" +
			"   syncsim sweep incast --vary senders=2,8,32 --trials 3 --csv incast.csv\n" +
			"   syncsim run --scenario study.toml\n" +
			"   syncsim describe incast --format toml > study.toml",
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
			summariseCommand(reg),
			mergeCommand(reg),
			completionCommand(reg),
			completeCommand(reg),
		},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return fmt.Errorf("unknown command %q (commands: %s; see 'syncsim --help')", c.Args().First(), commandNames)
			}
			return cli.ShowAppHelp(c)
		},
	}
	for _, cmd := range app.Commands {
		cmd.OnUsageError = usageError
	}
	return app
}

// oneDash finds the single-dash flag names of Go's flag package messages.
var oneDash = regexp.MustCompile(`(flag provided but not defined: |flag needs an argument: |for flag )-([A-Za-z][\w-]+)`)

// usageError turns a flag parsing error into a one-line message that
// points at the help, instead of printing the whole help text, writes
// flags as they are typed (--seed, not -seed), and says what a flag's
// value must be where the parser only says "parse error".
func usageError(c *cli.Context, err error, isSub bool) error {
	where := "syncsim"
	var flags []cli.Flag
	if isSub && c.Command != nil {
		where += " " + c.Command.Name
		flags = c.Command.Flags
	}
	msg := oneDash.ReplaceAllString(err.Error(), "$1--$2")
	if m := badValue.FindStringSubmatch(msg); m != nil {
		msg = fmt.Sprintf("--%s %q: %s", m[2], m[1], valueWanted(flags, m[2]))
	}
	return fmt.Errorf("%s (see '%s --help')", msg, where)
}

// badValue matches urfave/cli's message for a flag value its type
// cannot parse.
var badValue = regexp.MustCompile(`^invalid value "(.*)" for flag --([\w-]+): parse error$`)

// valueWanted says what the named flag accepts.
func valueWanted(flags []cli.Flag, name string) string {
	for _, f := range flags {
		for _, n := range f.Names() {
			if n != name {
				continue
			}
			switch f.(type) {
			case *cli.Uint64Flag:
				return "want a whole number in [0, 18446744073709551615]"
			case *cli.IntFlag:
				return "want a whole number"
			case *cli.Float64Flag:
				return "want a number"
			case *cli.DurationFlag:
				return "want a duration with a unit, such as 10s, 500ms or 2m"
			}
		}
	}
	return "not a valid value"
}

// signalError is the cause of a context cancelled by a signal.
type signalError struct{ sig os.Signal }

func (e *signalError) Error() string { return "interrupted by " + signalName(e.sig) }

// signalName is the conventional name of a signal (SIGINT, SIGTERM).
func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}

// exitCode is the status of a process ended by s: 128 + its number.
func exitCode(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 1
}

// run runs the application over the experiments of reg on args (args[0]
// is the program name) and returns the process exit code: 0 on success,
// 128 + the signal's number when interrupted by a signal (130 for
// SIGINT), 1 on any other error. Errors are printed to stderr as one
// line; a run that panicked (an engine invariant violation, a bug) also
// prints its stack.
func run(ctx context.Context, reg *experiments.Registry, args []string, stdout, stderr io.Writer) int {
	app := newApp(reg, stdout, stderr)
	err := dispatch(ctx, app, reg, args, stdout)
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "syncsim: %s\n", oneLine(err.Error()))
	var re *experiments.RunError
	if errors.As(err, &re) && re.Panics {
		fmt.Fprintf(stderr, "%s\n", re.Stack)
	}
	var se *signalError
	if errors.As(err, &se) {
		return exitCode(se.sig)
	}
	return 1
}

// dispatch answers help requests itself and hands everything else to
// the application.
func dispatch(ctx context.Context, app *cli.App, reg *experiments.Registry, args []string, stdout io.Writer) error {
	app.Metadata = map[string]any{"args": append([]string(nil), args...)}
	if cmd, exp, ok := helpRequest(app, args); ok {
		if err := app.RunContext(ctx, []string{args[0], "help", cmd.Name}); err != nil {
			return err
		}
		if exp == "" {
			return nil
		}
		e, err := reg.Lookup(exp)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "\nEXPERIMENT %s\n\n", e.Name)
		return describe(stdout, e)
	}
	hoisted, err := hoistFlags(app, args)
	if err != nil {
		return err
	}
	return app.RunContext(ctx, hoisted)
}

// oneLine folds a multi-line message into one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}
