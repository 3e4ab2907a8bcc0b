package training

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"syncsim/netsim"
)

func TestBandwidths(t *testing.T) {
	for _, lambda := range []float64{0.05, 0.2, 1} {
		b, err := Bandwidths(netsim.Stream(11, "training/bandwidth"), 5000, lambda)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := 20*lambda, 20.0
		sum := 0.0
		for i, x := range b {
			if x < lo-5e-4 || x > hi+5e-4 {
				t.Fatalf("lambda %v: b[%d] = %v outside [%v, %v]", lambda, i, x, lo, hi)
			}
			if r := math.Round(x * 1000); math.Abs(x*1000-r) > 1e-6 {
				t.Fatalf("b[%d] = %v is not rounded to 3 decimals", i, x)
			}
			sum += x
		}
		if m, want := sum/float64(len(b)), (lo+hi)/2; math.Abs(m-want) > 0.02*want {
			t.Errorf("lambda %v: mean %v, want %v within 2%%", lambda, m, want)
		}
	}
	a, _ := Bandwidths(netsim.Stream(11, "x"), 10, 0.05)
	c, _ := Bandwidths(netsim.Stream(11, "x"), 10, 0.05)
	for i := range a {
		if a[i] != c[i] {
			t.Fatal("same stream, different bandwidths")
		}
	}
	if _, err := Bandwidths(netsim.Stream(1, "x"), 0, 0.05); err == nil {
		t.Error("n = 0: want an error")
	}
	if _, err := Bandwidths(netsim.Stream(1, "x"), 3, 0); err == nil {
		t.Error("lambda = 0: want an error")
	}
	if got := GbpsToRate(1.234); got != 1234*netsim.Mbps {
		t.Errorf("GbpsToRate(1.234) = %v", got)
	}
}

func TestModelSize(t *testing.T) {
	cases := []struct {
		name string
		mb   int64
	}{{"resnet50", 98}, {"AlexNet", 233}, {"vgg11", 491}, {"vgg19", 548}}
	for _, c := range cases {
		s, err := ModelSize(c.name)
		if err != nil || s != netsim.Bytes(c.mb)*netsim.Megabyte {
			t.Errorf("ModelSize(%s) = %v, %v; want %d MB", c.name, s, err, c.mb)
		}
	}
	for _, bad := range []string{"custom", "gpt"} {
		if _, err := ModelSize(bad); err == nil {
			t.Errorf("ModelSize(%s): want an error", bad)
		}
	}
	m, err := CustomModel(500, CNN())
	if err != nil || m.Size != 500*netsim.Megabyte {
		t.Errorf("CustomModel(500) = %v, %v", m.Size, err)
	}
	if _, err := CustomModel(-1, CNN()); err == nil {
		t.Error("negative custom size: want an error")
	}
	if _, err := NamedModel("vgg19", nil); err == nil {
		t.Error("nil compute: want an error")
	}
}

// TestBWProcess: every model keeps every b_i inside the law's support and
// on its 1 Mbps grid; epoch 0 is exactly the static draw of Bandwidths;
// the same seed gives the same process whatever order epochs are asked
// in; redraw and walk keep the law's mean (a reflected symmetric walk
// leaves the uniform law invariant); the walk moves each u by at most its
// step per period; redraw and walk change values, static never does.
func TestBWProcess(t *testing.T) {
	const n, epochs = 200, 200
	for _, tc := range []struct {
		model  BWModel
		lambda float64
		step   float64
	}{
		{BWStatic, 0.05, 0}, {BWRedraw, 0.05, 0}, {BWRedraw, 0.2, 0}, {BWWalk, 0.05, 0.1}, {BWWalk, 0.1, 1},
	} {
		t.Run(fmt.Sprintf("%v/lambda=%v/step=%v", tc.model, tc.lambda, tc.step), func(t *testing.T) {
			cfg := BWProcessConfig{Law: BandwidthLaw{Lambda: tc.lambda}, Model: tc.model, Period: 5, Step: tc.step}
			p, err := NewBWProcess(netsim.Stream(7, "training/bandwidth"), n, cfg)
			if err != nil {
				t.Fatal(err)
			}
			static, _ := Bandwidths(netsim.Stream(7, "training/bandwidth"), n, tc.lambda)
			if !reflect.DeepEqual(p.Epoch(0), static) {
				t.Fatal("epoch 0 differs from the static draw")
			}
			// The same seed, asked for the last epoch first.
			q, _ := NewBWProcess(netsim.Stream(7, "training/bandwidth"), n, cfg)
			last := append([]float64(nil), q.Epoch(epochs-1)...)
			lo, hi := cfg.Law.Support()
			sum, changed := 0.0, 0
			for e := range epochs {
				b := p.Epoch(e)
				for i, x := range b {
					if x < lo || x > hi || math.Abs(x*1000-math.Round(x*1000)) > 1e-6 {
						t.Fatalf("epoch %d: b[%d] = %v outside [%v, %v] or off the grid", e, i, x, lo, hi)
					}
					sum += x
					if e > 0 {
						prev := p.Epoch(e - 1)[i]
						if x != prev {
							changed++
						}
						if tc.model == BWWalk && math.Abs(x-prev) > tc.step*(hi-lo)+2e-3 {
							t.Fatalf("epoch %d: walk moved b[%d] by %v, more than its step", e, i, x-prev)
						}
					}
				}
			}
			if !reflect.DeepEqual(p.Epoch(epochs-1), last) {
				t.Error("the same seed gave a different process when epochs were asked in another order")
			}
			if tc.model == BWStatic {
				if changed != 0 {
					t.Errorf("static process changed %d values", changed)
				}
				return
			}
			if changed < n*(epochs-1)*9/10 {
				t.Errorf("%v changed only %d of %d values", tc.model, changed, n*(epochs-1))
			}
			mean := sum / float64(n*epochs)
			if want := cfg.Law.Mean(); math.Abs(mean-want) > 0.02*want {
				t.Errorf("mean %v, want the law's %v within 2%%", mean, want)
			}
		})
	}
}

func TestBWProcessErrors(t *testing.T) {
	law := BandwidthLaw{Lambda: 0.05}
	for _, cfg := range []BWProcessConfig{
		{Law: law, Model: BWRedraw},
		{Law: law, Model: BWWalk, Period: 1},
		{Law: law, Model: BWWalk, Period: 1, Step: 1.5},
		{Law: BandwidthLaw{Lambda: 0}, Model: BWStatic},
		{Law: law, Model: BWModel(7), Period: 1},
	} {
		if _, err := NewBWProcess(netsim.Stream(1, "x"), 3, cfg); err == nil {
			t.Errorf("%+v: want an error", cfg)
		}
	}
	if _, err := ParseBWModel("bursty"); err == nil {
		t.Error("ParseBWModel(bursty): want an error")
	}
	for i, name := range BWModelNames {
		if m, err := ParseBWModel(name); err != nil || m != BWModel(i) || m.String() != name {
			t.Errorf("ParseBWModel(%s) = %v, %v", name, m, err)
		}
	}
}
