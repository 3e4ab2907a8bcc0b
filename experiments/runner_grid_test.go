package experiments

import (
	"strconv"
	"strings"
	"testing"
)

func TestExpandOrder(t *testing.T) {
	e := toyExperiment()
	g, err := Expand(e, []string{"load=0.125"}, []string{"mode=slow,fast", "n=3,1,2"})
	if err != nil {
		t.Fatal(err)
	}
	pts := all(g)
	if got := strings.Join(AxisNames(g.Axes()), ","); got != "mode,n" {
		t.Errorf("axes %s", got)
	}
	var got []string
	for _, p := range pts {
		got = append(got, p.Text("mode")+"/"+p.Text("n")+"/"+p.Text("load"))
	}
	want := "slow/3/0.125 slow/1/0.125 slow/2/0.125 fast/3/0.125 fast/1/0.125 fast/2/0.125"
	if strings.Join(got, " ") != want {
		t.Errorf("grid %v, want %s (first --vary outermost, values in given order)", got, want)
	}
}

func TestExpandCanonicalisesValues(t *testing.T) {
	e := toyExperiment()
	g, err := Expand(e, nil, []string{"load=0.50,1e-1", "n=007"})
	if err != nil {
		t.Fatal(err)
	}
	pts := all(g)
	if len(pts) != 2 || pts[0].Text("load") != "0.5" || pts[1].Text("load") != "0.1" || pts[0].Text("n") != "7" {
		t.Errorf("points %v %v", pts[0].Values(), pts[1].Values())
	}
}

func TestExpandRanges(t *testing.T) {
	e := toyExperiment()
	for _, tc := range []struct{ spec, want string }{
		{"load=0.1:0.5:0.2", "0.1 0.3 0.5"},
		{"load=0:0.3:0.1", "0 0.1 0.2 0.3"},
		{"load=0.9,0:0.2:0.1", "0.9 0 0.1 0.2"},
		{"n=2:9:3", "2 5 8"},
		{"n=1:1:1,4", "1 4"},
	} {
		ax, err := ParseAxis(e, tc.spec)
		if err != nil {
			t.Errorf("%s: %v", tc.spec, err)
			continue
		}
		if got := strings.Join(ax.Values, " "); got != tc.want {
			t.Errorf("%s = %s, want %s", tc.spec, got, tc.want)
		}
	}
	for _, tc := range []struct{ spec, want string }{
		{"load=0.5:0.1:0.1", "empty range"},
		{"load=0:1:0", "empty range"},
		{"load=0:1", "malformed range"},
		{"load=0:x:1", `"x" is not a finite number`},
		{"n=1:3:0.5", "not an integer"},
		{"n=60:70:5", "out of range"},
		{"n=1:4:1,3", "twice"},
		{"mode=a:b:c", "one of fast|slow|undef"},
		{"load=0:1:1e-9", "more than"},
	} {
		if _, err := ParseAxis(e, tc.spec); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.spec, err, tc.want)
		}
	}
}

func TestExpandNoAxesIsBasePoint(t *testing.T) {
	e := toyExperiment()
	g, err := Expand(e, []string{"n=9"}, nil)
	if err != nil || g.Len() != 1 || len(g.Axes()) != 0 || g.Point(0).Int("n") != 9 {
		t.Errorf("grid %v err %v", g, err)
	}
}

func TestExpandErrors(t *testing.T) {
	for _, tc := range []struct {
		name        string
		sets, vary  []string
		wantInError []string
	}{
		{"unknown vary key", nil, []string{"nope=1,2"}, []string{`"nope"`, "n, load, mode"}},
		{"unknown set key", []string{"nope=1"}, nil, []string{`"nope"`}},
		{"vary without =", nil, []string{"n"}, []string{"malformed", "key=v1,v2"}},
		{"vary without values", nil, []string{"n="}, []string{"malformed"}},
		{"empty value in list", nil, []string{"n=1,,2"}, []string{"empty value"}},
		{"malformed value", nil, []string{"n=1,two"}, []string{"n=", "not an integer", "[1, 64]"}},
		{"out of range", nil, []string{"load=0.5,1.5"}, []string{"out of range", "[0, 1]"}},
		{"bad enum", nil, []string{"mode=fast,warp"}, []string{"fast|slow|undef"}},
		{"duplicate key", nil, []string{"n=1,2", "n=3"}, []string{"varied twice"}},
		{"set and varied", []string{"n=2"}, []string{"n=1,3"}, []string{"both set and varied"}},
		{"duplicate canonical value", nil, []string{"n=4,04"}, []string{"twice"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Expand(toyExperiment(), tc.sets, tc.vary)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.wantInError {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestExpandRejectsHugeGrid(t *testing.T) {
	e := toyExperiment()
	var ns, loads []string
	for i := 1; i <= 64; i++ {
		ns = append(ns, strconv.Itoa(i))
	}
	for i := 0; i < 1000; i++ {
		loads = append(loads, strconv.FormatFloat(float64(i)/1000, 'g', -1, 64))
	}
	list := strings.Join(ns, ",")
	// 64 * 64 * 64 * 1000 points: refused before any is built.
	_, err := Expand(e, nil, []string{"n=" + list, "fail_n=" + list, "panic_n=" + list, "load=" + strings.Join(loads, ",")})
	if err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("err = %v", err)
	}
}

// all returns every point of g in grid order.
func all(g *Grid) []Params {
	out := make([]Params, g.Len())
	for i := range out {
		out[i] = g.Point(i)
	}
	return out
}
