//go:build !linux

package netsim

import "time"

var cpuEpoch = time.Now()

// threadCPU falls back to the wall clock where thread CPU time is not
// read (see cputime_linux.go).
func threadCPU() time.Duration { return time.Since(cpuEpoch) }

// threadCPUExact reports whether threadCPU measures thread CPU time (and
// not the wall clock).
const threadCPUExact = false
