package learn

import (
	"syscall"
	"testing"
	"time"
)

// benchFleet is MNIST workers with the experiments' defaults.
func benchFleet(b *testing.B, model string, workers int) *Fleet {
	b.Helper()
	s, err := MNISTSplit()
	if err != nil {
		b.Fatal(err)
	}
	f, err := NewFleet(Config{Model: model, Hidden: 128, LR: 0.1, Batch: 32, Workers: workers, Partition: PartitionIID,
		TargetAcc: 0.9, EvalEvery: 1e9, EvalSamples: 2000}, s, streams(1))
	if err != nil {
		b.Fatal(err)
	}
	return f
}

// processCPU is the CPU time the process has used (user and system, all
// threads).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// timeCPU runs fn b.N times after a reset and reports, beside the wall
// time, the process's CPU time per operation (cpu-ns/op): on a shared
// machine the wall time counts other people's work too.
func timeCPU(b *testing.B, fn func()) {
	b.ReportAllocs()
	b.ResetTimer()
	c0 := processCPU()
	for i := 0; i < b.N; i++ {
		fn()
	}
	b.ReportMetric(float64(processCPU()-c0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkStep is one local SGD step (batch 32, MNIST) of each model.
func BenchmarkStep(b *testing.B) {
	for _, m := range ModelNames {
		b.Run(m, func(b *testing.B) {
			f := benchFleet(b, m, 2)
			timeCPU(b, func() { f.Step(0, 0) })
		})
	}
}

// BenchmarkEval is one evaluation of the fleet on 2000 test rows
// (eval_samples' default): the workers' average, the consensus and every
// worker's own model, with 2 workers holding the same model (what BSP
// leaves: one worker evaluation) and with 8 holding different ones (one
// local step each: eight).
func BenchmarkEval(b *testing.B) {
	for _, m := range ModelNames {
		for _, c := range []struct {
			name     string
			workers  int
			distinct bool
		}{{"same-2", 2, false}, {"distinct-8", 8, true}} {
			b.Run(m+"/"+c.name, func(b *testing.B) {
				f := benchFleet(b, m, c.workers)
				if c.distinct {
					for w := range c.workers {
						f.Step(0, w)
					}
				}
				timeCPU(b, func() { f.track.eval(0, 0) })
			})
		}
	}
}

// BenchmarkAverage is one average of two MLP models.
func BenchmarkAverage(b *testing.B) {
	f := benchFleet(b, ModelMLP, 2)
	timeCPU(b, func() { f.Average(0, []int{0, 1}, nil, 0) })
}
