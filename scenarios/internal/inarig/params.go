// Package inarig holds what the in-network aggregation scenarios share
// (PA-ATP paper, Li et al.): the common parameters and metrics, gradient
// sizes, the protocol constants the paper leaves open, and Rig, which
// builds aggregators and jobs on a fabric, adds background traffic, runs
// until every job is done and reads the common metrics and books. The INA
// family (scenarios/ina) and the mixed fabric (scenarios/mixed) both use it.
package inarig

import (
	"math"
	"strconv"

	"syncsim/experiments"
	"syncsim/inagg"
	"syncsim/netsim"
	"syncsim/workloads/training"
)

// ModelChoices are the models of PA-ATP Sec. V-A plus "custom", whose
// gradient is gradient_mb.
func ModelChoices() []string {
	return append(append([]string(nil), training.ModelNames...), "custom")
}

// CommonParams are the parameters every INA experiment takes, with the
// experiment's own defaults for the protocol, model and switch memory;
// gradient_scale and iterations default to -1, set by run_length from
// presets (RunLengthParams, which follow them).
func CommonParams(proto, model string, models []string, memMB float64, presets Presets, runLengthHelp string) []experiments.Param {
	var named []string // the models gradient_scale applies to
	for _, m := range models {
		if m != "custom" {
			named = append(named, m)
		}
	}
	out := []experiments.Param{
		experiments.EnumParam("protocol", proto, inagg.ProtocolNames(), "gradient synchronisation protocol (PA-ATP Sec. V-A baselines, Sec. VI-D ablations)"),
		experiments.EnumParam("model", model, models, "model whose gradient each worker pushes per iteration (ResNet50 98 MB, AlexNet 233 MB, VGG11 491 MB, VGG19 548 MB; custom: gradient_mb)"),
		experiments.FloatParam("gradient_mb", 1, 0.000248, 1e5, "gradient per worker per iteration when model=custom, MB (10^6 B)").OnlyWhen("model", "custom"),
		experiments.FloatParam("gradient_scale", -1, 1e-6, 1, "fraction of a named model's gradient pushed per iteration (1 = the paper's scale; "+
			"-1: set by run_length)").OnlyWhen("model", named...).Auto("-1", AutoByRunLength),
		experiments.IntParam("iterations", -1, 1, 100000, "training iterations per job (the paper averages 100; -1: set by run_length)").Auto("-1", AutoByRunLength),
	}
	out = append(out, RunLengthParams(presets, runLengthHelp)...)
	out = append(out,
		experiments.FloatParam("switch_mem_mib", memMB, 0.001, 1024, "switch memory for aggregators, MiB (2^20 B); M = memory / 256 B").Was("switch_mem_mb"),
		experiments.FloatParam("compute_ms", 0, 0, 1e6, "compute time of every worker per iteration, ms: forward + backward, spread over "+
			"the model's layers with overlap=layer, before the whole push with overlap=none (0: communication only, as the paper's "+
			"figures)").Means("0", "communication only"),
	)
	out = append(out, LayerParams()...)
	out = append(out,
		experiments.FloatParam("eta", 0.9, 0.01, 1, "PA-ATP's AECN threshold factor eta (marks while used aggregators + overflow > eta (M + BDP))"),
		experiments.FloatParam("max_ms", 10000, 0.001, 1e9, "simulated-time limit, ms, counted from t = 0 (the background's start): "+
			"jobs unfinished by then leave ajct_ms undefined (NaN)"),
	)
	return append(append(out, AggParams()...), ConstantParams()...)
}

