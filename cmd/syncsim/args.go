package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// hoistFlags lets flags follow the experiment name. urfave/cli stops
// parsing flags at the first positional argument, so "syncsim run incast
// --seed 9" would leave "--seed 9" unparsed; hoistFlags moves a
// command's flags (with their values) in front of its positional
// arguments. Everything after "--" stays positional. Unknown flags are
// moved too, so the parser reports them.
func hoistFlags(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	i := 1
	for i < len(args) && strings.HasPrefix(args[i], "-") { // global flags: --help, --version
		i++
	}
	if i >= len(args) {
		return args
	}
	cmd := findCommand(app, args[i])
	if cmd == nil {
		return args
	}
	out := append([]string(nil), args[:i+1]...)
	return append(out, reorder(cmd, args[i+1:])...)
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

// reorder puts flags first and positional arguments after them, keeping
// the relative order within each group.
func reorder(cmd *cli.Command, args []string) []string {
	var flags, pos []string
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
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if takesValue(cmd, name) {
			if i+1 == len(args) {
				// The value is missing: leave the flag last so the
				// parser reports it, rather than letting it swallow
				// the experiment name.
				return flags
			}
			flags = append(flags, args[i+1])
			i++
		}
	}
	if dashdash {
		flags = append(flags, "--")
	}
	return append(flags, pos...)
}

// takesValue reports whether the named flag of cmd consumes the next
// argument (every declared flag except booleans).
func takesValue(cmd *cli.Command, name string) bool {
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			if n == name {
				_, isBool := f.(*cli.BoolFlag)
				return !isBool
			}
		}
	}
	return false
}
