package experiments

import (
	"fmt"
	"math"

	"syncsim/inagg"
	"syncsim/netsim"
	"syncsim/topologies"
	"syncsim/transport"
	"syncsim/workloads/background"
	"syncsim/workloads/training"
)

// Shared pieces of the in-network aggregation experiments (PA-ATP paper,
// Li et al.): parameters, gradient sizes, the run loop that stops when every
// job has finished, and the common metrics.

// inaModelChoices are the models of PA-ATP Sec. V-A plus "custom", whose
// gradient is gradient_mb.
func inaModelChoices() []string {
	return append(append([]string(nil), training.ModelNames...), "custom")
}

// inaCommonParams are the parameters every INA experiment takes, with the
// experiment's own defaults for the protocol, model, scale and iterations.
func inaCommonParams(proto, model string, models []string, scale float64, iters int, memMB float64) []Param {
	return append([]Param{
		EnumParam("protocol", proto, inagg.ProtocolNames(), "gradient synchronisation protocol (PA-ATP Sec. V-A baselines, Sec. VI-D ablations)"),
		EnumParam("model", model, models, "model whose gradient each worker pushes per iteration (ResNet50 98 MB, AlexNet 233 MB, VGG11 491 MB, VGG19 548 MB; custom: gradient_mb)"),
		FloatParam("gradient_mb", 1, 0.000248, 1e5, "gradient per worker per iteration when model=custom, MB (10^6 B)"),
		FloatParam("gradient_scale", scale, 1e-6, 1, "fraction of a named model's gradient pushed per iteration (1 = the paper's scale)"),
		IntParam("iterations", iters, 1, 100000, "training iterations per job (the paper averages 100)"),
		FloatParam("switch_mem_mb", memMB, 0.001, 1024, "switch memory for aggregators, MiB (2^20 B); M = memory / 256 B"),
		FloatParam("compute_ms", 0, 0, 1e6, "compute time of every worker before each push, ms (0: communication only)"),
		FloatParam("eta", 0.9, 0.01, 1, "PA-ATP's AECN threshold factor eta (marks while used aggregators + overflow > eta (M + BDP))"),
		FloatParam("max_ms", 10000, 0.001, 1e9, "simulated-time limit, ms: jobs unfinished by then leave ajct_ms undefined (NaN)"),
	}, inaConstantParams()...)
}

// inaConstantParams are the protocol constants the PA-ATP paper leaves
// open, with the public ATP and SwitchML clients' values as defaults (see
// inagg.Params).
func inaConstantParams() []Param {
	d := inagg.DefaultParams()
	return []Param{
		FloatParam("init_cwd", d.InitCWD, 1, float64(d.MaxWindow), "initial congestion window of ATP, StrawAsyn and PA-ATP, packets "+
			"(100: the public ATP client's window per thread)"),
		FloatParam("rto_us", d.RTO.Seconds()*1e6, 1, 1e6, "retransmission timeout of ATP, StrawAsyn and PA-ATP, us, doubled on "+
			"consecutive expiries (200: the public ATP client's)"),
		FloatParam("switchml_timeout_ms", d.SwitchMLTimeout.Seconds()*1e3, 0.001, 1e4, "SwitchML's per-slot retransmission "+
			"timeout, ms (10: the public p4app-switchML client's)"),
	}
}

// inaJobParams are the worker constants of a run: the defaults with the
// run's inaConstantParams.
func inaJobParams(ps Params) *inagg.Params {
	p := inagg.DefaultParams()
	if ps.Has("init_cwd") {
		p.InitCWD = ps.Float("init_cwd")
		p.RTO = netsim.FromMicros(ps.Float("rto_us"))
		p.MaxRTO = max(p.MaxRTO, p.RTO)
		p.SwitchMLTimeout = netsim.FromMillis(ps.Float("switchml_timeout_ms"))
	}
	return &p
}

// inaBackgroundParams are the background-traffic parameters.
func inaBackgroundParams(load float64) []Param {
	return []Param{
		EnumParam("workload", "hadoop", []string{"hadoop", "cachefollower"}, "background flow-size distribution (Roy et al., SIGCOMM 2015)"),
		FloatParam("load", load, 0, 1, "background load: offered bytes/s over the senders' aggregate NIC capacity (0: none)"),
	}
}