// AggParams are the aggregating switch's modelling choices for the hashed
// protocols (see inagg.AggregatorConfig), with the new defaults and the
// earlier behaviours for comparison.
func AggParams() []experiments.Param {
	return []experiments.Param{
		experiments.EnumParam("agg_index", inagg.IndexSequential.String(), inagg.IndexModeNames(), "aggregator index of ATP, StrawAsyn and PA-ATP: "+
			"sequential = (per-job offset + seq) mod M, a job's outstanding sequences on distinct aggregators as the public ATP client's "+
			"per-thread block; hash = hash(job, seq) mod M").OnlyWhen("protocol", windowed...),
		experiments.EnumParam("aecn_count", inagg.OccupancySequences.String(), inagg.OccupancyModeNames(), "what AECN counts as overflow "+
			"beside the aggregators in use: sequences with a contribution at the PS (Sec. III-C's R = N x AWD) or every such "+
			"contribution").OnlyWhen("protocol", limited...),
		experiments.EnumParam("agg_collision", "atp", []string{"atp", "follow"}, "a sequence's contributions after one overflowed to the PS: "+
			"atp = take a free aggregator, as ATP's switch does (it keeps no per-sequence state), the partial aggregate waiting for a resend; "+
			"follow = follow the first to the PS (per-sequence state in the switch, the earlier model)").OnlyWhen("protocol", windowed...),
		experiments.EnumParam("agg_passed", "ps", []string{"ps", "hold"}, "a sequence of StrawAsyn or PA-ATP that can no longer "+
			"complete at the switch, every worker its aggregate lacks having sent that sequence or a later one (the switch's S_n "+
			"registers, Sec. IV): ps = its partial aggregate goes to the PS at once (ours: the paper is silent); hold = it waits in the "+
			"aggregator for a resend, as ATP's table").OnlyWhen("protocol", asynchronous...),
		experiments.EnumParam("resend_flush", inagg.FlushSeparate.String(), inagg.FlushModeNames(), "a resend that finds its sequence's "+
			"partial aggregate: separate = the aggregate goes as a packet of its own beside the resend (PA-ATP Sec. III-B1, the resend "+
			"'will release the partitioned aggregation result ... and be directly sent to PS'); merged = the resend carries it, with its "+
			"own contribution, to the PS in one packet, as ATP's switch (a PS holding part of it drops it whole)").OnlyWhen("protocol", windowed...),
		experiments.BoolParam("gack_on_complete", false, "the switch also answers the gradient that completes an aggregate with a GACK "+
			"(Sec. III-B1's every gradient; false: none, as Sec. IV's switch program forwards that gradient to the PS as the aggregate, "+
			"and the completing worker's window slides on the AACK)").OnlyWhen("protocol", asynchronous...),
	}
}

