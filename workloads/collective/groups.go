package collective

import (
	"fmt"

	"syncsim/netsim"
)

// GroupAllReduce all-reduces size bytes inside each of groups at once:
// group g runs a ring all-reduce (RingAllReduce) over groups[g] in the
// given order, independently of the others, as DS-Sync synchronises its
// non-overlapping groups in parallel (Sec. III-A, step 4). groupDone(g),
// if not nil, is called when group g has finished; done, if not nil, when
// every group has. A group of one host finishes through a zero-delay
// event. A host may appear in only one group.
func GroupAllReduce(sim *netsim.Sim, bulk netsim.Bulk, groups [][]netsim.NodeID, size netsim.Bytes, opts netsim.BulkOpts, groupDone func(g int), done func()) error {
	var all []netsim.NodeID
	for g, hs := range groups {
		if len(hs) == 0 {
			return fmt.Errorf("group all-reduce: group %d is empty", g)
		}
		all = append(all, hs...)
	}
	if err := checkHosts("group all-reduce", all); err != nil {
		return err
	}
	if size < 0 {
		return fmt.Errorf("group all-reduce: negative size %d", size)
	}
	left := len(groups)
	for g, hs := range groups {
		startRing(sim, bulk, hs, EqualChunks(size, len(hs)), opts, func() {
			if groupDone != nil {
				groupDone(g)
			}
			left--
			if left == 0 && done != nil {
				done()
			}
		})
	}
	return nil
}
