package plotting

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestErrors checks that bad input gives one line naming the problem,
// never a panic.
func TestErrors(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.csv")
	if err := os.WriteFile(good, []byte(smallCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	const constant = "experiment,p,trial,seed,m_ms\ne,1,0,1,0\ne,2,0,1,0\n"
	where := func(s string) []Filter {
		f, err := ParseFilter(s)
		if err != nil {
			t.Fatal(err)
		}
		return []Filter{f}
	}
	tests := []struct {
		name string
		csv  string // "" reads good.csv from disk
		path string // file to read instead (for I/O errors)
		spec Spec
		out  string // output file, default x.svg
		want string
	}{
		{name: "missing file", path: filepath.Join(dir, "none.csv"), want: "none.csv: no such file"},
		{name: "directory", path: dir, want: "is a directory"},
		{name: "empty file", csv: " ", want: "not a syncsim sweep CSV"},
		{name: "no bytes", csv: "-", want: "empty"},
		{name: "not a sweep", csv: "a,b\n1,2\n", want: "not a syncsim sweep CSV"},
		{name: "no metrics", csv: "experiment,p,trial,seed\ne,1,0,1\n", want: "no metric columns"},
		{name: "header only", csv: "experiment,p,trial,seed,m\n", spec: Spec{X: "p", Y: "m"}, want: "no rows"},
		{name: "ragged row", csv: "experiment,p,trial,seed,m\ne,1,0,1\n", want: "wrong number of fields"},
		{name: "bad quote", csv: "experiment,p,trial,seed,m\ne,\"1,0,1,2\n", want: "reading small.csv"},
		{name: "not a number", csv: "experiment,p,trial,seed,m\ne,1,0,1,abc\n", spec: Spec{X: "p", Y: "m"}, want: `line 2: m is "abc", not a number`},
		{name: "duplicate header", csv: "experiment,p,p,trial,seed,m\n", want: `column "p" appears twice`},
		{name: "duplicate row", csv: "experiment,p,trial,seed,m\ne,1,0,1,2\ne,1,0,1,3\n", spec: Spec{X: "p", Y: "m"}, want: "lines 2 and 3 are the same point and trial"},
		{name: "two experiments", csv: "experiment,p,trial,seed,m\ne,1,0,1,2\nf,1,0,1,3\n", spec: Spec{X: "p", Y: "m"}, want: "several experiments (e, f)"},
		{name: "unknown metric", spec: Spec{X: "n", Y: "fct_ms", Series: "proto"}, want: "no column fct_ms"},
		{name: "y is a parameter", spec: Spec{X: "n", Y: "size", Series: "proto"}, want: "size is not a metric"},
		{name: "y is trial", spec: Spec{X: "n", Y: "trial", Series: "proto"}, want: "trial is not a metric"},
		{name: "no y", spec: Spec{X: "n"}, want: "no metric for the y axis (metrics: ajct_ms, goodput_gbps)"},
		{name: "no x", spec: Spec{Y: "ajct_ms"}, want: "no parameter for the x axis (parameters: proto, n, size)"},
		{name: "x is a metric", spec: Spec{X: "goodput_gbps", Y: "ajct_ms"}, want: "goodput_gbps is not a parameter; the x axis"},
		{name: "unknown series", spec: Spec{X: "n", Y: "ajct_ms", Series: "protocol"}, want: "no column protocol"},
		{name: "facet is seed", spec: Spec{X: "n", Y: "ajct_ms", Series: "proto", Facet: "seed"}, want: "seed is not a parameter; the facet"},
		{name: "x twice", spec: Spec{X: "n", Y: "ajct_ms", Series: "n"}, want: "n is both the x axis and the series"},
		{name: "pooled", spec: Spec{X: "n", Y: "ajct_ms"}, want: "parameter proto varies in the selected rows (zeta, alpha)"},
		{name: "where unknown", spec: Spec{X: "n", Y: "ajct_ms", Where: where("protocol=zeta")}, want: "protocol is not a parameter"},
		{name: "where absent value", spec: Spec{X: "n", Y: "ajct_ms", Where: where("proto=beta")}, want: "no selected row has proto=beta (values: zeta, alpha)"},
		{name: "empty selection", spec: Spec{X: "proto", Y: "ajct_ms", Where: []Filter{{"proto", []string{"alpha"}}, {"n", []string{"9"}}}}, want: "every selected ajct_ms value is NaN or infinite"},
		{name: "where after where", spec: Spec{X: "n", Y: "ajct_ms", Where: []Filter{{"proto", []string{"alpha"}}, {"n", []string{"11"}}}}, want: "no selected row has n=11 (values: 10, 9, 2)"},
		{name: "log y of zero", csv: constant, spec: Spec{X: "p", Y: "m_ms", LogY: true}, want: "logarithmic y axis needs positive values; small.csv line 2"},
		{name: "log x of bars", spec: Spec{X: "proto", Y: "ajct_ms", Where: where("n=10"), LogX: true}, want: "logarithmic x axis needs a line plot"},
		{name: "log x of text", spec: Spec{X: "proto", Y: "ajct_ms", Where: where("n=10"), Kind: Line, LogX: true}, want: "logarithmic x axis needs numeric proto values"},
		{name: "no extension", spec: Spec{X: "n", Y: "ajct_ms", Series: "proto"}, out: "figure", want: "no file extension"},
		{name: "pdf", spec: Spec{X: "n", Y: "ajct_ms", Series: "proto"}, out: "figure.pdf", want: "unsupported figure format .pdf (use .svg or .png)"},
		{name: "unwritable", spec: Spec{X: "n", Y: "ajct_ms", Series: "proto"}, out: filepath.Join("no-such-dir", "f.png"), want: "no such file or directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var tb *Table
			var err error
			switch {
			case tc.path != "":
				tb, err = ReadFile(tc.path)
			case tc.csv == "-":
				tb, err = ReadCSV(strings.NewReader(""), "small.csv")
			case tc.csv != "":
				tb, err = ReadCSV(strings.NewReader(tc.csv), "small.csv")
			default:
				tb, err = ReadFile(good)
			}
			if err == nil {
				var f *Figure
				f, err = Build(tb, tc.spec)
				if err == nil {
					out := tc.out
					if out == "" {
						out = "x.svg"
					}
					err = f.Save(filepath.Join(dir, out))
				}
			}
			if err == nil {
				t.Fatalf("no error, want one containing %q", tc.want)
			}
			msg := err.Error()
			if !strings.Contains(msg, tc.want) {
				t.Errorf("error %q does not contain %q", msg, tc.want)
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("error spans lines: %q", msg)
			}
		})
	}
}

func TestParseKind(t *testing.T) {
	for _, k := range []string{"line", "bar", "box", ""} {
		if got, err := ParseKind(k); err != nil || string(got) != k {
			t.Errorf("ParseKind(%q) = %q, %v", k, got, err)
		}
	}
	if _, err := ParseKind("pie"); err == nil || !strings.Contains(err.Error(), "kinds: line, bar, box") {
		t.Errorf("ParseKind(pie) = %v", err)
	}
}
