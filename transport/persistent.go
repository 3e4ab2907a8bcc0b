package transport

import (
	"fmt"

	"syncsim/netsim"
)

// Persistent is a netsim.Bulk that keeps one transport connection open per
// ordered (src, dst) host pair, as collective libraries (NCCL, Gloo, MPI)
// keep their sockets, instead of opening a flow per message as Stack.Send
// does. Each message is appended to its pair's byte stream:
//
//   - its bytes become sendable once its StartLatency has passed and every
//     earlier message on the pair is sendable (a stream carries bytes in
//     order, so a message never overtakes an earlier one);
//   - its done runs at the virtual time the receiver holds every byte of
//     the stream up to the message's end, so the dones of one pair run in
//     the order of the Send calls (FIFO per pair);
//   - segments are cut from the stream, not from the message: a segment
//     may carry the end of one message and the start of the next when both
//     are sendable.
//
// The connection's state carries over from message to message: cwnd,
// ssthresh, DCTCP's alpha, the RTT estimate and the RTO. An idle
// connection keeps its window, as Linux does with
// net.ipv4.tcp_slow_start_after_idle = 0, the setting recommended for
// datacenter collectives; set IdleRestart for RFC 5681 Sec. 4.1 instead.
//
// A message of size <= 0, or with src == dst, moves no packets: its done
// runs after its StartLatency, outside the pair's order (as with
// Stack.Send). A connection takes the Class and Tag of its first message.
//
// Connections are opened on first use and never closed. They do not count
// in the stack's Started, Completed, Stopped or Active (which count
// Stack.Start and Stack.Send flows); their retransmissions and timeouts
// do count in the stack's totals. Per-message bookkeeping allocates; the
// per-packet path does not.
//
// On a partitioned network (the parallel engine) a Persistent is
// partition-safe: see persistent_part.go.
type Persistent struct {
	st *Stack
	// parts holds the connections and counters per partition of the
	// sending host (one part on an unpartitioned network); see
	// persistent_part.go.
	parts []persistentPart

	// IdleRestart applies the restart window of RFC 5681 Sec. 4.1: when
	// new bytes become sendable on a connection that has had nothing
	// outstanding and sent nothing for more than one RTO, cwnd is cut to
	// min(cwnd, initial window) before they are sent.
	IdleRestart bool

	// Messages counts messages posted; Done counts those whose done has
	// run (zero-size and local messages included). On a partitioned
	// network they are folded at every barrier.
	Messages, Done uint64
	// Restarts counts idle restarts (IdleRestart).
	Restarts uint64
	// partitioned: the counters are kept per partition and folded.
	partitioned bool
}

type connKey struct{ src, dst netsim.NodeID }

// Persistent returns a new persistent-connection Bulk on the stack. Each
// call returns an independent set of connections.
func (st *Stack) Persistent() *Persistent {
	p := &Persistent{st: st}
	n := 1
	if parts := st.net.Sim.Partitions(); parts != nil {
		n = len(parts)
		p.partitioned = true
		st.net.Sim.OnBarrier(p.fold)
	}
	p.parts = make([]persistentPart, n)
	for i := range p.parts {
		p.parts[i].conns = map[connKey]*Conn{}
	}
	return p
}

var _ netsim.Bulk = (*Persistent)(nil)

// Send implements netsim.Bulk: it appends size bytes to the (src, dst)
// connection, opening it on first use, and calls done when dst holds them
// and every byte sent before them on the pair.
func (p *Persistent) Send(src, dst netsim.NodeID, size netsim.Bytes, opts netsim.BulkOpts, done func()) {
	if opts.StartLatency < 0 {
		panic(fmt.Sprintf("transport: message with negative start latency %v", opts.StartLatency))
	}
	sim := p.st.host(src).Sim()
	p.tally(sim, tallyMessages)
	if size <= 0 || src == dst {
		p.st.host(dst)
		sim.AfterFunc(opts.StartLatency, func() {
			p.tally(sim, tallyDone)
			if done != nil {
				done()
			}
		})
		return
	}
	k := connKey{src, dst}
	c := p.parts[sim.Partition()].conns[k]
	if c == nil {
		c = p.open(src, dst, opts)
	}
	c.post(int64(size), opts.StartLatency, done)
}

// open creates the connection's flow and registers its endpoints; it has
// nothing to send until a message becomes sendable.
func (p *Persistent) open(src, dst netsim.NodeID, opts netsim.BulkOpts) *Conn {
	f := p.st.newFlow(src, dst, FlowOpts{Class: opts.Class, Tag: opts.Tag})
	f.limit = 0
	c := &Conn{p: p, f: f}
	c.cross = p.partitioned && f.srcHost.Sim() != f.dstHost.Sim()
	f.conn = c
	f.begin()
	pp := &p.parts[f.srcHost.Sim().Partition()]
	pp.conns[connKey{src, dst}] = c
	pp.list = append(pp.list, c)
	return c
}

// Conn returns the open connection from src to dst, or nil.
func (p *Persistent) Conn(src, dst netsim.NodeID) *Conn {
	return p.parts[p.st.host(src).Sim().Partition()].conns[connKey{src, dst}]
}

