package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocumentedCommandsRun: every syncsim command line of README.md and
// docs/*.md (but docs/extending.md, whose commands TestExtendingGuideSteps
// runs after the guide's steps) parses and validates as written (parameters, values, rules
// between parameters, the columns a plot or summary reads), without
// running a simulation. A command that shows placeholders (EXP, FILE.csv)
// instead of values is logged as skipped.
func TestDocumentedCommandsRun(t *testing.T) {
	c := newDocChecker(t)
	pages, _ := filepath.Glob(filepath.Join(c.repo, "docs", "*.md"))
	pages = append([]string{filepath.Join(c.repo, "README.md")}, pages...)
	for _, page := range pages {
		if filepath.Base(page) == "extending.md" {
			// Its commands run after its steps, on the scratch copy
			// of TestExtendingGuideSteps.
			continue
		}
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(c.repo, page)
		cmds, tomls := markdownCommands(rel, string(data))
		c.page()
		for i, cmd := range cmds {
			c.check(cmd, tomls[i])
		}
	}
	if c.checked < 50 {
		t.Errorf("only %d commands found in the docs; is the extraction broken?", c.checked)
	}
	c.report("README.md and docs/*.md")
}

// TestDescribeCommandsRun: the command lines in every experiment's
// describe text (scenarios/<family>/<experiment>.md) run as written.
func TestDescribeCommandsRun(t *testing.T) {
	c := newDocChecker(t)
	for _, e := range c.reg.All() {
		cmds, tomls := markdownCommands("describe "+e.Name, e.Doc)
		c.page()
		for i, cmd := range cmds {
			c.check(cmd, tomls[i])
		}
	}
	c.report("describe texts")
}

// recorder stands in for syncsim when a script runs: it records each
// invocation (the Slurm array variables, then the arguments, separated by
// the unit separator) and creates the files named by --csv and -o empty,
// so the script's own steps find them.
const recorder = `#!/usr/bin/env bash
{
	printf '%s|%s|%s' "${SLURM_ARRAY_TASK_ID:-}" "${SLURM_ARRAY_TASK_MIN:-}" "${SLURM_ARRAY_TASK_COUNT:-}"
	for a in "$@"; do printf '\037%s' "$a"; done
	printf '\n'
} >>"$SYNCSIM_RECORD"
prev=
for a in "$@"; do
	if [[ $prev == --csv || $prev == -o ]]; then mkdir -p "$(dirname "$a")" && : >>"$a"; fi
	prev=$a
done
`

// TestScriptCommandsRun: every syncsim command the reproduce scripts,
// the studies beside them and the Slurm array job run parses and
// validates. Each script runs for real with a recorder in place of
// syncsim (so its loops, functions and variables are expanded as they
// will be), and the recorded commands are then checked in order, each
// table and figure against the CSVs the sweeps before it write. (The
// Kubernetes manifests and local-cluster.sh are run by their own tests.)
func TestScriptCommandsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the scripts")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	c := newDocChecker(t)
	rec := filepath.Join(t.TempDir(), "syncsim")
	if err := os.WriteFile(rec, []byte(recorder), 0o755); err != nil {
		t.Fatal(err)
	}
	var scripts []string
	for _, family := range []string{"ina", "crew", "dssync", "selective-reduce", "tta"} {
		scripts = append(scripts, filepath.Join(c.repo, "scripts", family, "reproduce.sh"))
	}
	for _, study := range []string{"ina/sensitivity.sh", "ina/regime.sh", "ina/finish.sh", "ina/fullsize.sh", "ina/overlap.sh", "crew/studies.sh", "dssync/stragglers.sh", "selective-reduce/stragglers.sh", "mixed/interference.sh"} {
		scripts = append(scripts, filepath.Join(c.repo, "scripts", filepath.FromSlash(study)))
	}
	type run struct {
		script string
		args   []string
		env    []string
	}
	var runs []run
	for _, s := range scripts {
		runs = append(runs, run{script: s})
	}
	sbatch := filepath.Join(c.repo, "scripts", "slurm", "sweep.sbatch")
	study := filepath.Join("scripts", "slurm", "study-incast.toml")
	runs = append(runs,
		run{sbatch, []string{study, "study.csv"}, []string{"SLURM_ARRAY_TASK_ID=2", "SLURM_ARRAY_TASK_MIN=0", "SLURM_ARRAY_TASK_COUNT=3", "SLURM_ARRAY_JOB_ID=9"}},
		run{sbatch, []string{study, "study.csv"}, []string{"SYNCSIM_MERGE_SHARDS=3"}})
	for i, r := range runs {
		rel, _ := filepath.Rel(c.repo, r.script)
		log := filepath.Join(t.TempDir(), "record")
		work := t.TempDir()
		args := r.args
		if len(args) == 0 {
			args = []string{filepath.Join(work, "out")}
		}
		cmd := exec.Command("bash", append([]string{r.script}, args...)...)
		cmd.Dir = work
		cmd.Env = append(append(os.Environ(), "SYNCSIM="+rec, "SYNCSIM_RECORD="+log, "PARALLEL=1"), r.env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s %s with a recorder for syncsim: %v\n%s", rel, strings.Join(args, " "), err, out)
			continue
		}
		data, err := os.ReadFile(log)
		if err != nil {
			t.Errorf("%s ran no syncsim command", rel)
			continue
		}
		if i < len(runs)-1 || c.dir == "" { // the merge job continues the array task's page
			c.page()
		}
		for j, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			fields := strings.Split(line, "\x1f")
			slurm := strings.Split(fields[0], "|")
			for k, name := range []string{"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_COUNT"} {
				t.Setenv(name, slurm[k])
			}
			words := append([]string{"syncsim"}, fields[1:]...)
			c.check(docCommand{where: fmt.Sprintf("%s command %d", rel, j+1), text: strings.Join(words, " "), args: words}, "")
		}
	}
	c.report("scripts")
}

