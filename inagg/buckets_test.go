package inagg

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"syncsim/netsim"
	"syncsim/workloads/layers"
)

// TestBucketPlanLayout works the layout of buckets on sequences and the
// split of the compute by hand.
func TestBucketPlanLayout(t *testing.T) {
	// Input side first: 300 B, then 100 B; 8 packets. Backprop fills the
	// 100 B bucket first: it holds 100/400 x 8 = 2 sequences, [0, 2); the
	// input side's holds [2, 8).
	p, err := newBucketPlan([]Bucket{
		{Bytes: 300, Forward: 10, Backward: 20},
		{Bytes: 100, Forward: 30, Backward: 40},
	}, 8)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.lo, []int64{2, 0}) || !slices.Equal(p.hi, []int64{8, 2}) {
		t.Fatalf("buckets at lo %v hi %v, want [2 0] [8 2]", p.lo, p.hi)
	}
	for o, want := range []int{1, 1, 0, 0, 0, 0, 0, 0} {
		if got := p.bucketOf(int64(o)); got != want {
			t.Errorf("sequence %d in bucket %d, want %d", o, got, want)
		}
	}
	// Segments in the order they run: forward 10, 30; backward of the
	// output side's bucket 40, then the input side's 20. With the compute
	// at the buckets' sum (100) the segments are the buckets' times; at
	// 50, half of each.
	for _, tc := range []struct {
		total netsim.Time
		want  []netsim.Time
	}{{100, []netsim.Time{10, 40, 80, 100}}, {50, []netsim.Time{5, 20, 40, 50}}, {0, []netsim.Time{0, 0, 0, 0}}} {
		var got []netsim.Time
		for i := range 4 {
			got = append(got, p.boundary(i, tc.total))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("compute %v: segments end at %v, want %v", tc.total, got, tc.want)
		}
	}
	// A bucket of less than half a packet holds no sequence: 1 B and
	// 1000 B over 10 packets put round(1000/1001 x 10) = 10 in the output
	// side's bucket and none in the input side's.
	p, err = newBucketPlan([]Bucket{{Bytes: 1, Backward: 1}, {Bytes: 1000, Backward: 1}}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.lo, []int64{10, 0}) || !slices.Equal(p.hi, []int64{10, 10}) || p.bucketOf(9) != 1 {
		t.Fatalf("buckets at lo %v hi %v, sequence 9 in %d", p.lo, p.hi, p.bucketOf(9))
	}
}

