package netsim

// A host's NIC with backpressure: the host never drops its own packets.
//
// Linux hands a packet to its NIC's driver only when the driver's transmit
// ring has room: a full ring stops the queue, packets wait in the qdisc,
// and the ring's completions wake it again (netif_stop_queue /
// netif_wake_queue, with byte queue limits); TCP small queues keep each
// socket's share of the qdisc and ring small (tcp_small_queue_check in
// net/ipv4/tcp_output.c). ns-3's traffic-control layer does the same with
// its NetDeviceQueue's stop and wake (src/traffic-control/model/
// traffic-control-layer.cc). A kernel-bypass application's transmit call
// (DPDK's rte_eth_tx_burst) returns the packets the ring did not take,
// which the application keeps and offers again.
//
// Here a host whose NIC has flow control (Host.SetNICFlowControl) asks
// its port's queue whether it would take a packet (AdmitQueue) before
// handing it over. A packet the queue cannot take waits in a backlog of
// its sending endpoint (the qdisc, or the application's own buffer), and
// every serialisation that frees room moves backlogged packets into the
// queue, one packet per endpoint in turn (round robin, as a fair-queueing
// qdisc serves sparse and bulk flows alike). Packets in a backlog are not
// yet in the network: Stats.Injected counts a packet when it enters the
// port's queue. Endpoints that implement TxNotifier are told when each
// packet they sent leaves the queue for the wire, the moment TCP small
// queues return a socket's credit.

// AdmitQueue is a Queue that tells, without side effects, whether it would
// take p now. A NIC with flow control asks before handing the queue a
// packet.
type AdmitQueue interface {
	Queue
	Admits(p *Packet) bool
}

// Admits implements AdmitQueue.
func (q *FIFO) Admits(p *Packet) bool { return q.Limit <= 0 || q.bytes+p.Size <= q.Limit }

// TxNotifier is an endpoint told when a packet it sent from its host (a
// packet whose SrcEP is its endpoint number) leaves the host's NIC queue
// for the wire. A transport keeps its bytes queued in the host bounded
// with it (TCP small queues). flow and size are the packet's Flow and
// Size; an endpoint number can be reused, so the endpoint checks flow.
//
// Linux credits a socket at transmit completion, after the NIC has sent
// the packet; here the credit comes when its serialisation starts, one
// packet's serialisation earlier.
type TxNotifier interface {
	TxDone(flow uint64, size Bytes)
}

// NICStats are a host NIC's flow-control counters.
type NICStats struct {
	// Deferred counts packets that found the NIC's queue full and waited
	// in their endpoint's backlog.
	Deferred uint64
	// MaxBacklogBytes is the largest number of bytes the backlogs held at
	// once.
	MaxBacklogBytes Bytes
}

// nicFlow is the flow control of one host port.
type nicFlow struct {
	host *Host
	port *Port
	adm  AdmitQueue

	// bl[i] is the backlog of endpoint i - 1 (bl[0]: packets without a
	// valid source endpoint).
	bl []pktFIFO
	// active lists the backlogs holding packets, in turn order; spare and
	// back are refill's scratch lists.
	active, spare, back []int32
	packets             int
	bytes               Bytes
	stats               NICStats
}

// SetNICFlowControl turns backpressure on or off at each of the host's
// ports whose queue implements AdmitQueue (see the comment at the top of
// nic.go). Turning it off with packets in a backlog moves them into the
// queue, which may drop them. Call it at set-up, after the host's ports
// are connected; a queue set later with Port.SetQueue keeps the setting.
func (h *Host) SetNICFlowControl(on bool) {
	for _, pt := range h.Ports {
		switch {
		case !on:
			pt.setNIC(nil)
		case pt.nic == nil:
			if n := (&nicFlow{host: h, port: pt}); n.bind(pt.queue) {
				pt.setNIC(n)
			}
		}
	}
}

// setNIC installs flow control n at the port (nil: none); packets left in
// the former one's backlogs move into the queue.
func (pt *Port) setNIC(n *nicFlow) {
	old := pt.nic
	pt.nic, pt.flowCtl = n, n != nil
	pt.updatePlan()
	if old != nil {
		old.flush()
	}
}

// NICFlowControl reports whether every port of the host has flow control,
// so that the host tells each TxNotifier of every packet it sent.
func (h *Host) NICFlowControl() bool {
	for _, pt := range h.Ports {
		if pt.nic == nil {
			return false
		}
	}
	return len(h.Ports) > 0
}

// NICStats sums the flow-control counters of the host's ports.
func (h *Host) NICStats() NICStats {
	var s NICStats
	for _, pt := range h.Ports {
		if n := pt.nic; n != nil {
			s.Deferred += n.stats.Deferred
			s.MaxBacklogBytes = max(s.MaxBacklogBytes, n.stats.MaxBacklogBytes)
		}
	}
	return s
}