// inaMetrics are the metrics every INA experiment reports, followed by the
// experiment's own.
func inaMetrics(extra ...Metric) []Metric {
	m := []Metric{
		{"ajct_ms", "ms", "average job completion time: mean over jobs of the mean iteration time (NaN unless every job finished)"},
		{"agg_tput_gbps", "Gbit/s", "aggregation throughput: gradient bytes whose aggregation completed (workers x payload per result) per second, from the first job start to the last job end"},
		{"switch_agg_frac", "", "gradient bytes aggregated at switches over all gradient bytes aggregated (switch + PS)"},
		{"jct_max_ms", "ms", "slowest job's mean iteration time (NaN unless every job finished)"},
		{"ajct_done_ms", "ms", "mean over the jobs that finished of their mean iteration time (NaN if none did; equals ajct_ms when all did)"},
		{"jobs_done", "", "jobs that finished every iteration"},
		{"retransmits", "packets", "gradient retransmissions over all workers"},
		{"timeouts", "", "worker retransmission-timer expiries"},
		{"overflow_pkts", "packets", "gradients that missed a switch aggregator and went to the PS (collisions + forwarded resends)"},
		{"aecn_marks", "packets", "results marked with PA-ATP's AECN bit at aggregating switches (0: the asynchrony limit never bound)"},
		{"agg_mem_peak", "", "largest fraction of an aggregating switch's aggregators in use at once"},
		{"drops", "packets", "packets dropped at switch queues"},
		{"events", "", "simulator events processed"},
	}
	return append(m, extra...)
}

// inaGradient is the gradient size of model under the run's parameters:
// gradient_mb for "custom", else the named model's size times
// gradient_scale, at least one packet's payload.
func inaGradient(ps Params, model string) (netsim.Bytes, error) {
	var g float64
	if model == "custom" {
		g = ps.Float("gradient_mb") * float64(netsim.Megabyte)
	} else {
		size, err := training.ModelSize(model)
		if err != nil {
			return 0, err
		}
		g = float64(size) * ps.Float("gradient_scale")
	}
	b := netsim.Bytes(math.Round(g))
	if b < inagg.INAPayloadBytes {
		b = inagg.INAPayloadBytes
	}
	return b, nil
}

// inaProtocol parses the protocol parameter.
func inaProtocol(ps Params) (inagg.Protocol, error) {
	return inagg.ParseProtocol(ps.String("protocol"))
}

// inaRig is one INA scenario: a fabric, its aggregating switches, the jobs
// and an optional background stack. It stops the simulation when the last
// job finishes.
type inaRig struct {
	sim     *netsim.Sim
	net     *netsim.Network
	fab     *topologies.Fabric
	aggs    []*inagg.Aggregator
	jobs    []*inagg.Job
	stack   *transport.Stack
	pending int
	first   netsim.Time // earliest job start
	params  *inagg.Params
}

// newINARig starts the scenario of run r.
func newINARig(r *Run) *inaRig {
	sim := netsim.New(r.Seed)
	return &inaRig{sim: sim, net: netsim.NewNetwork(sim), first: -1, params: inaJobParams(r.Params)}
}

// aggConfig is the aggregator configuration of the run: switch_mem_mb,
// eta and the fabric's bandwidth-delay product in INA packets.
func inaAggConfig(ps Params, bdp int) inagg.AggregatorConfig {
	c := inagg.DefaultAggregatorConfig()
	c.Memory = netsim.Bytes(math.Round(ps.Float("switch_mem_mb") * float64(netsim.MiB)))
	c.Eta = ps.Float("eta")
	c.BDPPackets = bdp
	return c
}

// switchMLPool is the SwitchML slot pool of each of n SwitchML jobs
// aggregating at a switch of configuration ac: the bandwidth-delay product
// (inagg's default) when the n pools, with their shadow copies, fit in the
// switch memory, else an equal share of it, as SwitchML's controller
// partitions the aggregators among the jobs it admits. 0 means the default.
func switchMLPool(ac inagg.AggregatorConfig, n int) int {
	m := int(ac.Memory / inagg.AggregatorBytes)
	if n < 1 || 2*n*ac.BDPPackets <= m {
		return 0
	}
	return max(1, m/(2*n))
}

// withPool returns the run's worker constants with SwitchML pool size pool
// (0: unchanged).
func (g *inaRig) withPool(pool int) *inagg.Params {
	if pool == 0 {
		return g.params
	}
	p := *g.params
	p.SwitchMLPool = pool
	return &p
}

// inaBDP is the bandwidth-delay product in INA packets (310 B) of a path
// of the given rate and base round-trip time, at least one packet.
func inaBDP(rate netsim.Rate, rtt netsim.Time) int {
	pkt := inagg.INAPayloadBytes + inagg.INAHeaderBytes
	b := int(math.Round(float64(rate) * rtt.Seconds() / float64(8*pkt)))
	if b < 1 {
		b = 1
	}
	return b
}