// Conns lists the open connections in the order they were opened (on a
// partitioned network: by the sending host's partition, then in the
// order opened there).
func (p *Persistent) Conns() []*Conn {
	var out []*Conn
	for i := range p.parts {
		out = append(out, p.parts[i].list...)
	}
	return out
}

// Pending is the number of messages posted whose done has not run.
func (p *Persistent) Pending() uint64 { return p.Messages - p.Done }

// Conn is one persistent connection: a long-lived Flow whose byte stream
// is the concatenation of the messages posted on its pair.
type Conn struct {
	p *Persistent
	f *Flow

	// msgs[head:] are the messages not yet delivered; msgs[head:ready]
	// are sendable (their bytes are below the flow's limit).
	msgs        []message
	head, ready int
	first       uint64 // message number of msgs[0]
	posted      int64  // stream offset after the last posted message

	// cross: the receiver lies in another partition of a partitioned
	// network. msgs is then the sender's alone (it keeps no dones and
	// drops the sendable prefix), and recv, the receiver's, gets each
	// message's end and done by a message to its partition
	// (persistent_part.go).
	cross bool
	recv  []message
	rhead int
	rdone uint64 // messages whose done the receiver ran
}

// message is one Send on a connection.
type message struct {
	end     int64 // stream offset just past the message
	waiting bool  // StartLatency not yet over
	done    func()
}

// Flow is the connection's transport flow (window, alpha, RTT, counters).
// It is long-lived (Size 0) and never completes; Delivered and BytesAcked
// count stream bytes over all messages.
func (c *Conn) Flow() *Flow { return c.f }

// Posted is the stream length: the bytes of every message posted so far.
func (c *Conn) Posted() netsim.Bytes { return netsim.Bytes(c.posted) }

// Queued is the number of messages posted but not yet delivered.
// On a partitioned network, read it between windows.
func (c *Conn) Queued() int {
	if c.cross {
		return int(c.first + uint64(len(c.msgs)) - c.rdone)
	}
	return len(c.msgs) - c.head
}

// post appends a message of size bytes.
func (c *Conn) post(size int64, latency netsim.Time, done func()) {
	if c.head == len(c.msgs) || (c.head >= 64 && 2*c.head >= len(c.msgs)) {
		// Drop the delivered prefix (messages are renumbered by first).
		n := copy(c.msgs, c.msgs[c.head:])
		clear(c.msgs[n:])
		c.first += uint64(c.head)
		c.msgs, c.ready, c.head = c.msgs[:n], c.ready-c.head, 0
	}
	c.posted += size
	if c.cross {
		c.postReceiver(done)
		done = nil
	}
	c.msgs = append(c.msgs, message{end: c.posted, waiting: latency > 0, done: done})
	if latency > 0 {
		num := c.first + uint64(len(c.msgs)-1)
		c.f.srcHost.Sim().After(latency, c, kindReady, nil, int64(num))
		return
	}
	c.release()
}

// HandleEvent implements netsim.Handler: message number ev.Arg has waited
// its StartLatency.
func (c *Conn) HandleEvent(ev netsim.Event) {
	if ev.Kind != kindReady {
		return
	}
	i := int(uint64(ev.Arg) - c.first)
	if i < 0 || i >= len(c.msgs) || !c.msgs[i].waiting {
		panic("transport: persistent connection lost track of a waiting message")
	}
	c.msgs[i].waiting = false
	c.release()
}

// release makes the sendable prefix of messages sendable and sends what
// the window allows.
func (c *Conn) release() {
	f := c.f
	old := f.limit
	for c.ready < len(c.msgs) && !c.msgs[c.ready].waiting {
		f.limit = c.msgs[c.ready].end
		c.ready++
	}
	if f.limit == old {
		return
	}
	idle := f.sndUna >= f.sndMax
	if idle && c.p.IdleRestart && f.sndMax > 0 {
		now := f.srcHost.Sim().Now()
		if now-f.lastSend > f.rto.RTO() {
			// RFC 5681 Sec. 4.1: cwnd = min(RW, cwnd), RW = min(IW, cwnd).
			if iw := netsim.Bytes(f.st.cfg.InitCwndPkts) * f.st.cfg.MSS; f.cwnd > iw {
				f.cwnd = iw
				f.caAcc = 0
			}
			c.p.tally(f.srcHost.Sim(), tallyRestarts)
		}
	}
	if c.cross {
		c.head = c.ready // the receiver runs the dones
	}
	f.trySend()
	if idle {
		// The first window after an idle period opens DCTCP's next
		// observation window, as at the start of a flow.
		f.dctcp.end = f.sndNxt
	}
}

// delivered runs the dones of the messages the receiver now holds in
// order (nxt is its next expected byte).
func (c *Conn) delivered(nxt int64) {
	if c.cross {
		c.deliveredCross(nxt)
		return
	}
	for c.head < c.ready && c.msgs[c.head].end <= nxt {
		done := c.msgs[c.head].done
		c.msgs[c.head].done = nil
		c.head++
		c.p.tally(c.f.dstHost.Sim(), tallyDone)
		if done != nil {
			done() // may post on this connection
		}
	}
}
