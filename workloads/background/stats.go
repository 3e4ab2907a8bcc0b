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
}

// Dist summarises a sample: its size, mean and 50th/95th/99th percentiles.
// Percentiles are stats.Percentile of github.com/montanaflynn/stats v0.14,
// which interpolates linearly between closest ranks (Hyndman-Fan type 7,
// NumPy's default): rank = p/100 * (n-1). All fields but N are NaN when N is 0.
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

// Summarize measures flows over the window in cfg. Flows still running are
// counted as started but not done, and left out of the FCT and slowdown
// statistics (which therefore lean towards shorter flows when many are
// unfinished: compare Done with Started).
func Summarize(flows []Flow, cfg StatsConfig) (*Summary, error) {
	switch {
	case cfg.Stop <= cfg.Warmup:
		return nil, fmt.Errorf("background stats: stop %v is not after warm-up %v", cfg.Stop, cfg.Warmup)
	case cfg.HostRate <= 0:
		return nil, fmt.Errorf("background stats: host NIC rate %v is not positive", cfg.HostRate)
	case !(cfg.Capacity > 0) || math.IsInf(cfg.Capacity, 0):
		return nil, fmt.Errorf("background stats: capacity %v bytes/s is not a positive number", cfg.Capacity)
	}
	buckets := cfg.Buckets
	if buckets == nil {
		buckets = DefaultBuckets()
	}
	for _, b := range buckets {
		if b.Hi <= b.Lo {
			return nil, fmt.Errorf("background stats: bucket %q has upper bound %d not above lower bound %d", b.Name, b.Hi, b.Lo)
		}
	}
	s := &Summary{Warmup: cfg.Warmup, Stop: cfg.Stop}
	type sample struct{ fct, slow []float64 }
	all := sample{}
	per := make([]sample, len(buckets))
	s.All = Group{Name: "all", Lo: 0, Hi: math.MaxInt64}
	s.Buckets = make([]Group, len(buckets))
	for i, b := range buckets {
		s.Buckets[i] = Group{Name: b.Name, Lo: b.Lo, Hi: b.Hi}
	}
	for i := range flows {
		f := &flows[i]
		if f.Start < cfg.Warmup || f.Start >= cfg.Stop {
			s.Excluded++
			continue
		}
		s.OfferedBytes += f.Size
		bi := -1
		for j, b := range buckets {
			if b.Contains(f.Size) {
				bi = j
				break
			}
		}
		s.All.Started++
		if bi >= 0 {
			s.Buckets[bi].Started++
		}
		if !f.Done {
			continue
		}
		if f.End < f.Start {
			return nil, fmt.Errorf("background stats: flow %d ends at %v before it starts at %v", f.ID, f.End, f.Start)
		}
		fct := (f.End - f.Start).Seconds()
		slow := fct / idealFCT(f, &cfg).Seconds()
		s.All.Done++
		all.fct = append(all.fct, fct)
		all.slow = append(all.slow, slow)
		if bi >= 0 {
			s.Buckets[bi].Done++
			per[bi].fct = append(per[bi].fct, fct)
			per[bi].slow = append(per[bi].slow, slow)
		}
	}
	s.OfferedLoad = float64(s.OfferedBytes) / ((cfg.Stop - cfg.Warmup).Seconds() * cfg.Capacity)
	s.All.FCT, s.All.Slowdown = NewDist(all.fct), NewDist(all.slow)
	for i := range s.Buckets {
		s.Buckets[i].FCT, s.Buckets[i].Slowdown = NewDist(per[i].fct), NewDist(per[i].slow)
	}
	return s, nil
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

// Stats measures the generator's flows over [warmup, stop), filling
// HostRate, Capacity and (when cfg.Stop is 0) Stop from the generator's
// configuration; Latency, WireBytes and Buckets are taken from cfg.
func (g *Generator) Stats(cfg StatsConfig) (*Summary, error) {
	cfg.HostRate = g.cfg.HostRate
	cfg.Capacity = g.Capacity()
	if cfg.Stop == 0 {
		if g.cfg.Stop == 0 {
			return nil, fmt.Errorf("background stats: no stop time (neither the generator nor the stats config has one)")
		}
		cfg.Stop = g.cfg.Stop
	}
	return Summarize(g.flows, cfg)
}
