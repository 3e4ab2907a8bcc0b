package crew

import (
	"bytes"
	_ "embed"
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"

	"syncsim/netsim"
)

// The measured WAN tables (data/ATTRIBUTION.md says where they come from
// and how they were derived).
var (
	//go:embed data/wanify_aws_mbps.csv
	wanifyCSV []byte
	//go:embed data/skyplane_aws_rtt_ms.csv
	skyplaneRTTCSV []byte
)

// Regions are the 8 AWS regions of the WANify measurements, in the order
// workers are placed on them (alphabetical).
var Regions = []string{
	"ap-northeast-1", "ap-south-1", "ap-southeast-1", "ap-southeast-2",
	"eu-west-1", "sa-east-1", "us-east-1", "us-west-1",
}

// IntraRegionRTT is the round trip between two workers in one region. The
// tables measure none; 2 ms is the order of an AWS inter-zone round trip
// (our assumption).
const IntraRegionRTT = 2 * netsim.Millisecond

// empirical is a discrete distribution of integer values with counts.
type empirical struct {
	vals  []float64
	cum   []int // cumulative counts
	total int
}

func (e *empirical) add(v float64, c int) {
	e.vals = append(e.vals, v)
	e.total += c
	e.cum = append(e.cum, e.total)
}

// draw picks one value with probability proportional to its count.
func (e *empirical) draw(r *rand.Rand) float64 {
	u := r.IntN(e.total)
	i, _ := slices.BinarySearch(e.cum, u+1)
	return e.vals[i]
}

// wanTables is the parsed embedded data.
type wanTables struct {
	pooled  *empirical            // every reading
	perPair map[[2]int]*empirical // by (src, dst) region index
	rtt     [len8][len8]float64   // ms; 0 on the diagonal
	err     error                 //
}

const len8 = 8

var (
	tablesOnce sync.Once
	tables     wanTables
)

func regionIndex(name string) int { return slices.Index(Regions, name) }

func loadTables() (*wanTables, error) {
	tablesOnce.Do(func() { tables = parseTables() })
	return &tables, tables.err
}

func parseTables() wanTables {
	t := wanTables{perPair: map[[2]int]*empirical{}}
	fail := func(f string, a ...any) wanTables { return wanTables{err: fmt.Errorf("embedded WAN table: "+f, a...)} }
	recs, err := csv.NewReader(bytes.NewReader(wanifyCSV)).ReadAll()
	if err != nil {
		return fail("%v", err)
	}
	// The pooled distribution: counts summed over pairs, by value.
	pooled := map[int]int{}
	for _, r := range recs[1:] {
		s, d := regionIndex(r[0]), regionIndex(r[1])
		v, err1 := strconv.Atoi(r[2])
		c, err2 := strconv.Atoi(r[3])
		if s < 0 || d < 0 || s == d || err1 != nil || err2 != nil || v <= 0 || c <= 0 {
			return fail("bad bandwidth row %v", r)
		}
		k := [2]int{s, d}
		if t.perPair[k] == nil {
			t.perPair[k] = &empirical{}
		}
		t.perPair[k].add(float64(v), c)
		pooled[v] += c
	}
	keys := make([]int, 0, len(pooled))
	for v := range pooled {
		keys = append(keys, v)
	}
	slices.Sort(keys)
	t.pooled = &empirical{}
	for _, v := range keys {
		t.pooled.add(float64(v), pooled[v])
	}
	if len(t.perPair) != len8*(len8-1) {
		return fail("%d region pairs with bandwidth, want %d", len(t.perPair), len8*(len8-1))
	}
	recs, err = csv.NewReader(bytes.NewReader(skyplaneRTTCSV)).ReadAll()
	if err != nil {
		return fail("%v", err)
	}
	n := 0
	for _, r := range recs[1:] {
		s, d := regionIndex(r[0]), regionIndex(r[1])
		v, err := strconv.ParseFloat(r[2], 64)
		if s < 0 || d < 0 || s == d || err != nil || !(v > 0) {
			return fail("bad latency row %v", r)
		}
		t.rtt[s][d] = v
		n++
	}
	if n != len8*(len8-1) {
		return fail("%d region pairs with latency, want %d", n, len8*(len8-1))
	}
	return t
}

// N1Sampling says how N1 draws b_ij.
type N1Sampling uint8

const (
	// N1Pooled draws every directed b_ij independently from all WANify
	// readings pooled (the paper samples "from the inter-datacenter
	// bandwidth measured from Amazon EC2", Sec. V-A, with no per-pair
	// structure).
	N1Pooled N1Sampling = iota
	// N1Regional draws b_ij from the readings of the region pair the two
	// workers sit in (pooled when they share a region).
	N1Regional
)