// TestBucketPlanRefusesBadBuckets: negative sizes or times, no bytes, no
// compute, each refused by NewJob with the job's number.
func TestBucketPlanRefusesBadBuckets(t *testing.T) {
	compute := func(int, int) netsim.Time { return netsim.Millisecond }
	for _, tc := range []struct {
		name string
		bs   []Bucket
		want string
	}{
		{"negative bytes", []Bucket{{Bytes: -1, Forward: 1}}, "bucket 0 has a negative size or time"},
		{"negative time", []Bucket{{Bytes: 1}, {Bytes: 1, Backward: -1}}, "bucket 1 has a negative size or time"},
		{"no bytes", []Bucket{{Forward: 1}, {Backward: 1}}, "hold no gradient bytes"},
		{"no compute", []Bucket{{Bytes: 10}}, "no compute time to split"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStar(t, starCfg{workers: 2})
			_, err := NewJob(s.net, JobConfig{ID: 3, Protocol: PAATP, Workers: s.workers, PS: s.ps, Switch: s.agg,
				Gradient: 10 * netsim.Kilobyte, Iterations: 1, Compute: compute, Buckets: tc.bs})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "inagg: job 3: ") {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// loneAggregation is the time SwitchML aggregates n packets of two workers
// on a star of rate r and 2 us cables when nothing else runs: the last
// gradient leaves its worker after n serialisations, crosses a cable, and
// its result is serialised once at the switch and crosses a cable back.
func loneAggregation(n int64, r netsim.Rate) netsim.Time {
	tx := netsim.TxTime(INAHeaderBytes+INAPayloadBytes, r)
	return netsim.Time(n)*tx + 2*2*netsim.Microsecond + tx
}

// TestBucketsTwoBucketsByHand is a two-bucket model on a two-worker
// SwitchML star, worked by hand. The input side's bucket holds 10
// packets (forward 100 us, backward 300 us), the output side's 30
// (forward 200 us, backward 400 us): 1 ms of compute.
//
// Compute-bound (100 Gbps): the forward pass ends at 300 us, backprop
// produces the output side's bucket at 700 us and the input side's at
// 1000 us; the first is aggregated by 704.8 us, long before, so iteration
// 0 ends at 1000 us + the lone aggregation of 10 packets. The next
// forward pass starts with the input side's bucket, so it waits for
// exactly that result: every iteration lasts the compute plus the last
// bucket's tail, 1004.2728 us. Without buckets each iteration is the
// compute plus the whole gradient's aggregation, 1005.0168 us.
//
// Communication-bound (1 Gbps, 100 + 400 packets, 50 us forward and 100
// us backward per bucket): the output side's bucket is produced at 200
// us, its 400 packets take 992 us on the wire, the input side's follow at
// once (produced at 300 us), so the 500 packets go back to back and the
// iteration lasts the forward pass, the first backward and the whole
// gradient's aggregation: 200 us + 1246.48 us. Without buckets: 300 us +
// 1246.48 us.
func TestBucketsTwoBucketsByHand(t *testing.T) {
	us := netsim.Microsecond
	for _, tc := range []struct {
		name        string
		rate        netsim.Rate
		in, out     int64 // packets of the input side's and the output side's bucket
		fwd, bwd    [2]netsim.Time
		layer, none netsim.Time
		// gates: at these times (relative to an iteration's forward
		// start) the workers may send this many of its sequences.
		gates [][2]int64
	}{
		{"compute-bound", 100 * netsim.Gbps, 10, 30, [2]netsim.Time{100 * us, 200 * us}, [2]netsim.Time{300 * us, 400 * us},
			1000*us + loneAggregation(10, 100*netsim.Gbps), 1000*us + loneAggregation(40, 100*netsim.Gbps),
			[][2]int64{{int64(700*us) - 1, 0}, {int64(700 * us), 30}, {int64(1000*us) - 1, 30}, {int64(1000 * us), 40}}},
		{"communication-bound", netsim.Gbps, 100, 400, [2]netsim.Time{50 * us, 50 * us}, [2]netsim.Time{100 * us, 100 * us},
			200*us + loneAggregation(500, netsim.Gbps), 300*us + loneAggregation(500, netsim.Gbps),
			[][2]int64{{int64(200*us) - 1, 0}, {int64(200 * us), 400}, {int64(300 * us), 500}}},
	} {
		if got := tc.layer; tc.name == "compute-bound" && got != 1004272800 {
			t.Fatalf("hand-worked iteration %v, want 1004.2728 us", got)
		}
		bs := []Bucket{
			{Bytes: netsim.Bytes(tc.in) * INAPayloadBytes, Forward: tc.fwd[0], Backward: tc.bwd[0]},
			{Bytes: netsim.Bytes(tc.out) * INAPayloadBytes, Forward: tc.fwd[1], Backward: tc.bwd[1]},
		}
		compute := tc.fwd[0] + tc.fwd[1] + tc.bwd[0] + tc.bwd[1]
		for _, overlap := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/overlap=%v", tc.name, overlap), func(t *testing.T) {
				s := newStar(t, starCfg{workers: 2, rate: tc.rate})
				cfg := JobConfig{ID: 1, Protocol: SwitchML, Gradient: netsim.Bytes(tc.in+tc.out) * INAPayloadBytes, Iterations: 3,
					Compute: func(int, int) netsim.Time { return compute }}
				want := tc.none
				if overlap {
					cfg.Buckets, want = bs, tc.layer
				}
				j := s.job(t, cfg)
				if overlap {
					// The gate opens when backprop produces each bucket,
					// and nothing goes out before.
					for _, g := range tc.gates {
						s.net.Sim.Run(netsim.Time(g[0]))
						for i, w := range j.workers {
							if w.gateEnd != g[1] || w.sndNext > g[1] {
								t.Fatalf("at %v worker %d may send %d sequences and sent %d, want %d", netsim.Time(g[0]), i, w.gateEnd, w.sndNext, g[1])
							}
						}
					}
				}
				s.net.Sim.Run(netsim.Second)
				checkAll(t, s, j)
				for k, got := range j.IterationTimes() {
					if got != want {
						t.Errorf("iteration %d took %v, by hand %v", k, got, want)
					}
				}
			})
		}
	}
}

