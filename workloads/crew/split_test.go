package crew

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"syncsim/netsim"
)

// randomWeights draws n non-negative weights summing to 1, some of them
// zero when zeros is set.
func randomWeights(r *rand.Rand, n int, zeros bool) []float64 {
	x := make([]float64, n)
	sum := 0.0
	for i := range x {
		if zeros && r.IntN(4) == 0 {
			continue
		}
		x[i] = r.Float64()
		sum += x[i]
	}
	if sum == 0 {
		x[0], sum = 1, 1
	}
	for i := range x {
		x[i] /= sum
	}
	return x
}

// owners maps every chunk to its block, failing on a chunk in two blocks
// or in none.
func owners(t *testing.T, c Split, k int) []int {
	t.Helper()
	own := make([]int, k+1)
	for i := range own {
		own[i] = -1
	}
	for i, b := range c {
		for j := 1; j < len(b); j++ {
			if b[j].Lo <= b[j-1].Hi+1 {
				t.Fatalf("block %d spans not sorted, disjoint and non-adjacent: %v", i, b)
			}
		}
		for _, ch := range b.Chunks() {
			if ch < 1 || ch > k {
				t.Fatalf("chunk %d out of 1..%d", ch, k)
			}
			if own[ch] != -1 {
				t.Fatalf("chunk %d in blocks %d and %d", ch, own[ch], i)
			}
			own[ch] = i
		}
	}
	for ch := 1; ch <= k; ch++ {
		if own[ch] == -1 {
			t.Fatalf("chunk %d in no block", ch)
		}
	}
	return own
}

func checkSizes(t *testing.T, c Split, x []float64, k int) {
	t.Helper()
	for i, b := range c {
		if d := float64(b.Len()) - x[i]*float64(k); d <= -1 || d >= 1 {
			t.Fatalf("block %d has %d chunks, x k = %v", i, b.Len(), x[i]*float64(k))
		}
	}
}

// TestAlg1: every chunk in exactly one block, blocks consecutive and in
// order, sizes within one chunk of x_i k.
func TestAlg1(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 300; trial++ {
		n := 1 + r.IntN(60)
		k := 1 + r.IntN(2000)
		x := randomWeights(r, n, trial%2 == 0)
		t.Run(fmt.Sprintf("n%d/k%d", n, k), func(t *testing.T) {
			c := SplitFromScratch(x, k)
			own := owners(t, c, k)
			checkSizes(t, c, x, k)
			if !slices.IsSorted(own[1:]) {
				t.Fatal("Alg. 1 blocks are not consecutive segments in order")
			}
		})
	}
	// Float sums that fall short of 1 still place the last chunk.
	c := SplitFromScratch([]float64{0.1, 0.2, 0.3, 0.4 - 1e-15}, 10)
	owners(t, c, 10)
}

// TestAlg2: Alg. 2 keeps a partition, reaches Alg. 1's sizes for the new
// weights, moves each chunk at most once and only the highest indexes of
// a shrinking block, moves the minimum number of chunks, and changes
// nothing when applied to Alg. 1's output for the same weights.
func TestAlg2(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 300; trial++ {
		n := 1 + r.IntN(60)
		k := n + r.IntN(3000)
		x0 := randomWeights(r, n, trial%3 == 0)
		x1 := randomWeights(r, n, trial%2 == 0)
		t.Run(fmt.Sprintf("n%d/k%d", n, k), func(t *testing.T) {
			c0 := SplitFromScratch(x0, k)
			same, moved := Rearrange(x0, c0)
			if moved != 0 || !slices.EqualFunc(same, c0, Block.Equal) {
				t.Fatalf("Alg. 2 on Alg. 1's output for the same x moved %d chunks", moved)
			}
			// A chain of rearrangements, as non-blocking scatter meets
			// successive plans.
			cur, curX := c0, x0
			for step := 0; step < 3; step++ {
				x := x1
				if step > 0 {
					x = randomWeights(r, n, step == 2)
				}
				before := owners(t, cur, k)
				next, moved := Rearrange(x, cur)
				after := owners(t, next, k)
				want := SplitFromScratch(x, k)
				minMoves := 0
				for i := range next {
					if next[i].Len() != want[i].Len() {
						t.Fatalf("block %d has %d chunks, Alg. 1 gives %d", i, next[i].Len(), want[i].Len())
					}
					minMoves += max(0, cur[i].Len()-want[i].Len())
				}
				checkSizes(t, next, x, k)
				changed := 0
				minLeft := make([]int, n) // smallest chunk that left block i
				maxStay := make([]int, n) // largest chunk that stayed in it
				for i := range minLeft {
					minLeft[i] = k + 1
				}
				for ch := 1; ch <= k; ch++ {
					if before[ch] == after[ch] {
						maxStay[before[ch]] = ch
						continue
					}
					changed++
					minLeft[before[ch]] = min(minLeft[before[ch]], ch)
				}
				// A chunk leaves a block only if all of the block's
				// higher chunks left too.
				for i := range minLeft {
					if minLeft[i] <= k && maxStay[i] > minLeft[i] {
						t.Fatalf("chunk %d left block %d while higher chunk %d stayed", minLeft[i], i, maxStay[i])
					}
				}
				if changed != moved || moved != minMoves {
					t.Fatalf("moved %d, changed owner %d, minimum %d", moved, changed, minMoves)
				}
				cur, curX = next, x
			}
			_ = curX
		})
	}
}

