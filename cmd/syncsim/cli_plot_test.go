package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// incastSweep sweeps a small incast grid (two sender counts, two
// transports, two trials) with --plot and returns the CSV path, the
// figure directory and stderr.
func incastSweep(t *testing.T) (csvPath, dir, stderr string) {
	t.Helper()
	tmp := t.TempDir()
	csvPath, dir = filepath.Join(tmp, "incast.csv"), filepath.Join(tmp, "figs")
	_, stderr, code := runCLI(t, "sweep", "incast", "--set", "duration_ms=5", "--vary", "senders=2,4",
		"--vary", "transport=dctcp,newreno", "--trials", "2", "--csv", csvPath, "--plot", dir)
	if code != 0 {
		t.Fatalf("sweep exit %d: %s", code, stderr)
	}
	return csvPath, dir, stderr
}

// TestSweepPlot checks that sweep --plot writes one decodable PNG per
// metric that has a finite value, names the metrics it skips, and that
// the figures use the first --vary as x and the second as series.
func TestSweepPlot(t *testing.T) {
	csvPath, dir, stderr := incastSweep(t)
	exp, err := testRegistry().Lookup("incast")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, m := range exp.Metrics {
		if m.Name != "incast_fct_ms" { // NaN for long-lived flows
			want = append(want, "incast_"+m.Name+".png")
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("figures %v, want %v", got, want)
	}
	if !strings.Contains(stderr, "not drawn: incast_fct_ms") {
		t.Errorf("stderr does not name the metric without values: %s", stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "incast_goodput_gbps.png"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(data)); err != nil {
		t.Fatalf("goodput figure: %v", err)
	}
	// The same defaults through plot give the same figure.
	svg := filepath.Join(t.TempDir(), "g.svg")
	_, stderr, code := runCLI(t, "plot", csvPath, "--x", "senders", "--y", "goodput_gbps", "--series", "transport", "-o", svg)
	if code != 0 {
		t.Fatalf("plot exit %d: %s", code, stderr)
	}
	text, _ := os.ReadFile(svg)
	for _, s := range []string{">dctcp<", ">newreno<", ">goodput (Gbit/s)<", ">senders<", ">transport<", ">incast<"} {
		if !bytes.Contains(text, []byte(s)) {
			t.Errorf("SVG lacks %s", s)
		}
	}
}

// TestPlotCommand checks flags after the CSV, --where, the kinds, and
// that the figure file is written only on success.
func TestPlotCommand(t *testing.T) {
	csvPath, _, _ := incastSweep(t)
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"bar over a filter", []string{csvPath, "--x", "transport", "--y", "queue_max_pkts", "--where", "senders=4", "-o", "bar.png"}, "wrote"},
		{"box with series", []string{"--x", "senders", "--y", "goodput_gbps", "--series", "transport", "--kind", "box", "-o", "box.svg", csvPath}, "box of goodput_gbps over senders, 8 rows"},
		{"facets", []string{csvPath, "--x", "senders", "--y", "drops", "--facet", "transport", "--log-x", "--title", "incast drops", "-o", "facet.svg"}, "line of drops"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for i, a := range tc.args {
				if strings.HasSuffix(a, ".png") || strings.HasSuffix(a, ".svg") {
					tc.args[i] = filepath.Join(dir, a)
				}
			}
			_, stderr, code := runCLI(t, append([]string{"plot"}, tc.args...)...)
			if code != 0 || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d, stderr %q; want success mentioning %q", code, stderr, tc.want)
			}
		})
	}
	facet, _ := os.ReadFile(filepath.Join(dir, "facet.svg"))
	for _, s := range []string{">transport = dctcp<", ">transport = newreno<", ">incast drops<"} {
		if !bytes.Contains(facet, []byte(s)) {
			t.Errorf("faceted SVG lacks %s", s)
		}
	}
}

// TestPlotErrors checks that bad plot and sweep --plot input ends in one
// line on stderr and exit status 1, without writing a figure.
func TestPlotErrors(t *testing.T) {
	csvPath, _, _ := incastSweep(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "f.svg")
	notDir := filepath.Join(dir, "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no csv", []string{"plot", "--x", "senders", "--y", "drops", "-o", out}, "plot needs a CSV: syncsim plot FILE.csv..."},
		{"two csvs", []string{"plot", csvPath, csvPath, "--x", "senders", "--y", "drops", "-o", out}, "is given twice"},
		{"missing csv", []string{"plot", filepath.Join(dir, "none.csv"), "--x", "senders", "--y", "drops", "-o", out}, "none.csv: no such file or directory"},
		{"no output", []string{"plot", csvPath, "--x", "senders", "--y", "drops"}, `Required flag "output" not set`},
		{"unknown metric", []string{"plot", csvPath, "--x", "senders", "--y", "goodput", "--series", "transport", "-o", out}, "no column goodput"},
		{"x is a metric", []string{"plot", csvPath, "--x", "drops", "--y", "goodput_gbps", "-o", out}, "drops is not a parameter"},
		{"y is a parameter", []string{"plot", csvPath, "--x", "senders", "--y", "transport", "-o", out}, "transport is not a metric"},
		{"pooled", []string{"plot", csvPath, "--x", "senders", "--y", "drops", "-o", out}, "parameter transport varies in the selected rows (dctcp, newreno)"},
		{"bad where", []string{"plot", csvPath, "--x", "senders", "--y", "drops", "--where", "transport", "-o", out}, `--where "transport": expected param=value`},
		{"where no match", []string{"plot", csvPath, "--x", "senders", "--y", "drops", "--where", "transport=cubic", "-o", out}, "no selected row has transport=cubic (values: dctcp, newreno)"},
		{"bad kind", []string{"plot", csvPath, "--x", "senders", "--y", "drops", "--series", "transport", "--kind", "pie", "-o", out}, "unknown plot kind"},
		{"pdf", []string{"plot", csvPath, "--x", "senders", "--y", "drops", "--series", "transport", "-o", filepath.Join(dir, "f.pdf")}, "unsupported figure format .pdf"},
		{"not a sweep csv", []string{"plot", notDir, "--x", "senders", "--y", "drops", "-o", out}, "the file is empty"},
		{"sweep plot with nothing varied", []string{"sweep", "incast", "--csv", filepath.Join(dir, "a.csv"), "--plot", dir}, "--plot: no parameter varies"},
		{"sweep plot with four varied", []string{"sweep", "incast", "--csv", filepath.Join(dir, "b.csv"), "--plot", dir,
			"--vary", "senders=2,4", "--vary", "transport=dctcp,newreno", "--vary", "link_gbps=10,40", "--vary", "delay_us=1,10"},
			"--plot: 4 parameters vary (senders, transport, link_gbps, delay_us)"},
		{"sweep plot into a file", []string{"sweep", "incast", "--csv", filepath.Join(dir, "c.csv"), "--plot", notDir, "--vary", "senders=2,4"}, "is not a directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, tc.args...)
			if code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			if !strings.HasPrefix(stderr, "syncsim: ") || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr %q, want one line containing %q", stderr, tc.want)
			}
		})
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed plot left a figure")
	}
	for _, f := range []string{"a.csv", "b.csv", "c.csv"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("sweep with an impossible --plot ran and wrote %s", f)
		}
	}
}
