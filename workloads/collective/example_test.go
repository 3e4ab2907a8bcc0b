package collective_test

import (
	"fmt"

	"syncsim/netsim"
	"syncsim/netsim/fluid"
	"syncsim/workloads/collective"
)

type hub struct{ netsim.NodeBase }

func (*hub) Receive(*netsim.Packet, *netsim.Link) {}

// A ring all-reduce of 100 MB among four hosts on a 10 Gbps star, run on
// the flow-level engine and compared with Eq. 2. Each step pays a 10 us
// start latency and two 1 us cables, so alpha = 12 us.
func ExampleRingAllReduce() {
	sim := netsim.New(1)
	net := netsim.NewNetwork(sim)
	sw := net.AddNode(&hub{}, netsim.KindSwitch, "sw")
	var hosts []netsim.NodeID
	for i := 0; i < 4; i++ {
		h := net.AddHost(fmt.Sprint("h", i)).ID()
		net.Connect(h, sw, 10*netsim.Gbps, netsim.Microsecond, nil, nil)
		hosts = append(hosts, h)
	}
	eng := fluid.New(net, fluid.MaxMin)
	opts := netsim.BulkOpts{StartLatency: 10 * netsim.Microsecond}
	err := collective.RingAllReduce(sim, eng, hosts, 100*netsim.Megabyte, opts, func() {
		fmt.Println("simulated:", sim.Now())
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	sim.Run(netsim.Never)
	fmt.Println("Eq. 2:    ", collective.RingAllReduceTime(4, 100*netsim.Megabyte, 10*netsim.Gbps, 12*netsim.Microsecond))
	// Output:
	// simulated: 120.072ms
	// Eq. 2:     120.072ms
}
