package inarig

import (
	"math"
	"strconv"
	"strings"

	"syncsim/experiments"
	"syncsim/inagg"
	"syncsim/netsim"
)

// SeriesParam is series_us, the sampling period of the per-job series an
// experiment writes with --series-dir (see JobsSeriesDoc); us is the
// experiment's default, chosen so that a default run gives at most a few
// thousand rows per series.
func SeriesParam(us float64) experiments.Param {
	return experiments.FloatParam("series_us", us, 0.01, 1e9,
		"sampling period of the jobs time series written with --series-dir, us (no effect on the metrics)")
}

// JobsColumns are the columns of the jobs series, one row per job per
// sample.
var JobsColumns = []string{
	"t_ms", "job", "protocol", "progress", "results", "iteration",
	"cwd_mean", "cwd_min", "cwd_max", "awd_mean",
	"ecn_cuts", "awd_cuts", "aecn_marks", "overflow", "retransmits", "timeouts",
	"ina_nic_share", "awd_bound", "agg_held", "collision_seqs", "exhaustion_seqs",
	"sent", "inflight", "inflight_gacked", "rto_max_us", "pulls", "drops",
}

// JobsSeriesDoc describes the series for the experiments' Doc text.
func JobsSeriesDoc() string {
	return "Series (--series-dir): \"jobs\", one row per job every series_us of simulated time " +
		"(from the first job's start t0, after the warm-up: t0, t0 + series_us, ... up to the end of the run, plus a last row at the end when it falls between): " +
		"t_ms, job, protocol (code: " + codes(inagg.ProtocolNames()) + "), " +
		"progress (results received over workers x packets x iterations, 1 once the job is done), results, " +
		"iteration (iterations every worker has finished: the index of the one in progress), " +
		"cwd_mean/cwd_min/cwd_max (congestion window over the workers, packets; ATP's window; SwitchML's pool), " +
		"awd_mean (PA-ATP's and StrawAsyn+AL's asynchronous degree window, NaN for the others), " +
		"and the job's cumulative ecn_cuts (window cuts on ECN over its workers), awd_cuts, aecn_marks (its results the switch marked), " +
		"overflow (its gradients sent on to the PS), retransmits, timeouts; " +
		"ina_nic_share is the bytes the NICs of the job's worker hosts sent from the INA transmit ring over all bytes they sent " +
		"since the previous row (NaN when they sent nothing, or the NIC has no separate INA ring); " +
		"awd_bound is the fraction of the job's workers AWD holds back at the sample (next sequence past last_AACK + AWD, within last_GACK + CWD; " +
		"NaN without the asynchrony limit), agg_held the aggregators the job holds at its switch, collision_seqs and exhaustion_seqs its cumulative " +
		"overflowed sequences by the cause of their first overflow (aggregator held by another sequence while some were free, or every aggregator in use); " +
		"sent is the gradient packets its workers sent (retransmissions included; sent - retransmits - results = inflight); " +
		"inflight is the job's gradient packets in flight, summed over its workers: the sequences s with last_AACK < s < snd_next a worker has sent " +
		"and holds no result for (sent and not yet answered; a sequence resent counts once), and inflight_gacked those of them a GACK acknowledged " +
		"(taken by the switch or the PS, waiting for the other workers' contributions or for the result's way back; 0 without GACKs); " +
		"rto_max_us is the longest retransmission timeout among the workers as it would be armed at the sample, backoff included " +
		"(SwitchML: the longest of its threads' timeouts); pulls the workers' cumulative result pulls; drops the job's packets dropped so far " +
		"(every kind: gradients, aggregates, results, GACKs, pulls; at switch queues and host NICs). " +
		"\"job_summary\", one row per job: job, protocol, model (code: " + codes(ModelChoices()) + "), " +
		"workers, ps_leaf (edge group of the PS), mean_iter_ms (NaN before an iteration ends), iterations_done, done (0/1), " +
		"retransmits, timeouts, overflow, aecn_marks, ecn_cuts, awd_cuts, " +
		"mean_cwd (mean over the job's rows while it ran of cwd_mean), awd_bound_frac (the fraction of its workers' time AWD held them back, " +
		"start to end), agg_held_mean and agg_held_max (aggregators it held at its switch, time average start to end and most at once), " +
		"collision_seqs, exhaustion_seqs and resend_seqs (its overflowed sequences by the cause of their first overflow: index collision, " +
		"memory exhausted, or a retransmission), self_collisions (its gradients whose aggregator another of its own sequences held), " +
		"pulls (its workers' result pulls) and drops (its packets dropped, every kind; they add up to drops_gradient + drops_overflow + " +
		"drops_aggregate + drops_result + drops_ack + drops_pull). " +
		"The per-job counters add up to the run's metrics. " + DropBooksDoc()
}

