package inarig

import (
	"fmt"
	"math"

	"syncsim/experiments"
	"syncsim/inagg"
	"syncsim/internal/timeline"
	"syncsim/netsim"
	"syncsim/scenarios/internal/setup"
	"syncsim/topologies"
	"syncsim/transport"
	"syncsim/workloads/background"
)

// Rig is one INA scenario: a fabric, its aggregating switches, the jobs
// and an optional background stack. It stops the simulation when the last
// job finishes.
type Rig struct {
	Sim   *netsim.Sim
	Net   *netsim.Network
	Fab   *topologies.Fabric  // set by the scenario once built
	Aggs  []*inagg.Aggregator // aggregating switches, added by the scenario
	Jobs  []*inagg.Job        // in the order AddJob created them
	Stack *transport.Stack    // background stack, nil without background
	// BG is the background generator (nil without background) and
	// BGHosts the numbering of the fabric's hosts that flows_file and
	// fct_out use.
	BG      *background.Generator
	BGHosts *background.HostMap
	Params  *inagg.Params // the run's worker constants (JobParams)
	// Skip is how many iterations at the start of every job the
	// iteration-time metrics leave out (skip_iters).
	Skip int
	// BaseRTT is the unloaded round trip iter_rtts is counted in (0:
	// iter_rtts undefined).
	BaseRTT netsim.Time
	// UtilEvery, when positive, is the sampling period of the fabric_util
	// series a run with Series set reports.
	UtilEvery netsim.Time
	// TopTier, set before the first AddJob, makes the rig count the bytes
	// sent on the cables of the fabric's top tier from the first job
	// start (TopBytes).
	TopTier bool

	pending  int         // jobs not yet done
	first    netsim.Time // earliest job start
	run      *experiments.Run
	goal     float64      // results the workers receive when every job is done
	up, down *Tier        // fabric tiers, measured from the first job start
	top      *Tier        // the top tier's cables both ways (TopTier), likewise
	series   *utilSampler // the fabric_util series, when asked for

	diag  diagnostics   // per-job series (series.go)
	drops *dropBooks    // drop books (drops.go), from the run's start
	err   error         // a set-up error of Run, returned by Fill
	trace *timeline.Log // the jobs' timelines (Run.Trace), returned by Fill
}

// New starts the scenario of run r.
func New(r *experiments.Run) *Rig {
	sim := setup.NewSim(r)
	g := &Rig{Sim: sim, Net: netsim.NewNetwork(sim), first: -1, Params: JobParams(r.Params), run: r}
	if r.Trace {
		g.trace = &timeline.Log{}
	}
	return g
}

// AggConfig is the aggregator configuration of the run: switch_mem_mb,
// eta, the fabric's bandwidth-delay product in INA packets and, where the
// experiment has them, the AggParams (their defaults otherwise).
func AggConfig(ps experiments.Params, bdp int) inagg.AggregatorConfig {
	c := inagg.DefaultAggregatorConfig()
	c.Memory = netsim.Bytes(math.Round(ps.Float("switch_mem_mib") * float64(netsim.MiB)))
	c.Eta = ps.Float("eta")
	c.BDPPackets = bdp
	if ps.Has("agg_index") {
		// The enum admits only IndexModeNames and OccupancyModeNames.
		c.Index, _ = inagg.ParseIndexMode(ps.String("agg_index"))
		c.Occupancy, _ = inagg.ParseOccupancyMode(ps.String("aecn_count"))
		c.FollowOverflow = ps.String("agg_collision") == "follow"
		c.ForwardPassed = ps.String("agg_passed") == "ps"
		c.Flush, _ = inagg.ParseFlushMode(ps.String("resend_flush"))
		c.GACKOnComplete = ps.Bool("gack_on_complete")
	}
	return c
}

// SwitchMLPool is the SwitchML slot pool of each of n SwitchML jobs
// aggregating at a switch of configuration ac when the run asks for pool
// (0: one bandwidth-delay product): pool itself when the n pools, with
// their shadow copies, fit in the switch memory, else an equal share of
// it, as SwitchML's controller partitions the aggregators among the jobs
// it admits.
func SwitchMLPool(ac inagg.AggregatorConfig, pool, n int) int {
	size := pool
	if size == 0 {
		size = ac.BDPPackets
	}
	m := int(ac.Memory / inagg.AggregatorBytes)
	if n < 1 || 2*n*size <= m {
		return pool
	}
	return max(1, m/(2*n))
}

