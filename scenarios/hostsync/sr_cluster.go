package hostsync

import (
	"fmt"
	"math"
	"os"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/netsim/fluid"
	"syncsim/switchmodel"
	"syncsim/topologies"
	"syncsim/transport"
	"syncsim/workloads/syncctl"
	"syncsim/workloads/training"
)

// sr-cluster: one point of the selective-reduce evaluation (Sec. IV,
// Figs. 5-14). The figures are sweeps of this experiment:
//
//	Figs. 5/6   --vary n=40,80,120,160,200, trace cnn / transformer, each scheme
//	Fig. 7      wasted_wait_s of selective-reduce over n
//	Fig. 8      --vary p_frac=0.1,0.2,0.3,0.4,0.5
//	Fig. 9      --vary eta=0.1,...,0.8
//	Fig. 10     --vary theta=1,...,20
//	Fig. 11     --vary start=warm,cold (over n)
//	Fig. 12     --vary bw_error=0,0.1,...  (warm and cold)
//	Fig. 13     --vary lambda=0.05,0.1,0.2
//	Fig. 14     --vary alpha_ms=0,1,5,50
//
// SRCluster is the sr-cluster experiment.
func SRCluster() *experiments.Experiment {
	return &experiments.Experiment{
		Name:    "sr-cluster",
		Summary: "selective reduce vs partial reduce vs all reduce on a heterogeneous cluster (Sec. IV)",
		Doc: "n workers on one non-blocking switch; worker i's available bandwidth is " +
			"round(20u, 3) Gbps with u ~ U[lambda, 1] (Sec. IV-A); one-way latency alpha; a model " +
			"of model_mb MB; per-iteration compute times from the CNN or Transformer trace " +
			"approximation (see package workloads/training), a constant, uniform or lognormal law around " +
			"compute_ms, or a file of measured times (trace=file trace_file=PATH). Workers compute, join the ready queue " +
			"and synchronise in groups chosen by the scheme: allreduce (BSP), partial-reduce (the " +
			"first p = round(p_frac*n) ready workers), selective-reduce (Alg. 3 with BAG and BPAWR; " +
			"k counts launched syncs, a full all reduce every c rounds if c > 0). A group's ring " +
			"all-reduce takes Eq. 2 with its minimum bandwidth (fidelity analytic; sync_cost ring or " +
			"the paper's approximation 2|g|alpha + 2v/b) or runs as a ring all-reduce of fluid flows " +
			"over the star (fidelity flow). Metrics (Sec. IV-A2) count what completes within " +
			"duration_s: average sync time and scale over completed syncs, total sync, total " +
			"iteration (completed computations of all workers), wasted wait per worker (time from a " +
			"worker's first BPAWR wait to its launch, when no worker that became ready after the wait " +
			"began joined its group), idle per worker (time in the ready queue). The paper's figures are " +
			"sweeps of this experiment: Figs. 5/6 --vary n=40,80,120,160,200 and scheme, trace=cnn / " +
			"transformer; Fig. 7 wasted_wait_s over n; Fig. 8 --vary p_frac=0.1,0.2,0.3,0.4,0.5; Fig. 9 " +
			"--vary eta; Fig. 10 --vary theta=1,...,20; Fig. 11 --vary start=warm,cold; Fig. 12 --vary " +
			"bw_error; Fig. 13 --vary lambda=0.05,0.1,0.2; Fig. 14 --vary alpha_ms=0,1,5,50; the paper " +
			"reports 20 trials (--trials 20) as min/median/max.",
		Params: []experiments.Param{
			experiments.EnumParam("scheme", "selective-reduce", []string{"allreduce", "partial-reduce", "selective-reduce"}, "synchronisation scheme"),
			experiments.IntParam("n", 40, 2, 100000, "number of workers (paper: 40..200 step 40)"),
			experiments.FloatParam("p_frac", 0.3, 0, 1, "p/n: minimum group size p = max(1, round(p_frac*n)) (paper default 0.3)"),
			experiments.FloatParam("eta", 0.3, 0, 0.99, "BAG bandwidth relaxation eta (paper default 0.3)"),
			experiments.FloatParam("theta", 1, 0, 1e6, "BPAWR waiting threshold factor theta (paper default 1)"),
			experiments.FloatParam("dt_ms", 100, 0.001, 1e7, "waiting slot Delta t in ms (not stated in the paper; our default)"),
			experiments.IntParam("c", 0, 0, 1000000000, "full all reduce every c rounds; 0 never (not stated in the paper)"),
			experiments.EnumParam("trace", "cnn", []string{"cnn", "transformer", "constant", "uniform", "lognormal", "file"},
				"per-iteration compute-time distribution: the CNN or Transformer trace approximation, constant compute_ms, "+
					"uniform in compute_ms x [1 - compute_spread, 1 + compute_spread], lognormal with median compute_ms and "+
					"log-sd compute_spread, or the measured times in trace_file"),
			experiments.FloatParam("compute_ms", 300, 0.001, 1e7, "centre of the constant, uniform and lognormal compute times, ms"),
			experiments.FloatParam("compute_spread", 0.2, 0, 5, "relative half-width (uniform, below 1) or log-sd (lognormal) of the compute times"),
			experiments.TextParam("trace_file", "", "trace=file: a file of measured compute times, one number of seconds per line ('#' comments)"),
			experiments.EnumParam("start", "warm", []string{"warm", "cold"}, "warm: distribution known in advance; cold: learnt online"),
			experiments.EnumParam("predict", "eq4", []string{"eq4", "conditional"}, "ready-within-dt probability: Eq. 4's F(t+dt) or the exact conditional"),
			experiments.FloatParam("bw_error", 0, 0, 0.99, "bandwidth estimation error e: estimate b(1 + e x), x ~ U[-1, 1]"),
			experiments.FloatParam("lambda", 0.05, 0.001, 1, "bandwidth skew: u ~ U[lambda, 1] (paper default 0.05)"),
			experiments.FloatParam("alpha_ms", 1, 0, 1e5, "one-way latency between workers in ms (paper default 1)"),
			experiments.FloatParam("model_mb", 500, 0.001, 1e7, "model size v in MB (paper 500)"),
			experiments.FloatParam("duration_s", 100, 0.001, 1e6, "simulated training time in seconds (paper 100)"),
			experiments.EnumParam("fidelity", "analytic", []string{"analytic", "flow", "packet"}, "analytic (Eq. 2), flow (fluid ring all-reduce on a star) or packet (DCTCP ring all-reduce on a star; small models only)"),
			experiments.EnumParam("sync_cost", "ring", []string{"ring", "approx"}, "analytic cost: ring (Eq. 2 first line) or approx (2|g|alpha + 2v/b)"),
		},
		Metrics: []experiments.Metric{
			{Name: "avg_sync_time_s", Unit: "s", Help: "average time of a completed synchronisation"},
			{Name: "avg_sync_scale", Unit: "workers", Help: "average number of workers per completed synchronisation"},
			{Name: "total_sync", Unit: "", Help: "number of completed synchronisations"},
			{Name: "total_iteration", Unit: "", Help: "computations completed by all workers"},
			{Name: "wasted_wait_s", Unit: "s", Help: "wasted wait time per worker (BPAWR waits that no newly ready worker joined)"},
			{Name: "idle_s", Unit: "s", Help: "mean time per worker spent in the ready queue"},
			{Name: "p_workers", Unit: "workers", Help: "the resolved minimum group size p"},
			{Name: "bpawr_waits", Unit: "", Help: "selective reduce: BPAWR wait-and-replace decisions (0 for other schemes)"},
		},
		Run: runSRCluster,
	}
}

