package transport

// span is the half-open byte range [s, e) of the stream.
type span struct{ s, e int64 }

// spanSet is the receiver's out-of-order buffer: the byte ranges received
// above the next expected byte, as sorted, disjoint, non-touching spans.
// Segments may start anywhere (a persistent connection's message ends
// need not fall on MSS boundaries, and a retransmission may straddle the
// original segments), so ranges rather than segment indices are kept.
// Arrivals after a hole extend the last span, and repairs drain from the
// front, so both are O(1) in the common case; the slice is reused, so the
// steady state allocates nothing.
type spanSet struct {
	iv []span // members are iv[h:]
	h  int
}

// len is the number of spans held.
func (x *spanSet) len() int { return len(x.iv) - x.h }

// bytes is the number of bytes held.
func (x *spanSet) bytes() int64 {
	var n int64
	for _, v := range x.iv[x.h:] {
		n += v.e - v.s
	}
	return n
}

// add inserts [s, e), merging it with the spans it overlaps or touches.
func (x *spanSet) add(s, e int64) {
	if e <= s {
		return
	}
	// i: the first span that ends at or after s (it may touch or
	// overlap the new one, or lie wholly after it).
	i := len(x.iv)
	for i > x.h && x.iv[i-1].e >= s {
		i--
	}
	k := i
	for k < len(x.iv) && x.iv[k].s <= e {
		s, e = min(s, x.iv[k].s), max(e, x.iv[k].e)
		k++
	}
	switch {
	case k == i: // no neighbour: insert at i
		if x.h > 0 && len(x.iv) == cap(x.iv) {
			n := copy(x.iv, x.iv[x.h:])
			x.iv = x.iv[:n]
			i -= x.h
			x.h = 0
		}
		x.iv = append(x.iv, span{})
		copy(x.iv[i+1:], x.iv[i:])
		x.iv[i] = span{s, e}
	default: // merged into iv[i], spans i+1..k-1 absorbed
		x.iv[i] = span{s, e}
		n := copy(x.iv[i+1:], x.iv[k:])
		x.iv = x.iv[:i+1+n]
	}
}

// advance absorbs every span that starts at or before nxt, the next
// expected byte, and returns the new next expected byte.
func (x *spanSet) advance(nxt int64) int64 {
	for x.h < len(x.iv) && x.iv[x.h].s <= nxt {
		nxt = max(nxt, x.iv[x.h].e)
		x.h++
	}
	if x.h == len(x.iv) {
		x.iv, x.h = x.iv[:0], 0
	}
	return nxt
}
