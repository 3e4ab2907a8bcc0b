package transport_test

import (
	"fmt"

	"syncsim/netsim"
	"syncsim/transport"
)

// A 10-segment DCTCP flow between two hosts on a 10 Gbps cable with 1 us of
// propagation delay fits in the initial window: it completes when the tenth
// 1500 B segment has been serialised (10 x 1.2 us) and has propagated.
func ExampleStack_Start() {
	sim := netsim.New(1)
	net := netsim.NewNetwork(sim)
	a, b := net.AddHost("a"), net.AddHost("b")
	net.Connect(a.ID(), b.ID(), 10*netsim.Gbps, netsim.Microsecond, nil, nil)
	net.BuildRoutes()

	st := transport.NewStack(net, transport.DefaultConfig())
	st.Start(a.ID(), b.ID(), transport.FlowOpts{Size: 14600}, func(f *transport.Flow) {
		fmt.Println("fct", f.FCT(), "delivered", f.Delivered())
	})
	sim.Run(netsim.Never)
	fmt.Println("active", st.Active(), "completed", st.Completed)
	// Output:
	// fct 13us delivered 14600
	// active 0 completed 1
}