// PlaceRegions puts n workers on the 8 regions uniformly at random.
func PlaceRegions(r *rand.Rand, n int) []int {
	reg := make([]int, n)
	for i := range reg {
		reg[i] = r.IntN(len(Regions))
	}
	return reg
}

// N1 returns the bandwidth matrix (bits/s) of network N1 for workers
// placed on regions: each directed b_ij drawn from WANify's measured AWS
// inter-region single-stream throughput (Mbps; min 3, median 53, max 245)
// as sampling says, row by row from r.
func N1(r *rand.Rand, regions []int, sampling N1Sampling) (Matrix, error) {
	t, err := loadTables()
	if err != nil {
		return nil, err
	}
	n := len(regions)
	m := NewMatrix(n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i == j {
				continue
			}
			d := t.pooled
			if sampling == N1Regional && regions[i] != regions[j] {
				d = t.perPair[[2]int{regions[i], regions[j]}]
			}
			m[i][j] = d.draw(r) * 1e6
		}
	}
	return m, nil
}

// N2Unit is the bandwidth unit u of network N2 (25 Mbps, Sec. V-A).
const N2Unit = 25e6

// N2 returns the bandwidth matrix of network N2 (Sec. V-A): b_ij = k u
// with u = 25 Mbps and k an integer in [1, 10] "sampled from N(5, 1)". We
// read this as k = round(z), z ~ N(5, 1), redrawn while k falls outside
// [1, 10] (probability about 1e-5 per draw); clamping instead would differ
// only in those rare draws.
func N2(r *rand.Rand, n int) Matrix {
	m := NewMatrix(n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i == j {
				continue
			}
			k := 0.0
			for k < 1 || k > 10 {
				k = math.Round(5 + r.NormFloat64())
			}
			m[i][j] = k * N2Unit
		}
	}
	return m
}

// AWSLatency returns one-way latencies (symmetric, as topologies.WAN's
// cables have one delay) for workers placed on regions: half the mean of
// Skyplane's two directions' average RTT between the regions, or half of
// IntraRegionRTT within one region.
func AWSLatency(regions []int) ([][]netsim.Time, error) {
	t, err := loadTables()
	if err != nil {
		return nil, err
	}
	n := len(regions)
	d := make([][]netsim.Time, n)
	for i := range d {
		d[i] = make([]netsim.Time, n)
		for j := range d[i] {
			switch {
			case i == j:
			case regions[i] == regions[j]:
				d[i][j] = IntraRegionRTT / 2
			default:
				a, b := regions[i], regions[j]
				d[i][j] = netsim.FromMillis((t.rtt[a][b] + t.rtt[b][a]) / 4)
			}
		}
	}
	return d, nil
}

// ConstLatency returns n x n one-way latencies of d (zero on the diagonal).
func ConstLatency(n int, d netsim.Time) [][]netsim.Time {
	m := make([][]netsim.Time, n)
	for i := range m {
		m[i] = make([]netsim.Time, n)
		for j := range m[i] {
			if i != j {
				m[i][j] = d
			}
		}
	}
	return m
}

// LatencyFromMatrix converts a matrix of one-way latencies in seconds to
// netsim times, checking that it is symmetric (a cable has one delay).
func LatencyFromMatrix(m Matrix) ([][]netsim.Time, error) {
	n := len(m)
	d := make([][]netsim.Time, n)
	for i := range d {
		d[i] = make([]netsim.Time, n)
		for j := range d[i] {
			if i == j {
				continue
			}
			if m[i][j] != m[j][i] {
				return nil, fmt.Errorf("latency (%d,%d) = %v s differs from (%d,%d) = %v s: latencies must be symmetric", i+1, j+1, m[i][j], j+1, i+1, m[j][i])
			}
			d[i][j] = netsim.FromSeconds(m[i][j])
		}
	}
	return d, nil
}

// PooledN1Quantiles returns the given quantiles (0-1) of the pooled N1
// distribution in Mbps, for documentation and tests.
func PooledN1Quantiles(qs ...float64) ([]float64, error) {
	t, err := loadTables()
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(qs))
	for k, q := range qs {
		target := int(math.Ceil(q * float64(t.pooled.total)))
		target = max(target, 1)
		i, _ := slices.BinarySearch(t.pooled.cum, target)
		out[k] = t.pooled.vals[min(i, len(t.pooled.vals)-1)]
	}
	return out, nil
}
