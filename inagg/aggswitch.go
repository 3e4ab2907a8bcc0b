package inagg

import (
	"fmt"
	"math/bits"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

// AggregatorConfig describes a switch's aggregation memory and PA-ATP's
// AECN marking.
type AggregatorConfig struct {
	// Memory is the switch memory given to aggregators (default 10 MiB,
	// the ~10 MB of a Wedge 100BF-32X; PA-ATP Sec. I). M = Memory /
	// AggregatorBytes.
	Memory netsim.Bytes
	// Eta is the AECN threshold factor: AACKs passing the switch are
	// marked while used aggregators + overflow (see Occupancy) exceed
	// eta (M + BDP) (Sec. III-B3). The paper leaves it open; Eq. 9 bounds
	// it by 1 - (C_A + N)/(M + BDP), about 0.99 in every setting of the
	// paper; the default 0.9 stays below that bound with margin.
	Eta float64
	// BDPPackets is the bandwidth-delay product in packets, in the AECN
	// threshold and as SwitchML's default pool size (default 416: 100 Gbps
	// and a 10 us RTT in 300 B packets, Fig. 6).
	BDPPackets int
	// Index is how the hashed protocols' sequences map to aggregators
	// (default IndexSequential; see IndexMode).
	Index IndexMode
	// Occupancy is what AECN counts as overflow (default
	// OccupancySequences; see OccupancyMode).
	Occupancy OccupancyMode
	// FollowOverflow departs from ATP's switch: once a contribution of a
	// sequence overflowed to the PS, the sequence's later contributions
	// follow it there even when they find their aggregator free, which
	// needs per-sequence state in the switch (the earlier model; the
	// independent ns-3 model totoyoooooo/ns3Proj does the same with its
	// "kicked" table, src/applications/model/udp-aggregator.cc:788-808).
	// By default (false) the switch does what ATP's does, which keeps no
	// per-sequence state (in-ATP/ATP p4src/includes/common.p4:9-141): a
	// contribution finding its aggregator held by another (job, seq) is
	// tagged as a collision and forwarded to the PS (p4src/p4ml.p4:217-224),
	// and a later one that finds the aggregator free takes it
	// (common.p4:48-61), building a partial aggregate that a resend
	// releases to the PS. The PA-ATP paper's aggregation is "similar to
	// ATP" (Sec. IV) and its resends "release the partitioned aggregation
	// result" (Sec. III-B1). Under the earlier recovery rules (a timer
	// doubling to 64 ms, resends in batches of one BDP) ATP's rule measured
	// 14,000-63,000 resends instead of 0-2,500 and a 2-6x longer AJCT on
	// ina-leafspine's order set at 0.25 MiB.
	FollowOverflow bool
	// ForwardPassed lets the switch of the asynchronous protocols
	// (StrawAsyn, +PC, +AL, PA-ATP) send a sequence on to the PS as soon as
	// it can no longer complete at the switch: when every worker whose
	// contribution the aggregate lacks has already sent that sequence or a
	// later one, the partial aggregate (with the contribution that just
	// arrived) goes to the PS and the aggregator is freed; a contribution
	// finding its aggregator free with every partner past goes there
	// itself. The switch reads this off the S_n registers it keeps for the
	// progress degree (Sec. IV: "The register S_n.idx stores the last
	// sequence number of idx th worker"), so it needs no per-sequence
	// state. A worker's gradients reach the switch in order on its one
	// path, so a partner past the sequence whose bit the aggregate lacks
	// has its contribution at the PS (overflowed, or released by a resend)
	// or lost before the switch (its resend goes to the PS). The PS gets
	// what ATP's table would send it after a resend (the partial, one
	// packet), without the wait and without the resend. Contributions
	// still to come aggregate at the switch as under ATP's table.
	//
	// Default true: the paper says the aggregation is "similar to ATP"
	// (Sec. IV) and that a resend "will release the partitioned
	// aggregation result" (Sec. III-B1), and is silent on a partial
	// aggregate that no new gradient can complete; this is ours, said so.
	// Under ATP's table alone (false; ATP keeps it whatever this says, its
	// switch having no S_n) the asynchronous windows let leaders overflow
	// thousands of sequences ahead, and a straggler catching up split
	// every one: its gradients were GACKed and held, only a timeout's
	// resend of the front released them, and the job completed one
	// sequence per two timeouts (ina-testbed, VGG19, idle, PA-ATP seed 3:
	// 128 ms against 15-45 ms on the other seeds; docs/ina-recovery.md,
	// "The testbed without background"). Sending every later contribution
	// of a split sequence to the PS instead (FollowOverflow's rule, which
	// S_n can also decide) cured that but multiplied the PS's port load:
	// PA-ATP on TestINALeafSpineOrder's fabric (6 seeds) took 0.775 ms
	// [0.545-2.66] against 1.78 [0.838-2.19] under ATP's table and 0.513
	// [0.382-0.620] under this rule, with ten times this rule's overflow
	// to the PS (scripts/ina/reproduce.sh OUTDIR splits).
	ForwardPassed bool
	// Flush is what a resend that finds its sequence's partial aggregate
	// sends to the PS (default FlushSeparate; see FlushMode).
	Flush FlushMode
	// GACKOnComplete makes the switch answer the gradient that completes
	// an aggregation with a GACK too, as it answers every other one (Sec.
	// III-B1: "When the aggregating switch receives a gradient into
	// aggregator ..., it immediately replies one GACK packet to the
	// corresponding worker"). By default (false) it sends none, as Sec.
	// IV's switch program does: "In Forward table, is_aggr denotes whether
	// the aggregation completes. If the aggregation doesn't complete, ...
	// PA-ATP will remove the packet payload ... and return the packet
	// header to the corresponding sender as a GACK ... If the aggregation
	// completes, the aggregated gradient is forwarded to PS." The packet
	// that completes the aggregate is the aggregate, so a GACK for it
	// would need a second packet the one-pass pipeline does not make; the
	// implementation section is the more specific of the two. The
	// completing worker's window then slides on the AACK, which the worker
	// counts as the GACK it implies, with the completing gradient's CE
	// (worker.onResult).
	GACKOnComplete bool
}

// DefaultAggregatorConfig returns the defaults documented on
// AggregatorConfig.
func DefaultAggregatorConfig() AggregatorConfig {
	return AggregatorConfig{Memory: 10 * netsim.MiB, Eta: 0.9, BDPPackets: 416, ForwardPassed: true}
}

// Validate reports the first invalid field.
func (c AggregatorConfig) Validate() error {
	switch {
	case c.Memory < AggregatorBytes:
		return fmt.Errorf("inagg: aggregator memory %d B holds no %d B aggregator", c.Memory, AggregatorBytes)
	case c.Memory/AggregatorBytes > 1<<26:
		return fmt.Errorf("inagg: aggregator memory %d B is implausibly large", c.Memory)
	case !(c.Eta > 0 && c.Eta <= 1):
		return fmt.Errorf("inagg: AECN threshold eta must be in (0, 1], got %v", c.Eta)
	case c.BDPPackets < 1:
		return fmt.Errorf("inagg: BDP must be at least 1 packet, got %d", c.BDPPackets)
	case c.Index >= numIndexModes:
		return fmt.Errorf("inagg: unknown aggregator index mode %d", c.Index)
	case c.Occupancy >= numOccupancyModes:
		return fmt.Errorf("inagg: unknown AECN occupancy mode %d", c.Occupancy)
	}
	return nil
}

// AggregatorStats are a switch's aggregation counters.
type AggregatorStats struct {
	Gradients       uint64 // gradient packets of registered jobs seen
	Absorbed        uint64 // gradients added into an aggregator (hits)
	Allocations     uint64 // hashed aggregators allocated
	Collisions      uint64 // gradients whose aggregator was busy: overflowed to the PS
	PassedForwarded uint64 // gradients sent on to the PS because every partner had passed their sequence (ForwardPassed)
	PassedFlushes   uint64 // partial aggregates sent to the PS because every partner they lacked had passed (ForwardPassed)
	Completions     uint64 // aggregations completed at the switch
	Flushes         uint64 // partial aggregates sent to the PS unfinished: released by a retransmission, or PassedFlushes
	RetxForwarded   uint64 // retransmitted gradients forwarded to the PS
	Late            uint64 // gradients for an already completed sequence (sent on to the PS, or dropped by SwitchML)
	StaleReleases   uint64 // aggregators released when their sequence's result passed (completed elsewhere)
	Leaked          uint64 // aggregators still held by a job when it finished
	GACKs           uint64 // GACKs the switch generated
	AECNMarked      uint64 // AACKs marked with AECN
	Results         uint64 // results (AACKs) seen passing, or multicast by SwitchML slots
	AggregatedBytes uint64 // gradient payload bytes added into aggregators
	Level1Passed    uint64 // first-level (rack) switch: gradients passed on unsummed (aggregator held, or a resend)
	// Sent counts the packets the switch sent as their source: GACKs,
	// aggregates (complete, partial and rack aggregates), SwitchML's
	// results and the copies of a result it multicasts. A packet it
	// forwards as it came (an overflowed gradient, the PS's result to the
	// first worker) is its sender's, not counted here.
	Sent uint64
}

// Aggregator is the aggregation program of one switch: a Memory of M
// aggregators, the jobs registered with it, and the per-job registers of
// PA-ATP (s_n, s_sum) and of AECN. It implements switchmodel.Program.
type Aggregator struct {
	sw    *switchmodel.Switch
	net   *netsim.Network
	cfg   AggregatorConfig
	mem   *Memory
	jobs  []*swJob
	njobs int

	ovfSeqs  int64   // overflowed sequences outstanding (AECN input)
	ovfGrads int64   // overflowed gradients outstanding (AECN input)
	aecnThr  float64 // eta (M + BDP)

	// Stats are the counters since creation.
	Stats AggregatorStats
}

var _ switchmodel.KindFilter = (*Aggregator)(nil)

// NewAggregator makes sw an aggregating switch with configuration cfg and
// installs the program on it.
func NewAggregator(sw *switchmodel.Switch, cfg AggregatorConfig) (*Aggregator, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	m := int(cfg.Memory / AggregatorBytes)
	a := &Aggregator{sw: sw, net: sw.Net(), cfg: cfg, mem: newMemory(sw.Sim(), m)}
	a.aecnThr = AECNThreshold(cfg.Eta, m, cfg.BDPPackets)
	sw.SetProgram(a)
	return a, nil
}

// Switch is the switch the program runs on.
func (a *Aggregator) Switch() *switchmodel.Switch { return a.sw }

// Config returns the configuration.
func (a *Aggregator) Config() AggregatorConfig { return a.cfg }

// Memory is the aggregator array.
func (a *Aggregator) Memory() *Memory { return a.mem }

// Jobs is the number of jobs registered now.
func (a *Aggregator) Jobs() int { return a.njobs }

// CheckLeaks reports aggregators that outlived their job, and, once no
// job is registered, any aggregator, pool or overflow count still held.
func (a *Aggregator) CheckLeaks() error {
	if a.Stats.Leaked > 0 {
		return fmt.Errorf("inagg: %d aggregators at switch %s were still held when their jobs finished", a.Stats.Leaked, a.sw.Name())
	}
	if a.njobs == 0 && (a.mem.used != 0 || a.mem.reserved != 0 || a.ovfGrads != 0 || a.ovfSeqs != 0) {
		return fmt.Errorf("inagg: switch %s has no jobs but %d aggregators used, %d reserved, %d overflow counts (%d sequences)",
			a.sw.Name(), a.mem.used, a.mem.reserved, a.ovfGrads, a.ovfSeqs)
	}
	return nil
}

// IngressKinds implements switchmodel.KindFilter: Ingress acts on
// gradients, rack aggregates (agg_placement=two-level: the PS rack's
// switch sums them; every-tier: every level above the first) and results,
// and forwards every other packet untouched.
func (a *Aggregator) IngressKinds() []uint8 {
	return []uint8{KindGradient, KindRackAggregate, KindResult}
}

// Ingress implements switchmodel.Program.
func (a *Aggregator) Ingress(sw *switchmodel.Switch, p *netsim.Packet, _ *netsim.Link) switchmodel.Verdict {
	switch p.Kind {
	case KindGradient:
		s := a.lookup(p, p.Dst)
		if s == nil || !s.proto.INA() {
			return switchmodel.Forward
		}
		a.Stats.Gradients++
		if s.proto == SwitchML {
			return a.slotIngress(s, p)
		}
		if s.level1 {
			return a.level1Ingress(s, p)
		}
		return a.hashedIngress(s, p)
	case KindRackAggregate:
		if s := a.lookup(p, p.Dst); s != nil && s.proto.Hashed() {
			switch {
			case !s.level1:
				return a.hashedIngress(s, p)
			case s.tree:
				return a.level1Ingress(s, p) // a tree's upper level sums the levels below
			}
		}
	case KindResult:
		if s := a.lookup(p, p.Src); s != nil && s.proto.Hashed() {
			a.resultPassing(s, p)
			switch w := p.Ext[extWorker]; {
			case w == -1 && !s.level1:
				a.multicast(s, p)
			case w <= -2 && s.tree:
				a.treeMulticast(s, p) // a subtree copy (tree.go)
			}
		}
	}
	return switchmodel.Forward
}

// hashedIngress is ATP's aggregation (and PA-ATP's, Sec. III-B1/IV): the
// index comes from asyncIndex; a free aggregator is allocated, a matching
// one accumulates, a busy one sends the gradient on to the PS. The
// asynchronous protocols reflect the gradient's header as a GACK carrying
// s_sum, except, by default, the gradient that completes the aggregate,
// which goes on to the PS as the aggregate (AggregatorConfig.GACKOnComplete).
func (a *Aggregator) hashedIngress(s *swJob, p *netsim.Packet) switchmodel.Verdict {
	seq := p.Seq
	w := int(p.Ext[extWorker])
	retx := p.Flags&netsim.FlagRetx != 0
	if s.proto.Async() {
		if !retx {
			// Sec. IV: md.delta = pkt.seq - S_n; S_n = pkt.seq; S_sum += delta.
			s.ssum += seq - s.sn[w]
			s.sn[w] = seq
			if seq > s.smax {
				s.smax = seq
			}
		}
		p.Ext[extSSum], p.Ext[extSMax] = s.ssum, s.smax
	}
	idx := a.indexOf(s, p)
	ag := &a.mem.a[idx]
	if retx {
		// A resend releases the partial aggregate (ATP's memory-leak
		// avoidance) and goes to the PS (Sec. III-B1): carrying it, or
		// beside it (AggregatorConfig.Flush).
		if ag.state == aggHashed && ag.job == s.id && ag.seq == seq {
			if a.cfg.Flush == FlushMerged {
				a.mergeResend(s, idx, p)
			} else {
				a.flush(s, idx, p)
			}
		}
		a.Stats.RetxForwarded++
		s.stats().Overflowed++
		a.countOverflow(s, seq, ovfResend)
		return switchmodel.Forward
	}
	m := &s.ring[seq&s.mask]
	if m.tag > seq || m.tag == seq && m.done {
		a.Stats.Late++ // the PS deduplicates and answers with the result
		return switchmodel.Forward
	}
	switch {
	case a.cfg.FollowOverflow && ag.state == aggFree && m.tag == seq && m.ovf > 0:
		// Once a contribution of this sequence overflowed to the PS, the
		// rest follow it there (AggregatorConfig.FollowOverflow).
		a.Stats.Collisions++
		s.stats().Overflowed++
		a.countOverflow(s, seq, ovfFollow)
		return switchmodel.Forward
	case a.cfg.ForwardPassed && ag.state == aggFree && s.proto.Async() && s.missingPassed(uint64(p.Ext[extBitmap]), seq):
		// Every partner of this contribution is beyond the switch, so the
		// sequence cannot complete here (AggregatorConfig.ForwardPassed).
		a.Stats.PassedForwarded++
		s.stats().Overflowed++
		a.countOverflow(s, seq, ovfPassed)
		return switchmodel.Forward
	case ag.state == aggFree:
		ag = a.allocate(s, idx, seq)
		a.Stats.Allocations++
	case ag.state == aggHashed && ag.job == s.id && ag.seq == seq:
	default:
		a.Stats.Collisions++
		s.stats().Overflowed++
		if ag.job == s.id {
			s.stats().SelfCollisions++
		}
		a.countOverflow(s, seq, a.busyCause())
		return switchmodel.Forward
	}
	bit := uint64(p.Ext[extBitmap]) // one worker's, or a rack's (KindRackAggregate)
	ce := p.Flags&netsim.FlagCE != 0
	if overlapping(ag.bitmap, bit) {
		a.Stats.Collisions++
		s.stats().Overflowed++
		a.countOverflow(s, seq, ovfCollision)
		return switchmodel.Forward
	}
	if ag.bitmap&bit == 0 {
		ag.bitmap |= bit
		ag.value += p.Ext[extValue]
		ag.ce = ag.ce || ce // ATP's switch ORs the contributions' ECN (see atpWindow)
		a.Stats.Absorbed++
		a.Stats.AggregatedBytes += uint64(p.Payload)
	}
	if ag.bitmap == s.full {
		a.Stats.Completions++
		out := p
		gack := s.proto.Async() && a.cfg.GACKOnComplete
		if gack {
			out = a.sw.Sim().Packets().Get()
		}
		a.fillAggregate(s, out, ag, seq, p.Payload, KindAggregate)
		if s.proto.Async() {
			// Every other contribution's CE went back to its worker in a
			// GACK; the aggregate, whose AACK stands in for the completing
			// contribution's GACK (see GACKOnComplete), carries that
			// contribution's CE alone.
			out.Flags &^= netsim.FlagCE
			if ce {
				out.Flags |= netsim.FlagCE
			}
		}
		a.release(s, idx)
		if gack {
			a.sw.Emit(out)
			a.reflectGACK(s, p)
		}
		return switchmodel.Forward
	}
	if s.proto.Async() {
		if a.cfg.ForwardPassed && s.missingPassed(ag.bitmap, seq) {
			// Every partner missing from the aggregate is beyond the
			// switch: it cannot complete here, so it goes to the PS now
			// (AggregatorConfig.ForwardPassed).
			a.Stats.PassedFlushes++
			a.flush(s, idx, p)
		}
		a.reflectGACK(s, p)
		return switchmodel.Forward
	}
	a.sw.Consume(p)
	return switchmodel.Consumed
}

// fillAggregate writes aggregator ag's contents into q, addressed to the PS.
func (a *Aggregator) fillAggregate(s *swJob, q *netsim.Packet, ag *aggregator, seq int64, payload netsim.Bytes, kind uint8) {
	a.Stats.Sent++
	q.Kind = kind
	q.Seq = seq
	q.Src, q.SrcEP = a.sw.ID(), -1
	q.Dst, q.DstEP = s.ps, s.psEP
	q.Flow = flowLabel(int(s.id), MaxWorkers)
	if s.tree && s.level1 {
		q.Flow = s.upFlow // up the job's pinned tree (tree.go)
	}
	q.Payload = payload
	q.Size = s.job.hdr + payload
	q.Flags = 0
	if ag.ce {
		q.Flags = netsim.FlagCE
	}
	q.Ext[extJob] = int64(s.id)
	q.Ext[extWorker] = -1
	q.Ext[extValue] = ag.value
	q.Ext[extBitmap] = int64(ag.bitmap)
}

// flush sends aggregator idx's partial aggregate to the PS and frees it.
func (a *Aggregator) flush(s *swJob, idx int, trigger *netsim.Packet) {
	q := a.sw.Sim().Packets().Get()
	a.fillAggregate(s, q, &a.mem.a[idx], trigger.Seq, trigger.Payload, KindPartial)
	a.release(s, idx)
	a.Stats.Flushes++
	a.sw.Emit(q)
}

// mergeResend turns resend p into the partial aggregate of aggregator idx
// plus p's own contribution if the aggregate lacks it, addressed to the
// PS, and frees the aggregator: one packet, as ATP's switch sends
// (AggregatorConfig.Flush). The packet keeps its resend flag and
// its worker, whom a PS holding the complete sequence answers.
func (a *Aggregator) mergeResend(s *swJob, idx int, p *netsim.Packet) {
	ag := &a.mem.a[idx]
	bit := uint64(p.Ext[extBitmap])
	if ag.bitmap&bit == 0 {
		ag.bitmap |= bit
		ag.value += p.Ext[extValue]
		a.Stats.Absorbed++
		a.Stats.AggregatedBytes += uint64(p.Payload)
	}
	w := p.Ext[extWorker]
	a.fillAggregate(s, p, ag, p.Seq, p.Payload, KindPartial)
	p.Flags |= netsim.FlagRetx
	p.Ext[extWorker] = w
	a.release(s, idx)
	a.Stats.Flushes++
}

// reflectGACK turns gradient p into a GACK back to its worker: the header
// without payload (Sec. IV "remove_header ... return the packet header to
// the corresponding sender as a GACK"), echoing CE and carrying s_sum.
func (a *Aggregator) reflectGACK(s *swJob, p *netsim.Packet) {
	makeGACK(p, a.sw.ID(), s.job.hdr)
	a.Stats.GACKs++
	a.Stats.Sent++
}

// makeGACK rewrites gradient p in place into its GACK sent by node from.
func makeGACK(p *netsim.Packet, from netsim.NodeID, hdr netsim.Bytes) {
	ce := p.Flags&netsim.FlagCE != 0
	p.Kind = KindGACK
	p.Dst, p.DstEP = p.Src, p.SrcEP
	p.Src, p.SrcEP = from, -1
	p.Size, p.Payload = hdr, 0
	p.Flags &= netsim.FlagRetx
	if ce {
		p.Flags |= netsim.FlagECE
	}
}

// popcount is the number of set bits.
func popcount(x uint64) int { return bits.OnesCount64(x) }
