package background

import (
	"fmt"
	"math"
	"math/rand/v2"

	"syncsim/netsim"
)

// Random stream names. Arrivals, sizes and host pairs draw from separate
// streams, so changing the workload does not move arrival times or pairs,
// and changing the load does not change which sizes are drawn. A generator
// with a Config.Name uses "background/<name>/arrivals" and so on instead, so
// two generators in one Sim draw independently.
const (
	StreamArrivals = "background/arrivals"
	StreamSizes    = "background/sizes"
	StreamPairs    = "background/pairs"
)

// Config describes one background-traffic source.
type Config struct {
	// CDF is the flow-size distribution.
	CDF *CDF
	// Load is the offered load in (0, 1], as defined by LoadDefinition:
	// offered bytes/s over the aggregate NIC capacity of Hosts,
	// len(Hosts) * HostRate / 8. Loads above 1 are rejected: the offered
	// bytes would exceed what the senders' NICs can carry, queues would
	// grow without bound and FCT statistics would depend on the horizon.
	Load float64
	// Hosts are the senders; they are also the receivers unless Dsts is
	// set. Their NIC capacity is the denominator of the load.
	Hosts []netsim.NodeID
	// Dsts optionally restricts the receivers (for example to the hosts on
	// the far side of a bottleneck, or to hosts without training jobs).
	// nil means all-to-all among Hosts.
	Dsts []netsim.NodeID
	// HostRate is each sender's NIC rate.
	HostRate netsim.Rate
	// Start and Stop bound the arrival process: flows start in
	// [Start, Stop). Stop == 0 means no end (use MaxFlows or Sim.Run's
	// horizon to bound the run).
	Start, Stop netsim.Time
	// Class labels the flows in netsim.BulkOpts.
	Class uint8
	// MaxFlows caps the number of flows started; 0 means unlimited.
	MaxFlows int
	// Name distinguishes the random streams of several generators in one
	// Sim; "" uses the plain stream names (StreamArrivals, ...).
	Name string
	// Replay, when not nil, replaces the Poisson arrivals: the generator
	// starts exactly these flows, each at its Start (non-decreasing), and
	// draws nothing (CDF and Load are then unused and may be zero). Hosts
	// and HostRate still define the capacity the offered load is measured
	// against. See FlowFile.Replays.
	Replay []Replay
	// Network is the hosts' network. It is needed (and only used) when
	// the Sim is the coordinator of a partitioned network (the parallel
	// engine): each flow then starts on its source's partition and
	// completes on its destination's (see partitioned.go).
	Network *netsim.Network
}

// Replay is one flow to replay (Config.Replay).
type Replay struct {
	Src, Dst netsim.NodeID
	Size     netsim.Bytes
	Start    netsim.Time
	// DPort and Priority are the flow file's destination port and
	// priority group, kept for the fct.txt output; the fabric's ports have
	// one FIFO queue, so the priority does not change how the flow is
	// served.
	DPort, Priority int
}

// Flow is the record of one background flow.
type Flow struct {
	ID       int
	Src, Dst netsim.NodeID
	Size     netsim.Bytes
	Start    netsim.Time // when Bulk.Send was called
	End      netsim.Time // when done was called; meaningful only if Done
	Done     bool
}

// FCT is the flow-completion time End - Start (0 if not done).
func (f *Flow) FCT() netsim.Time {
	if !f.Done {
		return 0
	}
	return f.End - f.Start
}

// Generator starts background flows with Poisson arrivals at a target load
// between random host pairs, through a netsim.Bulk, and keeps a record of
// every flow.
//
// The arrival rate follows LoadDefinition:
//
//	lambda = Load * len(Hosts) * HostRate/8 / CDF.Mean()   flows per second,
//
// with exponential inter-arrival times of mean 1/lambda (drawn in float64
// seconds and rounded to the picosecond). The source is uniform over Hosts;
// the destination is uniform over Dsts (or Hosts) minus the source, so in
// the all-to-all case every ordered pair with src != dst is equally likely.
type Generator struct {
	sim    *netsim.Sim
	bulk   netsim.Bulk
	cfg    Config
	lambda float64

	arrivals, sizes, pairs *rand.Rand

	dsts    []netsim.NodeID
	srcDst  []int // for each source index, its index in dsts, or -1
	flows   []Flow
	started int
	meter   *meter // set by Measure: flows are summarised online, not kept
	discard bool   // set by Discard: flows are neither kept nor summarised
	on      bool

	// On a partitioned network (par set): the coordinator draws the
	// arrivals as a netsim.Feeder; next is the next arrival's time
	// (netsim.Never: none left).
	par  bool
	next netsim.Time

	ledger *ledger // set by RecordFlows
}

