package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// waitFor polls cond until it holds; a condition that never holds
// within a minute fails the test (it is a wait, not a measurement).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("gave up waiting for %s", what)
}

// TestSecondWriterIsRefused: while one sweep writes a CSV and a series
// directory, a second command writing either is refused with one line
// naming the first (its process and command line), with or without
// --force, and changes nothing; merge into that CSV is refused alike.
// Before the lock, two sweeps of one --csv both exited 0 and left mixed
// rows and a fragment line, as a reader once reproduced them.
func TestSecondWriterIsRefused(t *testing.T) {
	dir := t.TempDir()
	csv, series := filepath.Join(dir, "same.csv"), filepath.Join(dir, "series")
	cmd := exec.Command(binary(t), "sweep", "incast", "--vary", "senders=2,4", "--set", "duration_ms=600000", "--parallel", "1",
		"--quiet", "--csv", csv, "--series-dir", series)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGINT)
		cmd.Wait()
	}()
	waitFor(t, "the first sweep's header", func() bool {
		st, err := os.Stat(csv)
		return err == nil && st.Size() > 0
	})
	before := readFile(t, csv)
	holder := regexp.MustCompile(fmt.Sprintf(`is being written by process %d \(syncsim sweep incast --vary senders=2,4 --set duration_ms=600000 `, cmd.Process.Pid))
	for _, args := range [][]string{
		{"sweep", "incast", "--vary", "senders=2,4", "--quiet", "--csv", csv},
		{"sweep", "incast", "--vary", "senders=2,4", "--quiet", "--csv", csv, "--force"},
		{"sweep", "incast", "--vary", "senders=2,4", "--quiet", "--csv", csv, "--resume"},
		{"run", "incast", "--quiet", "--csv", filepath.Join(dir, "other.csv"), "--series-dir", series, "--force"},
		{"merge", "-o", csv, "--force", filepath.Join(dir, "nothing.csv")},
	} {
		_, stderr, code := runCLI(t, args...)
		if code != 1 || !holder.MatchString(stderr) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("syncsim %s: exit %d, stderr %q; want one line naming process %d", strings.Join(args, " "), code, stderr, cmd.Process.Pid)
		}
	}
	if after := readFile(t, csv); after != before {
		t.Errorf("the refused commands changed %s:\n%q\n%q", csv, before, after)
	}
	if _, err := os.Stat(filepath.Join(dir, "other.csv")); err == nil {
		t.Error("a refused run left other.csv behind")
	}
}

// TestLockIsReleased: the lock lasts as long as the command; the next
// command finds the outputs free (and by the --force rule).
func TestLockIsReleased(t *testing.T) {
	csv := filepath.Join(t.TempDir(), "a.csv")
	args := []string{"sweep", "toy-cli", "--vary", "n=1,2", "--csv", csv}
	if _, stderr, code := runCLI(t, args...); code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	if _, stderr, code := runCLI(t, append(args, "--force")...); code != 0 {
		t.Fatalf("again with --force: exit %d %s", code, stderr)
	}
	if _, stderr, code := runCLI(t, append(args, "--resume")...); code != 0 {
		t.Fatalf("again with --resume: exit %d %s", code, stderr)
	}
}

// TestFailedOrRefusedCommandLeavesNothing: a sweep whose first run
// fails, and one refused after its outputs were looked at, leave no CSV,
// no sidecar and no series directory they created; one that wrote rows
// keeps them.
func TestFailedOrRefusedCommandLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	csv, series := filepath.Join(dir, "f.csv"), filepath.Join(dir, "series")
	_, stderr, code := runCLI(t, "sweep", "toy-cli", "--vary", "n=1,2", "--set", "fail_n=1", "--csv", csv, "--series-dir", series)
	if code != 1 || !strings.Contains(stderr, "toy failure (no run had finished, so "+csv+" was not kept)") {
		t.Errorf("failed sweep: exit %d %s", code, stderr)
	}
	for _, p := range []string{csv, csv + ".json", series} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("the failed sweep left %s behind", p)
		}
	}
	// A failure after one row keeps the row (and what --resume needs).
	_, stderr, code = runCLI(t, "sweep", "toy-cli", "--vary", "n=1,2", "--set", "fail_n=2", "--parallel", "1", "--csv", csv, "--series-dir", series)
	if code != 1 || !strings.Contains(stderr, "keeps the 1 rows written before") {
		t.Errorf("failed second run: exit %d %s", code, stderr)
	}
	if data := readFile(t, csv); strings.Count(data, "\n") != 2 {
		t.Errorf("%s holds %q, want the header and one row", csv, data)
	}
	// Refused under the lock (a sidecar without its CSV): the series
	// directory it had made is gone again, the sidecar untouched.
	lone := filepath.Join(dir, "lone.csv")
	os.WriteFile(lone+".json", []byte("{}\n"), 0o644)
	series2 := filepath.Join(dir, "series2")
	_, stderr, code = runCLI(t, "sweep", "toy-cli", "--vary", "n=1,2", "--csv", lone, "--series-dir", series2)
	if code != 1 || !strings.Contains(stderr, "lone.csv.json exists (the provenance of an earlier "+lone+"); replace it with --force") {
		t.Errorf("sidecar without its CSV: exit %d %s", code, stderr)
	}
	for _, p := range []string{lone, series2} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("the refused sweep left %s behind", p)
		}
	}
	if got := readFile(t, lone+".json"); got != "{}\n" {
		t.Errorf("the refused sweep changed the sidecar: %q", got)
	}
	if _, stderr, code := runCLI(t, "sweep", "toy-cli", "--vary", "n=1,2", "--csv", lone, "--force"); code != 0 {
		t.Errorf("with --force: exit %d %s", code, stderr)
	}
}