// WithPool returns the run's worker constants with SwitchML pool size pool.
func (g *Rig) WithPool(pool int) *inagg.Params {
	if pool == g.Params.SwitchMLPool {
		return g.Params
	}
	p := *g.Params
	p.SwitchMLPool = pool
	return &p
}

// BDP is the bandwidth-delay product in INA packets (310 B) of a path
// of the given rate and base round-trip time, at least one packet.
func BDP(rate netsim.Rate, rtt netsim.Time) int {
	pkt := inagg.INAPayloadBytes + inagg.INAHeaderBytes
	b := int(math.Round(float64(rate) * rtt.Seconds() / float64(8*pkt)))
	if b < 1 {
		b = 1
	}
	return b
}

// BaseRTT is the unloaded round trip of an INA gradient from src to dst and
// its acknowledgement back: propagation both ways plus store-and-forward of
// the gradient at every hop and of the 62 B acknowledgement on the way back.
func BaseRTT(net *netsim.Network, src, dst netsim.NodeID) (netsim.Time, error) {
	var t netsim.Time
	for _, leg := range []struct {
		a, b netsim.NodeID
		size netsim.Bytes
	}{{src, dst, inagg.INAPayloadBytes + inagg.INAHeaderBytes}, {dst, src, inagg.INAHeaderBytes}} {
		path, err := net.Path(leg.a, leg.b, 0)
		if err != nil {
			return 0, err
		}
		for _, id := range path {
			l := net.Link(id)
			t += l.Delay + netsim.TxTime(leg.size, l.Rate)
		}
	}
	return t, nil
}

// ComputeFunc is the constant compute time of compute_ms (nil for zero).
func ComputeFunc(ps experiments.Params) func(w, k int) netsim.Time {
	c := netsim.FromMillis(ps.Float("compute_ms"))
	if c <= 0 {
		return nil
	}
	return func(int, int) netsim.Time { return c }
}

// AddJob creates and starts a job with the run's worker constants; the rig
// stops the simulation when its last job is done.
func (g *Rig) AddJob(cfg inagg.JobConfig) (*inagg.Job, error) {
	if cfg.Params == nil {
		cfg.Params = g.Params
	}
	if g.trace != nil && cfg.Buckets != nil && cfg.Compute != nil && cfg.Trace == nil {
		cfg.Trace = g.trace.NewJob(fmt.Sprintf("%s %d", cfg.Protocol, cfg.ID), len(cfg.Workers))
	}
	cfg.OnDone = func(*inagg.Job) {
		g.pending--
		if g.pending == 0 {
			g.Sim.Stop()
		}
	}
	j, err := inagg.NewJob(g.Net, cfg)
	if err != nil {
		return nil, err
	}
	if g.first < 0 || cfg.Start < g.first {
		g.markAt(cfg.Start)
	}
	if err := j.Start(); err != nil {
		return nil, err
	}
	g.Jobs = append(g.Jobs, j)
	g.goal += float64(j.Workers()) * float64(j.PacketsPerIteration()) * float64(cfg.Iterations)
	g.pending++
	return j, nil
}

// markAt makes start the first job start: the fabric tiers' window opens
// then, before any job's packet of that instant (events of one time fire
// in the order scheduled, and the job is started after this call).
func (g *Rig) markAt(start netsim.Time) {
	g.first = start
	if g.Fab == nil {
		return
	}
	if g.up == nil {
		g.up, g.down = FabricTiers(g.Fab)
	}
	if g.TopTier && g.top == nil {
		g.top = TopTier(g.Fab)
	}
	g.Sim.At(start, func() {
		if g.Sim.Now() == g.first {
			g.up.Mark(g.first)
			g.down.Mark(g.first)
			if g.top != nil {
				g.top.Mark(g.first)
			}
		}
	})
}

