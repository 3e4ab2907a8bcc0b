package collective

import (
	"fmt"

	"syncsim/netsim"
)

// AllToAll is a personalised all-to-all exchange: every host splits its
// size-byte buffer into n blocks (EqualChunks) and sends block j to host j
// (block i stays local), all at once. done is called when the last block
// has arrived. With one host it completes through a zero-delay event.
func AllToAll(sim *netsim.Sim, bulk netsim.Bulk, hosts []netsim.NodeID, size netsim.Bytes, opts netsim.BulkOpts, done func()) error {
	if err := checkHosts("all-to-all", hosts); err != nil {
		return err
	}
	if size < 0 {
		return fmt.Errorf("all-to-all: negative size %d", size)
	}
	n := len(hosts)
	if n == 1 {
		finishSoon(sim, done)
		return nil
	}
	blocks := EqualChunks(size, n)
	left := n * (n - 1)
	one := func() {
		left--
		if left == 0 && done != nil {
			done()
		}
	}
	for i, src := range hosts {
		for j, dst := range hosts {
			if i != j {
				bulk.Send(src, dst, blocks[j], opts, one)
			}
		}
	}
	return nil
}
