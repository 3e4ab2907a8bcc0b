package crew

// chunkSet is a set of chunk indexes 1..k as a bitset: the results a
// member holds, touched once per chunk of every partial reduce.
type chunkSet struct {
	w []uint64
	n int
}

func newChunkSet(k int) chunkSet { return chunkSet{w: make([]uint64, k/64+1)} }

// Len is the number of chunks in the set.
func (s *chunkSet) Len() int { return s.n }

func (s *chunkSet) has(c int) bool { return s.w[c>>6]&(1<<(c&63)) != 0 }

// add adds the chunks of b and returns those that were already in the
// set.
func (s *chunkSet) add(b Block) (dup Block) {
	for _, sp := range b {
		for c := sp.Lo; c <= sp.Hi; c++ {
			if s.has(c) {
				dup = dup.add(Span{c, c})
				continue
			}
			s.w[c>>6] |= 1 << (c & 63)
			s.n++
		}
	}
	return dup
}

// from returns the chunks of b not in the set.
func (s *chunkSet) from(b Block) Block {
	var out Block
	for _, sp := range b {
		for c := sp.Lo; c <= sp.Hi; c++ {
			if !s.has(c) {
				out = out.add(Span{c, c})
			}
		}
	}
	return out
}

// merge adds o to *b, in place when o follows b's last chunk (streams
// deliver in order). *b must not share storage with another Block.
func (b *Block) merge(o Block) {
	if len(o) == 1 && (len(*b) == 0 || o[0].Lo > (*b)[len(*b)-1].Hi) {
		*b = b.add(o[0])
		return
	}
	*b = b.Union(o)
}

// subtract removes o from *b, in place when o is b's first chunks.
func (b *Block) subtract(o Block) {
	if len(o) == 1 && len(*b) > 0 && o[0].Lo == (*b)[0].Lo && o[0].Hi <= (*b)[0].Hi {
		if o[0].Hi == (*b)[0].Hi {
			*b = (*b)[1:]
		} else {
			(*b)[0].Lo = o[0].Hi + 1
		}
		return
	}
	*b = b.Minus(o)
}

// overlaps reports whether b and o share a chunk.
func (b Block) overlaps(o Block) bool {
	i, j := 0, 0
	for i < len(b) && j < len(o) {
		if max(b[i].Lo, o[j].Lo) <= min(b[i].Hi, o[j].Hi) {
			return true
		}
		if b[i].Hi < o[j].Hi {
			i++
		} else {
			j++
		}
	}
	return false
}

// within reports whether every chunk of o is in b.
func (b Block) within(o Block) bool {
	if len(o) == 1 && len(b) == 1 {
		return o[0].Lo >= b[0].Lo && o[0].Hi <= b[0].Hi
	}
	return o.Minus(b).Len() == 0
}
