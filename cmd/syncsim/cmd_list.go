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
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return fmt.Errorf("list takes no arguments, got %q", c.Args().Slice())
			}
			all := reg.All()
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
