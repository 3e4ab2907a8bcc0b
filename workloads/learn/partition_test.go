package learn

import "testing"

// TestIIDPartitionUsesEveryRowOnce: with rows not a multiple of the
// workers (103 over 7: 103 = 7 x 14 + 5), every row lands in exactly one
// shard, none is dropped, and the shards differ by at most one row (five
// of 15, two of 14).
func TestIIDPartitionUsesEveryRowOnce(t *testing.T) {
	d := &Dataset{Name: "rows", Dim: 1, Classes: 2, Labels: make([]int, 160), floats: make([]float64, 160)}
	// 103 training rows, not contiguous: every row but multiples of 3, the first 103 of them.
	var idx []int
	for i := range 160 {
		if i%3 != 0 && len(idx) < 103 {
			idx = append(idx, i)
		}
	}
	for _, n := range []int{7, 2, 103} {
		sh, err := Shards(d, idx, n, PartitionIID, 0, streams(1)("p"))
		if err != nil {
			t.Fatal(err)
		}
		if len(sh) != n {
			t.Fatalf("%d workers: %d shards", n, len(sh))
		}
		seen := map[int]int{}
		big := 0
		for w, x := range sh {
			want := len(idx) / n
			if w < len(idx)%n {
				want++
				big++
			}
			if len(x) != want {
				t.Errorf("%d workers: shard %d has %d rows, want %d", n, w, len(x), want)
			}
			for _, i := range x {
				seen[i]++
			}
		}
		for _, i := range idx {
			if seen[i] != 1 {
				t.Errorf("%d workers: row %d used %d times", n, i, seen[i])
			}
		}
		if len(seen) != len(idx) {
			t.Errorf("%d workers: %d distinct rows in the shards, %d given", n, len(seen), len(idx))
		}
	}
}