// naive set helpers for the Block operations' test.
func toSet(b Block) map[int]bool {
	m := map[int]bool{}
	for _, c := range b.Chunks() {
		m[c] = true
	}
	return m
}

func fromSet(m map[int]bool) Block {
	var cs []int
	for c := range m {
		cs = append(cs, c)
	}
	slices.Sort(cs)
	var b Block
	for _, c := range cs {
		b = b.add(Span{c, c})
	}
	return b
}

func randomBlock(r *rand.Rand, k int) Block {
	m := map[int]bool{}
	for c := 1; c <= k; c++ {
		if r.IntN(3) == 0 {
			m[c] = true
		}
	}
	return fromSet(m)
}

func TestBlockOps(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for trial := 0; trial < 500; trial++ {
		a, b := randomBlock(r, 40), randomBlock(r, 40)
		sa, sb := toSet(a), toSet(b)
		u, in, mi := map[int]bool{}, map[int]bool{}, map[int]bool{}
		for c := range sa {
			u[c] = true
			if sb[c] {
				in[c] = true
			} else {
				mi[c] = true
			}
		}
		for c := range sb {
			u[c] = true
		}
		if got := a.Union(b); !got.Equal(fromSet(u)) {
			t.Fatalf("%v ∪ %v = %v", a, b, got)
		}
		if got := a.Intersect(b); !got.Equal(fromSet(in)) {
			t.Fatalf("%v ∩ %v = %v", a, b, got)
		}
		if got := a.Minus(b); !got.Equal(fromSet(mi)) {
			t.Fatalf("%v \\ %v = %v", a, b, got)
		}
		m := r.IntN(a.Len() + 2)
		if got, want := a.Prefix(m).Chunks(), a.Chunks()[:min(m, a.Len())]; !slices.Equal(got, want) {
			t.Fatalf("prefix %d of %v = %v", m, a, got)
		}
	}
}

// TestChunking: chunk sizes differ by at most a byte and sum to the model;
// Sent counts exactly the chunks whose last byte has left.
func TestChunking(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for trial := 0; trial < 200; trial++ {
		k := 1 + r.IntN(50)
		ch := Chunking{Size: netsim.Bytes(k + r.IntN(10000)), K: k}
		all := Block{{1, k}}
		if ch.Bytes(all) != ch.Size {
			t.Fatalf("chunks sum to %d, model %d", ch.Bytes(all), ch.Size)
		}
		b := randomBlock(r, k)
		sizes := []netsim.Bytes{}
		for _, c := range b.Chunks() {
			sizes = append(sizes, ch.Bytes(Block{{c, c}}))
		}
		total := ch.Bytes(b)
		sent := netsim.Bytes(0)
		if total > 0 {
			sent = netsim.Bytes(r.Int64N(int64(total) + 1))
		}
		// Naive: walk chunks in order.
		var want []int
		acc := netsim.Bytes(0)
		for i, c := range b.Chunks() {
			acc += sizes[i]
			if acc > sent {
				break
			}
			want = append(want, c)
		}
		if got := ch.Sent(b, sent).Chunks(); !slices.Equal(got, want) {
			t.Fatalf("k %d size %d block %v sent %d: got %v want %v", k, ch.Size, b, sent, got, want)
		}
	}
}