// srClusterSetup is one sr-cluster point built on a Sim, ready to run.
type srClusterSetup struct {
	sim     *netsim.Sim
	cluster *syncctl.Cluster
	fluid   *fluid.Engine    // flow fidelity only
	stack   *transport.Stack // packet fidelity only
	p       int
}

func buildSRCluster(r *experiments.Run) (*srClusterSetup, error) {
	ps := r.Params
	n := ps.Int("n")
	p := int(math.Round(ps.Float("p_frac") * float64(n)))
	p = max(1, min(p, n))
	sim := netsim.New(r.Seed)
	gbps, err := training.Bandwidths(sim.Rand("training/bandwidth"), n, ps.Float("lambda"))
	if err != nil {
		return nil, fmt.Errorf("sr-cluster: %w", err)
	}
	bw := make([]float64, n)
	for i, g := range gbps {
		bw[i] = g * 1e9
	}
	dist, err := srComputeDist(ps)
	if err != nil {
		return nil, fmt.Errorf("sr-cluster: %w", err)
	}
	cost, err := syncctl.ParseCostModel(ps.String("sync_cost"))
	if err != nil {
		return nil, err
	}
	cfg := syncctl.Config{
		BW:         bw,
		ModelBytes: ps.Float("model_mb") * 1e6,
		Alpha:      ps.Float("alpha_ms") / 1e3,
		Compute:    []training.Dist{dist},
		Duration:   netsim.FromSeconds(ps.Float("duration_s")),
		Cost:       cost,
		Record:     r.Series,
	}
	setup := &srClusterSetup{sim: sim, p: p}
	switch ps.String("fidelity") {
	case "analytic":
	case "flow":
		exec, eng, err := srFlowExecutor(sim, gbps, cfg)
		if err != nil {
			return nil, err
		}
		cfg.Exec, setup.fluid = exec, eng
	case "packet":
		exec, stack, err := srPacketExecutor(sim, gbps, cfg)
		if err != nil {
			return nil, err
		}
		cfg.Exec, setup.stack = exec, stack
	}
	var ctl syncctl.Controller
	switch ps.String("scheme") {
	case "allreduce":
		ctl = syncctl.AllReduce{}
	case "partial-reduce":
		ctl, err = syncctl.NewPartialReduce(p)
	case "selective-reduce":
		ctl, err = syncctl.NewSelectiveReduce(syncctl.SelectiveConfig{
			P:                p,
			Eta:              ps.Float("eta"),
			Theta:            ps.Float("theta"),
			Dt:               ps.Float("dt_ms") / 1e3,
			C:                ps.Int("c"),
			BWError:          ps.Float("bw_error"),
			Cold:             ps.String("start") == "cold",
			ExactConditional: ps.String("predict") == "conditional",
		}, cfg.ModelBytes, sim.Rand("syncctl/bw-estimate"))
	}
	if err != nil {
		return nil, fmt.Errorf("sr-cluster: %w", err)
	}
	setup.cluster, err = syncctl.NewCluster(sim, cfg, ctl)
	if err != nil {
		return nil, fmt.Errorf("sr-cluster: %w", err)
	}
	return setup, nil
}