// New validates cfg and returns a generator that will send on bulk. It is an
// error if the CDF is missing, Load is not in (0, 1], HostRate is not
// positive, there is no (src, dst) pair with src != dst (for example fewer
// than 2 hosts), a host is listed twice, Start is negative, Stop is not after
// Start, or MaxFlows is negative.
func New(sim *netsim.Sim, bulk netsim.Bulk, cfg Config) (*Generator, error) {
	switch {
	case sim == nil:
		return nil, fmt.Errorf("background: nil simulation")
	case bulk == nil:
		return nil, fmt.Errorf("background: nil bulk-transfer engine")
	case cfg.CDF == nil && cfg.Replay == nil:
		return nil, fmt.Errorf("background: no flow-size CDF")
	case cfg.Replay == nil && (math.IsNaN(cfg.Load) || cfg.Load <= 0 || cfg.Load > 1):
		return nil, fmt.Errorf("background: load %v is outside (0, 1]", cfg.Load)
	case cfg.HostRate <= 0:
		return nil, fmt.Errorf("background: host NIC rate %v is not positive", cfg.HostRate)
	case cfg.Start < 0:
		return nil, fmt.Errorf("background: start %v is negative", cfg.Start)
	case cfg.Stop != 0 && cfg.Stop <= cfg.Start:
		return nil, fmt.Errorf("background: stop %v is not after start %v", cfg.Stop, cfg.Start)
	case cfg.MaxFlows < 0:
		return nil, fmt.Errorf("background: max flows %d is negative", cfg.MaxFlows)
	case len(cfg.Hosts) == 0:
		return nil, fmt.Errorf("background: no hosts")
	}
	if cfg.Replay != nil {
		if err := checkReplay(cfg); err != nil {
			return nil, err
		}
	} else if cfg.CDF.Mean() <= 0 {
		return nil, fmt.Errorf("background: flow-size CDF %q has mean %v; want a positive mean", cfg.CDF.Name(), cfg.CDF.Mean())
	}
	if err := checkDistinct("host", cfg.Hosts); err != nil {
		return nil, err
	}
	dsts := cfg.Hosts
	if cfg.Dsts != nil {
		if err := checkDistinct("destination", cfg.Dsts); err != nil {
			return nil, err
		}
		dsts = cfg.Dsts
	}
	g := &Generator{
		sim:      sim,
		bulk:     bulk,
		cfg:      cfg,
		arrivals: sim.Rand(streamName(StreamArrivals, cfg.Name)),
		sizes:    sim.Rand(streamName(StreamSizes, cfg.Name)),
		pairs:    sim.Rand(streamName(StreamPairs, cfg.Name)),
		dsts:     dsts,
		srcDst:   make([]int, len(cfg.Hosts)),
	}
	for i, s := range cfg.Hosts {
		g.srcDst[i] = -1
		for j, d := range dsts {
			if d == s {
				g.srcDst[i] = j
				break
			}
		}
		if cfg.Replay == nil && g.srcDst[i] >= 0 && len(dsts) == 1 {
			return nil, fmt.Errorf("background: host %d has no destination other than itself; need at least two distinct hosts", s)
		}
	}
	if sim.Partitions() != nil {
		if cfg.Network == nil || cfg.Network.Sim != sim {
			return nil, fmt.Errorf("background: a partitioned simulation needs the hosts' network in Config.Network")
		}
		g.par, g.next = true, netsim.Never
	}
	if cfg.Replay == nil {
		capacity := float64(len(cfg.Hosts)) * float64(cfg.HostRate) / 8 // bytes/s
		g.lambda = cfg.Load * capacity / cfg.CDF.Mean()
	}
	return g, nil
}

