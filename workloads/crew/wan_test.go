package crew

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"syncsim/netsim"
)

// TestN1Distribution: the pooled draws follow the WANify readings
// (data/ATTRIBUTION.md: min 3, median 53, mean 58.6, max 245 Mbit/s), and
// regional draws stay within each region pair's readings.
func TestN1Distribution(t *testing.T) {
	q, err := PooledN1Quantiles(0, 0.5, 1)
	if err != nil {
		t.Fatal(err)
	}
	if q[0] != 3 || q[1] != 53 || q[2] != 245 {
		t.Errorf("pooled min/median/max %v, want 3/53/245", q)
	}
	r := rand.New(rand.NewPCG(1, 2))
	reg := PlaceRegions(r, 60)
	bw, err := N1(r, reg, N1Pooled)
	if err != nil {
		t.Fatal(err)
	}
	sum, cnt := 0.0, 0
	for i := range bw {
		for j := range bw[i] {
			if i == j {
				continue
			}
			v := bw[i][j] / 1e6
			if v < 3 || v > 245 || v != math.Trunc(v) {
				t.Fatalf("b_%d%d = %v Mbit/s outside the readings", i, j, v)
			}
			sum += v
			cnt++
		}
	}
	if mean := sum / float64(cnt); math.Abs(mean-58.6) > 2 {
		t.Errorf("mean of %d draws %.1f Mbit/s, readings' mean 58.6", cnt, mean)
	}
	tab, _ := loadTables()
	rb, err := N1(r, reg, N1Regional)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rb {
		for j := range rb[i] {
			if i == j || reg[i] == reg[j] {
				continue
			}
			d := tab.perPair[[2]int{reg[i], reg[j]}]
			found := false
			for _, v := range d.vals {
				found = found || v*1e6 == rb[i][j]
			}
			if !found {
				t.Fatalf("regional b_%d%d = %v not among the readings of %s -> %s", i, j, rb[i][j], Regions[reg[i]], Regions[reg[j]])
			}
		}
	}
}

// TestN2: b_ij = k x 25 Mbit/s with k in [1, 10], mean about 5 u.
func TestN2(t *testing.T) {
	bw := N2(rand.New(rand.NewPCG(3, 4)), 60)
	sum := 0.0
	for i := range bw {
		for j := range bw[i] {
			if i == j {
				continue
			}
			k := bw[i][j] / N2Unit
			if k < 1 || k > 10 || k != math.Trunc(k) {
				t.Fatalf("b_%d%d = %v: k = %v", i, j, bw[i][j], k)
			}
			sum += k
		}
	}
	if mean := sum / (60 * 59); math.Abs(mean-5) > 0.1 {
		t.Errorf("mean k %.3f, want about 5", mean)
	}
}

// TestAWSLatency: symmetric, half the mean RTT of the two directions
// (ap-northeast-1 <-> ap-southeast-1: 71.99 and 77.186 ms), 1 ms within a
// region.
func TestAWSLatency(t *testing.T) {
	ne, se := regionIndex("ap-northeast-1"), regionIndex("ap-southeast-1")
	d, err := AWSLatency([]int{ne, se, ne})
	if err != nil {
		t.Fatal(err)
	}
	if want := netsim.FromMillis((71.99 + 77.186) / 4); d[0][1] != want || d[1][0] != want {
		t.Errorf("latency %v / %v, want %v", d[0][1], d[1][0], want)
	}
	if d[0][2] != netsim.Millisecond {
		t.Errorf("intra-region latency %v, want 1ms", d[0][2])
	}
}