func runSRCluster(r *experiments.Run) (*experiments.Result, error) {
	s, err := buildSRCluster(r)
	if err != nil {
		return nil, err
	}
	m := s.cluster.Run()
	res := r.Exp.NewResult()
	res.Events = m.Events
	srSyncMetrics(res, m)
	res.Metrics["total_iteration"] = float64(m.TotalIteration)
	res.Metrics["wasted_wait_s"] = m.WastedWait
	res.Metrics["idle_s"] = m.Idle
	res.Metrics["p_workers"] = float64(s.p)
	res.Metrics["bpawr_waits"] = 0
	if sr, ok := s.cluster.Controller().(*syncctl.SelectiveReduce); ok {
		res.Metrics["bpawr_waits"] = float64(sr.Waits())
	}
	if r.Check {
		if err := s.cluster.Check(); err != nil {
			return nil, fmt.Errorf("sr-cluster: books do not balance: %w", err)
		}
		if s.fluid != nil {
			if err := s.fluid.Check(); err != nil {
				return nil, fmt.Errorf("sr-cluster: fluid engine: %w", err)
			}
		}
		if s.stack != nil {
			if err := s.stack.Network().CheckConservation(); err != nil {
				return nil, fmt.Errorf("sr-cluster: packet books: %w", err)
			}
		}
	}
	if r.Series {
		res.Series = append(res.Series, srSyncSeries(s.cluster.Syncs()))
	}
	return res, nil
}

// srSyncSeries is the log of completed synchronisations: when each started
// and ended, and how many workers it had.
func srSyncSeries(log []syncctl.SyncRecord) experiments.Series {
	s := experiments.Series{Name: "syncs", Columns: []string{"start_s", "end_s", "scale", "duration_s"}}
	for _, x := range log {
		s.Rows = append(s.Rows, []float64{x.Start.Seconds(), x.End.Seconds(), float64(x.Scale), (x.End - x.Start).Seconds()})
	}
	return s
}