// streamName puts a generator's name into a stream name:
// "background/arrivals" becomes "background/<name>/arrivals".
func streamName(base, name string) string {
	if name == "" {
		return base
	}
	return "background/" + name + base[len("background"):]
}

// checkDistinct rejects a host list with repeats (it would skew the pair
// distribution and the capacity).
func checkDistinct(what string, ids []netsim.NodeID) error {
	seen := make(map[netsim.NodeID]struct{}, len(ids))
	for _, id := range ids {
		if _, ok := seen[id]; ok {
			return fmt.Errorf("background: %s %d is listed twice", what, id)
		}
		seen[id] = struct{}{}
	}
	return nil
}

// Lambda is the flow arrival rate in flows per second (0 when replaying).
func (g *Generator) Lambda() float64 { return g.lambda }

// Capacity is the aggregate NIC capacity of the senders in bytes per second,
// the denominator of the load.
func (g *Generator) Capacity() float64 {
	return float64(len(g.cfg.Hosts)) * float64(g.cfg.HostRate) / 8
}

// Config returns the configuration the generator was built with.
func (g *Generator) Config() Config { return g.cfg }

// Start schedules the first arrival at Start plus an exponential gap (or
// now plus the gap, if the simulation is already past Start). Calling Start
// twice is a programming error and panics.
func (g *Generator) Start() {
	if g.on {
		panic("background: Generator.Start called twice")
	}
	g.on = true
	t := g.cfg.Start
	if now := g.sim.Now(); now > t {
		t = now
	}
	g.schedule(t)
	if g.par {
		g.sim.AddFeeder(g)
	}
}

// schedule arranges the next arrival one exponential gap after t, unless it
// would fall at or after Stop.
func (g *Generator) schedule(t netsim.Time) {
	next := g.after(t)
	if g.par {
		g.next = next
		return
	}
	if next != netsim.Never {
		g.sim.Schedule(next, g, 0, nil, 0)
	}
}

// after draws the next arrival's time, one exponential gap after t
// (netsim.Never when it falls at or after Stop: the process ends).
func (g *Generator) after(t netsim.Time) netsim.Time {
	if g.cfg.Replay != nil {
		return g.nextReplay()
	}
	secs := g.arrivals.ExpFloat64() / g.lambda
	if secs >= (netsim.Never - t).Seconds() {
		return netsim.Never // beyond the end of virtual time
	}
	next := t + netsim.FromSeconds(secs)
	if g.cfg.Stop != 0 && next >= g.cfg.Stop {
		return netsim.Never
	}
	return next
}

// HandleEvent starts the flow whose arrival is due and schedules the next
// arrival. It implements netsim.Handler.
func (g *Generator) HandleEvent(ev netsim.Event) {
	a, ok := g.arrive(g.sim.Now())
	if ok {
		a.send()
	}
}

// arrival is one flow, drawn and counted, ready to be sent.
type arrival struct {
	g        *Generator
	src, dst netsim.NodeID
	size     netsim.Bytes
	opts     netsim.BulkOpts
	done     func()
	rec      *FlowRecord // set under RecordFlows
}

// HandleEvent sends the flow: on a partitioned network, the event on the
// source's partition (see Feed).
func (a *arrival) HandleEvent(netsim.Event) { a.send() }

func (a *arrival) send() {
	if a.rec != nil {
		a.done, a.opts.Acked = a.rec.wrap(a.done)
	}
	a.g.bulk.Send(a.src, a.dst, a.size, a.opts, a.done)
}

