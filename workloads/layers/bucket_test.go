package layers

import (
	"testing"

	"syncsim/netsim"
)

func mib(xs ...float64) Model {
	m := Model{Name: "m"}
	for _, x := range xs {
		m.Layers = append(m.Layers, Layer{Bytes: netsim.Bytes(x * float64(netsim.MiB)), Forward: ms, Backward: 2 * ms})
	}
	return m
}

// Buckets by hand, with DDP's caps (1 MiB first, 25 MiB after), filled
// from the last layer backwards.
func TestBucketsByHand(t *testing.T) {
	for _, tc := range []struct {
		name   string
		m      Model
		b      Bucketing
		ranges [][2]int // input side first
	}{
		// backward: 0.75 (< 1), +0.5 = 1.25 >= 1 closes {3,4}; 10, 20,
		// 30 >= 25 closes {0,1,2}.
		{"ddp", mib(10, 10, 10, 0.5, 0.75), DDP, [][2]int{{0, 3}, {3, 5}}},
		// a layer larger than the cap is a bucket of its own; 2 >= 1
		// closes the first bucket at once.
		{"big layer", mib(30, 2, 2), DDP, [][2]int{{0, 2}, {2, 3}}},
		{"big layer 2", mib(2, 30, 2), DDP, [][2]int{{0, 1}, {1, 2}, {2, 3}}},
		// no fusion: a bucket per layer; a layer without parameters joins
		// the next layer backprop reaches (layer 2 joins layer 1), and at
		// the input end the last bucket (layer 0).
		{"per layer", mib(0, 1, 0, 2, 3), Bucketing{}, [][2]int{{0, 3}, {3, 4}, {4, 5}}},
		{"one cap", mib(1, 1, 1, 1), Bucketing{CapMB: 2}, [][2]int{{0, 2}, {2, 4}}},
		{"everything", mib(1, 1, 1, 1), Bucketing{CapMB: 1000, FirstCapMB: 1000}, [][2]int{{0, 4}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bs, err := Buckets(tc.m, tc.b)
			if err != nil {
				t.Fatal(err)
			}
			if len(bs) != len(tc.ranges) {
				t.Fatalf("buckets %+v, want ranges %v", bs, tc.ranges)
			}
			for i, b := range bs {
				if b.Lo != tc.ranges[i][0] || b.Hi != tc.ranges[i][1] {
					t.Errorf("bucket %d = [%d,%d), want %v", i, b.Lo, b.Hi, tc.ranges[i])
				}
			}
		})
	}
}

// Conservation: every layer is in exactly one bucket, in order, and every
// byte and every millisecond of compute of the model is in the buckets
// once, for every built-in table and several caps.
func TestBucketsConserve(t *testing.T) {
	for _, name := range Names {
		m, _ := Builtin(name)
		for _, b := range []Bucketing{DDP, {}, {CapMB: 5}, {CapMB: 1e6}} {
			bs, err := Buckets(m, b)
			if err != nil {
				t.Fatal(err)
			}
			next := 0
			var bytes netsim.Bytes
			var f, bw netsim.Time
			for _, x := range bs {
				if x.Lo != next || x.Hi <= x.Lo {
					t.Fatalf("%s %+v: bucket [%d,%d) after %d", name, b, x.Lo, x.Hi, next)
				}
				next = x.Hi
				bytes += x.Bytes
				f += x.Forward
				bw += x.Backward
			}
			if next != len(m.Layers) || bytes != m.Bytes() || f != m.Forward() || bw != m.Backward() {
				t.Errorf("%s %+v: buckets cover %d layers, %d bytes, %v+%v; model %d, %d, %v+%v",
					name, b, next, bytes, f, bw, len(m.Layers), m.Bytes(), m.Forward(), m.Backward())
			}
		}
	}
	if _, err := Buckets(Model{}, DDP); err == nil {
		t.Error("a model without layers was bucketed")
	}
}

// WithCompute keeps each layer's share and hits the totals exactly.
func TestWithCompute(t *testing.T) {
	m, _ := Builtin("vgg19")
	s := m.WithCompute(100*ms, 0.6)
	if s.Compute() != 100*ms || s.Backward() != 60*ms {
		t.Fatalf("compute %v, backward %v", s.Compute(), s.Backward())
	}
	for i := range m.Layers {
		want := float64(m.Layers[i].Forward) / float64(m.Forward()) * float64(40*ms)
		if d := float64(s.Layers[i].Forward) - want; d > 1 || d < -1 {
			t.Errorf("layer %d forward %v, want %v", i, s.Layers[i].Forward, want)
		}
	}
	k := m.WithCompute(2*m.Compute(), -1)
	if k.Forward() != 2*m.Forward() || k.Backward() != 2*m.Backward() {
		t.Errorf("twice as slow: %v + %v, want %v + %v", k.Forward(), k.Backward(), 2*m.Forward(), 2*m.Backward())
	}
	z := Model{Layers: []Layer{{Bytes: 1}, {Bytes: 3}}}.WithCompute(40*ms, 0.5)
	if z.Layers[0].Forward != 5*ms || z.Layers[1].Backward != 15*ms {
		t.Errorf("a model without compute split by bytes: %+v", z.Layers)
	}
}

// WithBytes gives a model of another size the same shape, to the byte.
func TestWithBytes(t *testing.T) {
	m, _ := Builtin("resnet50")
	s := m.WithBytes(2 * netsim.Megabyte)
	if s.Bytes() != 2*netsim.Megabyte || s.Compute() != m.Compute() {
		t.Fatalf("%d bytes, compute %v", s.Bytes(), s.Compute())
	}
	for i := range m.Layers {
		want := float64(m.Layers[i].Bytes) / float64(m.Bytes()) * 2e6
		if d := float64(s.Layers[i].Bytes) - want; d > 1 || d < -1 {
			t.Errorf("layer %d: %d bytes, want %.1f", i, s.Layers[i].Bytes, want)
		}
	}
}
