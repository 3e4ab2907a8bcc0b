package crew

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"syncsim/netsim"
)

// relayNet is three workers where 0 and 1 reach each other at 1 Mbit/s
// and worker 2 at 100 Mbit/s both ways, with a constant one-way latency.
// LP (2) for P = {0, 1} then puts 100/102 of the model on worker 2 and
// 1/102 on each of 0 and 1 (s = m = 1 for them, 100 for worker 2: g(1/2)
// = 1 + 50), which Alg. 1 with k = 30 chunks rounds to blocks (0, 0, 30):
// worker 2 relays everything.
func relayNet(t testing.TB, lat netsim.Time, pol Policy) *Net {
	t.Helper()
	bw := Matrix{{0, 1e6, 100e6}, {1e6, 0, 100e6}, {100e6, 100e6, 0}}
	nt, err := NewNet(netsim.New(1), bw, ConstLatency(3, lat), Flow, pol)
	if err != nil {
		t.Fatal(err)
	}
	return nt
}

// TestPipelineHandWorked: on relayNet a 3 MB model in k = 30 chunks of
// 100 KB (8 ms at 100 Mbit/s) goes from workers 0 and 1 to worker 2 and
// back. Block store-and-forward: the copies arrive at 240 ms + latency,
// the multicast takes 240 ms more: 480 ms + 2 latencies. Chunk pipelining:
// chunk c of both copies arrives at 8c ms + latency and is multicast at
// once, so the multicast trails the scatter by one chunk: 248 ms + 2
// latencies, within a chunk of the paper's lower bound T/2 (Sec. IV-A1:
// T/2 <= T_CREW <= T, here with T = 480 ms for the split used).
func TestPipelineHandWorked(t *testing.T) {
	ms := netsim.Millisecond
	for _, tc := range []struct {
		pl   Pipeline
		pol  Policy
		lat  netsim.Time
		want netsim.Time
	}{
		{PipelineChunk, FL, 0, 248 * ms},
		{PipelineChunk, FS, 0, 248 * ms},
		{PipelineChunk, FL, 10 * ms, 268 * ms},
		{PipelineBlock, FL, 0, 480 * ms},
		{PipelineBlock, FL, 10 * ms, 500 * ms},
	} {
		t.Run(fmt.Sprintf("%d/%v/%v", tc.pl, tc.pol, tc.lat), func(t *testing.T) {
			nt := relayNet(t, tc.lat, tc.pol)
			opt := Options{Scheme: CREW, P: 2, Model: 3 * netsim.Megabyte, Chunks: 30, Pipeline: tc.pl}
			res, err := RunSingle(nt, opt, nil, []int{0, 1}, rand.New(rand.NewPCG(1, 1)))
			if err != nil {
				t.Fatal(err)
			}
			if d := res.Time - tc.want; d < -2 || d > 2 {
				t.Errorf("partial reduce took %v, want %v", res.Time, tc.want)
			}
			if d := res.SplitT - 0.48; d < -1e-9 || d > 1e-9 {
				t.Errorf("T of the split = %v s, want 0.48 (blocks (0, 0, 30))", res.SplitT)
			}
			if err := nt.Check(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestPipelinedWithinT checks Sec. IV-A1's bounds on N2 without latency
// (n = 60, p = 10, 180 MB), seeds 1-3, FL and FS: the pipelined partial
// reduce takes at most T = T_scatter + T_multicast (Eq. 1a + 1b) of the
// split it runs (FL; FS within a chunk), and at least half the LP's T. The split differs from the
// LP's x only by Alg. 1's whole chunks: a block gets at most one chunk
// more than k x_j, so its T exceeds the LP's by at most S/k (1/min_j s_j +
// 1/min_j m_j); with k = 1000 chunks for 60 blocks that is up to 5 %, with
// k = 4000 about 1 %. Block store-and-forward under FS, where a
// multicast shares its connection with a scatter, exceeds T.
func TestPipelinedWithinT(t *testing.T) {
	if testing.Short() {
		t.Skip("60-worker partial reduces in 4000 chunks")
	}
	const n, p = 60, 10
	S := 180e6 * 8
	for _, k := range []int{1000, 4000} {
		for _, pol := range []Policy{FL, FS} {
			for seed := uint64(1); seed <= 3; seed++ {
				t.Run(fmt.Sprintf("k=%d/%v/seed%d", k, pol, seed), func(t *testing.T) {
					run := func(pl Pipeline) SingleResult {
						nt := testNet(t, seed, n, 0, Flow, pol)
						P := nt.Sim.Rand("P").Perm(n)[:p]
						opt := Options{Scheme: CREW, P: p, Model: 180 * netsim.Megabyte, Chunks: k, Pipeline: pl}
						res, err := RunSingle(nt, opt, nil, P, rand.New(rand.NewPCG(1, 1)))
						if err != nil {
							t.Fatal(err)
						}
						if err := nt.Check(); err != nil {
							t.Fatal(err)
						}
						return res
					}
					res := run(PipelineChunk)
					tc := res.Time.Seconds()
					// Under FS a member's multicast shares its connection
					// with a scatter from the start, so the last chunk can
					// trail by one chunk time (at most a chunk at N2's
					// slowest 25 Mbit/s); under FL the scatter goes first
					// and the bound holds exactly.
					slackFS := 0.0
					if pol == FS {
						slackFS = S / float64(k) / 25e6
					}
					if tc > res.SplitT+slackFS+1e-9 {
						t.Errorf("T_CREW = %.6f s exceeds T = %.6f s of its split (+ %.6f s)", tc, res.SplitT, slackFS)
					}
					if tc < res.LPObjective/2 {
						t.Errorf("T_CREW = %.6f s below half the LP's T = %.6f s", tc, res.LPObjective)
					}
					// N2's slowest connection is 25 Mbit/s.
					if slack := S / float64(k) * 2 / 25e6; res.SplitT > res.LPObjective+slack+1e-9 {
						t.Errorf("T of the split %.6f s exceeds the LP's %.6f s by more than a chunk per block (%.6f s)", res.SplitT, res.LPObjective, slack)
					}
					if pol == FS {
						if blk := run(PipelineBlock); blk.Time.Seconds() <= res.SplitT {
							t.Errorf("block store-and-forward under FS took %v, not above T = %.6f s: the case does not show what pipelining buys", blk.Time, res.SplitT)
						}
					}
					t.Logf("T_CREW %.4f s, T of the split %.4f s, LP's T %.4f s: %.4f of the split's, %.4f of the LP's", tc, res.SplitT, res.LPObjective, tc/res.SplitT, tc/res.LPObjective)
				})
			}
		}
	}
}