// TestDocCheckerCatchesDefects: the checker fails on the defects readers
// found in the docs (a renamed parameter, a plot of a column the sweep
// does not have, a special value that is refused, a renamed value) and
// passes their corrections.
func TestDocCheckerCatchesDefects(t *testing.T) {
	page := "Fig. 9:\n\n" +
		"```sh\n" +
		"syncsim sweep sr-cluster --vary bag_eta=0.1,0.8 --vary scheme=partial-reduce,selective-reduce --set n=40 --csv fig9.csv\n" +
		"syncsim plot fig9.csv --x eta --y avg_sync_time_s --series scheme -o fig9.png\n" +
		"syncsim plot fig9.csv --x bag_eta --y avg_sync_time_s --series scheme -o fig9.png\n" +
		"syncsim summarise fig9.csv --metric sync_time_s --vs scheme=partial-reduce\n" +
		"syncsim summarise fig9.csv --metric avg_sync_time_s --vs scheme=partial-reduce\n" +
		"```\n\n" +
		"Background: `syncsim sweep sr-cluster --set n=40 --set fidelity=flow --set topology=racks --set bg_hosts=1 --vary bg_load=0,0.3 --csv bg.csv`,\n" +
		"corrected: `syncsim sweep sr-cluster --set n=40 --set fidelity=flow --set topology=racks --set bg_hosts_per_rack=1 --vary bg_load=0,0.3 --csv bg.csv`.\n" +
		"The V100 estimate: `syncsim run dssync --set compute_ms=0`, corrected `syncsim run dssync --set compute_ms=-1`.\n" +
		"A fabric: `syncsim run sr-cluster --set topology=fat-tree --set fidelity=flow`, corrected `syncsim run sr-cluster --set topology=fattree --set fidelity=flow`.\n" +
		"A placeholder: `syncsim describe EXP`.\n"
	c := newDocChecker(t)
	c.page()
	cmds, tomls := markdownCommands("fixture.md", page)
	for i, cmd := range cmds {
		c.check(cmd, tomls[i])
	}
	want := []string{
		"fixture.md:5: syncsim plot fig9.csv --x eta", // no column eta: it is bag_eta
		"fixture.md:7: syncsim summarise fig9.csv --metric sync_time_s",
		"fixture.md:11: syncsim sweep sr-cluster --set n=40 --set fidelity=flow --set topology=racks --set bg_hosts=1", // renamed bg_hosts_per_rack
		"fixture.md:13: syncsim run dssync --set compute_ms=0",                                                         // refused; -1 is the estimate
		"fixture.md:14: syncsim run sr-cluster --set topology=fat-tree",                                                // spelt fattree
	}
	if len(c.failures) != len(want) {
		t.Errorf("%d failures, want %d:\n%s", len(c.failures), len(want), strings.Join(c.failures, "\n"))
	}
	for i, w := range want {
		if i < len(c.failures) && !strings.HasPrefix(c.failures[i], w) {
			t.Errorf("failure %d is\n%s\nwant one starting %q", i, c.failures[i], w)
		}
	}
	if c.checked != 11 || len(c.skipped) != 1 {
		t.Errorf("checked %d and skipped %d commands, want 11 and 1", c.checked, len(c.skipped))
	}
}

// TestShellWords: the splitting the checker relies on.
func TestShellWords(t *testing.T) {
	for _, tc := range []struct {
		in, op string
		want   []string
	}{
		{`syncsim sweep --csv 'fig12.{shard}.csv' --vary "a=1,2"`, "", []string{"syncsim", "sweep", "--csv", "fig12.{shard}.csv", "--vary", "a=1,2"}},
		{`syncsim run incast   # a comment`, "#", []string{"syncsim", "run", "incast"}},
		{`syncsim describe x --format toml > s.toml && syncsim run`, ">", []string{"syncsim", "describe", "x", "--format", "toml"}},
		{`syncsim list | jq`, "|", []string{"syncsim", "list"}},
		{`a\ b "c\"d"`, "", []string{"a b", `c"d`}},
	} {
		got, op, _ := shellWords(tc.in)
		if strings.Join(got, "\x00") != strings.Join(tc.want, "\x00") || op != tc.op {
			t.Errorf("shellWords(%q) = %q, %q; want %q, %q", tc.in, got, op, tc.want, tc.op)
		}
	}
}