// baseRTT is the unloaded round trip of an INA gradient from src to dst and
// its acknowledgement back: propagation both ways plus store-and-forward of
// the gradient at every hop and of the 62 B acknowledgement on the way back.
func baseRTT(net *netsim.Network, src, dst netsim.NodeID) (netsim.Time, error) {
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

// computeFunc is the constant compute time of compute_ms (nil for zero).
func computeFunc(ps Params) func(w, k int) netsim.Time {
	c := netsim.FromMillis(ps.Float("compute_ms"))
	if c <= 0 {
		return nil
	}
	return func(int, int) netsim.Time { return c }
}

// addJob creates and starts a job with the run's worker constants; the rig
// stops the simulation when its last job is done.
func (g *inaRig) addJob(cfg inagg.JobConfig) (*inagg.Job, error) {
	if cfg.Params == nil {
		cfg.Params = g.params
	}
	cfg.OnDone = func(*inagg.Job) {
		g.pending--
		if g.pending == 0 {
			g.sim.Stop()
		}
	}
	j, err := inagg.NewJob(g.net, cfg)
	if err != nil {
		return nil, err
	}
	if err := j.Start(); err != nil {
		return nil, err
	}
	g.jobs = append(g.jobs, j)
	g.pending++
	if g.first < 0 || cfg.Start < g.first {
		g.first = cfg.Start
	}
	return j, nil
}

// addBackground starts DCTCP background flows from senders to dsts (nil:
// all-to-all among senders) at the run's workload and load, until stop.
// Load 0 adds nothing.
func (g *inaRig) addBackground(ps Params, senders, dsts []netsim.NodeID, rate netsim.Rate, stop netsim.Time) error {
	load := ps.Float("load")
	if load == 0 {
		return nil
	}
	cdf, err := background.Workload(ps.String("workload"))
	if err != nil {
		return err
	}
	if g.stack == nil {
		g.stack = transport.NewStack(g.net, transport.DefaultConfig())
	}
	gen, err := background.New(g.sim, g.stack, background.Config{
		CDF: cdf, Load: load, Hosts: senders, Dsts: dsts, HostRate: rate, Stop: stop, Name: "ina-bg",
	})
	if err != nil {
		return fmt.Errorf("background: %w", err)
	}
	gen.Start()
	return nil
}

// run simulates until every job is done or the horizon.
func (g *inaRig) run(horizon netsim.Time) {
	if g.pending > 0 {
		g.sim.Run(horizon)
	}
}

// fill writes the common metrics into res and, when the run asks for it,
// checks the books: every finished job's sums, aggregator leaks and packet
// conservation.
func (g *inaRig) fill(r *Run, res *Result) error {
	m := res.Metrics
	var sum, worst float64
	done := 0
	var end netsim.Time
	var reduced, atSwitch, atPS float64
	var retx, tos uint64
	for _, j := range g.jobs {
		if j.Done() {
			done++
			a := j.AJCT().Seconds() * 1e3
			sum += a
			worst = math.Max(worst, a)
			if j.DoneAt() > end {
				end = j.DoneAt()
			}
		}
		st := j.TotalWorkerStats()
		reduced += float64(st.Results) * float64(j.PayloadBytes())
		retx += st.Retransmits
		tos += st.Timeouts
		atSwitch += j.SwitchAggregatedBytes()
		atPS += j.PSAggregatedBytes()
	}
	if done > 0 {
		m["ajct_done_ms"] = sum / float64(done)
	}
	if done < len(g.jobs) {
		end = g.sim.Now()
	} else if len(g.jobs) > 0 {
		m["ajct_ms"] = sum / float64(len(g.jobs))
		m["jct_max_ms"] = worst
	}
	m["jobs_done"] = float64(done)
	m["agg_tput_gbps"] = gbps(reduced, end-max(g.first, 0))
	if atSwitch+atPS > 0 {
		m["switch_agg_frac"] = atSwitch / (atSwitch + atPS)
	}
	m["retransmits"] = float64(retx)
	m["timeouts"] = float64(tos)
	var over, aecn uint64
	var peak float64
	for _, a := range g.aggs {
		over += a.Stats.Collisions + a.Stats.RetxForwarded
		aecn += a.Stats.AECNMarked
		if n := a.Memory().Size(); n > 0 {
			peak = math.Max(peak, float64(a.Memory().Peak())/float64(n))
		}
	}
	m["overflow_pkts"] = float64(over)
	m["aecn_marks"] = float64(aecn)
	if len(g.aggs) > 0 {
		m["agg_mem_peak"] = peak
	}
	d, _ := queueTotals(g.fab.SwitchQueues())
	m["drops"] = float64(d)
	m["events"] = float64(g.sim.Events())
	res.Events = g.sim.Events()
	return g.check(r)
}

// check runs the books when r.Check is set.
func (g *inaRig) check(r *Run) error {
	if !r.Check {
		return nil
	}
	for _, j := range g.jobs {
		if !j.Done() {
			continue
		}
		if err := j.Check(); err != nil {
			return fmt.Errorf("%s: job %d: %w", r.Exp.Name, j.ID(), err)
		}
	}
	for _, a := range g.aggs {
		if err := a.CheckLeaks(); err != nil {
			return fmt.Errorf("%s: switch %s: %w", r.Exp.Name, a.Switch().Name(), err)
		}
	}
	return checkBooks(r, g.net)
}