// codes lists names with their indices: "0 a, 1 b".
func codes(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strconv.Itoa(i) + " " + n
	}
	return strings.Join(out, ", ")
}

// diagnostics is the rig's per-job series state: the model each job trains
// (for the summary) and, when sampling, the sampler.
type diagnostics struct {
	models  map[int]string // job ID -> model name
	sampler *jobSampler
}

// SetModel records the model job id trains, for the job_summary series.
// Jobs without one take the run's model parameter.
func (g *Rig) SetModel(id int, model string) {
	if g.diag.models == nil {
		g.diag.models = map[int]string{}
	}
	g.diag.models[id] = model
}

// startSeries starts the sampler when the run collects series and the
// experiment declares series_us: its first sample is at the first job's
// start, after the background's warm-up.
func (g *Rig) startSeries() {
	if !g.run.Series || !g.run.Params.Has("series_us") {
		return
	}
	out := g.run.OpenSeries("jobs", JobsColumns...)
	g.diag.sampler = newJobSampler(g.Sim, netsim.FromMicros(g.run.Params.Float("series_us")), g.Jobs, max(g.first, 0), out, g.drops)
}

// addSeries appends the jobs, job_summary and drop_books series to res,
// if sampled.
func (g *Rig) addSeries(res *experiments.Result) {
	s := g.diag.sampler
	if s == nil {
		return
	}
	s.finish(g.Sim.Now())
	res.Series = append(res.Series, s.out.Series(), g.summary(s))
	if g.drops != nil {
		res.Series = append(res.Series, g.dropSeries(), g.portSeries())
	}
}

// nicPort is one NIC port of a worker host and its counters at the last
// sample.
type nicPort struct {
	port    *netsim.Port
	rings   ringCounter // nil: the queue has no separate INA ring
	lastAll uint64
	lastINA uint64
}

// ringCounter is a NIC queue that counts the bytes each transmit ring
// sent (switchmodel.PortQueue).
type ringCounter interface {
	netsim.RingQueue
	RingSentBytes(r uint8) uint64
}

// jobProbe is what the sampler reads of one job.
type jobProbe struct {
	job  *inagg.Job
	idx  int     // index in the rig's jobs (and the drop books')
	goal float64 // results every worker receives when the job is done
	nics []*nicPort
	// cwdSum and cwdN accumulate cwd_mean over the rows while the job ran.
	cwdSum float64
	cwdN   int
}

// jobSampler samples every job every period: a netsim.Handler whose
// events only read state, so the simulation's other events run in the
// same order with or without it (the event count grows by the samples).
// Its rows go to the run's series writer as they are taken (to the file
// with a series directory), so it holds no row itself.
type jobSampler struct {
	sim    *netsim.Sim
	period netsim.Time
	probes []*jobProbe
	out    *experiments.SeriesWriter
	row    []float64   // the row being written, reused
	last   netsim.Time // time of the last sample, -1 before the first
	drops  *dropBooks  // the rig's drop books (nil: none)
}

// newJobSampler schedules the first sample at the current time; its rows
// go to out.
func newJobSampler(sim *netsim.Sim, period netsim.Time, jobs []*inagg.Job, start netsim.Time, out *experiments.SeriesWriter, drops *dropBooks) *jobSampler {
	s := &jobSampler{sim: sim, period: period, last: -1, out: out, row: make([]float64, 0, len(JobsColumns)), drops: drops}
	for i, j := range jobs {
		p := &jobProbe{job: j, idx: i, goal: float64(j.Workers()) * float64(j.PacketsPerIteration()) * float64(j.Iterations())}
		seen := map[*netsim.Port]bool{}
		for w := 0; w < j.Workers(); w++ {
			for _, pt := range j.WorkerHost(w).Ports {
				if seen[pt] {
					continue // two workers of the job on one host
				}
				seen[pt] = true
				n := &nicPort{port: pt}
				if rc, ok := pt.Queue().(ringCounter); ok && rc.Rings() > 1 {
					n.rings = rc
				}
				p.nics = append(p.nics, n)
			}
		}
		s.probes = append(s.probes, p)
	}
	sim.Schedule(max(start, sim.Now()), s, 0, nil, 0)
	return s
}

