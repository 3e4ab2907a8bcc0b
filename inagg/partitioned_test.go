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
	us := netsim.Microsecond
	j := &Job{awd: newAWDCtl(p, 10), workers: []*worker{
		{awdLog: []awdInput{{at: 5 * us, rtt: 10 * us, smp: true}, {at: 20 * us}, {at: 32 * us, aecn: true}}},
		{awdLog: []awdInput{{at: 5 * us, rtt: 20 * us, smp: true}, {at: 20 * us, aecn: true}}},
	}}
	j.foldAWD()
	want := newAWDCtl(p, 10)
	want.sample(10 * us)
	want.sample(20 * us)
	want.onAACK(20*us, false)
	want.onAACK(20*us, true)
	want.onAACK(32*us, true)
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
		j, err := NewJob(net, JobConfig{ID: id, Protocol: proto, Workers: s.workers, PS: s.ps,
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

// TestPartitionedTwoLevelRefused: ATP's two-level aggregation, whose job
// books are written at several switches, is refused on a partitioned
// network.
func TestPartitionedTwoLevelRefused(t *testing.T) {
	net := netsim.NewNetwork(netsim.New(1))
	f, err := topologies.LeafSpine(net, topologies.LeafSpineConfig{Spines: 1, Leaves: 2, HostsPerLeaf: 2,
		HostRate: 100 * netsim.Gbps, FabricRate: 100 * netsim.Gbps, Delay: 2 * netsim.Microsecond,
		Queue: switchmodel.QueueConfig{Buffer: 256 * netsim.Kilobyte}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := net.Partition(net.AutoPartition(8)); err != nil {
		t.Fatal(err)
	}
	a0, _ := NewAggregator(f.Edge[0], DefaultAggregatorConfig())
	a1, _ := NewAggregator(f.Edge[1], DefaultAggregatorConfig())
	_, err = NewJob(net, JobConfig{ID: 0, Protocol: ATP, Workers: []*netsim.Host{f.Hosts[2], f.Hosts[3]}, PS: f.Hosts[0],
		Switch: a0, FirstLevel: []*Aggregator{a1, a1}, Gradient: netsim.Kilobyte, Iterations: 1})
	if err == nil || !strings.Contains(err.Error(), "does not run on a partitioned network") {
		t.Fatalf("two-level ATP on a partitioned network: %v", err)
	}
}
