package collective

import (
	"fmt"

	"syncsim/netsim"
)

// PSPushPull is one parameter-server round: every worker pushes size bytes
// (its gradient) to ps at once; when the last push has arrived the server
// sends size bytes (the updated model) back to every worker at once; done
// is called when the last worker has its copy. The pushes converge on the
// server's downlink (an incast of n*size bytes) and the pulls share its
// uplink. ps must not be one of the workers.
func PSPushPull(sim *netsim.Sim, bulk netsim.Bulk, workers []netsim.NodeID, ps netsim.NodeID, size netsim.Bytes, opts netsim.BulkOpts, done func()) error {
	if err := checkHosts("parameter-server push/pull", workers); err != nil {
		return err
	}
	if size < 0 {
		return fmt.Errorf("parameter-server push/pull: negative size %d", size)
	}
	for _, w := range workers {
		if w == ps {
			return fmt.Errorf("parameter-server push/pull: server %d is also a worker", ps)
		}
	}
	pushes, pulls := len(workers), len(workers)
	pullOne := func() {
		pulls--
		if pulls == 0 && done != nil {
			done()
		}
	}
	pushOne := func() {
		pushes--
		if pushes > 0 {
			return
		}
		for _, w := range workers {
			bulk.Send(ps, w, size, opts, pullOne)
		}
	}
	for _, w := range workers {
		bulk.Send(w, ps, size, opts, pushOne)
	}
	return nil
}
