// Package tta holds the tests of scripts/tta's helpers; the scripts
// themselves are bash and awk (reproduce.sh, views.awk).
package tta

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// views runs views.awk with the given -v assignments on CSVs written
// from the given contents and returns its table's rows, header first.
func views(t *testing.T, vars []string, csvs ...string) []string {
	t.Helper()
	if _, err := exec.LookPath("awk"); err != nil {
		t.Skip("no awk")
	}
	// The program read here, not by awk, so that go test's cache knows it.
	prog, err := os.ReadFile("views.awk")
	if err != nil {
		t.Fatal(err)
	}
	args := []string{}
	for _, v := range vars {
		args = append(args, "-v", v)
	}
	args = append(args, string(prog))
	dir := t.TempDir()
	for i, c := range csvs {
		f := filepath.Join(dir, string(rune('a'+i))+".csv")
		if err := os.WriteFile(f, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, f)
	}
	out, err := exec.Command("awk", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("awk %s views.awk: %v\n%s", strings.Join(vars, " "), err, out)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
}

// TestViewsRatiosRunByRun: each run's b / a, worked by hand: point x has
// the ratios 2, 0.5, 1 and 0.25 (sorted 0.25 0.5 1 2: median 0.75, two
// below 1, one at it), one of them from a second file whose columns come
// in another order; point y's only run has no b and is counted, not
// used.
func TestViewsRatiosRunByRun(t *testing.T) {
	first := "scheme,a,b\nx,1,2\nx,2,1\nx,2,2\ny,1,NaN\n"
	second := "b,scheme,a\n1,x,4\n"
	for _, tc := range []struct {
		name string
		vars []string
		want []string
	}{
		{"median and range", []string{"keys=scheme", "den=a", "nums=b"}, []string{
			"| scheme | b / a | runs without a value |",
			"|---|---|---|",
			"| x | 0.750 [0.250-2.00] | 0 |",
			"| y | - | 1 |",
		}},
		{"counted below 1", []string{"keys=scheme", "den=a", "nums=b", "below=1"}, []string{
			"| scheme | b / a | runs without a value |",
			"|---|---|---|",
			"| x | 0.750 [0.250-2.00], 2/4 below, 1 at | 0 |",
			"| y | - | 1 |",
		}},
		{"counted below 3", []string{"keys=scheme", "den=a", "nums=b", "below=3"}, []string{
			"| scheme | b / a | runs without a value |",
			"|---|---|---|",
			"| x | 0.750 [0.250-2.00], 4/4 below | 0 |",
			"| y | - | 1 |",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := views(t, tc.vars, first, second)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
