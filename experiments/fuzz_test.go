package experiments

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzExp has a parameter of every kind, with special values, a former
// name, a former value and a relevance condition.
func fuzzExp() *Experiment {
	return &Experiment{
		Name: "fuzz", Summary: "s",
		Params: []Param{
			IntParam("n", 4, 1, 64, "h"),
			FloatParam("load", 0.5, 0, 1, "h"),
			FloatParam("warmup_ms", -1, -1, 1e6, "h").Auto("-1", "10% of the run"),
			EnumParam("mode", "fast", []string{"fast", "slow"}, "h").WasValue("quick", "fast"),
			BoolParam("ecn", true, "h"),
			TextParam("file", "", "h").OnlyWhen("mode", "slow"),
			FloatParam("mem_mib", 1, 0.001, 10, "h").Was("mem_mb"),
		},
		Run: func(*Run) (*Result, error) { return nil, nil },
	}
}

// FuzzParseValue: any text is either refused or turned into a canonical
// value that parses to itself and lies in range.
func FuzzParseValue(f *testing.F) {
	for _, s := range []string{"1", "-0", "1_0", "0x10", "1e3", ".5", "+.5e-1", "quick", "true", "1", "a,b", "Inf", "NaN", "\x00", " 7 "} {
		f.Add(uint8(0), s)
		f.Add(uint8(1), s)
	}
	e := fuzzExp()
	f.Fuzz(func(t *testing.T, which uint8, text string) {
		p := e.Params[int(which)%len(e.Params)]
		v, err := p.parse(text)
		if err != nil {
			return
		}
		again, err := p.parse(v)
		if err != nil || again != v {
			t.Fatalf("%s: %q gave %q, which parses to %q (%v)", p.Name, text, v, again, err)
		}
		if (p.Kind == Int || p.Kind == Float) && (!decimalReal.MatchString(v) || v == "-0") {
			t.Fatalf("%s: canonical %q is not plain decimal", p.Name, v)
		}
	})
}

// FuzzExpand: any --set and --vary lists either fail with an error or
// give a grid whose points are distinct, canonical and found again.
func FuzzExpand(f *testing.F) {
	f.Add("n=2\nload=0.25", "mode=fast,slow\nload=0:1:0.25")
	f.Add("", "n=1:64:1\nload=0,-0")
	f.Add("mem_mb=2", "")
	f.Add("warmup_ms=-1", "n=3,03")
	f.Add("file=x", "mode=slow")
	e := fuzzExp()
	f.Fuzz(func(t *testing.T, sets, varies string) {
		split := func(s string) []string {
			if s == "" {
				return nil
			}
			return strings.Split(s, "\n")
		}
		g, err := Expand(e, split(sets), split(varies))
		if err != nil {
			return
		}
		if g.Len() < 1 || g.Len() > MaxGridPoints {
			t.Fatalf("grid of %d points", g.Len())
		}
		_ = g.CheckRelevance(AxisNames(g.Axes()))
		seen := map[string]bool{}
		for _, i := range []int{0, g.Len() / 2, g.Len() - 1} {
			ps := g.Point(i)
			for _, p := range e.Params {
				if v, err := p.parse(ps.Text(p.Name)); err != nil || v != ps.Text(p.Name) {
					t.Fatalf("point %d: %s=%q is not canonical", i, p.Name, ps.Text(p.Name))
				}
			}
			if j, ok := g.Find(ps.Values()); !ok || (j != i && !seen[strings.Join(ps.Values(), ",")]) {
				t.Fatalf("point %d found at %d (%v)", i, j, ok)
			}
			seen[strings.Join(ps.Values(), ",")] = true
		}
	})
}

// FuzzResume: any file content given to --resume is either refused,
// untouched, or accepted as a prefix of the sweep's rows; the file is
// then cut at a row boundary and never grows.
func FuzzResume(f *testing.F) {
	e := fuzzExp()
	h := strings.Join(CSVHeader(e, false), ",") + "\n"
	row := func(n, trial, seed string) string {
		return "fuzz," + n + ",0.5,-1,fast,true,,1," + trial + "," + seed + "\n"
	}
	f.Add([]byte(""))
	f.Add([]byte(h))
	f.Add([]byte(h + row("1", "0", "1") + row("1", "1", "2") + row("2", "0", "1")))
	f.Add([]byte(h + row("1", "0", "1") + "fuzz,1,0.5"))
	f.Add([]byte(h + row("2", "0", "1")))
	f.Add([]byte(h + "fuzz,\"1\n\",0.5\n"))
	f.Add([]byte("x"))
	g, err := Expand(e, nil, []string{"n=1,2"})
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "r.csv")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		sw := &Sweep{Grid: g, Seed: 1, Trials: 2, Keep: true}
		fh, rs, header, err := OpenResume(path, sw, nil)
		after, _ := os.ReadFile(path)
		if err != nil {
			if string(after) != string(data) {
				t.Fatalf("a refused file was changed")
			}
			return
		}
		fh.Close()
		if !strings.HasPrefix(string(data), string(after)) {
			t.Fatalf("the kept file is not a prefix of the original")
		}
		if header != (len(data) == 0) || rs.Rows() > 4 || len(rs.Records()) != rs.Rows() {
			t.Fatalf("header %v rows %d records %d", header, rs.Rows(), len(rs.Records()))
		}
		if n := strings.Count(string(after), "\n"); len(data) > 0 && n != rs.Rows()+1 {
			t.Fatalf("kept %d lines for %d rows", n, rs.Rows())
		}
	})
}
