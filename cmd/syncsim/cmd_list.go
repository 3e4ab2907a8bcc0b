package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"syncsim/experiments"
)

func listCommand(reg *experiments.Registry) *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "list the experiments, one per line with its summary",
		Description: "--format json prints every experiment's schema (as 'describe --format json').\n\n" +
			"EXAMPLES:\n" +
			"   syncsim list\n" +
			"   syncsim list --format json | jq -r '.[].name'",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text or json"},
		},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return fmt.Errorf("list takes no arguments, got %q", c.Args().Slice())
			}
			all := reg.All()
			switch f := c.String("format"); f {
			case "json":
				out := make([]experimentSchema, len(all))
				for i, e := range all {
					out[i] = schemaOf(e)
				}
				return writeJSON(c.App.Writer, out)
			case "text":
			default:
				return fmt.Errorf("--format %q: want text or json", f)
			}
			width := 0
			for _, e := range all {
				width = max(width, len(e.Name))
			}
			for _, e := range all {
				if _, err := fmt.Fprintf(c.App.Writer, "%-*s  %s\n", width, e.Name, e.Summary); err != nil {
					return err
				}
			}
			return nil
		},
	}
}
