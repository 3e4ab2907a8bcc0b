package training

import (
	"math"
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
