package topologies

import (
	"runtime"
	"testing"

	"syncsim/netsim"
)

// heapPerHost builds a leaf-spine with the given leaves (16 hosts each,
// 8 spines, routes included) and returns the live heap it holds per host.
func heapPerHost(t *testing.T, leaves int) float64 {
	t.Helper()
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	net := netsim.NewNetwork(netsim.New(1))
	c := DefaultLeafSpine()
	c.Leaves = leaves
	f, err := LeafSpine(net, c)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	per := float64(m1.HeapAlloc-m0.HeapAlloc) / float64(len(f.Hosts))
	runtime.KeepAlive(net)
	return per
}

// TestMemoryLinearInHosts checks that a leaf-spine's memory, routes
// included, grows linearly with its hosts: from 128 to 4096 hosts the live
// heap per host may not grow by more than a quarter. (Routes are kept per
// destination switch, with hosts reached through their leaf; per-host
// destination columns made it grow 2.8x over this range.) Measured: about
// 2.5 KB per host at every size.
func TestMemoryLinearInHosts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 4096-host fabric")
	}
	small, large := heapPerHost(t, 8), heapPerHost(t, 256)
	t.Logf("heap per host: %.0f B at 128 hosts, %.0f B at 4096 hosts", small, large)
	if large > 1.25*small {
		t.Errorf("heap per host grew from %.0f B to %.0f B between 128 and 4096 hosts", small, large)
	}
}
