package plotting

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dumpDir, if set, keeps the edge-case figures for a look.
var dumpDir = ""

func init() { flag.StringVar(&dumpDir, "dump", "", "write the edge-case figures into this directory") }

// TestEdgeCasesDraw draws awkward tables in every kind and format: one
// row, one x value, a constant metric, negative and huge values, more
// series than colours, five facets, long category names, infinite x.
// Each must draw without a panic (a panic fails the test).
func TestEdgeCasesDraw(t *testing.T) {
	many := func(series, facets, xs int, name func(int) string, val func(s, f, x int) string) string {
		var b strings.Builder
		b.WriteString("experiment,s,f,x,trial,seed,m_ms\n")
		for f := range facets {
			for s := range series {
				for x := range xs {
					fmt.Fprintf(&b, "e,%d,%d,%s,0,1,%s\n", s, f, name(x), val(s, f, x))
				}
			}
		}
		return b.String()
	}
	num := func(x int) string { return fmt.Sprint(x + 1) }
	tests := []struct {
		name string
		csv  string
		spec Spec
	}{
		{"one row", "experiment,x,trial,seed,m_ms\ne,1,0,1,3\n", Spec{X: "x", Y: "m_ms"}},
		{"constant", many(1, 1, 4, num, func(int, int, int) string { return "7" }), Spec{X: "x", Y: "m_ms"}},
		{"zero", many(1, 1, 4, num, func(int, int, int) string { return "0" }), Spec{X: "x", Y: "m_ms"}},
		{"negative", many(2, 1, 4, num, func(s, _, x int) string { return fmt.Sprint(-x*s - 1) }), Spec{X: "x", Y: "m_ms", Series: "s"}},
		{"huge", many(2, 1, 3, num, func(s, _, x int) string { return fmt.Sprintf("%de300", x+s+1) }), Spec{X: "x", Y: "m_ms", Series: "s"}},
		{"tiny", many(2, 1, 3, num, func(s, _, x int) string { return fmt.Sprintf("%de-300", x+s+1) }), Spec{X: "x", Y: "m_ms", Series: "s"}},
		{"twelve series", many(12, 1, 3, num, func(s, _, x int) string { return fmt.Sprint(s + x) }), Spec{X: "x", Y: "m_ms", Series: "s"}},
		{"five facets", many(2, 5, 3, num, func(s, f, x int) string { return fmt.Sprint(s + f + x) }), Spec{X: "x", Y: "m_ms", Series: "s", Facet: "f"}},
		{"long names", many(1, 1, 8, func(x int) string { return strings.Repeat("strawasyn-", 3) + fmt.Sprint(x) }, func(_, _, x int) string { return fmt.Sprint(x) }), Spec{X: "x", Y: "m_ms"}},
		{"forty x", many(1, 1, 40, num, func(_, _, x int) string { return fmt.Sprint(x * x) }), Spec{X: "x", Y: "m_ms"}},
		{"infinite x", "experiment,x,trial,seed,m_ms\ne,1,0,1,3\ne,Inf,0,1,4\n", Spec{X: "x", Y: "m_ms"}},
		{"log one x", "experiment,x,trial,seed,m_ms\ne,4,0,1,3\n", Spec{X: "x", Y: "m_ms", LogX: true, LogY: true}},
	}
	for _, tc := range tests {
		for _, kind := range Kinds {
			for _, format := range []string{"svg", "png"} {
				if format == "png" && kind != Line {
					continue // the PNG canvas is slow; one kind shows it copes
				}
				t.Run(tc.name+"/"+string(kind)+"/"+format, func(t *testing.T) {
					s := tc.spec
					s.Kind = kind
					if kind != Line && s.LogX {
						s.LogX = false
					}
					f, err := Build(mustTable(t, tc.csv), s)
					if err != nil {
						t.Fatal(err)
					}
					w := io.Discard
					if dumpDir != "" {
						file, err := os.Create(filepath.Join(dumpDir, strings.ReplaceAll(t.Name(), "/", "_")+"."+format))
						if err != nil {
							t.Fatal(err)
						}
						defer file.Close()
						w = file
					}
					if err := f.Write(w, format); err != nil {
						t.Fatal(err)
					}
				})
			}
		}
	}
}
