package ina

import (
	"fmt"
	"math"

	"syncsim/experiments"
	"syncsim/inagg"
	"syncsim/netsim"
	"syncsim/scenarios/internal/inarig"
	"syncsim/scenarios/internal/setup"
	"syncsim/switchmodel"
	"syncsim/topologies"
)

// The ina-model experiment sets PA-ATP's steady-state analysis (Sec. III-C,
// Eq. 3-12) beside a simulation of the situation it describes: N jobs
// share one aggregating switch of M aggregators; in every job the leading
// workers run AWD sequences ahead of a straggler, so the aggregators fill
// with partial aggregates, AECN marks AACKs once used aggregators +
// overflowed gradients exceed eta (M + BDP), and every job's AWD follows
// the sawtooth the model predicts.
// Model is the ina-model experiment.
func Model() *experiments.Experiment {
	return &experiments.Experiment{
		Name:    "ina-model",
		Summary: "PA-ATP asynchrony-limit sawtooth: Sec. III-C model (Eq. 3-12) beside simulation",
		Doc:     doc("ina-model"),
		Params: append([]experiments.Param{
			experiments.IntParam("jobs", 4, 1, 64, "N, jobs sharing the aggregating switch"),
			experiments.IntParam("workers", 2, 2, 64, "workers per job; the last one is the straggler"),
			experiments.IntParam("aggregators", 2048, 16, 1<<24, "M, aggregators in the switch (memory = M x 256 B)"),
			experiments.FloatParam("eta", 0.8, 0.01, 0.999, "AECN threshold factor eta"),
			experiments.FloatParam("link_gbps", 100, 0.1, 1000, "link rate of every host but the stragglers, Gbps"),
			experiments.FloatParam("straggler_gbps", 10, 0.01, 1000, "link rate of each job's straggler, Gbps"),
			experiments.FloatParam("delay_us", 1, 0.01, 1000, "propagation delay per link, us"),
			experiments.FloatParam("gradient_mb", 4, 0.01, 1000, "gradient per worker, MB (one iteration)"),
			experiments.FloatParam("ecn_k_kb", 30, 0, 100000, "switch ECN marking threshold, KB (0: off)").Means("0", "no marking").Was("ecn_kb"),
		}, setup.NICParams()...),
		Metrics: []experiments.Metric{
			{Name: "bdp_pkts", Unit: "packets", Help: "bandwidth-delay product used by the model and the AECN threshold"},
			{Name: "ca_pkts_rtt", Unit: "packets/RTT", Help: "C_A: the stragglers' total rate per base RTT"},
			{Name: "model_awd_star", Unit: "packets", Help: "AWD* = eta (M + BDP) / N"},
			{Name: "model_s_pkts", Unit: "packets", Help: "Eq. 4 per-job amplitude with beta = sqrt(2/AWD*)"},
			{Name: "model_t_rounds", Unit: "rounds", Help: "Eq. 6 period"},
			{Name: "model_beta", Unit: "", Help: "the AECN level the model assumes, sqrt(2/AWD*) (Sec. III-C, after the DCTCP analysis)"},
			{Name: "model_rmax", Unit: "packets", Help: "Eq. 7 R_max"},
			{Name: "model_rmin", Unit: "packets", Help: "Eq. 10 R_min"},
			{Name: "model_gain", Unit: "", Help: "Eq. 11/12 Thr_pa / C_A"},
			{Name: "eta_bound", Unit: "", Help: "Eq. 9 upper bound of eta"},
			{Name: "sim_awd_peak", Unit: "packets", Help: "simulated AWD before a cut, mean"},
			{Name: "sim_s_pkts", Unit: "packets", Help: "simulated AWD reduction at a cut, mean"},
			{Name: "sim_t_rounds", Unit: "rounds", Help: "simulated AWD increments between cuts"},
			{Name: "sim_beta", Unit: "", Help: "simulated AECN level at a cut, 2 sim_s_pkts / sim_awd_peak (Eq. 2: a cut removes AWD x beta / 2)"},
			{Name: "sim_rmax", Unit: "packets", Help: "N x sim_awd_peak"},
			{Name: "sim_occupancy_mean", Unit: "aggregators", Help: "used aggregators + overflowed gradients, time average"},
			{Name: "sim_occupancy_max", Unit: "aggregators", Help: "used aggregators + overflowed gradients, maximum"},
			{Name: "sim_awd_cuts", Unit: "", Help: "AWD cuts per job in the window"},
			{Name: "aecn_marks", Unit: "packets", Help: "AACKs marked with AECN"},
			{Name: "jct_ms", Unit: "ms", Help: "mean job completion time"},
		},
		Common:   []string{"jobs", "workers", "aggregators", "eta", "straggler_gbps", "link_gbps", "delay_us", "gradient_mb", "ecn_k_kb"},
		Headline: []string{"model_awd_star", "sim_awd_peak", "model_s_pkts", "sim_s_pkts", "model_t_rounds", "sim_t_rounds", "model_beta", "sim_beta"},
		Run:      runINAModel,
		Cost:     modelCost(),
	}
}

