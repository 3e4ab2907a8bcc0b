package netsim

// BulkOpts qualifies a bulk transfer.
type BulkOpts struct {
	// Class labels the transfer for statistics (background, gradient, ...).
	Class uint8
	// Tag is an opaque caller value, echoed in traces.
	Tag int64
	// StartLatency delays the first byte, modelling a per-message software
	// overhead (the alpha term of collective cost models).
	StartLatency Time
	// ID, when not 0, is the transfer's identifier, reserved by the
	// caller from the engine (transport.Stack.ReserveID): the packet
	// engine's flow ID, which picks the flow's ECMP path. 0 lets the
	// engine number the transfer; engines without identifiers ignore it.
	ID uint64
	// Acked, when not nil, is called once, at the virtual time the
	// sender has every byte acknowledged (on the sender's Sim), by
	// engines with acknowledgements (transport.Stack's flows); others
	// never call it. It is where a flow ends in the HPCC ns-3 branch's
	// fct.txt (QpComplete on the last ACK).
	Acked func()
}

// Bulk moves whole messages between hosts. It is the seam between
// collectives and engines: the packet engine implements it with transport
// flows (DCTCP by default) and the flow engine with fluid flows, so a
// collective written against Bulk runs unchanged at either fidelity.
//
// done is called once, at the virtual time the last byte arrives at dst.
type Bulk interface {
	Send(src, dst NodeID, size Bytes, opts BulkOpts, done func())
}
