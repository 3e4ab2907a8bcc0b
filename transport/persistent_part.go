package transport

import "syncsim/netsim"

// Persistent connections on a partitioned network (the parallel engine).
// A message is posted on its sending host's partition, and its done runs
// on the receiving host's partition at the virtual time the receiver
// holds its last byte, as on an unpartitioned network. What a Persistent
// shares is kept apart:
//
//   - the connections are looked up in a map of the sending host's
//     partition, which alone opens and posts on them;
//   - the counters (Messages, Done, Restarts) are kept per partition and
//     folded into the exported fields at every barrier;
//   - a connection whose ends lie in different partitions (cross) keeps
//     two message lists: the sender's, for the bytes that become
//     sendable, and the receiver's, for the dones. The sender hands each
//     message's end and done to the receiver's partition by a message
//     (netsim.Sim.Post) for its clock plus the lookahead. No byte of the
//     message can arrive before: it becomes sendable no earlier than it
//     is posted and then crosses a link of at least the lookahead's delay
//     after at least one serialisation. So the dones run at the same
//     instants, in the same order (FIFO per pair), as without partitions.

// persistentPart is one partition's share of a Persistent, padded so
// that partitions on different cores do not share a cache line.
type persistentPart struct {
	conns map[connKey]*Conn
	list  []*Conn
	n     [numTally]uint64
	_     [64 - 8 - 24 - numTally*8]byte
}

// The counters a Persistent keeps per partition.
const (
	tallyMessages = iota
	tallyDone
	tallyRestarts
	numTally
)

// tally counts one event of kind k on sim's partition; on an
// unpartitioned network the exported field at once.
func (p *Persistent) tally(sim *netsim.Sim, k int) {
	if !p.partitioned {
		switch k {
		case tallyMessages:
			p.Messages++
		case tallyDone:
			p.Done++
		default:
			p.Restarts++
		}
		return
	}
	p.parts[sim.Partition()].n[k]++
}

// fold sets the exported counters to the sums over partitions (a barrier
// hook of the coordinator).
func (p *Persistent) fold() {
	var t [numTally]uint64
	for i := range p.parts {
		for k, v := range p.parts[i].n {
			t[k] += v
		}
	}
	p.Messages, p.Done, p.Restarts = t[tallyMessages], t[tallyDone], t[tallyRestarts]
}

// postReceiver hands the message just appended to the stream (ending at
// c.posted) and its done to the receiving host's partition.
func (c *Conn) postReceiver(done func()) {
	sim := c.f.srcHost.Sim()
	end := c.posted
	sim.Post(c.f.dstHost.Sim().Partition(), sim.Now()+c.p.st.net.Sim.Lookahead(), func() {
		if c.rhead == len(c.recv) || (c.rhead >= 64 && 2*c.rhead >= len(c.recv)) {
			n := copy(c.recv, c.recv[c.rhead:])
			clear(c.recv[n:])
			c.recv, c.rhead = c.recv[:n], 0
		}
		c.recv = append(c.recv, message{end: end, done: done})
	})
}

// deliveredCross is delivered on a cross connection: the receiver runs
// the dones of the messages it now holds, from its own list.
func (c *Conn) deliveredCross(nxt int64) {
	for c.rhead < len(c.recv) && c.recv[c.rhead].end <= nxt {
		done := c.recv[c.rhead].done
		c.recv[c.rhead].done = nil
		c.rhead++
		c.rdone++
		c.p.tally(c.f.dstHost.Sim(), tallyDone)
		if done != nil {
			done()
		}
	}
}