// ConstantParams are the protocol constants the PA-ATP paper leaves
// open, with the public ATP and SwitchML clients' values as defaults (see
// inagg.Params).
func ConstantParams() []experiments.Param {
	d := inagg.DefaultParams()
	return []experiments.Param{
		experiments.EnumParam("cwd_increase", d.CWDIncrease.String(), inagg.IncreaseModeNames(), "congestion-window growth of StrawAsyn and PA-ATP "+
			"on an unmarked GACK: per-gack = +1 packet (Sec. III-B2, \"once receiving a GACK packet, the worker will increase its window by one\"), "+
			"per-rtt = slow start, then ATP's +1500 B per round trip").OnlyWhen("protocol", asynchronous...),
		experiments.FloatParam("cwd_cap_bdp", d.CWDCapBDP, 0.01, 1000, "cap of the StrawAsyn and PA-ATP congestion windows, in bandwidth-delay "+
			"products of the aggregating switch (1: Sec. II-A2's \"window with a size less than bandwidth-delay product\"; the paper states none for PA-ATP)").
			OnlyWhen("protocol", asynchronous...),
		experiments.EnumParam("awd_scope", d.AWDScope.String(), inagg.AWDScopeNames(), "who holds PA-ATP's AWD: job = one window per job, moved by "+
			"the AACKs all its workers receive (Sec. III-B3, \"each job maintains the asynchronous degree window AWD\"); worker = each worker its own copy").
			OnlyWhen("protocol", limited...),
		experiments.FloatParam("init_awd_pkts", d.InitAWD, 0, float64(d.MaxWindow), "initial AWD of PA-ATP and StrawAsyn+AL, and StrawAsyn+PC's fixed AWD, "+
			"packets (the paper states none)").Means("0", "AWD* = eta (M + BDP) / N of Sec. III-C, N the jobs at the aggregating switch").
			OnlyWhen("protocol", withAWD...),
		experiments.FloatParam("init_beta", d.InitBeta, -1, 1, "PA-ATP's AECN level beta before its first round (the paper states none; "+
			"1: the earlier model, DCTCP's start, which halves AWD at the first mark)").
			Auto("-1", "sqrt(2 / AWD_0): Sec. III-C's steady state for the job's initial AWD").OnlyWhen("protocol", limited...),
		experiments.FloatParam("init_alpha", d.InitAlpha, 0, 1, "ECN level alpha of StrawAsyn and PA-ATP before the first window of GACKs "+
			"closes (1: as Linux's and ns-3's DCTCP start it)").OnlyWhen("protocol", asynchronous...),
		experiments.EnumParam("awd_rounds", awdRoundsName(d.AWDRoundsElapsed), []string{"aacks", "elapsed"}, "how a quiet round grows "+
			"PA-ATP's AWD: aacks = +1 per round of AACKs, however long (Sec. III-B3, \"additively increased by one per RTT round\"); "+
			"elapsed = +1 per RTT elapsed since the round began (the earlier model)").OnlyWhen("protocol", limited...),
		experiments.EnumParam("awd_cut", awdCutName(d.AWDCutPerWindow), []string{"rtt", "window"}, "how often an AECN mark may cut "+
			"PA-ATP's AWD by Eq. 2: rtt = once per GACK round trip (Sec. III-B3, per \"RTT round\"); window = once per window of "+
			"AACKs, not again until an AACK for a sequence sent after the cut (ECN's and DCTCP's once per window of data, RFC 3168 "+
			"Sec. 6.1.2; Sec. III-C's one cut per sawtooth period)").OnlyWhen("protocol", limited...),
		experiments.EnumParam("pc_pmax", d.PCMax.String(), inagg.PMaxModeNames(), "StrawAsyn+PC's p_max: awd = AWD / p_avg as Sec. III-B2 defines it, "+
			"with the job's initial AWD (no asynchrony control moves it); leader = the most leading worker's progress degree").OnlyWhen("protocol", fixedAWD...),
		experiments.EnumParam("rto_front", "first", []string{"first", "last"}, "where a timeout of the protocols with GACKs puts the front "+
			"sequence (last_AACK + 1, GACKed, unanswered): first = pulled or resent before the batch of unGACKed resends, as the public ATP "+
			"client resends from last_ACK + 1 upward; last = after the batch (the earlier model)").OnlyWhen("protocol", asynchronous...),
		experiments.IntParam("max_window_pkts", d.MaxWindow, 2, 1<<22, "cap of every window (AWD included) and of how far a worker's next "+
			"sequence may run past its last_AACK, packets (65536: above a switch's M = 40960 aggregators, so one job's asynchrony can fill "+
			"it; the earlier 16384 capped it at 40 percent)").OnlyWhen("protocol", windowed...),
		experiments.FloatParam("init_cwd_pkts", d.InitCWD, 1, float64(d.MaxWindow), "initial congestion window of StrawAsyn and PA-ATP, packets "+
			"(100: the public ATP client's window per thread; ATP's thread windows start at atp_thread_window)").OnlyWhen("protocol", asynchronous...).Was("init_cwd"),
		experiments.FloatParam("rto_us", d.RTO.Seconds()*1e6, 1, 1e6, "retransmission timeout of ATP, StrawAsyn and PA-ATP, us "+
			"(200: the public ATP client's)").OnlyWhen("protocol", windowed...),
		experiments.FloatParam("rto_jitter", d.RTOJitter, 0, 10, "each arming of the retransmission timer of ATP, StrawAsyn and PA-ATP "+
			"draws its expiry uniformly in [rto_us, (1 + rto_jitter) rto_us), as the public client checks its timeout when its receive loop "+
			"comes round (0: every worker of a job expires in lockstep)").Means("0", "no spread").OnlyWhen("protocol", windowed...),
		experiments.EnumParam("rto_backoff", d.RTOBackoff.String(), inagg.BackoffNames(), "double the retransmission timeout of ATP, "+
			"StrawAsyn and PA-ATP on consecutive expiries, up to 64 ms (true), or keep it at rto_us (false: the public ATP client's fixed "+
			"receive timeout)").AutoFrom("auto", "each protocol's: fixed for ATP, as its public client; doubled for StrawAsyn and PA-ATP, "+
			"whose paper is silent and whose runs the fixed timer collapses at the paper's settings (docs/ina-recovery.md)", timerRule).
			OnlyWhen("protocol", windowed...).Was("atp_rto_backoff"),
		experiments.EnumParam("rto_recover", recoverName(d.ClientRecovery), []string{"gacks", "client"}, "what a timeout of StrawAsyn and "+
			"PA-ATP resends: gacks = every outstanding sequence with neither a result nor a GACK, one BDP at a time, and the front (the paper "+
			"is silent; GACKs show what reached the switch); client = the public ATP client's thread rule on the one window, from "+
			"last_AACK + 1 up to the first result beyond it, or last_AACK + 1 alone").OnlyWhen("protocol", asynchronous...),
		experiments.BoolParam("atp_recover_all", d.ATPRecoverAll, "on an ATP timeout resend every outstanding packet lacking a result "+
			"(false: the public client's rule, each silent thread resends from its last_ACK + 1 to its first result beyond, or last_ACK + 1 alone)").OnlyWhen("protocol", atpOnly),
		experiments.EnumParam("loss_cut", lossCutName(d.LossCut), []string{"tcp", "none"}, "window of StrawAsyn and PA-ATP after a loss: "+
			"tcp = halved on a fast retransmission, one packet after a timeout, as a DCTCP window must (RFC 8257 Sec. 3.5); none = "+
			"unchanged, as the public ATP client's").OnlyWhen("protocol", asynchronous...),
		experiments.IntParam("gap_threshold", d.GapThreshold, 0, 1<<20, "results past a missing one that trigger its fast retransmission "+
			"under ATP, StrawAsyn and PA-ATP (1: Sec. III-B1's \"once a sequence number gap in AACK is detected\" and the public ATP "+
			"client's first out-of-order result; 3: TCP's duplicate ACKs)").Means("0", "each protocol's: 1 for StrawAsyn and PA-ATP, "+
			"3 for ATP (under the client's 1 its idle runs collapse)").OnlyWhen("protocol", windowed...),
		experiments.BoolParam("result_ecn", d.ResultECN, "results are ECN-capable: queues mark them on their way back and a worker "+
			"takes a marked result as a congestion echo, as ATP's switch marks results leaving deep queues and its client reads the mark "+
			"(false: the earlier model, in which nothing slowed a job whose result copies overran their links)").OnlyWhen("protocol", windowedOrTCP...),
		experiments.BoolParam("rto_pull", d.Pull, "at a first expiry, ask the PS for the results of sequences the switch acknowledged "+
			"(GACKed), and resend them only at later expiries (false: resend them at once, as the public ATP client, which has no GACKs, "+
			"resends from last_ACK + 1)").
			OnlyWhen("protocol", asynchronous...),
		experiments.EnumParam("rto_pull_again", pullAgainName(d.PullAfterReset), []string{"front", "reset"}, "when rto_pull asks the PS again: front = once "+
			"per front sequence (last_AACK + 1), an expiry finding the pulled front unanswered resends it; reset = at every expiry after "+
			"a GACK or result restarted the timer (the earlier model)").OnlyWhen("rto_pull", "true"),
		experiments.EnumParam("rto_gacked", gackedName(d.GACKedFront), []string{"batch", "front"}, "what an expiry of StrawAsyn and "+
			"PA-ATP resends when every outstanding sequence is GACKed and it does not pull: batch = up to one BDP from the front, "+
			"and one more per result; front = last_AACK + 1 alone, as the public ATP client resends last_ACK + 1 alone when it "+
			"holds no result beyond it").OnlyWhen("protocol", asynchronous...),
		experiments.EnumParam("rto_gaps", d.RecoverGaps.String(), inagg.GapRuleNames(), "which GACKed sequences lacking a result an "+
			"expiry of StrawAsyn and PA-ATP recovers beside the unacknowledged ones: front = last_AACK + 1 alone; batch = also up to one "+
			"BDP of those below the highest result the worker holds at the expiry; paced = those, one at the expiry and two more per new "+
			"result (pulled or resent as the front is)").OnlyWhen("protocol", asynchronous...),
		experiments.IntParam("atp_threads", d.ATPThreads, 1, inagg.MaxATPThreads, "independent windows (sending threads) per ATP worker, "+
			"each sending its share of the gradient (12: the public ATP client's thread_to_use)").OnlyWhen("protocol", atpOnly),
		experiments.IntParam("atp_thread_window", d.ATPThreadWindow, 1, d.MaxWindow, "initial and largest window of each ATP thread, packets, "+
			"and the aggregator indexes each thread cycles through (100: the public ATP client's max_agtr_size_per_thread)").OnlyWhen("protocol", atpOnly),
		experiments.BoolParam("atp_cc", d.ATPCC, "ATP's window adjustment: halve a thread's window on a window-closing result echoing ECN, "+
			"else add 1500 B (false: fixed thread windows, as the public client ships with CC_ENABLE false)").OnlyWhen("protocol", atpOnly),
		experiments.IntParam("switchml_pool", d.SwitchMLPool, 0, 8192, "SwitchML's slot pool per job, the packets each worker keeps "+
			"outstanding (256: the public p4app-switchML client's max_outstanding_packets; at most the P4 program's 8192 slots)").
			Means("0", "one bandwidth-delay product of the aggregating switch").OnlyWhen("protocol", switchmlOnly),
		experiments.FloatParam("switchml_timeout_ms", d.SwitchMLTimeout.Seconds()*1e3, 0.001, 1e4, "SwitchML's per-slot retransmission "+
			"timeout at the start of every iteration, ms (10: the public p4app-switchML client's general.timeout)").OnlyWhen("protocol", switchmlOnly),
		experiments.IntParam("switchml_timeout_threshold", d.SwitchMLTimeoutThreshold, 1, 1e9, "SwitchML timeouts, counted over a worker's "+
			"run, that double its timeout (100: the client's timeout_threshold)").OnlyWhen("protocol", switchmlOnly),
		experiments.IntParam("switchml_threshold_increment", d.SwitchMLThresholdIncrement, 0, 1e9, "growth of SwitchML's doubling "+
			"threshold at each doubling (100: the client's timeout_threshold_increment)").OnlyWhen("protocol", switchmlOnly),
		experiments.IntParam("switchml_threads", d.SwitchMLThreads, 1, 8192, "SwitchML client worker threads per worker, each with its own "+
			"timeout, backoff and polls over its share of the slots (4: the client's num_worker_threads)").OnlyWhen("protocol", switchmlOnly),
		experiments.IntParam("switchml_first_timeouts", d.SwitchMLFirstTimeouts, 0, 8192, "timeouts the timers of SwitchML's first "+
			"window in each iteration run (the client arms its first batch for timeout x its packets per thread, to cover building "+
			"the batch on the host, which the simulation does not model; 1: armed like the others)").
			Means("0", "the pool over the threads, as the client (64 of 256 over 4 threads)").
			Means("1", "the first window's timers are like the others").OnlyWhen("protocol", switchmlOnly),
		experiments.BoolParam("switchml_in_order", d.SwitchMLInOrder, "send each SwitchML worker's packets in sequence order through one "+
			"window of the whole pool, the earlier model, where a lost result held up every slot of the job's other workers "+
			"(false: every slot is a stream of its own, as the public client sends s + pool into a slot when the result of s returns)").OnlyWhen("protocol", switchmlOnly),
	}
}

