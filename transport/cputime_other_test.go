//go:build !unix

package transport

// cpuSeconds is unavailable here; benchmarks then report 0 CPU seconds.
func cpuSeconds() float64 { return 0 }
