package netsim

import "fmt"

// Lending packets across partitions. On a partitioned network the
// partitions' pools cut their chunks in one table they share, each in a
// stretch of its own (lendChunks entries from partition h's first chunk
// h*lendChunks), so a reference names one body whichever pool resolves
// it, with the same two look-ups as on an unpartitioned Sim. A packet
// handed to a link that crosses partitions is therefore not copied: the
// crossing record carries the descriptor, the receiving partition queues
// the descriptor on the link, and the body stays where its home pool cut
// it. Whoever consumes the packet reads the body through its own pool; a
// receiver may also reuse the body (an ACK made from the data packet)
// and send it on, across further partitions.
//
// Nothing but the holder touches a lent body: the home partition forgot
// it when it posted it (a packet on a link is on no pool's free list),
// and a window's partitions run apart, so a body moves between threads
// only across barriers. The partition that frees a packet lent to it
// (PacketPool.Put) does not touch the home's free list, which the home
// may be using at that moment: it appends the reference to its return
// box for the home, ret[w][home*P+self], in a window of parity w; the
// home takes the references of its boxes of parity w back onto its free
// list when its next window starts, in source order, the same way at
// every thread count. A returned body is thus reused in the window after
// the one that freed it at the earliest, never while another partition
// can still hold it.
//
// The shared table has a fixed length (no pool reslices it after
// Partition), and a partition writes only the entries of its own
// stretch, when it cuts a chunk, before any packet of the chunk can be
// lent; the lending happens across a barrier. So reading an entry
// another partition wrote races with nothing.

// lending is the state the partitions' pools share.
type lending struct {
	// chunks is the shared chunk table.
	chunks [][]Packet
	// stride is the number of chunks of each partition's stretch.
	stride int
	// ret[w][h*P+c]: references of partition h's packets that partition
	// c freed in a window of parity w (or between windows, with w the
	// parity of the last one).
	ret [2][][]uint32
	// freed[w][c] is set when partition c filled any box of parity w, so
	// that a home looks at P flags, not P boxes, when nothing came back
	// (the common case: an ACK goes home in the data packet's body).
	// Partition c clears it when its next window of parity w starts,
	// after the homes read the boxes.
	freed [2][]bool
}

// maxLendChunks bounds a partition's stretch of the shared chunk table:
// 255 chunks are about 8 M packets (1.3 GB), more than a partition holds
// at once; the table costs 24 bytes a chunk, which the collector scans.
const maxLendChunks = 1<<8 - 1

// MaxPartitions bounds the partitions of one network: their packets are
// numbered in shares of 32 bits.
const MaxPartitions = 1 << 12

// initLending gives the partitions' pools their stretches of one shared
// chunk table. The partitions' pools must be empty. A single partition
// lends nothing and keeps a pool of its own.
func (pr *parallel) initLending() {
	P := len(pr.parts)
	if P == 1 {
		return
	}
	stride := min(maxChunks/P, maxLendChunks)
	ln := &lending{chunks: make([][]Packet, P*stride), stride: stride}
	for w := range ln.ret {
		ln.ret[w] = make([][]uint32, P*P)
		ln.freed[w] = make([]bool, P)
	}
	for i, s := range pr.parts {
		pp := &s.pool
		if pp.created != 0 {
			panic("netsim: a partition's pool was used before Partition")
		}
		pp.chunks, pp.first, pp.nchunks = ln.chunks, i*stride, 0
		pp.base = uint32(i*stride) << chunkShift
		pp.xspan = ^(uint32(stride) << chunkShift)
		pp.par, pp.home = pr, i
	}
	pr.lend = ln
}

// putLent frees p, which is not this pool's: a packet lent by another
// partition goes into the return box for its home; a packet from no pool
// is left to the collector.
func (pp *PacketPool) putLent(p *Packet) {
	if p.ref == 0 {
		return
	}
	pr := pp.par
	if pr == nil {
		panic(fmt.Sprintf("netsim: packet reference %d is not of this pool", p.ref))
	}
	ln := pr.lend
	p.Flags = 0xffff // poison: a use after Put is easy to spot
	h := int((p.ref-1)>>chunkShift) / ln.stride
	P := len(pr.parts)
	box := &ln.ret[pr.cur][h*P+pp.home]
	*box = append(*box, p.ref)
	ln.freed[pr.cur][pp.home] = true
}

// reclaim puts the packets of partition s that other partitions freed in
// the window of parity w back onto s's free list, in source order, and
// clears s's own flag of the other parity, whose boxes the homes emptied
// in the last window.
func (pr *parallel) reclaim(s *Sim, w int) {
	ln := pr.lend
	if ln == nil {
		return
	}
	ln.freed[1-w][s.index] = false
	P := len(pr.parts)
	pp := &s.pool
	for c, f := range ln.freed[w] {
		if !f {
			continue
		}
		box := &ln.ret[w][s.index*P+c]
		for _, ref := range *box {
			p := pp.at(ref)
			p.next = pp.free
			pp.free = ref
		}
		*box = (*box)[:0]
	}
}
