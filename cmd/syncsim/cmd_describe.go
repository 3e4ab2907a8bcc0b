package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"syncsim/experiments"
)

func describeCommand(reg *experiments.Registry) *cli.Command {
	return &cli.Command{
		Name:      "describe",
		Usage:     "show an experiment's description, parameters and metrics",
		ArgsUsage: "EXP",
		Action: func(c *cli.Context) error {
			e, err := experimentArg(c, reg)
			if err != nil {
				return err
			}
			return describe(c.App.Writer, e)
		},
	}
}

// describe prints the Doc paragraph, the parameter table and the metric
// table of e.
func describe(w io.Writer, e *experiments.Experiment) error {
	fmt.Fprintf(w, "%s: %s\n\n", e.Name, e.Summary)
	if e.Doc != "" {
		fmt.Fprintf(w, "%s\n\n", wrap(e.Doc, 80))
	}
	fmt.Fprintln(w, "Parameters (--set name=value, --vary name=v1,v2,...):")
	rows := make([][]string, len(e.Params))
	for i, p := range e.Params {
		rows[i] = []string{p.Name, p.Kind.String(), p.Default, p.Allowed(), p.Help}
	}
	if err := renderTable(w, []string{"name", "type", "default", "allowed", "help"}, rows); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nMetrics (CSV columns after trial and seed):")
	rows = make([][]string, len(e.Metrics))
	for i, m := range e.Metrics {
		rows[i] = []string{m.Name, m.Unit, m.Help}
	}
	return renderTable(w, []string{"name", "unit", "help"}, rows)
}

// wrap breaks each paragraph line of text at spaces so no line exceeds
// width (a longer word stays whole).
func wrap(text string, width int) string {
	var b strings.Builder
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		n := 0
		for j, word := range strings.Fields(line) {
			if j > 0 && n+1+len(word) > width {
				b.WriteByte('\n')
				n = 0
			} else if j > 0 {
				b.WriteByte(' ')
				n++
			}
			b.WriteString(word)
			n += len(word)
		}
	}
	return b.String()
}
