package crew

import (
	"syncsim/netsim"
	"syncsim/netsim/fluid"
)

// stream is a sequence of chunks from one worker to another: an
// initiator's copy of a block on its way to the block's aggregator, or an
// aggregator's reduced chunks on their way back to one member (Sec.
// IV-A1's pipelined communication). Chunks are sent in increasing index
// order. At flow fidelity one transfer is under way at a time and the next
// starts the moment the last byte of the previous one has left (a sender's
// byte stream), each carrying Options.Pipeline's unit: one chunk, or every
// chunk queued (block store-and-forward). At packet fidelity the chunks
// are posted as messages on the stream's connection, which delivers them
// in order.
//
// The stream's sequence number, taken when it starts, is its rank under
// flow-level FCFS (priorityKey): all its chunks share it.
type stream struct {
	src, dst int
	cls      uint8
	pid      int
	seq      int64
	via      netsim.Bulk // packet fidelity: the connection

	want  Block // chunks dst may keep (nil: all); others are discarded on arrival
	queue Block // chunks waiting to be sent
	cur   Block // chunks of the transfer under way (flow fidelity)
	h     fluid.Handle
	live  bool   // cur is being sent
	gen   uint32 // bumped when cur is cancelled
	epoch uint32 // bumped when the stream is reset: older arrivals are dropped
	prop  Block  // chunks that have left src and not yet arrived
	got   Block  // chunks that have arrived at dst (and are kept)

	// The mesh's state of the transfer under way (flow fidelity).
	key    int64
	rem    float64 // bytes not yet sent
	rate   float64 // bits/s
	finish netsim.Time

	onArrive func(Block) // kept chunks that have just arrived
}

// newStream starts a stream from src to dst of class cls for partial
// reduce pid.
func (c *Cluster) newStream(src, dst int, cls uint8, pid int) *stream {
	c.nextSeq++
	return &stream{src: src, dst: dst, cls: cls, pid: pid, seq: c.nextSeq, via: c.net.newStream()}
}

// take is the chunks of q the next transfer of s carries: the first
// (chunk pipelining) or all of them (block store-and-forward). A multicast
// stream sends every chunk it has ready in one transfer: nothing waits for
// its chunks one by one but the member's completion, which the last byte
// decides, so the batch changes no result and saves events.
func (c *Cluster) take(s *stream) Block {
	if c.cfg.Pipeline == PipelineBlock || s.cls == ClassMulticast {
		return append(Block(nil), s.queue...)
	}
	return s.queue.Prefix(1)
}

// push queues chunks on s and sends what can go.
func (c *Cluster) push(s *stream, chunks Block) {
	if chunks.Len() == 0 {
		return
	}
	s.queue.merge(chunks)
	c.pump(s)
}

// pump sends s's queued chunks: the next transfer at flow fidelity, every
// queued chunk at packet fidelity.
func (c *Cluster) pump(s *stream) {
	if c.net.Fluid == nil {
		for s.queue.Len() > 0 {
			m := c.take(s)
			s.queue = s.queue.Minus(m)
			s.prop = s.prop.Union(m)
			ep := s.epoch
			c.net.send(s.src, s.dst, c.ch.Bytes(m), s.cls, legTag(s.pid, s.seq), s.via, nil, func() { c.streamArrived(s, ep, m) })
		}
		return
	}
	if s.live || s.queue.Len() == 0 {
		return
	}
	m := c.take(s)
	s.queue.subtract(m)
	s.cur, s.live = m, true
	s.gen++
	if c.mesh != nil {
		c.mesh.start(s)
		return
	}
	gen, ep := s.gen, s.epoch
	s.h = c.net.send(s.src, s.dst, c.ch.Bytes(m), s.cls, legTag(s.pid, s.seq), nil,
		func() {
			if s.gen != gen || !s.live {
				return
			}
			s.live = false
			s.cur = nil
			s.prop.merge(m)
			c.pump(s)
		},
		func() { c.streamArrived(s, ep, m) })
}

// chunkLeft: the last byte of s's transfer under way has left (the mesh's
// completion); its chunks arrive a latency later, and s goes on.
func (c *Cluster) chunkLeft(s *stream) {
	m := s.cur
	s.live = false
	s.cur = nil
	s.prop.merge(m)
	ep := s.epoch
	c.net.later(c.net.Delay[s.src][s.dst], func() { c.streamArrived(s, ep, m) })
	c.pump(s)
}

// streamArrived books chunks m of s as arrived at its destination.
func (c *Cluster) streamArrived(s *stream, ep uint32, m Block) {
	if s.epoch != ep {
		return // the stream was reset: counted as discarded then
	}
	s.prop.subtract(m)
	if s.got.overlaps(m) {
		c.fail("worker %d delivered chunks %v to worker %d twice", s.src, s.got.Intersect(m), s.dst)
	}
	if s.want != nil && !s.want.within(m) {
		keep := m.Intersect(s.want)
		c.discarded += int64(m.Len() - keep.Len())
		m = keep
	}
	s.got.merge(m)
	if m.Len() > 0 && s.onArrive != nil {
		s.onArrive(m)
	}
}

// stop cancels the transfer under way, if any (flow fidelity): the chunks
// whose last byte had left still arrive; the others go back to the queue.
func (c *Cluster) stop(s *stream) {
	if !s.live {
		return
	}
	var sent netsim.Bytes
	if c.mesh != nil {
		sent = c.mesh.cancel(s)
	} else {
		sent, _ = c.net.cancel(s.h)
	}
	done := c.ch.Sent(s.cur, sent)
	rest := s.cur.Minus(done)
	s.live = false
	s.gen++
	s.cur = nil
	if done.Len() > 0 {
		s.prop = s.prop.Union(done)
		ep := s.epoch
		c.net.later(c.net.Delay[s.src][s.dst], func() { c.streamArrived(s, ep, done) })
	}
	s.queue = s.queue.Union(rest)
}

// reset stops s and forgets everything it sent: the chunks that reached
// (or are on their way to) its destination are discarded, counted unless
// the destination is the source itself. It returns with nothing queued.
func (c *Cluster) reset(s *stream) {
	c.stop(s)
	if s.dst != s.src {
		c.discarded += int64(s.got.Len() + s.prop.Len())
	}
	s.epoch++
	s.got, s.prop, s.queue = nil, nil, nil
}

// retarget resets s and points it at dst as a new stream (a new rank).
func (c *Cluster) retarget(s *stream, dst int) {
	c.reset(s)
	s.dst = dst
	c.nextSeq++
	s.seq = c.nextSeq
	s.via = c.net.newStream()
}

// arriving is what s has sent that has left its source and not yet
// arrived, including the chunks of the transfer under way whose last byte
// has left: it will arrive whatever happens to the connection.
func (s *stream) arriving(c *Cluster) Block {
	if s == nil {
		return nil
	}
	if !s.live {
		return s.prop
	}
	if c.mesh != nil {
		return s.prop.Union(c.ch.Sent(s.cur, c.mesh.sent(s)))
	}
	return s.prop.Union(c.ch.Sent(s.cur, c.net.sentBytes(s.h)))
}