// TestFiguresFollowTheForceRule: plot and sweep --plot replace figures
// only with --force; sweep --plot refuses before it runs.
func TestFiguresFollowTheForceRule(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "s.csv")
	figs := filepath.Join(dir, "figs")
	if _, stderr, code := runCLI(t, "sweep", "toy-cli", "--vary", "n=1,2", "--csv", csv, "--plot", figs); code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	fig := filepath.Join(figs, "toy-cli_end_us.png")
	png := readFile(t, fig)
	_, stderr, code := runCLI(t, "sweep", "toy-cli", "--vary", "n=1,3", "--csv", filepath.Join(dir, "t.csv"), "--plot", figs)
	if code != 1 || !strings.Contains(stderr, "--plot "+figs+" already holds 2 figures of toy-cli (toy-cli_end_us.png); replace them with --force") {
		t.Errorf("sweep --plot over figures: exit %d %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "t.csv")); err == nil {
		t.Error("the refused sweep ran")
	}
	_, stderr, code = runCLI(t, "plot", csv, "--x", "n", "--y", "end_us", "-o", fig)
	if code != 1 || !strings.Contains(stderr, fig+" exists; replace it with --force") {
		t.Errorf("plot over a figure: exit %d %s", code, stderr)
	}
	if readFile(t, fig) != png {
		t.Error("the refused plot changed the figure")
	}
	if _, stderr, code := runCLI(t, "plot", csv, "--x", "n", "--y", "end_us", "--kind", "bar", "-o", fig, "--force"); code != 0 || readFile(t, fig) == png {
		t.Errorf("plot --force: exit %d %s (figure replaced: %v)", code, stderr, readFile(t, fig) != png)
	}
	if _, stderr, code := runCLI(t, "sweep", "toy-cli", "--vary", "n=1,3", "--csv", filepath.Join(dir, "t.csv"), "--plot", figs, "--force"); code != 0 {
		t.Errorf("sweep --plot --force: exit %d %s", code, stderr)
	}
	if _, stderr, code := runCLI(t, "sweep", "toy-cli", "--vary", "n=1,2", "--csv", filepath.Join(dir, "u.csv"), "--plot", filepath.Join(dir, "no", "such")); code != 1 ||
		!strings.Contains(stderr, "its parent directory") {
		t.Errorf("--plot under a missing directory: exit %d %s", code, stderr)
	}
}

// TestMergeOutputErrors: merge into a directory says so (the rename used
// to fail with a temporary file's name), and merge follows the --force
// rule for the CSV and its sidecar.
func TestMergeOutputErrors(t *testing.T) {
	dir := t.TempDir()
	args := []string{"toy-cli", "--vary", "n=1,2"}
	a := shardSweep(t, dir, 1, 2, args...)
	b := shardSweep(t, dir, 2, 2, args...)
	_, stderr, code := runCLI(t, "merge", "-o", dir, "--force", a, b)
	if code != 1 || !strings.Contains(stderr, "-o "+dir+" is a directory; -o names the merged CSV file") || strings.Contains(stderr, ".tmp-") {
		t.Errorf("merge -o DIR: exit %d %s", code, stderr)
	}
	out := filepath.Join(dir, "m.csv")
	if _, stderr, code := runCLI(t, "merge", "-o", out, a, b); code != 0 {
		t.Fatalf("merge: exit %d %s", code, stderr)
	}
	os.Remove(out)
	if _, stderr, code := runCLI(t, "merge", "-o", out, a, b); code != 1 || !strings.Contains(stderr, "m.csv.json exists") {
		t.Errorf("merge over a sidecar: exit %d %s", code, stderr)
	}
}

