//go:build !amd64 || purego

package netsim

import "unsafe"

// prefetchPacket does nothing where no prefetch instruction is wired up
// (prefetch_amd64.s), or with the purego build tag; results do not
// depend on it.
func prefetchPacket(unsafe.Pointer) {}
