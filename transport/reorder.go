package transport

import "math/bits"

// segSet is the receiver's out-of-order buffer: the set of segment indices
// received above the next expected one, as a power-of-two ring bitmap.
// Index i lives at bit i mod capacity; every member lies in
// [base, base+capacity) where base is the receiver's next expected segment,
// so positions never alias. The ring grows by doubling and is reused, so
// the steady state allocates nothing.
type segSet struct {
	words []uint64
	n     int // members
}

func (s *segSet) capacity() int64 { return int64(len(s.words)) * 64 }

// add inserts segment i (> base) and reports whether it was new.
func (s *segSet) add(base, i int64) bool {
	if i-base >= s.capacity() {
		s.grow(base, i)
	}
	pos := i & (s.capacity() - 1)
	w, b := pos>>6, uint64(1)<<(pos&63)
	if s.words[w]&b != 0 {
		return false
	}
	s.words[w] |= b
	s.n++
	return true
}

// take removes segment i and reports whether it was present.
func (s *segSet) take(i int64) bool {
	if s.n == 0 {
		return false
	}
	pos := i & (s.capacity() - 1)
	w, b := pos>>6, uint64(1)<<(pos&63)
	if s.words[w]&b == 0 {
		return false
	}
	s.words[w] &^= b
	s.n--
	return true
}

// grow enlarges the ring so that i fits, keeping members at their indices.
func (s *segSet) grow(base, i int64) {
	need := uint64(i-base) + 1
	c := uint64(128)
	if need > c {
		c = uint64(1) << bits.Len64(need-1)
	}
	if c < 2*uint64(s.capacity()) {
		c = 2 * uint64(s.capacity())
	}
	nw := make([]uint64, c/64)
	old, oc := s.words, s.capacity()
	for pos := int64(0); pos < oc && s.n > 0; pos++ {
		if old[pos>>6]&(1<<(pos&63)) == 0 {
			continue
		}
		j := base + ((pos - base) & (oc - 1)) // the member stored at pos
		np := j & int64(c-1)
		nw[np>>6] |= 1 << (np & 63)
	}
	s.words = nw
}