// TestBucketsEmptyInputBucket: an input side's bucket smaller than half a
// packet holds no sequence. The output side's bucket (40 packets) is
// produced at 700 us and aggregated by 705.0168 us, which ends iteration
// 0's communication while the input side's backward runs to 1000 us; the
// next forward pass starts then, so every later iteration lasts exactly
// the compute, 1 ms.
func TestBucketsEmptyInputBucket(t *testing.T) {
	us := netsim.Microsecond
	s := newStar(t, starCfg{workers: 2})
	j := s.job(t, JobConfig{ID: 1, Protocol: SwitchML, Gradient: 40 * INAPayloadBytes, Iterations: 3,
		Compute: func(int, int) netsim.Time { return 1000 * us },
		Buckets: []Bucket{{Bytes: 1, Forward: 100 * us, Backward: 300 * us}, {Bytes: 40 * INAPayloadBytes, Forward: 200 * us, Backward: 400 * us}}})
	s.net.Sim.Run(netsim.Second)
	checkAll(t, s, j)
	want := []netsim.Time{700*us + loneAggregation(40, 100*netsim.Gbps), 1000 * us, 1000 * us}
	if got := j.IterationTimes(); !slices.Equal(got, want) {
		t.Fatalf("iterations %v, by hand %v", got, want)
	}
}

// TestBucketsCriticalPath checks bucket-by-bucket aggregation against the
// closed form on a bigger case: ResNet-50 in DDP's buckets (five, the
// input side's 2.3 of 97.5 MiB) laid on a 4000-packet gradient, four
// workers on a 100 Gbps star. An iteration lasts the forward pass plus
// the longer of two paths: the whole backward pass and the input side's
// bucket aggregated after it (compute-bound), or the first bucket's
// backward and the whole gradient aggregated after it (communication-
// bound), max(compute, communication) plus a bucket's tail. Each
// aggregation time is measured on its own: a job of that many packets
// without compute (its iterations after the first). Compute is 0.1, 1 and
// 10 times the whole gradient's aggregation.
func TestBucketsCriticalPath(t *testing.T) {
	if testing.Short() {
		t.Skip("15 runs of a 4-worker star")
	}
	m, err := layers.Builtin("resnet50")
	if err != nil {
		t.Fatal(err)
	}
	const packets = 4000
	for _, proto := range []Protocol{SwitchML, ATP, PAATP, BytePS} {
		_, payload := DefaultParams().sizes(proto)
		grad := packets * payload
		lone := func(g netsim.Bytes) netsim.Time {
			s := newStar(t, starCfg{workers: 4})
			j := s.job(t, JobConfig{ID: 1, Protocol: proto, Gradient: g, Iterations: 3})
			s.net.Sim.Run(netsim.Second)
			ts := j.IterationTimes()
			return (ts[1] + ts[2]) / 2
		}
		all := lone(grad)
		for _, f := range []float64{0.1, 1, 10} {
			t.Run(fmt.Sprintf("%s/compute=%gx", proto, f), func(t *testing.T) {
				c := netsim.Time(f * float64(all))
				lb, err := layers.Buckets(m.WithCompute(c, -1), layers.DDP)
				if err != nil {
					t.Fatal(err)
				}
				bs := make([]Bucket, len(lb))
				for i, b := range lb {
					bs[i] = Bucket{Bytes: b.Bytes, Forward: b.Forward, Backward: b.Backward}
				}
				s := newStar(t, starCfg{workers: 4})
				j := s.job(t, JobConfig{ID: 1, Protocol: proto, Gradient: grad, Iterations: 4, Buckets: bs,
					Compute: func(int, int) netsim.Time { return c }})
				s.net.Sim.Run(netsim.Second)
				checkAll(t, s, j)
				ts := j.IterationTimes()
				got := (ts[1] + ts[2] + ts[3]) / 3
				plan := j.workers[0].bk.p
				last := lone(netsim.Bytes(packets-plan.lo[0]) * payload)
				var fwd, bwd netsim.Time
				for _, b := range lb {
					fwd, bwd = fwd+b.Forward, bwd+b.Backward
				}
				want := fwd + max(bwd+last, lb[len(lb)-1].Backward+all)
				r := float64(got) / float64(want)
				t.Logf("iteration %v, closed form %v: ratio %.5f", got, want, r)
				if math.Abs(r-1) > 0.01 {
					t.Errorf("iteration %v, closed form %v (forward %v, backward %v, tail %v, all %v): ratio %.4f",
						got, want, fwd, bwd, last, all, r)
				}
				// Overlap hides communication: never slower than
				// compute, then communication.
				if got > c+all {
					t.Errorf("iteration %v with overlap, %v without", got, c+all)
				}
			})
		}
	}
}

