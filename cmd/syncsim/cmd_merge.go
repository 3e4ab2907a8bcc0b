package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"syncsim/experiments"
)

func mergeCommand(reg *experiments.Registry) *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Usage:     "join the shard CSVs of one sweep into the CSV the whole sweep writes",
		ArgsUsage: "SHARD.csv...",
		Description: "Reads the shards a sweep wrote with --shard I/N (each with its FILE.json) and\n" +
			"writes, byte for byte, the CSV the unsharded sweep writes, with its provenance.\n" +
			"It refuses, without writing anything, shards of different sweeps, a shard given\n" +
			"twice, a missing shard, and a shard that is incomplete (--resume it first).\n\n" +
			"EXAMPLES:\n" +
			"   syncsim merge -o fig12.csv fig12.*.csv\n" +
			"   syncsim merge -o fig12.csv --force fig12.1.csv fig12.2.csv fig12.3.csv",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the merged CSV to `FILE` (and its provenance to FILE.json); required"},
			&cli.BoolFlag{Name: "force", Usage: "replace an existing output file"},
		},
		Action: func(c *cli.Context) error {
			outPath := c.String("output")
			if outPath == "" {
				return errors.New("merge needs -o OUT.csv")
			}
			paths, err := expandPatterns(c.Args().Slice())
			if err != nil {
				return err
			}
			if len(paths) == 0 {
				return errors.New("merge needs the shard files: syncsim merge -o OUT.csv SHARD.csv...")
			}
			for _, p := range paths {
				if p == outPath {
					return fmt.Errorf("the output %s is also a shard", outPath)
				}
			}
			if err := checkMergeOutput(outPath, c.Bool("force")); err != nil {
				return err
			}
			var buf bytes.Buffer
			pv, err := experiments.Merge(&buf, reg.Lookup, paths)
			if err != nil {
				return err
			}
			pv.Command = commandLine(c)
			if err := experiments.WriteFileAtomic(outPath, buf.Bytes()); err != nil {
				return fmt.Errorf("cannot write %s: %w", outPath, err)
			}
			if err := experiments.WriteSidecar(outPath, pv); err != nil {
				return fmt.Errorf("cannot write the provenance of %s: %w", outPath, err)
			}
			rows := bytes.Count(buf.Bytes(), []byte{'\n'}) - 1
			fmt.Fprintf(c.App.ErrWriter, "merged %d shards of %s (%d rows) into %s\n", len(paths), pv.Experiment, rows, outPath)
			return nil
		},
	}
}

// checkMergeOutput refuses an output that is a directory, that another
// command is writing, or that exists (the CSV or its sidecar) without
// --force.
func checkMergeOutput(path string, force bool) error {
	st, err := os.Stat(path)
	if err == nil && st.IsDir() {
		return fmt.Errorf("-o %s is a directory; -o names the merged CSV file (for example %s)", path, filepath.Join(path, "merged.csv"))
	}
	if locked, who := isLocked(path); locked {
		return fmt.Errorf("%s is being written by %s; wait for it to end, or merge into another file", path, who)
	}
	if force {
		return nil
	}
	if err == nil && st.Size() > 0 {
		return fmt.Errorf("%s exists (%d bytes); replace it with --force", path, st.Size())
	}
	if _, err := os.Stat(experiments.SidecarPath(path)); err == nil {
		return fmt.Errorf("%s exists (the provenance of an earlier %s); replace it with --force", experiments.SidecarPath(path), path)
	}
	return nil
}

// expandPatterns expands arguments that are glob patterns (and not names
// of existing files) into the files they match, in order, so merge works
// where no shell expands them (a container without one); a pattern that
// matches nothing is an error.
func expandPatterns(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		if _, err := os.Stat(a); err == nil || !strings.ContainsAny(a, "*?[") {
			out = append(out, a)
			continue
		}
		m, err := filepath.Glob(a)
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %w", a, err)
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("no file matches %s", a)
		}
		out = append(out, m...)
	}
	return out, nil
}