// HandleEvent takes one sample and schedules the next.
func (s *jobSampler) HandleEvent(ev netsim.Event) {
	s.sample(ev.At)
	s.sim.Schedule(ev.At+s.period, s, 0, nil, 0)
}

// finish takes a last sample at the end of the run unless one was taken
// then.
func (s *jobSampler) finish(now netsim.Time) {
	if s.last < now {
		s.sample(now)
	}
}

// sample appends one row per job at time now.
func (s *jobSampler) sample(now netsim.Time) {
	s.last = now
	for _, p := range s.probes {
		j := p.job
		st := j.TotalWorkerStats()
		sw := j.SwitchStats()
		var sum, awd float64
		lo, hi := math.Inf(1), math.Inf(-1)
		var cuts uint64
		for w := 0; w < j.Workers(); w++ {
			ws := j.Window(w)
			sum += ws.CWD
			lo, hi = math.Min(lo, ws.CWD), math.Max(hi, ws.CWD)
			awd += ws.AWD
			cuts += ws.CWDCuts
		}
		awdBound := math.NaN()
		if j.Protocol().AsyncLimited() {
			awdBound = j.AWDBoundNow()
		}
		_, _, held := j.AggregatorsHeld()
		var inflight, gacked int64
		var rto netsim.Time
		for w := 0; w < j.Workers(); w++ {
			a, b := j.Outstanding(w)
			inflight += a
			gacked += b
			rto = max(rto, j.RTO(w))
		}
		drops := math.NaN()
		if s.drops != nil {
			drops = float64(s.drops.jobDrops(p.idx))
		}
		n := float64(j.Workers())
		mean := sum / n
		awdMean := math.NaN()
		if j.Protocol().AsyncLimited() {
			awdMean = awd / n
		}
		if now >= j.StartAt() && (!j.Done() || now <= j.DoneAt()) {
			p.cwdSum += mean
			p.cwdN++
		}
		s.row = append(s.row[:0],
			now.Seconds()*1e3, float64(j.ID()), float64(j.Protocol()),
			float64(st.Results)/p.goal, float64(st.Results), float64(j.IterationsDone()),
			mean, lo, hi, awdMean,
			float64(cuts), float64(j.AWDCuts()), float64(sw.AECNMarked), float64(sw.Overflowed),
			float64(st.Retransmits), float64(st.Timeouts),
			p.nicShare(), awdBound, float64(held), float64(sw.CollisionSequences), float64(sw.ExhaustionSequences),
			float64(st.Sent), float64(inflight), float64(gacked), rto.Seconds()*1e6, float64(st.Pulls), drops)
		s.out.Row(s.row...)
	}
}

// nicShare is the INA ring's share of the bytes the job's worker NICs
// sent since the last call (NaN when they sent nothing or a NIC has no
// separate INA ring).
func (p *jobProbe) nicShare() float64 {
	var all, ina uint64
	ok := true
	for _, n := range p.nics {
		n.port.Settle()
		a := n.port.TxBytes
		all += a - n.lastAll
		n.lastAll = a
		if n.rings == nil {
			ok = false
			continue
		}
		i := n.rings.RingSentBytes(inagg.INARing)
		ina += i - n.lastINA
		n.lastINA = i
	}
	if !ok || all == 0 {
		return math.NaN()
	}
	return float64(ina) / float64(all)
}

// WithSeries adds series_us (default us) and the series' description to
// experiment e, whose run uses a Rig, and returns e.
func WithSeries(e *experiments.Experiment, us float64) *experiments.Experiment {
	e.Params = append(e.Params, SeriesParam(us))
	e.Doc += "\n\n" + JobsSeriesDoc()
	return e
}
