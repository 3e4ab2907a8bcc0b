package background

import (
	"math"
	"slices"
	"strings"
	"testing"

	"syncsim/netsim"
)

// instantBulk completes every transfer at once, inside Send, and records
// what it was asked to send.
type instantBulk struct {
	sends []netsim.BulkOpts
}

func (b *instantBulk) Send(src, dst netsim.NodeID, size netsim.Bytes, opts netsim.BulkOpts, done func()) {
	b.sends = append(b.sends, opts)
	done()
}

// emptyNetBulk completes a transfer as an empty network would: after its
// bytes at rate plus a fixed per-pair latency.
type emptyNetBulk struct {
	sim     *netsim.Sim
	rate    netsim.Rate
	latency func(src, dst netsim.NodeID) netsim.Time
}

func (b *emptyNetBulk) Send(src, dst netsim.NodeID, size netsim.Bytes, opts netsim.BulkOpts, done func()) {
	b.sim.At(b.sim.Now()+netsim.TxTime(size, b.rate)+b.latency(src, dst), done)
}

func hostIDs(n int) []netsim.NodeID {
	ids := make([]netsim.NodeID, n)
	for i := range ids {
		ids[i] = netsim.NodeID(100 + 3*i) // not 0..n-1, to catch index/ID mix-ups
	}
	return ids
}

