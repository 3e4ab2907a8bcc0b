package netsim

import (
	"syscall"
	"time"
	"unsafe"
)

// threadCPU is the CPU time the calling OS thread has used
// (CLOCK_THREAD_CPUTIME_ID): unlike the wall clock it does not count the
// time the thread waited for a core, so a profile taken on a busy
// machine measures the work, not the wait. Profiling workers lock their
// goroutines to their threads.
func threadCPU() time.Duration {
	var ts syscall.Timespec
	const clockThreadCPUTime = 3
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}

// threadCPUExact reports whether threadCPU measures thread CPU time (and
// not the wall clock).
const threadCPUExact = true
