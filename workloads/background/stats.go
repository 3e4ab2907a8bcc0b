package background

import (
	"fmt"
	"math"
	"sort"

	"github.com/montanaflynn/stats"

	"syncsim/netsim"
)

// Bucket is a flow-size range (Lo, Hi] in bytes.
type Bucket struct {
	Name   string
	Lo, Hi netsim.Bytes
}

// Contains reports whether Lo < size <= Hi.
func (b Bucket) Contains(size netsim.Bytes) bool { return size > b.Lo && size <= b.Hi }

// DefaultBuckets are the size buckets FCT results are broken down by
// (decimal units, upper bound inclusive): small (0, 100 KB], medium
// (100 KB, 1 MB], large (1 MB, 10 MB], xlarge above 10 MB. Upper-inclusive
// bounds put Hadoop's largest flow (exactly 10 MB) in large.
func DefaultBuckets() []Bucket {
	return []Bucket{
		{"small", 0, 100 * netsim.Kilobyte},
		{"medium", 100 * netsim.Kilobyte, netsim.Megabyte},
		{"large", netsim.Megabyte, 10 * netsim.Megabyte},
		{"xlarge", 10 * netsim.Megabyte, math.MaxInt64},
	}
}

// StatsConfig says how to measure a set of flows.
type StatsConfig struct {
	// Warmup and Stop bound the measurement window [Warmup, Stop): only
	// flows that START in it count. Flows that start before Warmup are
	// excluded, so the empty network at time zero does not flatter the
	// results. Stop must be after Warmup.
	Warmup, Stop netsim.Time
	// HostRate is the NIC rate used for the ideal FCT.
	HostRate netsim.Rate
	// Capacity is the aggregate NIC capacity in bytes/s used for the
	// measured offered load (see LoadDefinition).
	Capacity float64
	// Latency is the unloaded path latency from src to dst added to the
	// ideal FCT (propagation plus per-hop store-and-forward, as the engine
	// sees it on an empty network). nil means zero.
	Latency func(src, dst netsim.NodeID) netsim.Time
	// WireBytes maps a flow's payload size to the bytes it puts on the
	// wire (headers included) for the ideal FCT. nil means the payload.
	WireBytes func(netsim.Bytes) netsim.Bytes
	// Buckets break the results down by size; nil means DefaultBuckets.
	Buckets []Bucket
	// ExactLimit is the number of samples of each statistic (the FCT or
	// the slowdown of one group) kept exactly; 0 means DefaultExactLimit.
	// Up to it, percentiles are exact (NewDist). Beyond it the group's
	// samples move into a logarithmic quantile sketch of relative accuracy
	// SketchAccuracy (0.5 percent) and fixed size, and the mean comes from
	// a running sum, so an online summary (Generator.Measure) holds
	// constant memory however many flows a run has.
	ExactLimit int
}

// Dist summarises a sample: its size, mean and 50th/95th/99th percentiles.
// Percentiles are stats.Percentile of github.com/montanaflynn/stats v0.14,
// which interpolates linearly between closest ranks (Hyndman-Fan type 7,
// NumPy's default): rank = p/100 * (n-1). All fields but N are NaN when N is
// 0. Above StatsConfig.ExactLimit samples the percentiles come from a
// sketch, within SketchAccuracy of these.
type Dist struct {
	N                   int
	Mean, P50, P95, P99 float64
}

// Group is the result for one size bucket (or for all flows).
type Group struct {
	Name    string
	Lo, Hi  netsim.Bytes
	Started int // flows started in the window
	Done    int // of those, flows that completed
	// FCT is the flow-completion time in seconds of the completed flows.
	FCT Dist
	// Slowdown is FCT / ideal FCT of the completed flows, where the ideal
	// FCT is the flow's wire bytes at the host NIC rate plus the unloaded
	// path latency: the FCT on an empty network. It is not clamped, so an
	// engine faster than that ideal shows values below 1.
	Slowdown Dist
}

// Summary is the FCT report over a measurement window.
type Summary struct {
	Warmup, Stop netsim.Time
	// Excluded counts flows outside the window (started before Warmup or
	// at or after Stop).
	Excluded int
	// OfferedBytes is the total size of the flows started in the window.
	OfferedBytes netsim.Bytes
	// OfferedLoad is OfferedBytes / ((Stop - Warmup) * Capacity).
	OfferedLoad float64
	// All covers every flow in the window; Buckets break it down by size.
	All     Group
	Buckets []Group
}

