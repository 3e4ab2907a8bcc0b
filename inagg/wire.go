package inagg

import "syncsim/netsim"

// Packet kinds (netsim.Packet.Kind) of the INA protocols.
const (
	// KindGradient is a worker's gradient packet (towards the PS, through
	// the aggregating switch).
	KindGradient uint8 = 1 + iota
	// KindGACK is PA-ATP's gradient acknowledgement (Sec. III-B1), sent by
	// the switch for a gradient it took into an aggregator or by the PS for
	// a gradient that reached it; the asynchronous protocols use it.
	KindGACK
	// KindResult is an aggregated result sent to one worker (PA-ATP's
	// AACK; ATP's and SwitchML's result packet).
	KindResult
	// KindAggregate is a complete aggregate sent from the switch to the PS.
	KindAggregate
	// KindPartial is a partial aggregate the switch flushes to the PS when
	// a retransmission releases its aggregator (ATP's memory-leak
	// avoidance, PA-ATP Sec. III-B1).
	KindPartial
	// KindPull is a worker's request for the result of a sequence it has
	// sent and had acknowledged (GACKed) but whose result has not come: a
	// header-only packet to the PS, which answers with the result if the
	// sequence is complete and ignores it otherwise. The asynchronous
	// protocols send pulls on a retransmission timeout, to recover results
	// lost at the tail of a window without flushing partial aggregates.
	KindPull
	// KindRackAggregate is the aggregate of a job's workers under one rack
	// switch, which ATP's first level of aggregation sends on towards the
	// PS (JobConfig.FirstLevel): the PS's switch aggregates it like a
	// gradient carrying several workers' contributions, and the PS books
	// it as summed in the network.
	KindRackAggregate
)

// INARing is the NIC transmit ring (netsim.Packet.Ring) of the INA
// protocols' packets at workers and parameter servers: ATP and PA-ATP run in
// kernel-bypass stacks (RDMA raw Ethernet verbs, PA-ATP Sec. IV) whose
// queue pairs are transmit rings of their own beside the kernel's (ring 0),
// which carries TCP, background traffic and BytePS. On NICs with several
// rings (topologies.HostQueue) the two share the port by deficit round
// robin.
const INARing uint8 = 1

// Protocol header words in netsim.Packet.Ext.
const (
	extJob    = 0 // job identifier
	extWorker = 1 // sending worker (gradients, GACKs) or receiving worker (results)
	extValue  = 2 // payload value: one worker's value or a (partial) sum
	extBitmap = 3 // bitmap of the workers whose values are summed in extValue
	extSSum   = 4 // PA-ATP s_sum (the PROG field), stamped by the switch
	extSMax   = 5 // largest sequence any worker of the job has sent (StrawAsyn+PC)
	extAgtr   = 6 // ATP: aggregator index chosen by the worker (agghdr.agtr, in-ATP/ATP common/packet.h:83)
)

// Wire sizes. The INA header is the one PA-ATP reflects as a GACK (Sec. VI
// of the PA-ATP paper: a 62-byte GACK): Ethernet 14 B + IPv4 20 B + UDP 8 B
// + ATP header 16 B + PA-ATP's 32-bit PROG/isGACK field 4 B = 62 B. The
// gradient payload is ATP's 248 B (62 32-bit values, PA-ATP Sec. V-A "the
// gradient payload in all INA protocols is set to 248 Bytes"), so a
// gradient or result packet is 310 B on the wire ("~300 Bytes"). BytePS
// runs over TCP in full-size segments: 1460 B of payload behind 14 B of
// Ethernet and 40 B of IPv4 + TCP headers.
const (
	// INAHeaderBytes is the header of every INA packet and the size of a
	// GACK.
	INAHeaderBytes netsim.Bytes = 62
	// INAPayloadBytes is the gradient payload of INA packets.
	INAPayloadBytes netsim.Bytes = 248
	// BytePSHeaderBytes is the Ethernet + IPv4 + TCP header of BytePS
	// packets and the size of its acknowledgements.
	BytePSHeaderBytes netsim.Bytes = 54
	// BytePSPayloadBytes is the TCP segment payload of BytePS packets.
	BytePSPayloadBytes netsim.Bytes = 1460
)

// MaxWorkers is the largest number of workers per job: contributions are
// tracked in a 64-bit bitmap, as ATP's switch does in its aggregator
// metadata.
const MaxWorkers = 64

// GradientValue is the integer worker w (0-based) contributes for sequence
// seq. It depends on both, non-linearly in w, so a missing, duplicated or
// misplaced contribution changes the sum.
func GradientValue(w int, seq int64) int64 {
	return int64(w+1)*(seq%4093+1) + int64(w*w)
}

// ExpectedSum is the sum of GradientValue over workers 0..n-1 for seq.
func ExpectedSum(n int, seq int64) int64 {
	t := int64(n) * int64(n+1) / 2
	sq := int64(n-1) * int64(n) * int64(2*n-1) / 6
	return t*(seq%4093+1) + sq
}

// fullMask is the bitmap with the low n bits set.
func fullMask(n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(n) - 1
}

// flowLabel is the ECMP flow label of worker w of job j (both directions).
func flowLabel(job, w int) uint64 {
	return netsim.Hash64(uint64(job)+0x1a66, uint64(w))
}
