package crew

import (
	"fmt"
	"math"
	"strings"

	"syncsim/netsim"
)

// Span is the chunk indexes Lo..Hi, both included (chunks are numbered 1
// to k as in Alg. 1).
type Span struct{ Lo, Hi int }

// Block is a set of chunk indexes kept as sorted, disjoint, non-adjacent
// spans. Alg. 1 gives every block one span; Alg. 2 may split blocks into
// a few. The zero value is the empty set.
type Block []Span

// Len is the number of chunks.
func (b Block) Len() int {
	n := 0
	for _, s := range b {
		n += s.Hi - s.Lo + 1
	}
	return n
}

// Contains reports whether chunk c is in b.
func (b Block) Contains(c int) bool {
	for _, s := range b {
		if c >= s.Lo && c <= s.Hi {
			return true
		}
	}
	return false
}

// Chunks lists the chunk indexes in increasing order.
func (b Block) Chunks() []int {
	out := make([]int, 0, b.Len())
	for _, s := range b {
		for c := s.Lo; c <= s.Hi; c++ {
			out = append(out, c)
		}
	}
	return out
}

// Equal reports whether a and b hold the same chunks.
func (b Block) Equal(o Block) bool {
	if len(b) != len(o) {
		return false
	}
	for i := range b {
		if b[i] != o[i] {
			return false
		}
	}
	return true
}

// String prints spans as "1-5,9".
func (b Block) String() string {
	var sb strings.Builder
	for i, s := range b {
		if i > 0 {
			sb.WriteByte(',')
		}
		if s.Lo == s.Hi {
			fmt.Fprintf(&sb, "%d", s.Lo)
		} else {
			fmt.Fprintf(&sb, "%d-%d", s.Lo, s.Hi)
		}
	}
	return sb.String()
}

// add appends span s (which must not precede b's last span), merging
// adjacent spans.
func (b Block) add(s Span) Block {
	if s.Lo > s.Hi {
		return b
	}
	if n := len(b); n > 0 {
		if last := &b[n-1]; s.Lo <= last.Hi+1 {
			last.Hi = max(last.Hi, s.Hi)
			return b
		}
	}
	return append(b, s)
}

// Prefix returns the m smallest chunks of b.
func (b Block) Prefix(m int) Block {
	var out Block
	for _, s := range b {
		if m <= 0 {
			break
		}
		n := s.Hi - s.Lo + 1
		if n > m {
			out = append(out, Span{s.Lo, s.Lo + m - 1})
			break
		}
		out = append(out, s)
		m -= n
	}
	return out
}

// Union returns b ∪ o.
func (b Block) Union(o Block) Block {
	var out Block
	i, j := 0, 0
	for i < len(b) || j < len(o) {
		var s Span
		if j >= len(o) || (i < len(b) && b[i].Lo <= o[j].Lo) {
			s = b[i]
			i++
		} else {
			s = o[j]
			j++
		}
		out = out.add(s)
	}
	return out
}

// Intersect returns b ∩ o.
func (b Block) Intersect(o Block) Block {
	var out Block
	i, j := 0, 0
	for i < len(b) && j < len(o) {
		lo, hi := max(b[i].Lo, o[j].Lo), min(b[i].Hi, o[j].Hi)
		if lo <= hi {
			out = out.add(Span{lo, hi})
		}
		if b[i].Hi < o[j].Hi {
			i++
		} else {
			j++
		}
	}
	return out
}

// Minus returns b \ o.
func (b Block) Minus(o Block) Block {
	var out Block
	j := 0
	for _, s := range b {
		lo := s.Lo
		for j < len(o) && o[j].Hi < lo {
			j++
		}
		k := j
		for k < len(o) && o[k].Lo <= s.Hi {
			if o[k].Lo > lo {
				out = out.add(Span{lo, o[k].Lo - 1})
			}
			lo = max(lo, o[k].Hi+1)
			k++
		}
		if lo <= s.Hi {
			out = out.add(Span{lo, s.Hi})
		}
	}
	return out
}

// Chunking maps k chunks onto a model of Size bytes: chunk c (1..k) holds
// bytes [floor((c-1) Size / k), floor(c Size / k)), so chunk sizes differ
// by at most one byte and sum to Size.
type Chunking struct {
	Size netsim.Bytes
	K    int
}

// end is the byte offset where chunk c ends.
func (ch Chunking) end(c int) netsim.Bytes {
	return netsim.Bytes((int64(ch.Size) * int64(c)) / int64(ch.K))
}

// Bytes is the size of the chunks of b.
func (ch Chunking) Bytes(b Block) netsim.Bytes {
	var n netsim.Bytes
	for _, s := range b {
		n += ch.end(s.Hi) - ch.end(s.Lo-1)
	}
	return n
}