// recoverName is rto_recover's value for Params.ClientRecovery.
func recoverName(client bool) string {
	if client {
		return "client"
	}
	return "gacks"
}

// awdRoundsName is awd_rounds' value for Params.AWDRoundsElapsed.
func awdRoundsName(elapsed bool) string {
	if elapsed {
		return "elapsed"
	}
	return "aacks"
}

// awdCutName is awd_cut's value for Params.AWDCutPerWindow.
func awdCutName(perWindow bool) string {
	if perWindow {
		return "window"
	}
	return "rtt"
}

// lossCutName is loss_cut's value for Params.LossCut.
func lossCutName(cut bool) string {
	if cut {
		return "tcp"
	}
	return "none"
}

// The protocols each shared parameter is offered to, read off the
// protocols' registrations (inagg/protocol.go) by the properties that
// select the machinery the parameter sets, so a new protocol is offered
// them by its registration alone and no list here names it. A protocol's
// own parameters (atp_*, switchml_*) name it by its constant.
var (
	// windowed: ATP's aggregators, window and retransmission timer.
	windowed = inagg.ProtocolNamesWhere(inagg.Protocol.Hashed)
	// asynchronous: the windowed protocols with GACKs, whose window starts
	// at init_cwd_pkts (ATP's thread windows start at atp_thread_window).
	asynchronous = inagg.ProtocolNamesWhere(func(p inagg.Protocol) bool { return p.Hashed() && p.Async() })
	// limited: PA-ATP's AWD with AECN.
	limited = inagg.ProtocolNamesWhere(inagg.Protocol.AsyncLimited)
	// withAWD: an AWD, moved by AECN (limited) or fixed (progress-aware
	// cuts alone, whose p_max it sets).
	withAWD = inagg.ProtocolNamesWhere(func(p inagg.Protocol) bool { return p.AsyncLimited() || p.ProgressAware() })
	// fixedAWD: progress-aware cuts under a fixed AWD (pc_pmax).
	fixedAWD = inagg.ProtocolNamesWhere(func(p inagg.Protocol) bool { return p.ProgressAware() && !p.AsyncLimited() })
	// windowedOrTCP: every protocol with a congestion window (the windowed
	// ones and BytePS's TCP), which an ECN-marked result may cut.
	windowedOrTCP = inagg.ProtocolNamesWhere(func(p inagg.Protocol) bool { return p.Hashed() || p.Async() })
	atpOnly       = inagg.ATP.String()
	switchmlOnly  = inagg.SwitchML.String()
)

