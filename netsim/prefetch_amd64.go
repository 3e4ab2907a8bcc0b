//go:build !purego

package netsim

import "unsafe"

// prefetchPacket asks the CPU to bring the lines of the packet at p into
// its caches, without waiting for them (prefetch_amd64.s). Go has no
// portable prefetch; a load in its place waits for the line before the
// next instructions can retire, which hid a quarter of the miss it was
// meant to hide (docs/performance-history.md, "The next body loaded
// early").
//
//go:noescape
func prefetchPacket(p unsafe.Pointer)
