package inagg

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"syncsim/netsim"
	"syncsim/switchmodel"
	"syncsim/topologies"
)

// TestFoldAWDOrder: the job's AWD folds its workers' logged inputs in the
// order (time, worker index, the worker's own order), hand-worked. Two
// RTT samples at t = 5 us, worker 0's 10 us then worker 1's 20 us, give
// srtt = 10 + (20 - 10)/8 = 11.25 us (the other order would give 18.75).
// The first AECN-marked AACK (worker 1's at 20 us, after worker 0's
// unmarked one of the same time, which starts the round) cuts AWD;
// worker 0's marked AACK at 32 us is 12 us >= srtt later and cuts again
// (with srtt 18.75 us it would not), and ends the round (beta's update).
func TestFoldAWDOrder(t *testing.T) {
	p := DefaultParams()
	p.InitBeta = 1
	us := netsim.Microsecond
	j := &Job{awd: newAWDCtl(p, 10), workers: []*worker{
		{awdLog: []awdInput{{at: 5 * us, rtt: 10 * us, smp: true}, {at: 20 * us, seq: 4, hi: 10}, {at: 32 * us, aecn: true, seq: 11, hi: 20}}},
		{awdLog: []awdInput{{at: 5 * us, rtt: 20 * us, smp: true}, {at: 20 * us, aecn: true, seq: 5, hi: 10}}},
	}}
	j.foldAWD()
	want := newAWDCtl(p, 10)
	want.sample(10 * us)
	want.sample(20 * us)
	want.onAACK(20*us, false, 4, 10)
	want.onAACK(20*us, true, 5, 10)
	want.onAACK(32*us, true, 11, 20)
	a := j.awd
	if a.srtt != 11250*netsim.Nanosecond || a.cuts != 2 || a.awd != want.awd || a.beta != want.beta || a.round != want.round {
		t.Fatalf("folded AWD: srtt %v, cuts %d, awd %g, beta %g, round %v; want 11.25us, 2, %g, %g, %v",
			a.srtt, a.cuts, a.awd, a.beta, a.round, want.awd, want.beta, want.round)
	}
	if wantAWD := CutAWD(CutAWD(10, p.InitBeta), p.InitBeta); want.awd != wantAWD {
		t.Fatalf("reference AWD %g, want two cuts from 10 at beta %g = %g", want.awd, p.InitBeta, wantAWD)
	}
	for i, w := range j.workers {
		if len(w.awdLog) != 0 {
			t.Fatalf("worker %d's log not emptied: %v", i, w.awdLog)
		}
	}
}

// TestFoldIterations: an iteration ends at the latest of its workers'
// finish times once every worker has finished it, and the job ends with
// its last iteration, at that time.
func TestFoldIterations(t *testing.T) {
	done := 0
	j := &Job{started: true, cfg: JobConfig{Iterations: 2, OnDone: func(*Job) { done++ }},
		workers: []*worker{{finish: []netsim.Time{10, 30}}, {finish: []netsim.Time{15}}}}
	j.foldIterations()
	if j.IterationsDone() != 1 || j.iterEnd[0] != 15 || j.finished[1] != 1 || j.done {
		t.Fatalf("after the first fold: %d iterations done, ends %v, finished %v, done %v", j.IterationsDone(), j.iterEnd, j.finished, j.done)
	}
	j.workers[1].finish = append(j.workers[1].finish, 25)
	j.fold()
	j.fold()
	if !j.done || j.doneAt != 30 || done != 1 || !reflect.DeepEqual(j.IterationTimes(), []netsim.Time{15, 15}) {
		t.Fatalf("after the second fold: done %v at %v (%d calls), iteration times %v; want done at 30 once, [15 15]",
			j.done, j.doneAt, done, j.IterationTimes())
	}
}

