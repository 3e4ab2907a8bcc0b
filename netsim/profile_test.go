package netsim

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestMakespanLongestFirst: partitions placed longest first onto the
// least loaded core, worked by hand: 5, 4, 3, 3, 1 on two cores go
// 5 | 4, 5 | 7, 8 | 7, 8 | 8, so the window takes 8; on more cores than
// partitions it takes the longest one.
func TestMakespanLongestFirst(t *testing.T) {
	jobs := []uint64{5, 4, 3, 3, 1}
	for _, c := range []struct {
		cores int
		want  uint64
	}{{1, 16}, {2, 8}, {3, 6}, {5, 5}, {8, 5}} {
		if got := makespan(jobs, c.cores); got != c.want {
			t.Errorf("makespan on %d cores = %d, want %d", c.cores, got, c.want)
		}
	}
}

// TestProfileHeaviest: the partitions that bound the speedup are listed
// by CPU, events breaking ties, and printed with their multiples of the
// mean partition.
func TestProfileHeaviest(t *testing.T) {
	pf := &Profile{Partitions: 4, Windows: 1, Labels: []string{"a", "b", "c", "d"},
		PartCPU:    []time.Duration{1, 5, 3, 5},
		PartEvents: []uint64{9, 1, 1, 5}, Events: 16, Work: 14}
	if got := pf.Heaviest(3); !slices.Equal(got, []int{3, 1, 2}) {
		t.Fatalf("Heaviest(3) = %v, want [3 1 2]", got)
	}
	if got := pf.Heaviest(9); len(got) != 4 {
		t.Fatalf("Heaviest(9) = %v, want all 4", got)
	}
	var b strings.Builder
	pf.Write(&b)
	// d: 5 of a mean 3.5 CPU, 5 of a mean 4 events.
	if want := "heaviest partitions, CPU / events x the mean: d 1.43 / 1.25, b 1.43 / 0.25, c 0.86 / 0.25, a 0.29 / 2.25"; !strings.Contains(b.String(), want) {
		t.Fatalf("profile lacks %q:\n%s", want, b.String())
	}
}