// JobParams are the worker constants of a run: the defaults with the
// run's ConstantParams.
func JobParams(ps experiments.Params) *inagg.Params {
	p := inagg.DefaultParams()
	if ps.Has("cwd_increase") {
		// The enums admit only their Names.
		p.CWDIncrease, _ = inagg.ParseIncreaseMode(ps.String("cwd_increase"))
		p.CWDCapBDP = ps.Float("cwd_cap_bdp")
		p.AWDScope, _ = inagg.ParseAWDScope(ps.String("awd_scope"))
		p.InitAWD = ps.Float("init_awd_pkts")
		p.PCMax, _ = inagg.ParsePMaxMode(ps.String("pc_pmax"))
		p.FrontLast = ps.String("rto_front") == "last"
		p.LossCut = ps.String("loss_cut") == "tcp"
		p.InitBeta = ps.Float("init_beta")
		p.InitAlpha = ps.Float("init_alpha")
		p.AWDRoundsElapsed = ps.String("awd_rounds") == "elapsed"
		p.AWDCutPerWindow = ps.String("awd_cut") == "window"
		p.Pull = ps.Bool("rto_pull")
		p.PullAfterReset = ps.String("rto_pull_again") == "reset"
		p.GACKedFront = ps.String("rto_gacked") == "front"
		p.RecoverGaps, _ = inagg.ParseGapRule(ps.String("rto_gaps"))
		p.ResultECN = ps.Bool("result_ecn")
	}
	if ps.Has("max_window_pkts") {
		p.MaxWindow = ps.Int("max_window_pkts")
	}
	if ps.Has("init_cwd_pkts") {
		p.InitCWD = ps.Float("init_cwd_pkts")
		p.RTO = netsim.FromMicros(ps.Float("rto_us"))
		p.MaxRTO = max(p.MaxRTO, p.RTO)
		p.RTOBackoff, _ = inagg.ParseBackoff(ps.String("rto_backoff"))
		p.RTOJitter = ps.Float("rto_jitter")
		p.ClientRecovery = ps.String("rto_recover") == "client"
		p.ATPRecoverAll = ps.Bool("atp_recover_all")
		p.GapThreshold = ps.Int("gap_threshold")
		p.SwitchMLPool = ps.Int("switchml_pool")
		p.SwitchMLTimeout = netsim.FromMillis(ps.Float("switchml_timeout_ms"))
		p.SwitchMLTimeoutThreshold = ps.Int("switchml_timeout_threshold")
		p.SwitchMLThresholdIncrement = ps.Int("switchml_threshold_increment")
		p.SwitchMLThreads = ps.Int("switchml_threads")
		p.SwitchMLFirstTimeouts = ps.Int("switchml_first_timeouts")
		p.SwitchMLInOrder = ps.Bool("switchml_in_order")
	}
	if ps.Has("atp_threads") {
		p.ATPThreads = ps.Int("atp_threads")
		p.ATPThreadWindow = ps.Int("atp_thread_window")
		p.ATPCC = ps.Bool("atp_cc")
	}
	return &p
}