// validate reports a configuration error and fills the default buckets.
func (cfg *StatsConfig) validate() error {
	switch {
	case cfg.Stop <= cfg.Warmup:
		return fmt.Errorf("background stats: stop %v is not after warm-up %v", cfg.Stop, cfg.Warmup)
	case cfg.HostRate <= 0:
		return fmt.Errorf("background stats: host NIC rate %v is not positive", cfg.HostRate)
	case !(cfg.Capacity > 0) || math.IsInf(cfg.Capacity, 0):
		return fmt.Errorf("background stats: capacity %v bytes/s is not a positive number", cfg.Capacity)
	case cfg.ExactLimit < 0:
		return fmt.Errorf("background stats: exact-sample limit %d is negative", cfg.ExactLimit)
	}
	if cfg.Buckets == nil {
		cfg.Buckets = DefaultBuckets()
	}
	if cfg.ExactLimit == 0 {
		cfg.ExactLimit = DefaultExactLimit
	}
	for _, b := range cfg.Buckets {
		if b.Hi <= b.Lo {
			return fmt.Errorf("background stats: bucket %q has upper bound %d not above lower bound %d", b.Name, b.Hi, b.Lo)
		}
	}
	return nil
}

// meter accumulates a Summary flow by flow, in memory that does not grow
// with the number of flows beyond the exact-sample limit: counters, and
// one sampleSet per statistic and group.
type meter struct {
	cfg       StatsConfig
	s         Summary
	fct, slow []sampleSet // [0] all flows, [1+i] bucket i
}

func newMeter(cfg StatsConfig) (*meter, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	m := &meter{cfg: cfg, s: Summary{Warmup: cfg.Warmup, Stop: cfg.Stop, All: Group{Name: "all", Lo: 0, Hi: math.MaxInt64}}}
	m.s.Buckets = make([]Group, len(cfg.Buckets))
	for i, b := range cfg.Buckets {
		m.s.Buckets[i] = Group{Name: b.Name, Lo: b.Lo, Hi: b.Hi}
	}
	m.fct = make([]sampleSet, 1+len(cfg.Buckets))
	m.slow = make([]sampleSet, 1+len(cfg.Buckets))
	for i := range m.fct {
		m.fct[i].limit, m.slow[i].limit = cfg.ExactLimit, cfg.ExactLimit
	}
	return m, nil
}

// start counts a flow that starts; it reports the flow's bucket (-1: none)
// and whether the flow is in the window (only those count when done).
func (m *meter) start(f *Flow) (bucket int, in bool) {
	if f.Start < m.cfg.Warmup || f.Start >= m.cfg.Stop {
		m.s.Excluded++
		return -1, false
	}
	m.s.OfferedBytes += f.Size
	bucket = -1
	for j, b := range m.cfg.Buckets {
		if b.Contains(f.Size) {
			bucket = j
			break
		}
	}
	m.s.All.Started++
	if bucket >= 0 {
		m.s.Buckets[bucket].Started++
	}
	return bucket, true
}

// done records the completion of a flow start counted in the window.
func (m *meter) done(f *Flow, bucket int) {
	fct := (f.End - f.Start).Seconds()
	slow := fct / idealFCT(f, &m.cfg).Seconds()
	m.s.All.Done++
	m.fct[0].add(fct)
	m.slow[0].add(slow)
	if bucket >= 0 {
		m.s.Buckets[bucket].Done++
		m.fct[1+bucket].add(fct)
		m.slow[1+bucket].add(slow)
	}
}

// summary completes the Summary from the counters and samples.
func (m *meter) summary() *Summary {
	s := m.s
	s.Buckets = append([]Group(nil), m.s.Buckets...)
	s.OfferedLoad = float64(s.OfferedBytes) / ((m.cfg.Stop - m.cfg.Warmup).Seconds() * m.cfg.Capacity)
	s.All.FCT, s.All.Slowdown = m.fct[0].dist(), m.slow[0].dist()
	for i := range s.Buckets {
		s.Buckets[i].FCT, s.Buckets[i].Slowdown = m.fct[1+i].dist(), m.slow[1+i].dist()
	}
	return &s
}

// Summarize measures flows over the window in cfg. Flows still running are
// counted as started but not done, and left out of the FCT and slowdown
// statistics (which therefore lean towards shorter flows when many are
// unfinished: compare Done with Started).
func Summarize(flows []Flow, cfg StatsConfig) (*Summary, error) {
	m, err := newMeter(cfg)
	if err != nil {
		return nil, err
	}
	for i := range flows {
		f := &flows[i]
		bucket, in := m.start(f)
		if !in || !f.Done {
			continue
		}
		if f.End < f.Start {
			return nil, fmt.Errorf("background stats: flow %d ends at %v before it starts at %v", f.ID, f.End, f.Start)
		}
		m.done(f, bucket)
	}
	return m.summary(), nil
}