func runINAModel(r *experiments.Run) (*experiments.Result, error) {
	ps := r.Params
	n, wk := ps.Int("jobs"), ps.Int("workers")
	m := ps.Int("aggregators")
	eta := ps.Float("eta")
	rate := netsim.Rate(math.Round(ps.Float("link_gbps") * float64(netsim.Gbps)))
	slow := netsim.Rate(math.Round(ps.Float("straggler_gbps") * float64(netsim.Gbps)))
	delay := netsim.Time(math.Round(ps.Float("delay_us") * float64(netsim.Microsecond)))
	grad := netsim.Bytes(math.Round(ps.Float("gradient_mb") * float64(netsim.Megabyte)))
	if grad < inagg.INAPayloadBytes {
		grad = inagg.INAPayloadBytes
	}

	sim := setup.NewSim(r)
	net := netsim.NewNetwork(sim)
	var rates []netsim.Rate
	for j := 0; j < n; j++ {
		for w := 0; w < wk-1; w++ {
			rates = append(rates, rate)
		}
		rates = append(rates, slow, rate) // straggler, PS
	}
	q := switchmodel.QueueConfig{Buffer: 256 * netsim.Kilobyte,
		ECNBytes: netsim.Bytes(math.Round(ps.Float("ecn_k_kb") * float64(netsim.Kilobyte)))}
	fab, err := topologies.StarRates(net, rates, delay, q)
	if err != nil {
		return nil, err
	}
	if err := setup.ApplyNIC(ps, fab); err != nil {
		return nil, err
	}
	// Base RTT of a gradient and its GACK over two links each way.
	pkt := inagg.INAHeaderBytes + inagg.INAPayloadBytes
	rtt := 4*delay + 2*netsim.TxTime(pkt, rate) + 2*netsim.TxTime(inagg.INAHeaderBytes, rate)
	bdp := int(math.Max(1, math.Round(float64(rate)*rtt.Seconds()/float64(8*pkt))))
	ca := float64(n) * float64(slow) * rtt.Seconds() / float64(8*pkt)

	ac := inagg.DefaultAggregatorConfig()
	ac.Memory = netsim.Bytes(m) * inagg.AggregatorBytes
	ac.Eta = eta
	ac.BDPPackets = bdp
	agg, err := inagg.NewAggregator(fab.Edge[0], ac)
	if err != nil {
		return nil, err
	}
	var jobs []*inagg.Job
	pending := n
	for j := 0; j < n; j++ {
		hosts := fab.Hosts[j*(wk+1) : (j+1)*(wk+1)]
		job, err := inagg.NewJob(net, inagg.JobConfig{ID: j, Protocol: inagg.PAATP, Workers: hosts[:wk], PS: hosts[wk],
			Switch: agg, Gradient: grad, Iterations: 1,
			OnDone: func(*inagg.Job) {
				if pending--; pending == 0 {
					sim.Stop()
				}
			}})
		if err != nil {
			return nil, err
		}
		jobs = append(jobs, job)
	}
	// All jobs register first, so each starts at AWD* for N jobs.
	for _, job := range jobs {
		if err := job.Start(); err != nil {
			return nil, err
		}
	}

	span := netsim.TxTime(grad+grad/inagg.INAPayloadBytes*inagg.INAHeaderBytes, slow)
	from, to := span/5, span*9/10
	start := make([]inagg.WindowState, n)
	end := make([]inagg.WindowState, n)
	sim.At(from, func() {
		for j, job := range jobs {
			start[j] = job.Window(0)
		}
	})
	sim.At(to, func() {
		for j, job := range jobs {
			end[j] = job.Window(0)
		}
	})
	var occSum, occMax float64
	var occN int
	step := rtt
	var sample func()
	sample = func() {
		o := agg.Occupancy()
		occSum += o
		occN++
		occMax = math.Max(occMax, o)
		if sim.Now()+step <= to {
			sim.AfterFunc(step, sample)
		}
	}
	sim.At(from, sample)
	inarig.WatchJobs(r, jobs, float64(n*wk)*float64(jobs[0].PacketsPerIteration()), netsim.Second*100, 2*inagg.DefaultParams().MaxRTO)
	sim.Run(netsim.Second * 100)

	res := r.Exp.NewResult()
	res.Events = sim.Events()
	met := res.Metrics
	met["bdp_pkts"] = float64(bdp)
	met["ca_pkts_rtt"] = ca
	if mp, err := inagg.ModelAnalysis(inagg.ModelInput{M: float64(m), BDP: float64(bdp), CA: ca, N: n, Eta: eta}); err == nil {
		met["model_awd_star"] = mp.AWDStar
		met["model_s_pkts"] = mp.S
		met["model_t_rounds"] = mp.T
		met["model_beta"] = inagg.BetaApprox(mp.AWDStar)
		met["model_rmax"] = mp.RMax
		met["model_rmin"] = mp.RMin
		met["model_gain"] = mp.Gain
		met["eta_bound"] = mp.EtaBound
	}
	var cuts, incs, peak, drop float64
	for j := range jobs {
		c := float64(end[j].AWDCuts - start[j].AWDCuts)
		cuts += c
		incs += float64(end[j].AWDIncrements - start[j].AWDIncrements)
		peak += end[j].AWDPeakSum - start[j].AWDPeakSum
		drop += end[j].AWDDropSum - start[j].AWDDropSum
	}
	if cuts > 0 {
		met["sim_awd_peak"] = peak / cuts
		met["sim_s_pkts"] = drop / cuts
		met["sim_t_rounds"] = incs / cuts
		met["sim_beta"] = 2 * drop / peak
		met["sim_rmax"] = float64(n) * peak / cuts
	}
	met["sim_awd_cuts"] = cuts / float64(n)
	if occN > 0 {
		met["sim_occupancy_mean"] = occSum / float64(occN)
		met["sim_occupancy_max"] = occMax
	}
	met["aecn_marks"] = float64(agg.Stats.AECNMarked)
	var jct float64
	done := 0
	for _, job := range jobs {
		if job.Done() {
			jct += job.AJCT().Seconds() * 1e3
			done++
		}
	}
	if done == n {
		met["jct_ms"] = jct / float64(n)
	}
	if r.Check {
		for _, job := range jobs {
			if err := job.Check(); err != nil {
				return nil, err
			}
		}
		if err := agg.CheckLeaks(); err != nil {
			return nil, err
		}
		if err := net.CheckConservation(); err != nil {
			return nil, err
		}
		inarig.RecordBooks(r, jobs, []*inagg.Aggregator{agg})
		r.Book(setup.PacketBook(net))
	}
	if done != n {
		return res, fmt.Errorf("ina-model: %d of %d jobs unfinished after 100 s of simulated time", n-done, n)
	}
	return res, nil
}
