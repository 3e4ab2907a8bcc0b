package background

import (
	"fmt"

	"syncsim/netsim"
)

// DefaultDPort and DefaultPriority are the destination port and priority
// group recorded for flows the generator draws itself (not replayed from
// a file): those the HPCC branch's sample flow file gives every flow
// (simulation/mix/flow.txt), and the port its analysis script reads as
// ordinary traffic (analysis/fct_analysis.py, -t 0 keeps $4 == 100).
const (
	DefaultDPort    = 100
	DefaultPriority = 3
)

// checkReplay validates Config.Replay: distinct hosts, positive sizes,
// starts in [Start, Stop) and non-decreasing.
func checkReplay(cfg Config) error {
	prev := cfg.Start
	for i, r := range cfg.Replay {
		switch {
		case r.Src == r.Dst:
			return fmt.Errorf("background: replayed flow %d goes from host %d to itself", i, r.Src)
		case r.Size <= 0:
			return fmt.Errorf("background: replayed flow %d has size %d; want a positive size", i, r.Size)
		case r.Start < prev:
			return fmt.Errorf("background: replayed flow %d starts at %v, before %v (the previous flow or Config.Start)", i, r.Start, prev)
		case cfg.Stop != 0 && r.Start >= cfg.Stop:
			return fmt.Errorf("background: replayed flow %d starts at %v, not before stop %v", i, r.Start, cfg.Stop)
		}
		prev = r.Start
	}
	return nil
}

// nextReplay is the start of the next flow to replay (netsim.Never: none
// left).
func (g *Generator) nextReplay() netsim.Time {
	if g.started >= len(g.cfg.Replay) {
		return netsim.Never
	}
	return g.cfg.Replay[g.started].Start
}

// replayOf is the replayed flow id (nil when the generator draws its
// flows).
func (g *Generator) replayOf(id int) *Replay {
	if g.cfg.Replay == nil {
		return nil
	}
	return &g.cfg.Replay[id]
}

// clock is the Sim that runs host h's events: its partition's on a
// partitioned network, the generator's otherwise.
func (g *Generator) clock(h netsim.NodeID) *netsim.Sim {
	if g.par {
		return g.cfg.Network.Node(h).Base().Sim()
	}
	return g.sim
}

// FlowRecord is the full record of one flow under RecordFlows: what the
// HPCC branch's fct.txt holds of it.
type FlowRecord struct {
	// Flow holds the flow's hosts, size, start, and End, when the
	// receiver held every byte (Done).
	Flow
	// Acked is when the sender had every byte acknowledged (AckedDone),
	// the end of a flow in the HPCC branch's fct.txt (its QpComplete
	// fires on the last ACK). Engines without acknowledgements never set
	// it.
	Acked     netsim.Time
	AckedDone bool
	// DPort and Priority are the flow file's (DefaultDPort and
	// DefaultPriority for drawn flows).
	DPort, Priority int

	src, dst *netsim.Sim
}

// wrap returns the flow's completion callback, which records End before
// calling done, and the sender's acknowledgement callback.
func (r *FlowRecord) wrap(done func()) (func(), func()) {
	return func() {
			r.End, r.Done = r.dst.Now(), true
			if done != nil {
				done()
			}
		}, func() {
			r.Acked, r.AckedDone = r.src.Now(), true
		}
}

// ledger keeps a FlowRecord per flow started.
type ledger struct {
	recs []*FlowRecord
}

// add records a flow as it is drawn (on the coordinator of a partitioned
// run: the records are then written by the flows' partitions, each field
// by one of them, and read after the run).
func (l *ledger) add(f Flow, r *Replay, src, dst *netsim.Sim) *FlowRecord {
	rec := &FlowRecord{Flow: f, DPort: DefaultDPort, Priority: DefaultPriority, src: src, dst: dst}
	if r != nil {
		rec.DPort, rec.Priority = r.DPort, r.Priority
	}
	l.recs = append(l.recs, rec)
	return rec
}

// RecordFlows makes the generator keep a FlowRecord of every flow it
// starts, beside whatever Measure summarises: memory grows with the
// flows, so it is meant for replays and bounded runs (the fct.txt
// output). The simulation is the same with or without it. Call it before
// Start.
func (g *Generator) RecordFlows() error {
	if g.on {
		return fmt.Errorf("background: RecordFlows must be called before Start")
	}
	if g.ledger == nil {
		g.ledger = &ledger{}
	}
	return nil
}

// Records returns the records kept under RecordFlows, in start order
// (nil without it). Read them after the run.
func (g *Generator) Records() []*FlowRecord {
	if g.ledger == nil {
		return nil
	}
	return g.ledger.recs
}