// NICBacklog is the number of packets and bytes waiting in the host's
// backlogs, not yet in a NIC queue.
func (h *Host) NICBacklog() (packets int, bytes Bytes) {
	for _, pt := range h.Ports {
		if n := pt.nic; n != nil {
			packets += n.packets
			bytes += n.bytes
		}
	}
	return packets, bytes
}

// bind makes q the queue the flow control asks; false if q cannot answer.
func (n *nicFlow) bind(q Queue) bool {
	a, ok := q.(AdmitQueue)
	if ok {
		n.adm = a
	}
	return ok
}

// slot is the backlog index of p's sending endpoint.
func (n *nicFlow) slot(p *Packet) int {
	i := int(p.SrcEP) + 1
	if i < 0 {
		i = 0
	}
	for i >= len(n.bl) {
		n.bl = append(n.bl, pktFIFO{})
	}
	return i
}

// send hands p to the port's queue if the queue has room and p's endpoint
// has nothing waiting, and otherwise queues it in the endpoint's backlog.
func (n *nicFlow) send(p *Packet) {
	i := n.slot(p)
	b := &n.bl[i]
	if b.n == 0 && n.adm.Admits(p) {
		n.inject(p)
		return
	}
	if b.n == 0 {
		n.activate(int32(i))
	}
	b.push(p)
	n.packets++
	n.bytes += p.Size
	n.stats.Deferred++
	if n.bytes > n.stats.MaxBacklogBytes {
		n.stats.MaxBacklogBytes = n.bytes
	}
}

// inject puts p into the port's queue, which has room for it.
func (n *nicFlow) inject(p *Packet) {
	n.host.sim.books.Injected++
	n.port.Send(p)
}

func (n *nicFlow) activate(i int32) { n.active = append(n.active, i) }

// refill moves backlogged packets into the port's queue while it has room,
// in passes over the endpoints with a backlog, in turn order: each pass
// moves at most one packet per endpoint, an endpoint that moved one goes
// to the back of the turn, and one whose packet the queue refused keeps
// its place ahead of them (round robin by packet). It stops after a pass
// that moves none.
//
// Most passes move none (the queue has room for one packet after a
// serialisation starts, and the first pass takes it), and such a pass
// leaves the turn as it was: the endpoints are asked in turn until the
// queue takes one, and the turn is rebuilt only from there.
func (n *nicFlow) refill() {
	for len(n.active) > 0 {
		act := n.active
		j := 0
		for j < len(act) && !n.adm.Admits(n.bl[act[j]].peek()) {
			j++
		}
		if j == len(act) {
			return // the pass moved none
		}
		keep, back := append(n.spare[:0], act[:j]...), n.back[:0]
		for k := j; k < len(act); k++ {
			i := act[k]
			b := &n.bl[i]
			p := b.peek()
			if k > j && !n.adm.Admits(p) { // act[j]'s was taken
				keep = append(keep, i)
				continue
			}
			b.pop()
			n.packets--
			n.bytes -= p.Size
			n.inject(p)
			if b.n > 0 {
				back = append(back, i)
			}
		}
		n.spare, n.active = n.active[:0], append(keep, back...)
		n.back = back[:0]
	}
}

// flush moves every backlogged packet into the port's queue (which may
// drop some): flow control is being turned off.
func (n *nicFlow) flush() {
	for _, i := range n.active {
		b := &n.bl[i]
		for b.n > 0 {
			n.inject(b.pop())
		}
	}
	n.active = n.active[:0]
	n.packets, n.bytes = 0, 0
}

// txDone is what the port calls after it took a packet of endpoint ep
// (flow, size) from its queue: backlogged packets move into the room it
// left, then the endpoint hears of it.
func (n *nicFlow) txDone(ep int32, flow uint64, size Bytes) {
	if n.packets > 0 {
		n.refill()
	}
	h := n.host
	if ep >= 0 && int(ep) < len(h.txn) {
		if t := h.txn[ep]; t != nil {
			t.TxDone(flow, size)
		}
	}
}

// pktFIFO is a growable ring of packets.
type pktFIFO struct {
	ring []*Packet
	head int
	n    int
}

func (q *pktFIFO) push(p *Packet) {
	if q.n == len(q.ring) {
		r := make([]*Packet, max(16, 2*len(q.ring)))
		for i := 0; i < q.n; i++ {
			r[i] = q.ring[(q.head+i)%len(q.ring)]
		}
		q.ring, q.head = r, 0
	}
	q.ring[(q.head+q.n)%len(q.ring)] = p
	q.n++
}

func (q *pktFIFO) peek() *Packet { return q.ring[q.head] }

func (q *pktFIFO) pop() *Packet {
	p := q.ring[q.head]
	q.ring[q.head] = nil
	q.head = (q.head + 1) % len(q.ring)
	q.n--
	if q.n == 0 {
		q.head = 0
	}
	return p
}
