//go:build !linux

package netsim

import "unsafe"

// adviseHuge does nothing where transparent huge pages cannot be asked for.
func adviseHuge(unsafe.Pointer, uintptr) {}
