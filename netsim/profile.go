package netsim

import (
	"cmp"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"time"
)

// PredictCores are the core counts a Profile predicts speedups for.
var PredictCores = [...]int{1, 2, 4, 8, 16, 32, 64}

// Profile records the work of a partitioned run window by window: the
// events and CPU time of each partition in each window (the CPU time of
// the thread that ran it, on Linux; elsewhere the wall clock), and the
// wall time of each window, from which it predicts the speedup an ideal
// machine with N cores would reach. Profiling reads the clocks twice per
// partition per window; it never changes results.
//
// The prediction for N cores sums, over windows, the makespan of the
// window's partitions on N cores (longest first onto the least loaded
// core, as a load-adaptive scheduler would place them) plus a barrier
// cost per window, and divides the single-core work (every partition's
// time summed) by it. The barrier cost is that of 2 threads scaled by
// log2 N, the depth of a combining-tree barrier: either this run's,
// measured as a window's wall time less the makespan of its partitions
// on the run's threads (its 10th percentile over windows; on a shared
// machine it includes waits for a core), or IdleBarrier.
type Profile struct {
	Windows    uint64
	Partitions int
	// Labels name the partitions (by their first switch, or node).
	Labels    []string
	Threads   int
	Lookahead Time
	// Events and CPU per partition over the run.
	PartEvents []uint64
	PartCPU    []time.Duration
	// Work is the CPU time of all partitions; Wall the windows' wall
	// time; Barrier the wall time not explained by the makespan on the
	// run's threads.
	Work, Wall, Barrier time.Duration
	// Span[i] is the sum over windows of the makespan on PredictCores[i]
	// cores, from CPU times; SpanEvents the same from event counts.
	Span       [len(PredictCores)]time.Duration
	SpanEvents [len(PredictCores)]uint64
	Events     uint64
	// EmptyParts counts (window, partition) pairs with no event.
	EmptyParts      uint64
	MaxWindowEvents uint64

	cpu  []time.Duration
	ev   []uint64
	over []time.Duration // per window: wall less makespan on the run's threads
}

// EnableProfile starts recording a Profile of the coordinator's
// partitioned runs and returns it (nil when the Sim is not the
// coordinator of a partitioned network).
func (s *Sim) EnableProfile() *Profile {
	if s.par == nil || s.par.root != s {
		return nil
	}
	n := len(s.par.parts)
	s.par.prof = &Profile{Partitions: n, Lookahead: s.par.lookahead, PartEvents: make([]uint64, n), PartCPU: make([]time.Duration, n)}
	for _, p := range s.par.parts {
		s.par.prof.Labels = append(s.par.prof.Labels, p.label)
	}
	return s.par.prof
}

// record adds one window.
func (pf *Profile) record(pr *parallel, wall time.Duration) {
	pf.Windows++
	pf.Threads = pr.threads
	pf.Wall += wall
	pf.cpu, pf.ev = pf.cpu[:0], pf.ev[:0]
	var evs uint64
	for i, s := range pr.parts {
		pf.PartEvents[i] += s.winEvents
		pf.PartCPU[i] += s.winCPU
		pf.Work += s.winCPU
		evs += s.winEvents
		if s.winEvents == 0 {
			pf.EmptyParts++
		}
		pf.cpu = append(pf.cpu, s.winCPU)
		pf.ev = append(pf.ev, s.winEvents)
	}
	pf.Events += evs
	pf.MaxWindowEvents = max(pf.MaxWindowEvents, evs)
	slices.Sort(pf.cpu)
	slices.Reverse(pf.cpu)
	slices.Sort(pf.ev)
	slices.Reverse(pf.ev)
	for i, n := range PredictCores {
		pf.Span[i] += makespan(pf.cpu, n)
		pf.SpanEvents[i] += makespan(pf.ev, n)
	}
	b := max(wall-makespan(pf.cpu, min(pr.threads, len(pr.parts))), 0)
	pf.Barrier += b
	pf.over = append(pf.over, b)
}

// BarrierQuantile is the q-quantile (0..1) of the per-window barrier
// cost.
func (pf *Profile) BarrierQuantile(q float64) time.Duration {
	if len(pf.over) == 0 {
		return 0
	}
	s := slices.Clone(pf.over)
	slices.Sort(s)
	return s[min(int(q*float64(len(s))), len(s)-1)]
}

// makespan places jobs (sorted longest first) onto n cores, each on the
// least loaded one, and returns the largest load.
func makespan[T time.Duration | uint64](jobs []T, n int) T {
	if len(jobs) == 0 {
		return 0
	}
	if n >= len(jobs) {
		return jobs[0]
	}
	n = min(n, 64)
	var load [64]T
	for _, j := range jobs {
		m := 0
		for c := 1; c < n; c++ {
			if load[c] < load[m] {
				m = c
			}
		}
		load[m] += j
	}
	return slices.Max(load[:n])
}