func TestReadMatrix(t *testing.T) {
	good := "# Mbps\n-, 10, 20\n30 ,0, 40\n\n50,60,x\n"
	m, err := ReadMatrix(strings.NewReader(good), 1e6, false)
	if err != nil {
		t.Fatal(err)
	}
	if m.N() != 3 || m[0][1] != 10e6 || m[2][1] != 60e6 || m.Validate("m") != nil {
		t.Errorf("read %v", m)
	}
	bad := map[string]string{
		"not square":     "0,1\n1,0,2\n",
		"ragged":         "0,1,2\n1,0\n2,3,0\n",
		"negative":       "0,-1\n1,0\n",
		"zero":           "0,0\n1,0\n",
		"not a number":   "0,abc\n1,0\n",
		"empty":          "# nothing\n",
		"one worker":     "5\n",
		"infinite":       "0,Inf\n1,0\n",
		"nan":            "0,NaN\n1,0\n",
		"missing column": "0,1,\n1,0,1\n1,1,0\n",
	}
	for name, text := range bad {
		t.Run(name, func(t *testing.T) {
			_, err := ReadMatrix(strings.NewReader(text), 1e6, false)
			if err == nil {
				t.Fatalf("accepted %q", text)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
		})
	}
	if _, err := ReadMatrix(strings.NewReader("0,0\n1,0\n"), 1e-3, true); err != nil {
		t.Errorf("zero latency refused: %v", err)
	}
	if _, err := LatencyFromMatrix(Matrix{{0, 1}, {2, 0}}); err == nil {
		t.Error("asymmetric latency accepted")
	}
}

func TestNoisy(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	bw := N2(r, 20)
	for _, lambda := range []float64{0, 0.1, 0.5} {
		est, err := bw.Noisy(r, lambda)
		if err != nil {
			t.Fatal(err)
		}
		moved := false
		for i := range bw {
			for j := range bw[i] {
				if i == j {
					continue
				}
				x := est[i][j]/bw[i][j] - 1
				if math.Abs(x) > lambda+1e-12 {
					t.Fatalf("lambda %v: x = %v", lambda, x)
				}
				moved = moved || x != 0
			}
		}
		if moved != (lambda > 0) {
			t.Errorf("lambda %v: estimate moved %v", lambda, moved)
		}
	}
	for _, bad := range []float64{-0.1, 1, math.NaN()} {
		if _, err := bw.Noisy(r, bad); err == nil {
			t.Errorf("lambda %v accepted", bad)
		}
	}
}

// TestBadOptions: p > n and other bad options are refused with an error.
func TestBadOptions(t *testing.T) {
	nt := testNet(t, 1, 4, 0, Flow, FL)
	cases := map[string]func(*Config){
		"p > n":           func(c *Config) { c.P = 5 },
		"p = 0":           func(c *Config) { c.P = 0 },
		"no chunks":       func(c *Config) { c.Chunks = 0 },
		"chunks > bytes":  func(c *Config) { c.Model = 10; c.Chunks = 11 },
		"baseline scheme": func(c *Config) { c.Scheme = BLINK },
		"bad fault":       func(c *Config) { c.Faults = []Fault{{Kind: FaultLink, A: 1, B: 1}} },
		"zero scale":      func(c *Config) { c.ComputeScale = 0 },
	}
	for name, mod := range cases {
		t.Run(name, func(t *testing.T) {
			cfg := testConfig(CREW, 2)
			mod(&cfg)
			if _, err := NewCluster(nt, cfg); err == nil {
				t.Error("accepted")
			}
		})
	}
	pk := testNet(t, 1, 4, 0, Packet, FS)
	for name, mod := range map[string]func(*Config){
		"packet non-blocking": func(c *Config) { c.Scatter = NonBlocking },
		"packet outages":      func(c *Config) { c.Faults = []Fault{{Kind: FaultLink, A: 0, B: 1}} },
	} {
		t.Run(name, func(t *testing.T) {
			cfg := testConfig(CREW, 2)
			mod(&cfg)
			if _, err := NewCluster(pk, cfg); err == nil {
				t.Error("accepted")
			}
		})
	}
	if _, err := RunSingle(nt, testConfig(CREW, 2).Options, nil, []int{0, 0}, nil); err == nil {
		t.Error("repeated worker in P accepted")
	}
}

func TestParseFaults(t *testing.T) {
	fs, err := ParseFaults(" link:0-3@1.5+2; node:2@4 ;ctrl@10+0.5", 4)
	if err != nil {
		t.Fatal(err)
	}
	want := []Fault{
		{FaultLink, 0, 3, netsim.FromSeconds(1.5), 2 * netsim.Second},
		{FaultNode, 2, 0, 4 * netsim.Second, 0},
		{FaultController, 0, 0, 10 * netsim.Second, netsim.FromSeconds(0.5)},
	}
	if len(fs) != len(want) {
		t.Fatalf("%v", fs)
	}
	for i := range want {
		if fs[i] != want[i] {
			t.Errorf("fault %d = %+v, want %+v", i, fs[i], want[i])
		}
	}
	for _, bad := range []string{"link:0-4@1", "link:1-1@1", "node:x@1", "link:0@1", "disk:1@1", "ctrl:1@1", "node:1", "node:1@-2", "node:1@2+0", "link:0-1@a"} {
		if _, err := ParseFaults(bad, 4); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	r := rand.New(rand.NewPCG(7, 8))
	lf, err := RandomLinkFaults(r, 5, 10, 0, netsim.Second, 0)
	if err != nil || len(lf) != 10 {
		t.Fatalf("%v %v", lf, err)
	}
	seen := map[[2]int]bool{}
	for _, f := range lf {
		k := [2]int{f.A, f.B}
		if seen[k] || f.A >= f.B || f.At < 0 || f.At >= netsim.Second {
			t.Errorf("fault %+v", f)
		}
		seen[k] = true
	}
	if _, err := RandomLinkFaults(r, 5, 11, 0, netsim.Second, 0); err == nil {
		t.Error("11 faulty links among 10 connections accepted")
	}
}
