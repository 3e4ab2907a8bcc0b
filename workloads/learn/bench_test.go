package learn

import "testing"

// benchFleet is one MNIST worker with the experiments' defaults.
func benchFleet(b *testing.B, model string) *Fleet {
	b.Helper()
	s, err := MNISTSplit()
	if err != nil {
		b.Fatal(err)
	}
	f, err := NewFleet(Config{Model: model, Hidden: 128, LR: 0.1, Batch: 32, Workers: 2, Partition: PartitionIID,
		TargetAcc: 0.9, EvalEvery: 1e9, EvalSamples: 2000}, s, streams(1))
	if err != nil {
		b.Fatal(err)
	}
	return f
}

// BenchmarkStep is one local SGD step (batch 32, MNIST) of each model.
func BenchmarkStep(b *testing.B) {
	for _, m := range ModelNames {
		b.Run(m, func(b *testing.B) {
			f := benchFleet(b, m)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				f.Step(0, 0)
			}
		})
	}
}

// BenchmarkEval is one evaluation of the learnt model on 2000 test rows
// (eval_samples' default), the workers' average and consensus included.
func BenchmarkEval(b *testing.B) {
	for _, m := range ModelNames {
		b.Run(m, func(b *testing.B) {
			f := benchFleet(b, m)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				f.track.eval(0, 0)
			}
		})
	}
}

// BenchmarkAverage is one average of two MLP models.
func BenchmarkAverage(b *testing.B) {
	f := benchFleet(b, ModelMLP)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		f.Average(0, []int{0, 1}, nil, 0)
	}
}