// ConstLatency returns a Latency function that gives d for every pair.
func ConstLatency(d netsim.Time) func(src, dst netsim.NodeID) netsim.Time {
	return func(netsim.NodeID, netsim.NodeID) netsim.Time { return d }
}

// idealFCT is the flow's completion time on an empty network: its wire
// bytes serialised at the host NIC rate plus the unloaded path latency.
func idealFCT(f *Flow, cfg *StatsConfig) netsim.Time {
	wire := f.Size
	if cfg.WireBytes != nil {
		wire = cfg.WireBytes(f.Size)
	}
	t := netsim.TxTime(wire, cfg.HostRate)
	if cfg.Latency != nil {
		t += cfg.Latency(f.Src, f.Dst)
	}
	if t <= 0 {
		// A flow has at least one byte and the rate is positive, so only a
		// negative latency from the caller can get here.
		panic(fmt.Sprintf("background stats: ideal FCT %v of flow %d is not positive", t, f.ID))
	}
	return t
}

// NewDist summarises xs (see Dist). It sorts xs in place.
func NewDist(xs []float64) Dist {
	d := Dist{N: len(xs), Mean: math.NaN(), P50: math.NaN(), P95: math.NaN(), P99: math.NaN()}
	if len(xs) == 0 {
		return d
	}
	sort.Float64s(xs)
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	d.Mean = sum / float64(len(xs))
	// stats.Percentile only fails on empty input or p outside (0, 100].
	d.P50, _ = stats.Percentile(xs, 50)
	d.P95, _ = stats.Percentile(xs, 95)
	d.P99, _ = stats.Percentile(xs, 99)
	return d
}

// statsConfig fills HostRate, Capacity and (when cfg.Stop is 0) Stop from
// the generator's configuration.
func (g *Generator) statsConfig(cfg StatsConfig) (StatsConfig, error) {
	cfg.HostRate = g.cfg.HostRate
	cfg.Capacity = g.Capacity()
	if cfg.Stop == 0 {
		if g.cfg.Stop == 0 {
			return cfg, fmt.Errorf("background stats: no stop time (neither the generator nor the stats config has one)")
		}
		cfg.Stop = g.cfg.Stop
	}
	return cfg, nil
}

// Stats measures the generator's flows over [warmup, stop), filling
// HostRate, Capacity and (when cfg.Stop is 0) Stop from the generator's
// configuration; Latency, WireBytes, Buckets and ExactLimit are taken from
// cfg. It needs the per-flow records, so it is an error after Measure
// (use Summary).
func (g *Generator) Stats(cfg StatsConfig) (*Summary, error) {
	if g.meter != nil {
		return nil, fmt.Errorf("background stats: the generator measures online (Measure); use Summary")
	}
	if g.discard {
		return nil, fmt.Errorf("background stats: the generator keeps no flows (Discard)")
	}
	cfg, err := g.statsConfig(cfg)
	if err != nil {
		return nil, err
	}
	return Summarize(g.flows, cfg)
}

// Measure makes the generator summarise its flows as they start and
// complete instead of recording them, so that memory stays constant
// however long the run: a flow's record lives only while it is in flight,
// and the statistics keep counters plus at most cfg.ExactLimit exact
// samples per statistic (then a fixed-size sketch; see StatsConfig). cfg is
// completed as Stats completes it, so Latency and WireBytes must be ready
// (routes built). Call it before Start; Summary then reports the same
// Summary that Stats(cfg) would give on the recorded flows.
func (g *Generator) Measure(cfg StatsConfig) error {
	if g.on {
		return fmt.Errorf("background stats: Measure must be called before Start")
	}
	if g.discard {
		return fmt.Errorf("background stats: the generator keeps no flows (Discard)")
	}
	cfg, err := g.statsConfig(cfg)
	if err != nil {
		return err
	}
	m, err := newMeter(cfg)
	if err != nil {
		return err
	}
	g.meter = m
	return nil
}

// Summary is the online summary of the flows so far (Measure): flows still
// running count as started, not done.
func (g *Generator) Summary() (*Summary, error) {
	if g.discard {
		return nil, fmt.Errorf("background stats: the generator keeps no flows (Discard)")
	}
	if g.meter == nil {
		return nil, fmt.Errorf("background stats: the generator records flows; call Measure before Start for an online summary, or use Stats")
	}
	return g.meter.summary(), nil
}