// arrive draws the flow arriving at now (pair, size), counts it, draws the
// next arrival and returns the flow to send; ok is false once MaxFlows
// flows have started.
func (g *Generator) arrive(now netsim.Time) (a *arrival, ok bool) {
	if g.cfg.MaxFlows > 0 && g.started >= g.cfg.MaxFlows {
		if g.par {
			g.next = netsim.Never
		}
		return nil, false
	}
	var (
		src, dst netsim.NodeID
		size     netsim.Bytes
	)
	if g.cfg.Replay != nil {
		r := &g.cfg.Replay[g.started]
		src, dst, size = r.Src, r.Dst, r.Size
	} else {
		src, dst = g.pickPair()
		size = g.cfg.CDF.Sample(g.sizes)
	}
	id := g.started
	g.started++
	f := Flow{ID: id, Src: src, Dst: dst, Size: size, Start: now}
	// Draw the next arrival before sending, so an engine that calls
	// done synchronously sees a consistent generator.
	if g.cfg.MaxFlows == 0 || g.started < g.cfg.MaxFlows {
		g.schedule(now)
	} else if g.par {
		g.next = netsim.Never
	}
	a = &arrival{g: g, src: src, dst: dst, size: size, opts: netsim.BulkOpts{Class: g.cfg.Class, Tag: int64(id)}}
	if r, ok := g.bulk.(idReserver); ok && g.par {
		// Drawn ahead on the coordinator: the flow takes the number
		// it would take if opened now, as on an unpartitioned run.
		a.opts.ID = r.ReserveID()
	}
	// done runs where the flow completes: the destination's Sim.
	clock, part := g.sim, 0
	if g.par {
		clock = g.cfg.Network.Node(dst).Base().Sim()
		part = clock.Partition()
	}
	if g.ledger != nil {
		a.rec = g.ledger.add(f, g.replayOf(id), g.clock(src), clock)
	}
	if m := g.meter; m != nil {
		// Online: the record lives in the completion callback only, and
		// the meter keeps counters and bounded samples.
		rec := &measured{Flow: f}
		rec.bucket, rec.in = m.start(&rec.Flow)
		a.done = func() {
			if rec.Done {
				panic("background: bulk engine called done twice for one flow")
			}
			rec.End, rec.Done = clock.Now(), true
			if rec.in {
				m.done(&rec.Flow, rec.bucket, part)
			}
		}
		return a, true
	}
	if g.discard {
		done := false
		a.done = func() {
			if done {
				panic("background: bulk engine called done twice for one flow")
			}
			done = true
		}
		return a, true
	}
	g.flows = append(g.flows, f)
	a.done = func() {
		f := &g.flows[id]
		if f.Done {
			panic("background: bulk engine called done twice for one flow")
		}
		f.End, f.Done = clock.Now(), true
	}
	return a, true
}

// measured is a flow in flight under Measure: its record, its size bucket
// and whether it started in the measurement window.
type measured struct {
	Flow
	bucket int
	in     bool
}

// pickPair draws a source uniformly from Hosts and a destination uniformly
// from the receivers other than the source. The destination index is drawn
// from one fewer slot and shifted past the source, so each flow takes
// exactly two draws and no rejection loop is needed.
func (g *Generator) pickPair() (src, dst netsim.NodeID) {
	i := g.pairs.IntN(len(g.cfg.Hosts))
	src = g.cfg.Hosts[i]
	self := g.srcDst[i]
	if self < 0 {
		return src, g.dsts[g.pairs.IntN(len(g.dsts))]
	}
	j := g.pairs.IntN(len(g.dsts) - 1)
	if j >= self {
		j++
	}
	return src, g.dsts[j]
}

// Discard makes the generator keep no record of its flows, for a caller
// that wants only their traffic: memory then stays constant however long
// the run (Flows returns none, Stats and Summary fail). The flows, their
// random draws and so the simulation are the same as without it. Call
// it before Start.
func (g *Generator) Discard() error {
	if g.on {
		return fmt.Errorf("background: Discard must be called before Start")
	}
	if g.meter != nil {
		return fmt.Errorf("background: the generator measures its flows (Measure); it cannot also discard them")
	}
	g.discard = true
	return nil
}

// Flows returns the flows started so far, in start order (none under
// Measure or Discard, which keep no records). The slice is the generator's own; do
// not modify it.
func (g *Generator) Flows() []Flow { return g.flows }

// Started is the number of flows started so far.
func (g *Generator) Started() int { return g.started }
