package learn

import (
	"math/rand/v2"
	"testing"
)

// streams are seeded test streams by name.
func streams(seed uint64) Streams {
	return func(name string) *rand.Rand {
		var h uint64 = 14695981039346656037
		for i := 0; i < len(name); i++ {
			h = (h ^ uint64(name[i])) * 1099511628211
		}
		return rand.New(rand.NewPCG(seed, h))
	}
}

// smallSplit is a synthetic mixture split for fast tests.
func smallSplit(t *testing.T, classes, dim, n int, sep float64) *Split {
	t.Helper()
	d, err := Synthetic(SyntheticConfig{Classes: classes, Dim: dim, Samples: n, Separation: sep}, rand.New(rand.NewPCG(7, 7)))
	if err != nil {
		t.Fatal(err)
	}
	s, err := RandomSplit(d, 0.2, rand.New(rand.NewPCG(8, 8)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// splitFor is smallSplit shaped for model: 12 x 12 "images" (144
// features) for the CNN, dim features otherwise.
func splitFor(t *testing.T, model string, classes, dim, n int, sep float64) *Split {
	t.Helper()
	if model == ModelCNN {
		dim = CNNMinSide * CNNMinSide
	}
	return smallSplit(t, classes, dim, n, sep)
}

func newFleet(t *testing.T, cfg Config, s *Split, seed uint64) *Fleet {
	t.Helper()
	f, err := NewFleet(cfg, s, streams(seed))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func baseConfig(model string, workers int) Config {
	return Config{Model: model, Hidden: 16, LR: 0.1, Batch: 8, Workers: workers, Partition: PartitionIID,
		TargetAcc: 0.9, EvalEvery: 5, EvalSamples: 0, Record: true}
}

func maxAbsDiff(a, b []float64) float64 {
	var m float64
	for i := range a {
		d := a[i] - b[i]
		if d < 0 {
			d = -d
		}
		m = max(m, d)
	}
	return m
}