// BarrierPerWindow is the barrier cost of one window the predictions
// use: the 10th percentile of the measured costs (see Profile).
func (pf *Profile) BarrierPerWindow() time.Duration { return pf.BarrierQuantile(0.1) }

// IdleBarrier is the cost of a window's barrier on an idle machine, for
// the predictions that leave out this run's waits for a core: the
// slowest of five runs of BenchmarkWindowBarrier at 2 threads on the
// 2-core development machine under load (0.59-1.83 us per empty window).
const IdleBarrier = 2 * time.Microsecond

// Predicted is the speedup over one core that an ideal machine with
// PredictCores[i] cores would reach with a barrier of b per window at
// 2 threads (scaled by log2 N, a combining tree's depth): from the
// partitions' CPU times, and from their event counts (every event
// costing the mean), which no waiting for a core can distort.
func (pf *Profile) Predicted(i int, b time.Duration) (cpu, events float64) {
	n := PredictCores[i]
	bt := time.Duration(0)
	if n > 1 {
		bt = b * time.Duration(bits.Len(uint(n-1))) * time.Duration(pf.Windows)
	}
	if d := pf.Span[i] + bt; d > 0 {
		cpu = float64(pf.Work) / float64(d)
	}
	if pf.Events > 0 && pf.Work > 0 {
		perEv := float64(pf.Work) / float64(pf.Events)
		events = float64(pf.Events) * perEv / (float64(pf.SpanEvents[i])*perEv + float64(bt))
	}
	return cpu, events
}

// Write prints the profile as a few lines of text.
func (pf *Profile) Write(w io.Writer) {
	fmt.Fprintf(w, "parallel engine: %d partitions, %d threads, lookahead %v, %d windows\n",
		pf.Partitions, pf.Threads, pf.Lookahead, pf.Windows)
	if pf.Windows == 0 {
		return
	}
	fmt.Fprintf(w, "  events/window: mean %.0f, max %d; empty partition-windows %.1f%%\n",
		float64(pf.Events)/float64(pf.Windows), pf.MaxWindowEvents,
		100*float64(pf.EmptyParts)/float64(pf.Windows*uint64(pf.Partitions)))
	big, bigCPU := 0, 0
	for i := range pf.PartEvents {
		if pf.PartEvents[i] > pf.PartEvents[big] {
			big = i
		}
		if pf.PartCPU[i] > pf.PartCPU[bigCPU] {
			bigCPU = i
		}
	}
	mean := float64(pf.Events) / float64(pf.Partitions)
	meanCPU := float64(pf.Work) / float64(pf.Partitions)
	fmt.Fprintf(w, "  partition balance: most events %d = %.2fx the mean (%s); most CPU %.2fx the mean (%s)\n",
		pf.PartEvents[big], float64(pf.PartEvents[big])/mean, pf.Labels[big],
		float64(pf.PartCPU[bigCPU])/meanCPU, pf.Labels[bigCPU])
	fmt.Fprintf(w, "  heaviest partitions, CPU / events x the mean:")
	for k, i := range pf.Heaviest(5) {
		sep := ","
		if k == 0 {
			sep = ""
		}
		fmt.Fprintf(w, "%s %s %.2f / %.2f", sep, pf.Labels[i],
			float64(pf.PartCPU[i])/meanCPU, float64(pf.PartEvents[i])/mean)
	}
	fmt.Fprintln(w)
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
	fmt.Fprintf(w, "  work %.3fs CPU, windows %.3fs wall, barrier per window: p10 %.1fus, median %.1fus, mean %.1fus\n",
		pf.Work.Seconds(), pf.Wall.Seconds(), us(pf.BarrierQuantile(0.1)), us(pf.BarrierQuantile(0.5)),
		us(pf.Barrier/time.Duration(pf.Windows)))
	clock := "thread CPU time"
	if !threadCPUExact {
		clock = "wall time"
	}
	b := pf.BarrierPerWindow()
	fmt.Fprintf(w, "  predicted speedup on an ideal N-core machine, from partitions' %s / from events,\n", clock)
	fmt.Fprintf(w, "  with this run's barrier (p10 %.1fus) and with an idle machine's (%.1fus), x log2 N:\n", us(b), us(IdleBarrier))
	for i, n := range PredictCores {
		c, e := pf.Predicted(i, b)
		ci, ei := pf.Predicted(i, IdleBarrier)
		fmt.Fprintf(w, "    N=%-3d %6.2fx / %6.2fx   idle: %6.2fx / %6.2fx\n", n, c, e, ci, ei)
	}
}

// Heaviest returns the indices of the n partitions with the most CPU
// time over the run (events break ties, then the index), heaviest first:
// the ones that bound the predicted speedup.
func (pf *Profile) Heaviest(n int) []int {
	idx := make([]int, pf.Partitions)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if c := cmp.Compare(pf.PartCPU[b], pf.PartCPU[a]); c != 0 {
			return c
		}
		return cmp.Compare(pf.PartEvents[b], pf.PartEvents[a])
	})
	return idx[:min(n, len(idx))]
}
