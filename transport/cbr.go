package transport

import (
	"fmt"

	"syncsim/netsim"
)

// CBR is a constant-bit-rate UDP-like source: from Start until Stop it
// sends PktSize-byte packets (size on the wire) from Src to Dst paced
// exactly at Rate, without congestion control or ECN, as the 32 Gbps
// background flow of PA-ATP Fig. 8. Packet k leaves at
// Start + TxTime(k * PktSize, Rate), so pacing never drifts.
type CBR struct {
	Src, Dst    netsim.NodeID
	Rate        netsim.Rate
	PktSize     netsim.Bytes
	Start, Stop netsim.Time
	Flow        uint64
	// Class labels the packets for statistics.
	Class uint8

	// Sent and Received count packets; SentBytes and ReceivedBytes count
	// bytes on the wire.
	Sent, Received           uint64
	SentBytes, ReceivedBytes netsim.Bytes
	// FirstRx and LastRx are the first and last arrival times.
	FirstRx, LastRx netsim.Time

	net              *netsim.Network
	srcHost, dstHost *netsim.Host
	ep               int32
	k                int64
}

// NewCBR schedules a constant-bit-rate flow of packets of pktSize bytes at
// rate from host src to host dst during [start, stop). flow is the packets'
// flow identifier (the ECMP hash key). Non-positive rate or size, stop
// before start, or non-host endpoints are programming errors and panic;
// validate user input before calling.
func NewCBR(net *netsim.Network, src, dst netsim.NodeID, rate netsim.Rate, pktSize netsim.Bytes, start, stop netsim.Time, flow uint64) *CBR {
	if rate <= 0 || pktSize <= 0 || stop < start || start < net.Sim.Now() {
		panic(fmt.Sprintf("transport: NewCBR with rate %v, packet size %d, interval [%v, %v)", rate, pktSize, start, stop))
	}
	hs, ok1 := net.Node(src).(*netsim.Host)
	hd, ok2 := net.Node(dst).(*netsim.Host)
	if !ok1 || !ok2 || src == dst {
		panic(fmt.Sprintf("transport: NewCBR between nodes %d and %d, which must be distinct hosts", src, dst))
	}
	c := &CBR{Src: src, Dst: dst, Rate: rate, PktSize: pktSize, Start: start, Stop: stop, Flow: flow,
		net: net, srcHost: hs, dstHost: hd}
	c.ep = hd.Register(cbrSink{c})
	if start < stop {
		hs.Sim().Schedule(start, c, 0, nil, 0)
	}
	return c
}

// HandleEvent sends the next packet and schedules the one after.
func (c *CBR) HandleEvent(ev netsim.Event) {
	sim := c.srcHost.Sim()
	p := sim.Packets().Get()
	p.Flow = c.Flow
	p.Dst = c.Dst
	p.DstEP = c.ep
	p.Size = c.PktSize
	p.Payload = c.PktSize
	p.Seq = c.k
	p.SentAt = ev.At
	p.Class = c.Class
	c.srcHost.Send(p)
	c.Sent++
	c.SentBytes += c.PktSize
	c.k++
	next := c.Start + netsim.TxTime(netsim.Bytes(c.k)*c.PktSize, c.Rate)
	if next < c.Stop {
		sim.Schedule(next, c, 0, nil, 0)
	}
}

// cbrSink counts arrivals at the destination.
type cbrSink struct{ c *CBR }

// Receive implements netsim.Endpoint.
func (s cbrSink) Receive(p *netsim.Packet) {
	c := s.c
	if p.Flow == c.Flow {
		now := c.dstHost.Sim().Now()
		if c.Received == 0 {
			c.FirstRx = now
		}
		c.LastRx = now
		c.Received++
		c.ReceivedBytes += p.Size
	}
	c.dstHost.Sim().Packets().Put(p)
}
