package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSummariseCommand: summarise reads what sweep writes (also two
// files, also through a pattern), compares seed by seed, writes CSV on
// request, notes a file with fewer rows than its sweep, and refuses
// what it cannot do in one line.
func TestSummariseCommand(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.csv")
	if _, stderr, code := runCLI(t, "sweep", "toy-cli", "--vary", "mode=fast,slow", "--vary", "n=2,4", "--trials", "3", "--csv", a); code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	out, stderr, code := runCLI(t, "summarise", a, "--metric", "end_us", "--vs", "mode=fast")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d %s", code, stderr)
	}
	for _, want := range []string{"| n | fast | slow | slow / fast |", "| 2 | ", "| 4 | ", "toy-cli, end_us: median [min-max] over 3 trials per cell (seeds 1-3)"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	// The toy's slow mode triples the gaps of the same seed's draws:
	// every paired ratio is exactly 3 (up to the last event's rounding).
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "| 2 |") || strings.HasPrefix(line, "| 4 |") {
			cells := strings.Split(line, "|")
			if ratio := strings.TrimSpace(cells[len(cells)-2]); ratio != "3.00" && ratio != "3.00 [3.00-3.00]" {
				t.Errorf("slow / fast = %s, want 3.00 (the same draws at three times the gap): %s", ratio, line)
			}
		}
	}
	csvOut, _, code := runCLI(t, "summarise", a, "--metric", "end_us", "--vs", "mode=fast", "--format", "csv")
	if code != 0 || !strings.HasPrefix(csvOut, "n,mode,metric,statistic,against,count,out_of,median,min,max\n") || !strings.Contains(csvOut, ",slow,end_us,ratio,fast,3,3,") {
		t.Errorf("--format csv: exit %d\n%s", code, csvOut)
	}
	// A second sweep of the same experiment (another --set) joins the first.
	b := filepath.Join(dir, "b.csv")
	if _, stderr, code := runCLI(t, "sweep", "toy-cli", "--set", "load=1", "--vary", "mode=fast,slow", "--vary", "n=2,4", "--trials", "3", "--csv", b); code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	out, _, code = runCLI(t, "summarise", filepath.Join(dir, "*.csv"), "--metric", "end_us", "--columns", "load")
	if code != 0 || !strings.Contains(out, "| n | mode | 0.5 | 1 |") {
		t.Errorf("two sweeps: exit %d\n%s", code, out)
	}
	// A CSV of an earlier build, without a parameter column (here load,
	// cut out of a.csv), reads with b.csv once --missing says its value.
	oldCSV := filepath.Join(dir, "old.csv")
	var oldRows []string
	for _, line := range strings.Split(strings.TrimSuffix(readFile(t, a), "\n"), "\n") {
		f := strings.Split(line, ",")
		i := slices.Index(strings.Split(strings.SplitN(readFile(t, a), "\n", 2)[0], ","), "load")
		oldRows = append(oldRows, strings.Join(slices.Delete(f, i, i+1), ","))
	}
	os.WriteFile(oldCSV, []byte(strings.Join(oldRows, "\n")+"\n"), 0o644)
	if _, stderr, code := runCLI(t, "summarise", oldCSV, b, "--metric", "end_us"); code == 0 || !strings.Contains(stderr, "--missing k=v") {
		t.Errorf("an older CSV without --missing: exit %d %q", code, stderr)
	}
	if _, stderr, code := runCLI(t, "summarise", oldCSV, b, "--metric", "end_us", "--missing", "load"); code == 0 || !strings.Contains(stderr, "want k=v") {
		t.Errorf("--missing without a value: exit %d %q", code, stderr)
	}
	out, _, code = runCLI(t, "summarise", oldCSV, b, "--metric", "end_us", "--columns", "load", "--missing", "load=0.5")
	if code != 0 || !strings.Contains(out, "| n | mode | 0.5 | 1 |") {
		t.Errorf("an older CSV with --missing load=0.5: exit %d\n%s", code, out)
	}
	// An interrupted sweep is noted.
	data := readFile(t, a)
	lines := strings.SplitAfter(data, "\n")
	part := filepath.Join(dir, "part.csv")
	os.WriteFile(part, []byte(strings.Join(lines[:5], "")), 0o644)
	os.WriteFile(part+".json", []byte(readFile(t, a+".json")), 0o644)
	_, stderr, code = runCLI(t, "summarise", part, "--metric", "end_us")
	if code != 0 || !strings.Contains(stderr, "part.csv holds 4 of the 12 rows its sweep writes") {
		t.Errorf("partial file: exit %d %q", code, stderr)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"summarise"}, "summarise needs a CSV"},
		{[]string{"summarise", a, "--vs", "mode=fast", "--of", "mode=slow"}, "--vs and --of both name a baseline; give one"},
		{[]string{"summarise", a, "--change", "percent"}, "give the baseline with --vs k=v or --of k=v"},
		{[]string{"summarise", a, "--count-below", "1"}, "give the baseline with --vs k=v or --of k=v"},
		{[]string{"summarise", a, "--vs", "mode=fast", "--count-below", "NaN"}, "--count-below NaN: want a finite number"},
		{[]string{"summarise", a, "--vs", "mode=fast,slow"}, "want param=value, one value"},
		{[]string{"summarise", a, "--metric", "nope"}, "--metric nope: not a metric of toy-cli (metrics: end_us, maybe)"},
		{[]string{"summarise", a, "--format", "html"}, `--format "html": want markdown or csv`},
		{[]string{"summarise", a, "--digits", "0"}, "--digits must be in [1, 17]"},
		{[]string{"summarise", a, a}, "repeats the point and seed of"},
		{[]string{"summarise", filepath.Join(dir, "none*.csv")}, "no file matches"},
	} {
		_, stderr, code := runCLI(t, tc.args...)
		if code != 1 || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("syncsim %s: exit %d %q, want one line with %q", strings.Join(tc.args, " "), code, stderr, tc.want)
		}
	}
}
