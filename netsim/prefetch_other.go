//go:build !amd64

package netsim

import "unsafe"

// prefetchPacket does nothing where no prefetch instruction is wired up
// (prefetch_amd64.s); results do not depend on it.
func prefetchPacket(unsafe.Pointer) {}