// TestPartitionedJobsThreads runs INA jobs whose workers span racks on a
// partitioned leaf-spine (hosts in partitions of 2, so a job's workers,
// PS and switch lie in several partitions) at 1, 2, 3 and 8 threads: the
// jobs' iteration times, AWD cuts, worker counters and switch counters
// are the same at every thread count, and the books balance.
func TestPartitionedJobsThreads(t *testing.T) {
	for _, proto := range []Protocol{PAATP, StrawAsyn, ATP, SwitchML} {
		t.Run(proto.String(), func(t *testing.T) {
			var first string
			for _, threads := range []int{1, 2, 3, 8} {
				got := runPartitionedJobs(t, proto, threads)
				if first == "" {
					first = got
					continue
				}
				if got != first {
					t.Fatalf("%d threads:\n%s\nwant (1 thread):\n%s", threads, got, first)
				}
			}
		})
	}
}

func runPartitionedJobs(t *testing.T, proto Protocol, threads int) string {
	t.Helper()
	return runPartitionedJobsLevels(t, proto, threads, false)
}

// runPartitionedJobsLevels is runPartitionedJobs, with every worker's
// rack switch as its first-level aggregator when twoLevel is set (ATP).
func runPartitionedJobsLevels(t *testing.T, proto Protocol, threads int, twoLevel bool) string {
	t.Helper()
	net := netsim.NewNetwork(netsim.New(7))
	cfg := topologies.LeafSpineConfig{Spines: 2, Leaves: 3, HostsPerLeaf: 4,
		HostRate: 100 * netsim.Gbps, FabricRate: 100 * netsim.Gbps, Delay: 2 * netsim.Microsecond,
		Queue: switchmodel.QueueConfig{Buffer: 256 * netsim.Kilobyte, ECNBytes: 30 * netsim.Kilobyte}}
	f, err := topologies.LeafSpine(net, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := net.Partition(net.AutoPartition(2)); err != nil {
		t.Fatal(err)
	}
	if err := net.Sim.SetThreads(threads); err != nil {
		t.Fatal(err)
	}
	aggs := make([]*Aggregator, len(f.Edge))
	for i, sw := range f.Edge {
		ac := DefaultAggregatorConfig()
		ac.BDPPackets = 700
		ac.Memory = 200 * AggregatorBytes // small: overflows to the PS, AECN marks
		if aggs[i], err = NewAggregator(sw, ac); err != nil {
			t.Fatal(err)
		}
	}
	h := f.Hosts
	specs := []struct {
		workers []*netsim.Host
		ps      *netsim.Host
		leaf    int
	}{
		{[]*netsim.Host{h[0], h[1], h[4], h[5], h[8]}, h[9], 2},
		{[]*netsim.Host{h[2], h[6], h[10], h[11]}, h[3], 0},
	}
	params := DefaultParams()
	params.SwitchMLPool = 64 // two jobs' pools and their shadows in 200 aggregators
	pending := len(specs)
	var js []*Job
	for id, s := range specs {
		var firstLevel []*Aggregator
		if twoLevel {
			for _, w := range s.workers {
				firstLevel = append(firstLevel, aggs[f.GroupOf(w.ID())])
			}
		}
		j, err := NewJob(net, JobConfig{ID: id, Protocol: proto, Workers: s.workers, PS: s.ps, FirstLevel: firstLevel,
			Switch: aggs[s.leaf], Gradient: 300 * netsim.Kilobyte, Iterations: 3, Params: &params,
			OnDone: func(*Job) {
				if pending--; pending == 0 {
					net.Sim.Stop()
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
		if err := j.Start(); err != nil {
			t.Fatal(err)
		}
		js = append(js, j)
	}
	net.Sim.Run(netsim.Second)
	out := fmt.Sprintf("events %d, now %v\n", net.Sim.Events(), net.Sim.Now())
	for _, j := range js {
		if err := j.Check(); err != nil {
			t.Fatal(err)
		}
		out += fmt.Sprintf("job %d: done at %v, iterations %v, AWD cuts %d, workers %+v, switch %+v\n",
			j.ID(), j.DoneAt(), j.IterationTimes(), j.AWDCuts(), j.TotalWorkerStats(), j.SwitchStats())
		if twoLevel {
			mean, peak, now := j.AggregatorsHeld()
			if now != 0 || peak < 1 {
				t.Fatalf("job %d holds %d aggregators at its end, peak %d", j.ID(), now, peak)
			}
			out += fmt.Sprintf("  held peak %d, mean %.6g\n", peak, mean)
		}
	}
	// Leaf 1 holds no PS: with two levels it sums its racks' workers.
	if twoLevel && (aggs[1].Stats.Absorbed == 0 || aggs[1].Stats.Completions == 0) {
		t.Fatalf("first-level switch %s summed nothing: %+v", aggs[1].Switch().Name(), aggs[1].Stats)
	}
	for _, a := range aggs {
		if err := a.CheckLeaks(); err != nil {
			t.Fatal(err)
		}
		out += fmt.Sprintf("switch %s: %+v\n", a.Switch().Name(), a.Stats)
	}
	if err := net.CheckConservation(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPartitionedTwoLevel: ATP's two-level aggregation, whose job books
// are written at several switches (each worker's rack switch sums its
// rack's workers, the PS's switch the racks' aggregates), runs on a
// partitioned network with the same results at 1, 2, 3 and 8 threads,
// the books balanced, and the first-level switches summing.
func TestPartitionedTwoLevel(t *testing.T) {
	var first string
	for _, threads := range []int{1, 2, 3, 8} {
		got := runPartitionedJobsLevels(t, ATP, threads, true)
		if first == "" {
			first = got
			if !strings.Contains(first, "held peak") {
				t.Fatalf("no held book:\n%s", first)
			}
			continue
		}
		if got != first {
			t.Fatalf("%d threads:\n%s\nwant (1 thread):\n%s", threads, got, first)
		}
	}
}

// TestFoldHeldOrder: the switches' logs of a two-level job's held
// aggregators merge by (time, switch order): at t = 30 switch 0's release
// comes before switch 1's allocation, so the job never held 3 at once.
func TestFoldHeldOrder(t *testing.T) {
	j := &Job{shares: []*jobShare{
		{log: []heldDelta{{10, 1}, {30, -1}}},
		{log: []heldDelta{{20, 1}, {30, 1}, {40, -2}}},
	}}
	j.foldHeld()
	if j.held.peak != 2 || j.held.now != 0 || j.held.area != 50 || j.held.last != 40 {
		t.Fatalf("held %+v; want peak 2, now 0, area 1x10 + 2x10 + 2x10 = 50, last 40", j.held)
	}
	if len(j.shares[0].log)+len(j.shares[1].log) != 0 {
		t.Fatal("logs not emptied")
	}
	// A release booked later at an earlier clock does not move the book back.
	j.shares[1].log = append(j.shares[1].log, heldDelta{35, 1}, heldDelta{35, -1})
	j.foldHeld()
	if j.held.area != 50 || j.held.last != 40 || j.held.peak != 2 {
		t.Fatalf("held %+v after a late pair", j.held)
	}
}

// TestSwitchJobStatsAdd: add sums every counter.
func TestSwitchJobStatsAdd(t *testing.T) {
	var a, b SwitchJobStats
	va, vb := reflect.ValueOf(&a).Elem(), reflect.ValueOf(&b).Elem()
	for i := range va.NumField() {
		va.Field(i).SetUint(uint64(i + 1))
		vb.Field(i).SetUint(uint64(100 * (i + 1)))
	}
	a.add(&b)
	for i := range va.NumField() {
		if got := va.Field(i).Uint(); got != uint64(101*(i+1)) {
			t.Errorf("%s: %d, want %d", va.Type().Field(i).Name, got, 101*(i+1))
		}
	}
}
