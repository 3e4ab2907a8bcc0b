// Package setup holds what the packet-level scenario families share: the
// leaf-spine fabric read from the common parameters, the warm-up window,
// the unloaded path latency behind FCT slowdowns, the conservation books
// and a few measurement helpers. It is internal to the scenarios: the
// harness (package experiments) knows nothing of networks.
package setup

import (
	"fmt"
	"math"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/switchmodel"
)

// WarmupParam is the common warm-up parameter: statistics exclude
// [0, warmup). A negative value means 10 percent of the duration, the
// default careful ns-3 and htsim users apply by hand.
func WarmupParam() experiments.Param {
	return experiments.FloatParam("warmup_ms", -1, -1, 1e6,
		"warm-up excluded from statistics, ms (negative: 10% of duration_ms)").Auto("-1", AutoWarmup)
}

// AutoWarmup is what warmup_ms=-1 means in every experiment: a tenth of
// a run whose length is set, or the jobs' start in a run that ends when
// its jobs do (mixed-fabric), whose end is not known while flows start.
const AutoWarmup = "10% of the run's simulated time, or the jobs' start where the run ends with its jobs"

// Window returns the measurement window [warmup, end) for a run of
// durationMs milliseconds.
func Window(ps experiments.Params, durationMs float64) (warm, end netsim.Time, err error) {
	end = netsim.FromMillis(durationMs)
	w := ps.Float("warmup_ms")
	if w < 0 {
		w = durationMs / 10
	}
	warm = netsim.FromMillis(w)
	if warm >= end {
		return 0, 0, fmt.Errorf("warmup_ms=%g must be below duration_ms=%g", w, durationMs)
	}
	return warm, end, nil
}

// CheckBooks verifies packet conservation when the run asks for it.
func CheckBooks(r *experiments.Run, net *netsim.Network) error {
	if !r.Check {
		return nil
	}
	if err := net.CheckConservation(); err != nil {
		return fmt.Errorf("%s: %w", r.Exp.Name, err)
	}
	if live, inflight := net.LivePackets(), int64(net.InFlight()); live < inflight {
		return fmt.Errorf("%s: packet pool holds %d live packets but %d are in flight", r.Exp.Name, live, inflight)
	}
	r.Book(PacketBook(net))
	return nil
}

// Jain is Jain's fairness index (sum x)^2 / (n sum x^2); 1 is perfectly fair.
func Jain(xs []float64) float64 {
	var s, s2 float64
	for _, x := range xs {
		s += x
		s2 += x * x
	}
	if s2 == 0 {
		return math.NaN()
	}
	return s * s / (float64(len(xs)) * s2)
}

// QueueTotals sums the drop and mark counters of a set of queues.
func QueueTotals(qs []*switchmodel.PortQueue) (drops, marks uint64) {
	for _, q := range qs {
		drops += q.Dropped
		marks += q.Marked
	}
	return drops, marks
}

// Gbps converts bytes over an interval to Gbit/s.
func Gbps(b float64, d netsim.Time) float64 {
	if d <= 0 {
		return math.NaN()
	}
	return b * 8 / d.Seconds() / 1e9
}