// srFlowExecutor builds the flow-fidelity executor of sr-cluster: the
// "abstract network switch" of Sec. IV-A as a star whose edge cable i runs
// at b_i in both directions (b_i is the minimum of the uplink and downlink,
// Sec. III-A), with alpha/2 of propagation per cable so that worker to
// worker takes alpha, and the fluid engine (max-min sharing) moving the ring
// all-reduce transfers.
func srFlowExecutor(sim *netsim.Sim, gbps []float64, cfg syncctl.Config) (syncctl.Executor, *fluid.Engine, error) {
	rates := make([]netsim.Rate, len(gbps))
	for i, g := range gbps {
		rates[i] = training.GbpsToRate(g)
	}
	net := netsim.NewNetwork(sim)
	fab, err := topologies.StarRates(net, rates, netsim.FromSeconds(cfg.Alpha/2), switchmodel.QueueConfig{})
	if err != nil {
		return nil, nil, fmt.Errorf("sr-cluster: %w", err)
	}
	eng := fluid.New(net, fluid.MaxMin)
	exec, err := syncctl.NewFlowExecutor(eng, fab.HostIDs())
	return exec, eng, err
}

// srPacketExecutor builds the packet-fidelity executor of sr-cluster: the
// same star as srFlowExecutor, but the ring transfers are DCTCP flows of
// the transport stack through output-queued switch ports. Every port marks
// ECN at the DCTCP guideline K for the fastest edge (C x RTT / 7 with
// RTT = 2 alpha) and drops beyond 4K packets; the minimum and initial
// retransmission timeouts are raised to 2 and 3 RTTs so that long
// latencies (alpha = 1 ms) do not fire spurious timeouts. Packet fidelity
// is for small models and short runs: a 500 MB model moves about 10^6
// packets per worker per synchronisation.
func srPacketExecutor(sim *netsim.Sim, gbps []float64, cfg syncctl.Config) (syncctl.Executor, *transport.Stack, error) {
	rates := make([]netsim.Rate, len(gbps))
	var fastest netsim.Rate
	for i, g := range gbps {
		rates[i] = training.GbpsToRate(g)
		fastest = max(fastest, rates[i])
	}
	delay := netsim.FromSeconds(cfg.Alpha / 2)
	rtt := 4 * delay // host-switch-host and back
	const mtu = 1500
	k := switchmodel.DCTCPK(fastest, rtt, mtu)
	q := switchmodel.QueueConfig{ECNBytes: netsim.Bytes(k) * mtu, Buffer: max(4*netsim.Bytes(k)*mtu, srPacketBuffer)}
	net := netsim.NewNetwork(sim)
	fab, err := topologies.StarRates(net, rates, delay, q)
	if err != nil {
		return nil, nil, fmt.Errorf("sr-cluster: %w", err)
	}
	tc := transport.DefaultConfig()
	tc.MinRTO = max(tc.MinRTO, 2*rtt)
	tc.InitRTO = max(tc.InitRTO, 3*rtt)
	if err := tc.Validate(); err != nil {
		return nil, nil, fmt.Errorf("sr-cluster: %w", err)
	}
	stack := transport.NewStack(net, tc)
	exec, err := syncctl.NewFlowExecutor(stack, fab.HostIDs())
	return exec, stack, err
}

// srPacketBuffer is the least per-port drop-tail buffer at packet fidelity:
// a fast worker's window arriving at a slow worker's port (rates differ up
// to 20:1) must not overflow before ECN feedback arrives; 1 MB is the order
// of the per-port share of a datacenter switch's buffer.
const srPacketBuffer = netsim.Megabyte

// srComputeDist is the compute-time distribution of the run's trace
// parameters.
func srComputeDist(ps experiments.Params) (training.Dist, error) {
	c, spread := ps.Float("compute_ms")/1e3, ps.Float("compute_spread")
	switch tr := ps.String("trace"); tr {
	case "uniform":
		if spread >= 1 {
			return nil, fmt.Errorf("trace=uniform needs compute_spread below 1, got %g", spread)
		}
		if spread == 0 {
			return training.ParseDist("constant", c)
		}
		return training.ParseDist(tr, c*(1-spread), c*(1+spread))
	case "constant":
		return training.ParseDist(tr, c)
	case "lognormal":
		return training.ParseDist(tr, c, spread)
	case "file":
		name := ps.Str("trace_file")
		if name == "" {
			return nil, fmt.Errorf("trace=file needs trace_file")
		}
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("trace_file: %w", err)
		}
		defer f.Close()
		e, err := training.ReadTrace(f)
		if err != nil {
			return nil, fmt.Errorf("trace_file %s: %w", name, err)
		}
		return e, nil
	default:
		return training.ParseDist(tr)
	}
}
