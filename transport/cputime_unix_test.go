//go:build unix

package transport

import "syscall"

// cpuSeconds is the process's user plus system CPU time, so benchmarks can
// report CPU cost on a shared machine where wall time is inflated by
// other load.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}
