package switchmodel

import "syncsim/netsim"

// Admits implements netsim.AdmitQueue: whether the queue's buffers would
// take p now (the control band's for a packet without payload under
// ControlFirst, else its transmit ring's or the data band's, and the
// shared buffer's dynamic threshold). It changes nothing. RED's random
// early drops are not foreseen; host NICs, which ask, use no RED.
func (q *PortQueue) Admits(p *netsim.Packet) bool {
	q.settle()
	c := &q.cfg
	size := p.Size
	if c.ControlFirst && p.Payload == 0 {
		return c.ControlBuffer <= 0 || q.ctrl.bytes+size <= c.ControlBuffer
	}
	if q.rs != nil {
		r := &q.rs.rings[q.rs.index(p.Ring)]
		return c.Buffer <= 0 || r.bytes+size <= c.Buffer
	}
	if c.Buffer > 0 && q.data.bytes+size > c.Buffer {
		return false
	}
	return c.Shared == nil || c.Shared.Admits(q.data.bytes, size)
}

var _ netsim.AdmitQueue = (*PortQueue)(nil)
