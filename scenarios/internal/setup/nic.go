package setup

import (
	"fmt"

	"syncsim/experiments"
	"syncsim/topologies"
)

// NICParams are the host NIC parameters every packet-level experiment
// shares: the NIC's flow control and ECN marking at the NIC.
func NICParams() []experiments.Param {
	return []experiments.Param{
		experiments.EnumParam("nic", "backpressure", []string{"backpressure", "droptail"},
			"host NIC: backpressure (a host never drops its own packets: a packet its NIC queue has no room for waits "+
				"in its sender's backlog, as Linux's qdisc and TCP small queues and ns-3's traffic control do) or "+
				"droptail (the NIC queue drops what does not fit, the earlier model)"),
		experiments.IntParam("nic_ecn_k_pkts", 0, 0, 1<<20,
			"ECN marking threshold at the hosts' NICs, packets waiting in the transmit ring (0: no marking)").Means("0", "no marking"),
	}
}

// ApplyNIC sets fab's host NICs from NICParams' values.
func ApplyNIC(ps experiments.Params, fab *topologies.Fabric) error {
	switch v := ps.String("nic"); v {
	case "backpressure", "droptail":
		fab.SetNICBackpressure(v == "backpressure")
	default:
		return fmt.Errorf("unknown nic %q (allowed: backpressure, droptail)", v)
	}
	return fab.SetNICMarking(ps.Int("nic_ecn_k_pkts"))
}
