package plotting

import (
	"strings"
	"testing"
)

// TestPoolingFollowsTheCells: a parameter the figure does not show may
// vary if it takes one value in every (x, series) cell (a timer rule that
// follows the protocol: nothing is pooled), and is refused as soon as
// one cell holds two of its values.
func TestPoolingFollowsTheCells(t *testing.T) {
	const follows = "experiment,proto,n,timer,trial,seed,m\n" +
		"e,atp,1,fixed,0,1,2\ne,atp,1,fixed,1,2,3\ne,pa,1,doubled,0,1,4\ne,pa,1,doubled,1,2,5\n" +
		"e,atp,2,fixed,0,1,2\ne,pa,2,doubled,0,1,4\n"
	tb, err := ReadCSV(strings.NewReader(follows), "follows.csv")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Build(tb, Spec{X: "n", Y: "m", Series: "proto"}); err != nil {
		t.Errorf("timer follows the series: %v", err)
	}
	if _, err := Build(tb, Spec{X: "n", Y: "m"}); err == nil || !strings.Contains(err.Error(), "parameter proto varies") {
		t.Errorf("no series: err = %v, want proto refused", err)
	}
	mixed := strings.Replace(follows, "e,pa,1,doubled,1,2,5", "e,pa,1,fixed,1,2,5", 1)
	tb, err = ReadCSV(strings.NewReader(mixed), "mixed.csv")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Build(tb, Spec{X: "n", Y: "m", Series: "proto"}); err == nil || !strings.Contains(err.Error(), "parameter timer varies in the selected rows (fixed, doubled)") {
		t.Errorf("two timers in one cell: err = %v, want timer refused", err)
	}
}
