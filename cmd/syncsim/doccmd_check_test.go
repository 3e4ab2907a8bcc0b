package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"syncsim/experiments"
)

// docChecker checks documented command lines without running any
// simulation: run and sweep with --dry-run (every parameter, value, rule
// between parameters, file to read and output is checked, as the real
// command does before it runs anything); the other commands for real,
// on stand-in CSVs that a run or sweep of the same page would write
// (the right experiment, columns, points, trials, seeds and shards, with
// made-up metric values), so a plot or summarise of a column that the
// sweep does not have fails as it would for a reader.
type docChecker struct {
	t    *testing.T
	reg  *experiments.Registry
	repo string // the repository's root
	dir  string // where the commands run
	// failures lists every command that did not pass, with why.
	failures []string
	checked  int
	skipped  []string
	// series are the --series-dir directories of the page's sweeps,
	// which a stand-in leaves empty.
	series map[string]bool
}

// newDocChecker returns a checker working in a new directory.
func newDocChecker(t *testing.T) *docChecker {
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return &docChecker{t: t, reg: testRegistry(), repo: repo}
}

// page starts a new page (a Markdown file, a script's invocations):
// commands of one page see the files earlier ones wrote, not those of
// other pages.
func (c *docChecker) page() {
	c.series = map[string]bool{}
	c.dir = c.t.TempDir()
	c.t.Chdir(c.dir)
}

// check checks one command; toml is the last TOML block shown before it.
func (c *docChecker) check(cmd docCommand, toml string) {
	if cmd.skip != "" {
		c.skipped = append(c.skipped, fmt.Sprintf("%s: %s: %s", cmd.where, cmd.skip, cmd.text))
		return
	}
	if len(cmd.args) > 2 && cmd.args[1] == "plot" && flagValue(cmd.args, "--from-series") != "" && c.series[cmd.args[2]] {
		// The sweep before it was checked; its series have no stand-in.
		c.skipped = append(c.skipped, fmt.Sprintf("%s: a figure of the series an earlier sweep writes: %s", cmd.where, cmd.text))
		return
	}
	if len(cmd.args) > 1 && cmd.args[1] == "sweep" {
		if d := flagValue(cmd.args, "--series-dir"); d != "" {
			c.series[d] = true
		}
	}
	c.checked++
	start := time.Now()
	if err := c.run(cmd, toml); err != nil {
		c.failures = append(c.failures, fmt.Sprintf("%s: %s\n    %v", cmd.where, cmd.text, err))
	}
	if d := time.Since(start); d > time.Second {
		c.t.Logf("%s took %v: %s", cmd.where, d.Round(time.Millisecond), cmd.text)
	}
}

func (c *docChecker) run(cmd docCommand, toml string) error {
	args := append([]string(nil), cmd.args...)
	if len(args) < 2 {
		return fmt.Errorf("no command")
	}
	dry := hasFlag(args, "--dry-run") // the page's own dry run writes nothing
	sub := args[1]
	if err := c.prepare(args, toml); err != nil {
		return err
	}
	switch sub {
	case "run", "sweep":
		if !hasFlag(args, "--help", "-h", "--dry-run") {
			args = append(args, "--dry-run")
		}
	case "plot", "merge":
		if !hasFlag(args, "--force") {
			args = append(args, "--force")
		}
	}
	var out, errb bytes.Buffer
	app := newApp(c.reg, &out, &errb)
	err := dispatch(context.Background(), app, c.reg, args, &out)
	if err != nil {
		return fmt.Errorf("%s", oneLine(err.Error()))
	}
	if cmd.stdout != "" && !strings.Contains(cmd.stdout, "$") {
		if err := os.WriteFile(cmd.stdout, out.Bytes(), 0o644); err != nil {
			return err
		}
	}
	if p, ok := app.Metadata["plan"].(*plan); ok && p.csvPath != "" && !dry && !hasFlag(args, "--help", "-h") {
		return c.standIn(p, flagValue(args, "--csv"))
	}
	return nil
}

