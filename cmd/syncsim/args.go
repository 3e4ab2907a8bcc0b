package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// hoistFlags lets flags follow the experiment name. urfave/cli stops
// parsing flags at the first positional argument, so "syncsim run incast
// --seed 9" would leave "--seed 9" unparsed; hoistFlags moves a
// command's flags (with their values) in front of its positional
// arguments. Everything after "--" stays positional. Unknown flags are
// moved too, so the parser reports them. A flag that takes one value
// given twice (--csv a --csv b) is an error: the parser would silently
// keep the last.
func hoistFlags(app *cli.App, args []string) ([]string, error) {
	if len(args) < 2 {
		return args, nil
	}
	i := 1
	for i < len(args) && strings.HasPrefix(args[i], "-") { // global flags: --help, --version
		i++
	}
	if i >= len(args) {
		return args, nil
	}
	cmd := findCommand(app, args[i])
	if cmd == nil {
		return args, nil
	}
	rest, err := reorder(cmd, args[i+1:])
	if err != nil {
		return nil, err
	}
	out := append([]string(nil), args[:i+1]...)
	return append(out, rest...), nil
}

func findCommand(app *cli.App, name string) *cli.Command {
	for _, c := range app.Commands {
		for _, n := range c.Names() {
			if n == name {
				return c
			}
		}
	}
	return nil
}

// flagName returns the name of a flag argument ("--csv=x" gives "csv").
func flagName(a string) string {
	name := strings.TrimLeft(a, "-")
	name, _, _ = strings.Cut(name, "=")
	return name
}

// reorder puts flags first and positional arguments after them, keeping
// the relative order within each group.
func reorder(cmd *cli.Command, args []string) ([]string, error) {
	var flags, pos []string
	seen := map[string]bool{}
	dashdash := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			dashdash = true
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name := flagName(a)
		f := lookupFlag(cmd, name)
		if f != nil && !repeatable(f) {
			canon := f.Names()[0]
			if seen[canon] {
				return nil, fmt.Errorf("--%s given twice; give it once (see 'syncsim %s --help')", canon, cmd.Name)
			}
			seen[canon] = true
		}
		if strings.Contains(a, "=") {
			continue
		}
		if f != nil && takesValue(f) {
			if i+1 == len(args) {
				// The value is missing: leave the flag last so the
				// parser reports it, rather than letting it swallow
				// the experiment name.
				return flags, nil
			}
			flags = append(flags, args[i+1])
			i++
		}
	}
	if dashdash {
		flags = append(flags, "--")
	}
	return append(flags, pos...), nil
}

// lookupFlag finds the named flag of cmd.
func lookupFlag(cmd *cli.Command, name string) cli.Flag {
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			if n == name {
				return f
			}
		}
	}
	return nil
}

// takesValue reports whether f consumes the next argument (every flag
// except booleans).
func takesValue(f cli.Flag) bool {
	_, isBool := f.(*cli.BoolFlag)
	return !isBool
}

// repeatable reports whether f collects every occurrence (--set, --vary).
func repeatable(f cli.Flag) bool {
	_, ok := f.(*cli.StringSliceFlag)
	return ok
}

// helpRequest recognises a request for help anywhere on the command line
// ("syncsim run incast --help", "syncsim describe incast -h", "syncsim
// help sweep incast") and returns the command and the experiment named,
// if any. urfave/cli alone would take the experiment for a help topic.
func helpRequest(app *cli.App, args []string) (cmd *cli.Command, exp string, ok bool) {
	if len(args) < 2 {
		return nil, "", false
	}
	if args[1] == "help" || args[1] == "h" {
		if len(args) < 3 {
			return nil, "", false
		}
		cmd = findCommand(app, args[2])
		if cmd == nil {
			return nil, "", false
		}
		if len(args) > 3 {
			exp = args[3]
		}
		return cmd, exp, true
	}
	cmd = findCommand(app, args[1])
	if cmd == nil {
		return nil, "", false
	}
	found := false
	var pos []string
	for i := 2; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		switch a {
		case "-h", "--help", "-help":
			found = true
			continue
		}
		if strings.HasPrefix(a, "-") {
			if f := lookupFlag(cmd, flagName(a)); f != nil && takesValue(f) && !strings.Contains(a, "=") {
				i++
			}
			continue
		}
		pos = append(pos, a)
	}
	if !found {
		return nil, "", false
	}
	if len(pos) > 0 {
		exp = pos[0]
	}
	return cmd, exp, true
}
