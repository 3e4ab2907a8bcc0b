package crew

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"syncsim/netsim"
)

// TestMeshMatchesEngine: the mesh moves CREW's and OPR's streams as the
// fluid engine does with one transfer per chunk. One partial reduce takes
// the same time (within a nanosecond of rounding) under every policy,
// pipeline, scheme and latency; training runs with outages, non-blocking
// scatter, failover and walking bandwidths give the same rounds, failovers
// and mean partial reduce (within 1e-6), their books balanced. (On larger
// meshes with N2's few distinct rates, chunks of different connections
// leave at the same picosecond, and the two order such ties differently:
// a 60-worker N2 run differs by about 1 % in rounds.)
func TestMeshMatchesEngine(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		for _, pol := range []Policy{FS, FL, TL, C1, C2} {
			for _, pl := range []Pipeline{PipelineChunk, PipelineBlock} {
				sch := []Scheme{CREW, OPR}[int(seed)%2]
				t.Run(fmt.Sprintf("single/%d/%v/%d/%v", seed, pol, pl, sch), func(t *testing.T) {
					var took [2]netsim.Time
					for k, via := range []bool{false, true} {
						nt := testNet(t, seed, 9, netsim.Time(seed-1)*7*netsim.Millisecond, Flow, pol)
						opt := Options{Scheme: sch, P: 4, Model: 9 * netsim.Megabyte, Chunks: 300, Pipeline: pl, viaEngine: via}
						res, err := RunSingle(nt, opt, nil, []int{0, 3, 5, 8}, rand.New(rand.NewPCG(seed, 1)))
						if err != nil {
							t.Fatal(err)
						}
						took[k] = res.Time
					}
					if d := took[0] - took[1]; d < -netsim.Nanosecond || d > netsim.Nanosecond {
						t.Errorf("mesh %v, engine %v", took[0], took[1])
					}
				})
			}
		}
	}
	for trial := 0; trial < 10; trial++ {
		t.Run(fmt.Sprintf("training/%d", trial), func(t *testing.T) {
			var m [2]Metrics
			for k, via := range []bool{false, true} {
				rr := rand.New(rand.NewPCG(uint64(trial), 3))
				cfg := testConfig([]Scheme{CREW, OPR}[trial%2], 3)
				cfg.viaEngine = via
				cfg.Duration = 8 * netsim.Second
				cfg.Scatter = []ScatterMode{Blocking, NonBlocking}[(trial/2)%2]
				if trial%3 == 0 {
					cfg.Faults = randomFaults(rr, 8, cfg.Duration)
				}
				if trial%4 == 1 {
					cfg.Vary = Variation{Model: BWWalk, Period: 700 * netsim.Millisecond, Step: 0.5, Law: N2Law()}
				}
				_, m[k] = runCluster(t, testNet(t, uint64(trial), 8, 10*netsim.Millisecond, Flow, Policy(trial%5)), cfg)
			}
			if m[0].PRs == 0 || m[0].RoundsPerWorker != m[1].RoundsPerWorker || m[0].Failovers != m[1].Failovers ||
				math.Abs(m[0].PRTime.Seconds()/m[1].PRTime.Seconds()-1) > 1e-6 {
				t.Errorf("mesh: %v rounds per worker, %v per partial reduce, %d failovers; engine: %v, %v, %d",
					m[0].RoundsPerWorker, m[0].PRTime, m[0].Failovers, m[1].RoundsPerWorker, m[1].PRTime, m[1].Failovers)
			}
		})
	}
}