// TestSmallDefects: one-line messages for small defects readers found.
func TestSmallDefects(t *testing.T) {
	dir := t.TempDir()
	sc := filepath.Join(dir, "s.toml")
	os.WriteFile(sc, []byte("seed = 1\nexperiment = \"nope\"\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "toy-cli", "--seed", "-1"}, `--seed "-1": want a whole number in [0, 18446744073709551615] (see 'syncsim run --help')`},
		{[]string{"run", "toy-cli", "--trials", "1.5"}, `--trials "1.5": want a whole number`},
		{[]string{"run", "toy-cli", "--progress-every", "abc"}, `--progress-every "abc": want a duration with a unit, such as 10s`},
		{[]string{"run", "toy-cli", "--stall-ms", "x"}, `--stall-ms "x": want a number`},
		{[]string{"run", "toy-cli", "--set", "n=+8"}, `n="+8": a number is written without a + sign (write n=8)`},
		{[]string{"run", "toy-cli", "--set", "n= 8"}, `n=" 8": a space around the value (write n=8)`},
		{[]string{"sweep", "toy-cli", "--vary", "n=1,2", "--csv", filepath.Join(dir, "o.{shard}.csv")}, "{shard} and {shards} name the shard of a sharded sweep, and this sweep is not one"},
		{[]string{"run", "toy-cli", "--csv", filepath.Join(dir, "o.{shards}.csv")}, "and this run is not one"},
		{[]string{"sweep", "toy-cli", "--vary", "n=1,2", "--shard", "1/1000000", "--csv", filepath.Join(dir, "x.csv")}, "1000000 shards: the sweep has only 2 runs (2 points x 1 trials)"},
		{[]string{"run", "--scenario", sc}, sc + ` line 2: unknown experiment "nope"`},
	} {
		_, stderr, code := runCLI(t, tc.args...)
		if code != 1 || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("syncsim %s: exit %d %q, want one line with %q", strings.Join(tc.args, " "), code, stderr, tc.want)
		}
	}
	for _, name := range []string{"o.{shard}.csv", "o.1.csv", "x.csv"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("a refused command wrote %s", name)
		}
	}
	out, _, _ := runCLI(t, "__complete", "--", "syncsim ")
	if n := strings.Count(out, "help\n"); n != 1 {
		t.Errorf("completion offers help %d times:\n%s", n, out)
	}
}

// TestTablesFitTheTerminal: describe and run wrap their text and tables
// to COLUMNS, or 100 columns off a terminal.
func TestTablesFitTheTerminal(t *testing.T) {
	widest := func(s string) int {
		w := 0
		for _, l := range strings.Split(s, "\n") {
			w = max(w, textLen(l))
		}
		return w
	}
	for _, cols := range []string{"", "60", "200"} {
		t.Setenv("COLUMNS", cols)
		limit := map[string]int{"": 100, "60": 60, "200": 200}[cols]
		for _, exp := range []string{"toy-cli", "sr-cluster", "ina-leafspine", "crew-training"} {
			out, _, code := runCLI(t, "describe", exp)
			if w := widest(out); code != 0 || w > limit {
				t.Errorf("COLUMNS=%q describe %s: %d columns wide, want at most %d", cols, exp, w, limit)
			}
		}
		out, _, _ := runCLI(t, "run", "toy-cli", "--trials", "2")
		if w := widest(out); w > limit {
			t.Errorf("COLUMNS=%q run: %d columns wide:\n%s", cols, w, out)
		}
	}
	t.Setenv("COLUMNS", "200")
	out, _, _ := runCLI(t, "describe", "toy-cli")
	if !strings.Contains(out, "one of fast|slow|undef|spin|stall") {
		t.Errorf("a wide terminal still wraps the choices:\n%s", out)
	}
}

// TestDryRun: --dry-run checks everything a command checks before it
// runs (including that --resume can continue the CSV), says what would
// run and be written, and writes nothing.
func TestDryRun(t *testing.T) {
	dir := t.TempDir()
	csv, series, figs := filepath.Join(dir, "d.csv"), filepath.Join(dir, "series"), filepath.Join(dir, "figs")
	_, stderr, code := runCLI(t, "sweep", "toy-cli", "--vary", "n=1,2,3", "--trials", "2", "--csv", csv, "--series-dir", series, "--plot", figs, "--dry-run")
	want := "dry run: sweep toy-cli, 3 points x 2 trials = 6 runs; would write " + csv + ", " + csv + ".json, series in " + series + ", figures in " + figs + "; nothing was run or written\n" +
		"cost: no estimate (toy-cli has no cost model)\n"
	if code != 0 || stderr != want {
		t.Errorf("exit %d\n%q\nwant\n%q", code, stderr, want)
	}
	for _, p := range []string{csv, csv + ".json", series, figs} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("--dry-run wrote %s", p)
		}
	}
	if _, stderr, code := runCLI(t, "sweep", "toy-cli", "--vary", "n=1,2", "--csv", csv); code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	before := readFile(t, csv)
	_, stderr, code = runCLI(t, "sweep", "toy-cli", "--vary", "n=1,2,3", "--csv", csv, "--resume", "--dry-run")
	if code != 1 || !strings.Contains(stderr, "cannot resume "+csv+": it was written with") {
		t.Errorf("--resume of another sweep: exit %d %s", code, stderr)
	}
	if _, stderr, code := runCLI(t, "sweep", "toy-cli", "--vary", "n=1,2", "--csv", csv, "--resume", "--dry-run"); code != 0 {
		t.Errorf("--resume of the same sweep: exit %d %s", code, stderr)
	}
	if readFile(t, csv) != before {
		t.Error("--dry-run changed the CSV")
	}
	if _, stderr, code := runCLI(t, "run", "toy-cli", "--set", "n=+1", "--dry-run"); code != 1 || !strings.Contains(stderr, "without a + sign") {
		t.Errorf("a bad value under --dry-run: exit %d %s", code, stderr)
	}
}
