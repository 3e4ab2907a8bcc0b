package plotting

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// arcPath matches an SVG path with an arc: the circle marker of the first
// series (lines and bands are straight segments).
var arcPath = regexp.MustCompile(`d="[^"]*A[^"]*"`)

// TestLongLinesHaveNoMarkers: a line of up to maxMarkers points marks
// each with a circle; a longer one, such as a time series of thousands
// of samples, is drawn as the line alone (its legend entry too), so its
// markers do not merge into a solid band.
func TestLongLinesHaveNoMarkers(t *testing.T) {
	for _, tc := range []struct{ points, circles int }{
		{3, 3}, {maxMarkers, maxMarkers}, {maxMarkers + 1, 0}, {9001, 0},
	} {
		var b strings.Builder
		b.WriteString("experiment,t_ms,trial,seed,queue_pkts\n")
		for i := range tc.points {
			fmt.Fprintf(&b, "x,%d,0,1,%d\n", i, i%7)
		}
		svg, f := render(t, b.String(), Spec{X: "t_ms", Y: "queue_pkts", Kind: Line}, "svg")
		if got := len(arcPath.FindAll(svg, -1)); got != tc.circles {
			t.Errorf("%d points: %d circles drawn, want %d", tc.points, got, tc.circles)
		}
		if want := 2 + btoi(tc.points <= maxMarkers); len(f.thumbs(0)) != want {
			t.Errorf("%d points: %d legend thumbnails, want %d", tc.points, len(f.thumbs(0)), want)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