func workload(t testing.TB, name string) *CDF {
	t.Helper()
	c, err := Workload(name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// run builds a generator on a fresh Sim with an instant bulk engine, runs it
// to cfg.Stop and returns it.
func run(t testing.TB, seed uint64, cfg Config) *Generator {
	t.Helper()
	sim := netsim.New(seed)
	g, err := New(sim, &instantBulk{}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	g.Start()
	sim.Run(netsim.Never)
	return g
}

func TestNewRejectsBadConfig(t *testing.T) {
	hadoop := workload(t, "hadoop")
	good := Config{CDF: hadoop, Load: 0.5, Hosts: hostIDs(4), HostRate: 100 * netsim.Gbps, Stop: netsim.Millisecond}
	cases := []struct {
		name string
		edit func(c *Config)
		want string
	}{
		{"nil cdf", func(c *Config) { c.CDF = nil }, "no flow-size CDF"},
		{"zero load", func(c *Config) { c.Load = 0 }, "outside (0, 1]"},
		{"negative load", func(c *Config) { c.Load = -0.2 }, "outside (0, 1]"},
		{"overload", func(c *Config) { c.Load = 1.01 }, "outside (0, 1]"},
		{"nan load", func(c *Config) { c.Load = math.NaN() }, "outside (0, 1]"},
		{"no hosts", func(c *Config) { c.Hosts = nil }, "no hosts"},
		{"one host", func(c *Config) { c.Hosts = hostIDs(1) }, "at least two distinct hosts"},
		{"one host, itself as destination", func(c *Config) { c.Hosts = hostIDs(1); c.Dsts = hostIDs(1) }, "at least two distinct hosts"},
		{"duplicate host", func(c *Config) { c.Hosts = []netsim.NodeID{1, 2, 1} }, "listed twice"},
		{"duplicate destination", func(c *Config) { c.Dsts = []netsim.NodeID{7, 7} }, "listed twice"},
		{"zero rate", func(c *Config) { c.HostRate = 0 }, "not positive"},
		{"negative start", func(c *Config) { c.Start = -1 }, "negative"},
		{"stop before start", func(c *Config) { c.Start = 2 * netsim.Millisecond }, "not after start"},
		{"negative max flows", func(c *Config) { c.MaxFlows = -1 }, "negative"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := good
			tc.edit(&cfg)
			_, err := New(netsim.New(1), &instantBulk{}, cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
	if _, err := New(netsim.New(1), &instantBulk{}, good); err != nil {
		t.Fatalf("good config: %v", err)
	}
	zero := mustCDF(t, []Point{{0, 1}})
	cfg := good
	cfg.CDF = zero
	if _, err := New(netsim.New(1), &instantBulk{}, cfg); err == nil || !strings.Contains(err.Error(), "positive mean") {
		t.Errorf("zero-mean CDF: err = %v", err)
	}
}

// lambda = load * hosts * rate/8 / mean: 0.5 * 128 * 12.5e9 B/s / mean.
func TestLambda(t *testing.T) {
	hadoop := workload(t, "hadoop")
	g, err := New(netsim.New(1), &instantBulk{}, Config{CDF: hadoop, Load: 0.5, Hosts: hostIDs(128), HostRate: 100 * netsim.Gbps})
	if err != nil {
		t.Fatal(err)
	}
	want := 0.5 * 128 * 12.5e9 / hadoop.Mean()
	if !near(g.Lambda(), want, 1e-9*want) || g.Capacity() != 128*12.5e9 {
		t.Errorf("Lambda = %v, want %v; Capacity = %v", g.Lambda(), want, g.Capacity())
	}
}

// Over a long horizon the measured offered load is within 3% of the target.
// With 128 hosts at 100 Gbps and load 0.5, hadoop's ~6.6M flows/s give
// ~300k flows in 45 ms (standard error of the offered bytes about 1%);
// websearch's heavier flows need 0.4 s for ~190k flows.
func TestOfferedLoadMatchesTarget(t *testing.T) {
	cases := []struct {
		workload string
		load     float64
		horizon  netsim.Time
	}{
		{"hadoop", 0.5, 45 * netsim.Millisecond},
		{"websearch", 0.5, 400 * netsim.Millisecond},
		{"cachefollower", 0.8, 100 * netsim.Millisecond},
		{"hadoop", 0.2, 100 * netsim.Millisecond},
	}
	for _, tc := range cases {
		t.Run(tc.workload, func(t *testing.T) {
			cfg := Config{CDF: workload(t, tc.workload), Load: tc.load, Hosts: hostIDs(128), HostRate: 100 * netsim.Gbps, Stop: tc.horizon}
			g := run(t, 42, cfg)
			s, err := g.Stats(StatsConfig{})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s load %v: measured %v over %d flows", tc.workload, tc.load, s.OfferedLoad, g.Started())
			if math.Abs(s.OfferedLoad-tc.load)/tc.load > 0.03 {
				t.Errorf("measured offered load %v, target %v (%d flows)", s.OfferedLoad, tc.load, g.Started())
			}
			// Independent recount from the flow records.
			var bytes netsim.Bytes
			for _, f := range g.Flows() {
				bytes += f.Size
			}
			if got := float64(bytes) / (tc.horizon.Seconds() * 128 * 100e9 / 8); !near(got, s.OfferedLoad, 1e-12) {
				t.Errorf("recount %v, Stats %v", got, s.OfferedLoad)
			}
		})
	}
}

// Arrivals are a Poisson process: the count in [0, T) is within 4 standard
// deviations of lambda*T, the gaps have mean 1/lambda and coefficient of
// variation 1 (exponential), and counts in 1000 equal windows have variance
// about equal to their mean (index of dispersion 1).
func TestArrivalsArePoisson(t *testing.T) {
	const horizon = 20 * netsim.Millisecond
	cfg := Config{CDF: workload(t, "hadoop"), Load: 0.3, Hosts: hostIDs(64), HostRate: 100 * netsim.Gbps, Stop: horizon}
	g := run(t, 3, cfg)
	flows := g.Flows()
	mu := g.Lambda() * horizon.Seconds()
	if n := float64(len(flows)); math.Abs(n-mu) > 4*math.Sqrt(mu) {
		t.Errorf("%v arrivals, want %v +- %v", n, mu, 4*math.Sqrt(mu))
	}
	gaps := make([]float64, 0, len(flows))
	prev := netsim.Time(0)
	for _, f := range flows {
		if f.Start < prev || f.Start >= horizon {
			t.Fatalf("flow %d starts at %v: out of order or past stop", f.ID, f.Start)
		}
		gaps = append(gaps, (f.Start - prev).Seconds())
		prev = f.Start
	}
	d := NewDist(gaps)
	sd := 0.0
	for _, x := range gaps {
		sd += (x - d.Mean) * (x - d.Mean)
	}
	sd = math.Sqrt(sd / float64(len(gaps)-1))
	if rel := d.Mean * g.Lambda(); math.Abs(rel-1) > 0.02 {
		t.Errorf("mean gap * lambda = %v, want 1", rel)
	}
	if cv := sd / d.Mean; math.Abs(cv-1) > 0.02 {
		t.Errorf("gap coefficient of variation %v, want 1", cv)
	}
	// Exponential median is ln 2 / lambda.
	if m := d.P50 * g.Lambda(); math.Abs(m-math.Ln2) > 0.02 {
		t.Errorf("median gap * lambda = %v, want ln 2", m)
	}
	const windows = 1000
	counts := make([]float64, windows)
	for _, f := range flows {
		counts[int(int64(f.Start)*windows/int64(horizon))]++
	}
	cm, cv := 0.0, 0.0
	for _, c := range counts {
		cm += c
	}
	cm /= windows
	for _, c := range counts {
		cv += (c - cm) * (c - cm)
	}
	cv /= windows - 1
	// The dispersion estimate has standard deviation sqrt(2/(windows-1)) ~ 0.045.
	if disp := cv / cm; math.Abs(disp-1) > 0.2 {
		t.Errorf("index of dispersion %v, want 1", disp)
	}
}

// Every ordered pair (src, dst) with src != dst is equally likely.
func TestPairsUniformAllToAll(t *testing.T) {
	hosts := hostIDs(8)
	cfg := Config{CDF: workload(t, "hadoop"), Load: 1, Hosts: hosts, HostRate: 10 * netsim.Gbps, MaxFlows: 112000}
	g := run(t, 5, cfg)
	if g.Started() != cfg.MaxFlows {
		t.Fatalf("started %d flows, want MaxFlows = %d", g.Started(), cfg.MaxFlows)
	}
	counts := map[[2]netsim.NodeID]int{}
	for _, f := range g.Flows() {
		if f.Src == f.Dst {
			t.Fatalf("flow %d: src == dst == %d", f.ID, f.Src)
		}
		if !slices.Contains(hosts, f.Src) || !slices.Contains(hosts, f.Dst) {
			t.Fatalf("flow %d: %d -> %d not among the hosts", f.ID, f.Src, f.Dst)
		}
		counts[[2]netsim.NodeID{f.Src, f.Dst}]++
	}
	if len(counts) != 8*7 {
		t.Fatalf("%d distinct pairs, want 56", len(counts))
	}
	// Expected 2000 per pair, standard deviation ~44; chi-square with 55
	// degrees of freedom has mean 55 and sd ~10.5.
	chi := 0.0
	for _, c := range counts {
		chi += float64((c - 2000) * (c - 2000))
	}
	chi /= 2000
	if chi > 100 {
		t.Errorf("chi-square %v over 56 pairs: not uniform", chi)
	}
}

// With separate receivers, sources come from Hosts and destinations from
// Dsts; a source that is also a receiver never sends to itself.
func TestPairsRestrictedDestinations(t *testing.T) {
	cfg := Config{
		CDF: workload(t, "hadoop"), Load: 1, HostRate: 10 * netsim.Gbps, MaxFlows: 30000,
		Hosts: []netsim.NodeID{1, 2, 3},
		Dsts:  []netsim.NodeID{3, 4},
	}
	g := run(t, 6, cfg)
	counts := map[[2]netsim.NodeID]int{}
	for _, f := range g.Flows() {
		counts[[2]netsim.NodeID{f.Src, f.Dst}]++
	}
	// Source uniform (1/3 each); 1 and 2 split evenly over {3, 4}; 3 always goes to 4.
	want := map[[2]netsim.NodeID]float64{{1, 3}: 1.0 / 6, {1, 4}: 1.0 / 6, {2, 3}: 1.0 / 6, {2, 4}: 1.0 / 6, {3, 4}: 1.0 / 3}
	if len(counts) != len(want) {
		t.Fatalf("pairs %v, want exactly %v", counts, want)
	}
	for pair, p := range want {
		if got := float64(counts[pair]) / 30000; math.Abs(got-p) > 0.01 {
			t.Errorf("pair %v: fraction %v, want %v", pair, got, p)
		}
	}
	// Capacity counts the senders only.
	if g.Capacity() != 3*10e9/8 {
		t.Errorf("Capacity = %v, want 3 senders * 1.25e9", g.Capacity())
	}
}

func TestDeterminismAndStreams(t *testing.T) {
	base := Config{CDF: workload(t, "hadoop"), Load: 0.5, Hosts: hostIDs(16), HostRate: 100 * netsim.Gbps, Stop: netsim.Millisecond}
	a := run(t, 11, base).Flows()
	b := run(t, 11, base).Flows()
	if len(a) < 500 || !slices.Equal(a, b) {
		t.Fatalf("same seed: %d and %d flows, equal = %v", len(a), len(b), slices.Equal(a, b))
	}
	c := run(t, 12, base).Flows()
	if slices.Equal(a, c) {
		t.Fatal("different seeds gave the same flows")
	}
	// A named generator draws from its own streams, not the default ones.
	named := base
	named.Name = "rack2"
	if n := run(t, 11, named).Flows(); slices.Equal(n, a) {
		t.Fatal("a named generator repeats the unnamed one's flows")
	}
	if got := streamName(StreamPairs, "rack2"); got != "background/rack2/pairs" {
		t.Errorf("stream name %q", got)
	}
	// Changing the workload keeps the arrival gaps (scaled by lambda) and
	// the pairs: they come from their own streams.
	other := base
	other.CDF = workload(t, "websearch")
	other.Stop = 0
	other.MaxFlows = 200
	w := run(t, 11, other).Flows()
	ratio := base.CDF.Mean() / other.CDF.Mean() // lambda_w / lambda_h
	for i := range w {
		if w[i].Src != a[i].Src || w[i].Dst != a[i].Dst {
			t.Fatalf("flow %d: pair %d->%d with websearch, %d->%d with hadoop", i, w[i].Src, w[i].Dst, a[i].Src, a[i].Dst)
		}
		// Start times are sums of gaps each rounded to the picosecond, and
		// the hadoop rounding is scaled by 1/ratio.
		if got, want := float64(w[i].Start), float64(a[i].Start)/ratio; math.Abs(got-want) > float64(i+1)*(1+1/ratio) {
			t.Fatalf("flow %d starts at %v with websearch, want %v", i, got, want)
		}
	}
	// Changing the load keeps the sizes.
	heavier := base
	heavier.Load = 0.9
	h := run(t, 11, heavier).Flows()
	for i := range a {
		if h[i].Size != a[i].Size {
			t.Fatalf("flow %d: size %d at load 0.9, %d at 0.5", i, h[i].Size, a[i].Size)
		}
	}
}

// Flows start in [Start, Stop), carry Class and their ID as Tag, and stop at
// MaxFlows.
func TestWindowClassAndMaxFlows(t *testing.T) {
	cfg := Config{
		CDF: workload(t, "cachefollower"), Load: 0.5, Hosts: hostIDs(4), HostRate: 100 * netsim.Gbps,
		Start: 3 * netsim.Millisecond, Stop: 5 * netsim.Millisecond, Class: 7,
	}
	sim := netsim.New(9)
	bulk := &instantBulk{}
	g, err := New(sim, bulk, cfg)
	if err != nil {
		t.Fatal(err)
	}
	g.Start()
	sim.Run(netsim.Never)
	if g.Started() < 30 {
		t.Fatalf("only %d flows", g.Started())
	}
	for i, f := range g.Flows() {
		if f.Start < cfg.Start || f.Start >= cfg.Stop {
			t.Fatalf("flow %d starts at %v outside [%v, %v)", i, f.Start, cfg.Start, cfg.Stop)
		}
		if !f.Done || f.FCT() != 0 {
			t.Fatalf("flow %d: done %v FCT %v with an instant engine", i, f.Done, f.FCT())
		}
		if bulk.sends[i].Class != 7 || bulk.sends[i].Tag != int64(i) {
			t.Fatalf("flow %d sent with %+v", i, bulk.sends[i])
		}
	}
	cfg.MaxFlows = 17
	if n := run(t, 9, cfg).Started(); n != 17 {
		t.Errorf("MaxFlows 17: started %d", n)
	}
}

// On an engine that behaves like an empty network, every flow's slowdown
// is exactly 1 when Stats is given the same latency; flows that start before
// the warm-up are excluded.
func TestStatsOnEmptyNetwork(t *testing.T) {
	const rate = 100 * netsim.Gbps
	latency := func(src, dst netsim.NodeID) netsim.Time {
		return netsim.Time(2+(src+dst)%3) * netsim.Microsecond
	}
	sim := netsim.New(4)
	cfg := Config{CDF: workload(t, "hadoop"), Load: 0.4, Hosts: hostIDs(16), HostRate: rate, Stop: 2 * netsim.Millisecond}
	g, err := New(sim, &emptyNetBulk{sim: sim, rate: rate, latency: latency}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	g.Start()
	sim.Run(netsim.Never)
	warm := 500 * netsim.Microsecond
	s, err := g.Stats(StatsConfig{Warmup: warm, Latency: latency})
	if err != nil {
		t.Fatal(err)
	}
	before := 0
	for _, f := range g.Flows() {
		if f.Start < warm {
			before++
		}
	}
	if s.Excluded != before || s.All.Started != g.Started()-before || s.All.Done != s.All.Started {
		t.Errorf("excluded %d (want %d), started %d (want %d), done %d", s.Excluded, before, s.All.Started, g.Started()-before, s.All.Done)
	}
	if s.All.Slowdown.Mean != 1 || s.All.Slowdown.P99 != 1 || s.All.Slowdown.P50 != 1 {
		t.Errorf("slowdown on an empty network: %+v, want all 1", s.All.Slowdown)
	}
	sum := 0
	for _, b := range s.Buckets {
		sum += b.Done
	}
	if sum != s.All.Done {
		t.Errorf("buckets hold %d flows, all %d", sum, s.All.Done)
	}
	// Without the latency the ideal is shorter, so slowdowns exceed 1.
	s2, err := g.Stats(StatsConfig{Warmup: warm})
	if err != nil {
		t.Fatal(err)
	}
	if !(s2.All.Slowdown.P50 > 1) {
		t.Errorf("slowdown without latency in the ideal: %+v, want > 1", s2.All.Slowdown)
	}
}

func TestStartTwicePanics(t *testing.T) {
	g, err := New(netsim.New(1), &instantBulk{}, Config{CDF: workload(t, "hadoop"), Load: 0.5, Hosts: hostIDs(2), HostRate: netsim.Gbps, MaxFlows: 1})
	if err != nil {
		t.Fatal(err)
	}
	g.Start()
	defer func() {
		if recover() == nil {
			t.Error("second Start did not panic")
		}
	}()
	g.Start()
}