// timerRule is what rto_backoff=auto resolves to at the point ps: true
// where the timer doubles (StrawAsyn, +PC, +AL and PA-ATP), false for
// ATP and for the protocols the parameter does not govern (SwitchML has
// its own timer; BytePS, over TCP, always doubles).
func timerRule(ps experiments.Params) string {
	proto, err := Protocol(ps)
	if err != nil {
		return inagg.BackoffEach.String() // no protocol to decide by
	}
	return strconv.FormatBool(proto != inagg.BytePS && inagg.BackoffEach.Doubles(proto))
}

// ValidateJobParams checks the worker constants a point sets together
// (an initial beta outside [0, 1] and not -1, say), so that --dry-run and
// a sweep refuse the point before anything runs.
func ValidateJobParams(ps experiments.Params) error { return JobParams(ps).Validate() }

// BackgroundParams are the background-traffic parameters: the workload,
// the load (loadHelp says what it is a fraction of) and the warm-up the
// background runs alone before the jobs start.
func BackgroundParams(load float64, loadHelp string) []experiments.Param {
	return []experiments.Param{
		experiments.EnumParam("workload", "hadoop", []string{"hadoop", "cachefollower"}, "background flow-size distribution (Roy et al., SIGCOMM 2015)").OnlyWhenPositive("load"),
		experiments.FloatParam("load", load, 0, 1, "background load: "+loadHelp+" (0: none)").Means("0", "no background traffic"),
		experiments.FloatParam("bg_warmup_ms", -1, 0, 1e6, "the background starts at t = 0 and every job at bg_warmup_ms, so the jobs meet it "+
			"in its steady state and no metric covers the warm-up (-1: set by run_length; 0 without background)").Auto("-1", AutoByRunLength),
	}
}

