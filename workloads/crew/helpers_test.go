package crew

import (
	"testing"

	"syncsim/netsim"
	"syncsim/workloads/training"
)

// testNet builds an n-worker N2 network with a constant one-way latency
// at the given fidelity and policy.
func testNet(t testing.TB, seed uint64, n int, lat netsim.Time, fid Fidelity, pol Policy) *Net {
	t.Helper()
	sim := netsim.New(seed)
	bw := N2(sim.Rand("crew/wan/bw"), n)
	nt, err := NewNet(sim, bw, ConstLatency(n, lat), fid, pol)
	if err != nil {
		t.Fatal(err)
	}
	return nt
}

// testConfig is a small training configuration.
func testConfig(scheme Scheme, p int) Config {
	return Config{
		Options: Options{
			Scheme: scheme, P: p, Model: 18 * netsim.Megabyte, Chunks: 200,
			Detect: 500 * netsim.Millisecond,
		},
		Compute:      training.Uniform{Lo: 0.05, Hi: 0.2},
		ComputeScale: 1,
		Duration:     20 * netsim.Second,
	}
}

func runCluster(t testing.TB, nt *Net, cfg Config) (*Cluster, Metrics) {
	t.Helper()
	c, err := NewCluster(nt, cfg)
	if err != nil {
		t.Fatal(err)
	}
	m := c.Run()
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	return c, m
}