// prepare makes the command's surroundings what a reader's would be:
// output directories exist, outputs an earlier example wrote are gone
// unless the command continues or replaces them, and a scenario file it
// reads is there (a file of the repository, one an earlier command wrote,
// or the TOML block the page shows last before the command).
func (c *docChecker) prepare(args []string, toml string) error {
	for _, f := range []string{"--csv", "-o", "--output", "--series-dir", "--plot"} {
		if v := flagValue(args, f); v != "" {
			os.MkdirAll(filepath.Dir(v), 0o755)
		}
	}
	if args[1] == "run" || args[1] == "sweep" {
		if v := flagValue(args, "--csv"); v != "" && !hasFlag(args, "--resume", "--force") {
			pattern := strings.NewReplacer("{shard}", "*", "{shards}", "*").Replace(v)
			matches, _ := filepath.Glob(pattern)
			for _, m := range append(matches, v) {
				os.Remove(m)
				os.Remove(experiments.SidecarPath(m))
			}
		}
		if v := flagValue(args, "--plot"); v != "" && !hasFlag(args, "--force") {
			os.RemoveAll(v)
		}
	}
	if sc := flagValue(args, "--scenario"); sc != "" {
		if _, err := os.Stat(sc); err != nil {
			switch repoFile := filepath.Join(c.repo, sc); {
			case fileExists(repoFile):
				os.MkdirAll(filepath.Dir(sc), 0o755)
				data, _ := os.ReadFile(repoFile)
				os.WriteFile(sc, data, 0o644)
			case toml != "":
				os.WriteFile(sc, []byte(toml), 0o644)
			default:
				return fmt.Errorf("the scenario file %s is neither in the repository nor shown or written before", sc)
			}
		}
	}
	return nil
}

// standIn writes the CSV (every shard's, for a sharded sweep) that the
// plan's command would write, with its sidecar: the plan's points,
// trials and seeds, and made-up metric values.
func (c *docChecker) standIn(p *plan, template string) error {
	shards := max(1, p.shards)
	for s := range shards {
		path := p.csvPath
		if p.shards > 0 {
			path = shardPath(template, s, p.shards)
		}
		var buf bytes.Buffer
		w := experiments.NewCSVWriter(&buf, p.exp, p.timing)
		if err := w.WriteHeader(); err != nil {
			return err
		}
		for k := s; k < p.grid.Len()*p.trials; k += shards {
			pt, tr := k/p.trials, k%p.trials
			res := p.exp.NewResult()
			for j, m := range p.exp.Metrics {
				res.Metrics[m.Name] = 1 + float64((pt*7+tr*3+j)%10)/10
			}
			o := &experiments.Outcome{Point: pt, Trial: tr, Seed: p.seed + uint64(tr), Params: p.grid.Point(pt), Result: res}
			if err := w.Write(o); err != nil {
				return err
			}
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			return err
		}
		pv := p.provenance()
		if p.shards > 0 {
			pv.Shard = &experiments.ShardID{Index: s + 1, Count: p.shards}
		}
		if err := experiments.WriteSidecar(path, pv); err != nil {
			return err
		}
	}
	return nil
}

// report fails the test with every failure, and logs what was skipped.
func (c *docChecker) report(what string) {
	c.t.Helper()
	c.t.Logf("%s: %d commands checked, %d skipped", what, c.checked, len(c.skipped))
	for _, s := range c.skipped {
		c.t.Logf("skipped %s", s)
	}
	if len(c.failures) > 0 {
		c.t.Errorf("%s: %d documented commands do not run as written:\n%s", what, len(c.failures), strings.Join(c.failures, "\n"))
	}
}

// flagValue returns the value of flag (--flag v or --flag=v), or "".
func flagValue(args []string, flag string) string {
	for i, a := range args {
		if a == flag && i+1 < len(args) {
			return args[i+1]
		}
		if v, ok := strings.CutPrefix(a, flag+"="); ok {
			return v
		}
	}
	return ""
}

// hasFlag reports whether any of the flags is given.
func hasFlag(args []string, flags ...string) bool {
	for _, a := range args {
		for _, f := range flags {
			if a == f {
				return true
			}
		}
	}
	return false
}

func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
