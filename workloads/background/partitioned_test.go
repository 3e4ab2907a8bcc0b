package background

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"syncsim/netsim"
)

// postBulk completes a transfer on its destination's Sim (through a
// message to the destination's partition on a partitioned network) after
// the lookahead, its bytes at rate and a pseudo-random queueing delay of
// up to 200 us drawn from the flow's tag: so completion times depend on
// the flow only, and flows finish out of start order.
type postBulk struct {
	net  *netsim.Network
	rate netsim.Rate
	la   netsim.Time
}

func (b *postBulk) Send(src, dst netsim.NodeID, size netsim.Bytes, opts netsim.BulkOpts, done func()) {
	s := b.net.Node(src).Base().Sim()
	q := netsim.Time(netsim.Hash64(uint64(opts.Tag), 7) % uint64(200*netsim.Microsecond))
	s.Post(b.net.Node(dst).Base().Sim().Partition(), s.Now()+b.la+netsim.TxTime(size, b.rate)+q, done)
}

// partitionedGen runs a Hadoop generator on the hosts of a 12-host star
// cut into partitions of 2 hosts (threads 0: unpartitioned), online with
// the given exact-sample limit (or recording, limit < 0), and returns the
// summary and the recorded flows.
func partitionedGen(t *testing.T, threads, limit int) (*Summary, []Flow) {
	t.Helper()
	sim := netsim.New(9)
	net := netsim.NewNetwork(sim)
	sw := netsim.NewHost() // any node will do as the hub
	net.AddNode(sw, netsim.KindSwitch, "sw")
	var hosts []netsim.NodeID
	for i := 0; i < 12; i++ {
		h := net.AddHost(fmt.Sprint("h", i))
		net.Connect(h.ID(), sw.ID(), 10*netsim.Gbps, netsim.Microsecond, nil, nil)
		hosts = append(hosts, h.ID())
	}
	if threads > 0 {
		if _, err := net.Partition(net.AutoPartition(2)); err != nil {
			t.Fatal(err)
		}
		if err := sim.SetThreads(threads); err != nil {
			t.Fatal(err)
		}
	}
	horizon := 10 * netsim.Millisecond
	cfg := Config{CDF: workload(t, "hadoop"), Load: 0.6, Hosts: hosts, HostRate: 10 * netsim.Gbps, Stop: horizon, Network: net}
	g, err := New(sim, &postBulk{net: net, rate: cfg.HostRate, la: netsim.Microsecond}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	sc := StatsConfig{Warmup: horizon / 10, Latency: ConstLatency(3 * netsim.Microsecond), ExactLimit: max(limit, 0)}
	if limit >= 0 {
		if err := g.Measure(sc); err != nil {
			t.Fatal(err)
		}
	}
	g.Start()
	sim.Run(horizon + netsim.Millisecond/10) // the last flows are left running
	var s *Summary
	if limit >= 0 {
		s, err = g.Summary()
	} else {
		s, err = g.Stats(sc)
	}
	if err != nil {
		t.Fatal(err)
	}
	return s, slices.Clone(g.Flows())
}

// TestPartitionedGenerator: on a partitioned network the generator
// draws the same flows as on an unpartitioned one (same streams, same
// order), completes each on its destination's partition and summarises
// them to the same numbers, the means to rounding (the partitions' sums
// are added in partition order); at 1, 2, 3 and 8 threads bit for bit.
// Exact samples (limit 0) and the sketch beyond 40 samples both.
func TestPartitionedGenerator(t *testing.T) {
	for _, limit := range []int{0, 40} {
		seq, _ := partitionedGen(t, 0, limit)
		ref, _ := partitionedGen(t, 1, limit)
		if seq.All.Started < 500 || seq.All.Done == seq.All.Started || seq.All.Done < 400 {
			t.Fatalf("started %d, done %d: want many flows, some unfinished", seq.All.Started, seq.All.Done)
		}
		a, b := seq.Metrics(""), ref.Metrics("")
		for i := range a {
			x, y := a[i].Value, b[i].Value
			tol := 0.0
			if limit > 0 && strings.Contains(a[i].Name, "mean") {
				tol = 1e-12 * math.Abs(x)
			}
			if a[i].Name != b[i].Name || !(x == y || math.IsNaN(x) && math.IsNaN(y) || math.Abs(x-y) <= tol) {
				t.Fatalf("limit %d: %s is %v partitioned, %v unpartitioned", limit, a[i].Name, y, x)
			}
		}
		if seq.Excluded != ref.Excluded || seq.OfferedBytes != ref.OfferedBytes {
			t.Fatalf("excluded %d/%d offered %d/%d", seq.Excluded, ref.Excluded, seq.OfferedBytes, ref.OfferedBytes)
		}
		for _, n := range []int{2, 3, 8} {
			got, _ := partitionedGen(t, n, limit)
			if name, ok := sameBits(ref.Metrics(""), got.Metrics("")); !ok {
				t.Fatalf("limit %d: threads=%d differs from threads=1 at %s", limit, n, name)
			}
		}
	}
	// Recorded flows: the same records, ends included.
	_, fs := partitionedGen(t, 0, -1)
	_, fp := partitionedGen(t, 3, -1)
	if len(fs) < 500 || !slices.Equal(fs, fp) {
		t.Fatalf("recorded flows differ: %d unpartitioned, %d partitioned", len(fs), len(fp))
	}
}

// TestMergeSets: a statistic split over partitions and merged equals the
// statistic of all samples in one set: exact below the limit, the same
// sketch above it, one set unchanged.
func TestMergeSets(t *testing.T) {
	for _, limit := range []int{1000, 30} {
		var one sampleSet
		one.limit = limit
		parts := make([]sampleSet, 3)
		for i := range parts {
			parts[i].limit = limit
		}
		for i := 0; i < 200; i++ {
			x := float64((i*7919)%1000+1) * 1e-6
			one.add(x)
			parts[(i*31)%3].add(x)
		}
		m := mergeSets([]*sampleSet{&parts[0], &parts[1], &parts[2]}, limit)
		a, b := one.dist(), m.dist()
		if a.N != b.N || a.P50 != b.P50 || a.P95 != b.P95 || a.P99 != b.P99 || math.Abs(a.Mean-b.Mean) > 1e-12*a.Mean {
			t.Fatalf("limit %d: merged %+v, one set %+v", limit, b, a)
		}
		if (m.sketch != nil) != (limit < 200) {
			t.Fatalf("limit %d: merged set sketch %v", limit, m.sketch != nil)
		}
		same := mergeSets([]*sampleSet{&one}, limit)
		if d := same.dist(); d != a {
			t.Fatalf("limit %d: one set merged %+v, was %+v", limit, d, a)
		}
	}
}