// AddBackground starts DCTCP background flows from senders to dsts (nil:
// all-to-all among senders) at t = 0, of the run's workload at host-basis
// load (background.LoadDefinition), until stop. Load 0 adds nothing.
//
// With flows_file set (experiments that take it), the file's flows are
// replayed instead, between any hosts of the fabric (g.Fab) it names, and
// load, senders and dsts are unused.
func (g *Rig) AddBackground(ps experiments.Params, load float64, senders, dsts []netsim.NodeID, rate netsim.Rate, stop netsim.Time) error {
	replaying := ps.Has("flows_file") && ps.Str("flows_file") != ""
	if load == 0 && !replaying {
		return nil
	}
	cfg := background.Config{Hosts: senders, Dsts: dsts, HostRate: rate, Stop: stop, Name: "ina-bg", Network: g.Net}
	if replaying {
		g.BGHosts = setup.HostMap(g.Fab)
		replay, err := setup.Replays(ps, g.BGHosts, stop)
		if err != nil {
			return err
		}
		cfg.Replay, cfg.Hosts, cfg.Dsts = replay, g.Fab.HostIDs(), nil
	} else {
		cdf, err := background.Workload(ps.String("workload"))
		if err != nil {
			return err
		}
		cfg.CDF, cfg.Load = cdf, load
		if g.Fab != nil {
			g.BGHosts = setup.HostMap(g.Fab)
		}
	}
	if g.Stack == nil {
		g.Stack = transport.NewStack(g.Net, transport.DefaultConfig())
	}
	gen, err := background.New(g.Sim, g.Stack, cfg)
	if err != nil {
		return fmt.Errorf("background: %w", err)
	}
	g.BG = gen
	if err := setup.RecordFCT(g.run, gen); err != nil {
		return err
	}
	// The rig reads nothing of the flows but their load on the fabric:
	// keep no record of them, so memory does not grow with the run.
	if err := gen.Discard(); err != nil {
		return err
	}
	gen.Start()
	return nil
}

// WriteFCT writes the background flows to the run's fct.txt
// (setup.FCTFile) when it has one; fct_out without background flows is
// an error.
func (g *Rig) WriteFCT(r *experiments.Run) error {
	if setup.FCTFile(r) == "" {
		return nil
	}
	if g.BG == nil || g.BGHosts == nil {
		return fmt.Errorf("%s: fct_out=%q writes the background flows, and there are none (load=0, no flows_file)", r.Exp.Name, r.Params.Str("fct_out"))
	}
	return setup.WriteFCT(r, g.Net, g.Stack.Config(), g.BGHosts, g.BG)
}

// Partition puts the rig's network on the parallel engine when the run
// asks for it (setup.Parallel: engine=partitioned); call it once the
// fabric is built, before any aggregator, job or background stack.
func (g *Rig) Partition() error {
	if err := setup.Parallel(g.run, g.Net); err != nil {
		return err
	}
	if g.Partitioned() && g.Sim.Lookahead() == netsim.Never {
		// One window to the horizon: the jobs' books would be folded
		// only at its end.
		return fmt.Errorf("the parallel engine found no lookahead (a zero-delay cable between partitions)")
	}
	return nil
}

// Partitioned reports whether the rig runs on the parallel engine.
func (g *Rig) Partitioned() bool { return g.Sim.Partitions() != nil }

// Run simulates until every job is done or the horizon. On the parallel
// engine the last job's end stops the run at the barrier after it (the
// end of the window in which its last worker finished, at most one
// lookahead later), and every partition's clock is then settled to that
// instant, so that the end-of-run time averages (aggregator memory,
// the fabric tiers) are read at one end time.
func (g *Rig) Run(horizon netsim.Time) {
	if g.pending > 0 {
		if g.err = g.startDropBooks(); g.err != nil {
			return
		}
		if g.run.Series && g.Fab != nil && g.UtilEvery > 0 {
			g.startUtilSeries(g.UtilEvery)
		}
		g.watch(horizon)
		g.startSeries()
		g.Sim.Run(horizon)
		g.Sim.Settle()
	}
}

// TopBytes is the bytes sent on the top tier's cables (TopTier) from the
// first job start to now, or NaN without TopTier or before any job.
func (g *Rig) TopBytes() float64 {
	if g.top == nil {
		return math.NaN()
	}
	return float64(g.top.Bytes())
}