// Metrics are the metrics every INA experiment reports, followed by the
// experiment's own.
func Metrics(extra ...experiments.Metric) []experiments.Metric {
	m := []experiments.Metric{
		{Name: "ajct_ms", Unit: "ms", Help: "average job completion time: mean over jobs of the mean iteration time from iteration skip_iters on (NaN unless every job finished)"},
		{Name: "agg_tput_gbps", Unit: "Gbit/s", Help: "aggregation throughput: gradient bytes whose aggregation completed (workers x payload per result) per second, from the first job start to the last job end"},
		{Name: "switch_agg_frac", Unit: "", Help: "gradient bytes aggregated at switches over all gradient bytes aggregated (switch + PS)"},
		{Name: "jct_max_ms", Unit: "ms", Help: "slowest job's mean iteration time (NaN unless every job finished)"},
		{Name: "ajct_done_ms", Unit: "ms", Help: "mean over the jobs that finished of their mean iteration time (NaN if none did; equals ajct_ms when all did)"},
		{Name: "jobs_done", Unit: "jobs", Help: "jobs that finished every iteration"},
		{Name: "retransmits", Unit: "packets", Help: "gradient retransmissions over all workers"},
		{Name: "worker_timeouts", Unit: "", Help: "worker retransmission-timer expiries"},
		{Name: "overflow_pkts", Unit: "packets", Help: "gradients that missed a switch aggregator and went to the PS (collisions, contributions whose partners had all passed them (agg_passed), forwarded resends)"},
		{Name: "overflow_seqs", Unit: "sequences", Help: "sequences with at least one contribution sent on to the PS, over all jobs"},
		{Name: "collision_seqs", Unit: "sequences", Help: "of overflow_seqs, those whose first contribution to overflow found its aggregator held by another (job, sequence) while some aggregator was free (an index collision)"},
		{Name: "exhaustion_seqs", Unit: "sequences", Help: "of overflow_seqs, those whose first contribution to overflow found every aggregator of its switch in use (memory exhausted)"},
		{Name: "aecn_marks", Unit: "packets", Help: "results marked with PA-ATP's AECN bit at aggregating switches (0: the asynchrony limit never bound)"},
		{Name: "agg_mem_peak_frac", Unit: "", Help: "largest fraction of an aggregating switch's aggregators in use at once"},
		{Name: "agg_occ_mean_frac", Unit: "", Help: "time average of the AECN occupancy (aggregators in use + overflow, per aecn_count) over M + BDP, " +
			"at the aggregating switch where it is largest (AECN marks while the occupancy exceeds eta)"},
		{Name: "agg_occ_max_frac", Unit: "", Help: "largest AECN occupancy (aggregators in use + overflow) over M + BDP at any aggregating switch"},
		{Name: "awd_bound_frac", Unit: "", Help: "PA-ATP and StrawAsyn+AL: mean over jobs of the fraction of their workers' time that AWD held them back " +
			"(next sequence past last_AACK + AWD, within last_GACK + CWD); 0 for the other protocols"},
		{Name: "drops", Unit: "packets", Help: "packets dropped at switch queues and host NICs, whole run (the warm-up's background included); " +
			"drops_<tier> split it by where, drops_<kind> by what"},
		{Name: "events", Unit: "", Help: "simulator events processed"},
		{Name: "iter_rtts", Unit: "", Help: "mean iteration time of the jobs that finished (as ajct_done_ms) over the base RTT: how many round trips an iteration lasts"},
		{Name: "uplink_util", Unit: "", Help: "mean utilisation of the edge -> core links (leaf -> spine) from the first job start to the last job end: bytes sent over capacity"},
		{Name: "downlink_util", Unit: "", Help: "mean utilisation of the core -> edge links (spine -> leaf) over the same window as uplink_util"},
	}
	m = append(m, DropMetrics()...)
	return append(m, extra...)
}

// Gradient is the gradient size of model: mb MB (gradient_mb) for
// "custom", else the named model's size times scale (gradient_scale as
// run_length resolved it), at least one packet's payload.
func Gradient(model string, mb, scale float64) (netsim.Bytes, error) {
	var g float64
	if model == "custom" {
		g = mb * float64(netsim.Megabyte)
	} else {
		size, err := training.ModelSize(model)
		if err != nil {
			return 0, err
		}
		g = float64(size) * scale
	}
	b := netsim.Bytes(math.Round(g))
	if b < inagg.INAPayloadBytes {
		b = inagg.INAPayloadBytes
	}
	return b, nil
}

// Protocol parses the protocol parameter.
func Protocol(ps experiments.Params) (inagg.Protocol, error) {
	return inagg.ParseProtocol(ps.String("protocol"))
}

// pullAgainName is rto_pull_again's value for Params.PullAfterReset.
func pullAgainName(reset bool) string {
	if reset {
		return "reset"
	}
	return "front"
}

// gackedName is rto_gacked's value for Params.GACKedFront.
func gackedName(front bool) string {
	if front {
		return "front"
	}
	return "batch"
}