// TestBucketsConserve runs every protocol bucket by bucket through 1%
// loss on every port, with ample and with tiny aggregator memory: the
// gate and the compute must leave the books as without them (every
// sequence aggregated once per worker and iteration, every result the
// exact sum, no aggregator leaked, every packet accounted for), and no
// worker may send past the bucket backprop has produced.
func TestBucketsConserve(t *testing.T) {
	m, err := layers.Builtin("vgg19")
	if err != nil {
		t.Fatal(err)
	}
	lb, err := layers.Buckets(m.WithCompute(100*netsim.Microsecond, -1), layers.DDP)
	if err != nil {
		t.Fatal(err)
	}
	bs := make([]Bucket, len(lb))
	for i, b := range lb {
		bs[i] = Bucket{Bytes: b.Bytes, Forward: b.Forward, Backward: b.Backward}
	}
	for _, name := range ProtocolNames() {
		for _, mem := range []netsim.Bytes{10 * netsim.MiB, 8 * AggregatorBytes} {
			if name == "switchml" && mem < netsim.MiB {
				continue // a SwitchML pool must fit
			}
			t.Run(fmt.Sprintf("%s/%dB", name, mem), func(t *testing.T) {
				proto, _ := ParseProtocol(name)
				cfg := DefaultAggregatorConfig()
				cfg.Memory, cfg.BDPPackets = mem, 64
				s, qs := lossyStar(t, 5, 0.01, cfg, 17)
				j := s.job(t, JobConfig{ID: 1, Protocol: proto, Gradient: 100 * netsim.Kilobyte, Iterations: 3, Buckets: bs,
					Compute: func(w, k int) netsim.Time { return netsim.Time(80+10*w+5*k) * netsim.Microsecond }})
				if len(bs) < 3 || j.workers[0].bk.p.n != len(bs) {
					t.Fatalf("%d buckets; the test wants several", len(bs))
				}
				// Step through the run checking the gate after every
				// microsecond.
				for at := netsim.Microsecond; !j.Done() && at < 10*netsim.Second; at += netsim.Microsecond {
					s.net.Sim.Run(at)
					for i, w := range j.workers {
						if !w.done && (w.sndNext > w.gateEnd || w.gateEnd > w.iterEnd) {
							t.Fatalf("at %v worker %d sent up to %d, gate %d, iteration end %d", at, i, w.sndNext, w.gateEnd, w.iterEnd)
						}
					}
				}
				dropped, ws := runLossy(t, s, qs, j)
				t.Logf("%d buckets at %v, dropped %d, iterations %v, %+v", len(bs), j.workers[0].bk.p.hi, dropped, j.IterationTimes(), ws)
			})
		}
	}
}

// TestBucketsWithoutComputeChangeNothing: buckets without a Compute
// function leave the job as it was, event for event.
func TestBucketsWithoutComputeChangeNothing(t *testing.T) {
	bs := []Bucket{{Bytes: 1, Forward: 1, Backward: 2}, {Bytes: 3, Forward: 1, Backward: 2}}
	run := func(with bool) ([]netsim.Time, uint64) {
		s := newStar(t, starCfg{workers: 3})
		cfg := JobConfig{ID: 1, Protocol: PAATP, Gradient: 200 * netsim.Kilobyte, Iterations: 3}
		if with {
			cfg.Buckets = bs
		}
		j := s.job(t, cfg)
		s.net.Sim.Run(netsim.Second)
		checkAll(t, s, j)
		return j.IterationTimes(), s.net.Sim.Events()
	}
	a, ea := run(false)
	b, eb := run(true)
	if !slices.Equal(a, b) || ea != eb {
		t.Fatalf("iterations %v in %d events without buckets, %v in %d with", a, ea, b, eb)
	}
}
