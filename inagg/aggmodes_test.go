package inagg

import (
	"fmt"
	"testing"

	"syncsim/netsim"
)

// aggVariants are the switch's modelling choices the tests cover: the
// defaults, each alternative alone, and the earlier model (hash index,
// overflow counted per gradient).
var aggVariants = []struct {
	name string
	set  func(c *AggregatorConfig)
}{
	{"default", func(*AggregatorConfig) {}},
	{"hash", func(c *AggregatorConfig) { c.Index = IndexHash }},
	{"gradients", func(c *AggregatorConfig) { c.Occupancy = OccupancyGradients }},
	{"follow-overflow", func(c *AggregatorConfig) { c.FollowOverflow = true }},
	{"separate-flush", func(c *AggregatorConfig) { c.Flush = FlushSeparate }},
	{"merged-flush", func(c *AggregatorConfig) { c.Flush = FlushMerged }},
	{"earlier", func(c *AggregatorConfig) {
		c.Index, c.Occupancy = IndexHash, OccupancyGradients
	}},
}

// TestAggregatorModesKeepTheBooks: under every index, occupancy and
// overflow choice, every hashed protocol, with loss or a straggler, with
// a memory that two jobs overflow constantly and one they share: every
// worker receives the exact sum of every sequence once, contributions
// add up, no aggregator or overflow count outlives the jobs, and every
// packet is accounted for.
func TestAggregatorModesKeepTheBooks(t *testing.T) {
	for _, v := range aggVariants {
		for _, proto := range []Protocol{ATP, StrawAsyn, StrawAsynPC, StrawAsynAL, PAATP} {
			for _, loss := range []float64{0, 0.01} {
				for _, aggs := range []int{8, 96} {
					t.Run(fmt.Sprintf("%s/%s/loss=%v/M=%d", v.name, proto, loss, aggs), func(t *testing.T) {
						cfg := DefaultAggregatorConfig()
						cfg.Memory, cfg.BDPPackets, cfg.Eta = netsim.Bytes(aggs)*AggregatorBytes, 16, 0.5
						v.set(&cfg)
						var s *star
						if loss > 0 {
							s, _ = lossyStar(t, 4, loss, cfg, 7)
						} else {
							// A straggler keeps sequences waiting in aggregators.
							s = newStar(t, starCfg{workers: 4, agg: cfg, slowRate: 25 * netsim.Gbps, seed: 7})
						}
						a := s.job(t, JobConfig{ID: 0, Protocol: proto, Gradient: 60 * netsim.Kilobyte, Iterations: 2})
						b := s.job(t, JobConfig{ID: 1, Protocol: proto, Gradient: 40 * netsim.Kilobyte, Iterations: 2,
							Start: 20 * netsim.Microsecond})
						s.net.Sim.Run(10 * netsim.Second)
						checkAll(t, s, a, b)
						if s.agg.Memory().Used() != 0 || s.agg.Overflowed() != 0 {
							t.Fatalf("after the jobs: %d aggregators used, %d overflow counts", s.agg.Memory().Used(), s.agg.Overflowed())
						}
						if aggs == 8 && s.agg.Stats.Collisions == 0 {
							t.Fatal("8 aggregators never overflowed: the case exercises nothing")
						}
					})
				}
			}
		}
	}
}