// Sent returns the chunks of b, taken in increasing order, that are
// complete once the first sent bytes of b's transfer have left (a chunk
// cut by the boundary is not).
func (ch Chunking) Sent(b Block, sent netsim.Bytes) Block {
	var out Block
	for _, s := range b {
		size := ch.end(s.Hi) - ch.end(s.Lo-1)
		if sent >= size {
			out = append(out, s)
			sent -= size
			continue
		}
		// Binary search the last chunk of s that fits in sent bytes.
		base := ch.end(s.Lo - 1)
		lo, hi := s.Lo-1, s.Hi // ch.end(lo)-base <= sent < ch.end(hi)-base
		for hi-lo > 1 {
			mid := (lo + hi) / 2
			if ch.end(mid)-base <= sent {
				lo = mid
			} else {
				hi = mid
			}
		}
		if lo >= s.Lo {
			out = append(out, Span{s.Lo, lo})
		}
		break
	}
	return out
}

// Split is a model splitting scheme C = (C_1, ..., C_n): block i holds the
// chunks scattered to (and reduced by) the i-th aggregator.
type Split []Block

// K is the total number of chunks.
func (c Split) K() int {
	n := 0
	for _, b := range c {
		n += b.Len()
	}
	return n
}

// boundaries returns B_0 = 0 <= B_1 <= ... <= B_n = k with B_i =
// floor(k (x_1 + ... + x_i)): the integer reading of Alg. 1's real bounds
// (C_i = {j : l < j <= u} holds the integers floor(l)+1 .. floor(u)). The
// last bound is set to k exactly, so float rounding of the sum cannot
// leave the last chunk without a block (the paper relies on sum x = 1);
// it is the last block of positive weight that ends at k, so blocks of
// weight 0 stay empty.
func boundaries(x []float64, k int) []int {
	B := make([]int, len(x)+1)
	last := len(x) - 1 // the last block with a positive weight
	for last > 0 && x[last] <= 0 {
		last--
	}
	y := 0.0
	for i, xi := range x {
		y += xi
		B[i+1] = min(max(int(math.Floor(y*float64(k))), B[i]), k)
		if i >= last {
			B[i+1] = k
		}
	}
	return B
}

// SplitFromScratch is Alg. 1: block i gets the consecutive chunks
// B_{i-1}+1 .. B_i, so |C_i| is within one chunk of x_i k. Weights must be
// non-negative and sum to 1 (within rounding); k > 0.
func SplitFromScratch(x []float64, k int) Split {
	B := boundaries(x, k)
	c := make(Split, len(x))
	for i := range x {
		if B[i+1] > B[i] {
			c[i] = Block{{B[i] + 1, B[i+1]}}
		}
	}
	return c
}

// Rearrange is Alg. 2: it adjusts the current scheme cur to new weights x
// moving as few chunks as it can, each at most once, and returns the new
// scheme and the number of chunks moved.
//
// Our reading of lines 4-6: the paper's d_i = |C_i| - (u - l) mixes a
// count with real bounds; we use Alg. 1's integer sizes B_i - B_{i-1}
// (see boundaries) as the targets, so the d_i are integers summing to 0,
// every block ends with exactly Alg. 1's size for x, and Alg. 2 applied to
// Alg. 1's output for the same x moves nothing. Lines 8-9 move a block's
// d_i largest indexes out to L (high indexes are the ones not sent yet,
// since chunks are sent in increasing order); lines 12-15 give each block
// that lacks chunks the -d_i smallest indexes left in L. The paper's loops
// run "for i = 0..n" over n blocks; we take i = 1..n.
func Rearrange(x []float64, cur Split) (Split, int) {
	if len(x) != len(cur) {
		panic(fmt.Sprintf("crew: Rearrange with %d weights for %d blocks", len(x), len(cur)))
	}
	k := cur.K()
	B := boundaries(x, k)
	next := make(Split, len(cur))
	d := make([]int, len(cur))
	var L Block
	moved := 0
	for i, b := range cur {
		d[i] = b.Len() - (B[i+1] - B[i])
		if d[i] > 0 {
			keep := b.Prefix(b.Len() - d[i])
			L = L.Union(b.Minus(keep))
			next[i] = keep
			moved += d[i]
		} else {
			next[i] = append(Block(nil), b...)
		}
	}
	for i := range cur {
		if d[i] < 0 {
			take := L.Prefix(-d[i])
			L = L.Minus(take)
			next[i] = next[i].Union(take)
		}
	}
	if L.Len() != 0 {
		panic("crew: Rearrange left chunks unplaced")
	}
	return next, moved
}
