package topologies

import (
	"strconv"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

// Star puts hosts on one non-blocking switch "sw", each through its own
// cable of the given rate and propagation delay (the selective-reduce
// setting, and the simplest incast). Hosts are "h0".."h<n-1>", all in
// group 0.
func Star(net *netsim.Network, hosts int, rate netsim.Rate, delay netsim.Time, q switchmodel.QueueConfig) (*Fabric, error) {
	if err := checkCount("star", "hosts", hosts, 1); err != nil {
		return nil, err
	}
	rates := make([]netsim.Rate, hosts)
	for i := range rates {
		rates[i] = rate
	}
	return StarRates(net, rates, delay, q)
}

// StarRates is Star with each host's own edge rate rates[i] (the
// heterogeneous edge bandwidths b_i of selective reduce, Sec. II).
func StarRates(net *netsim.Network, rates []netsim.Rate, delay netsim.Time, q switchmodel.QueueConfig) (*Fabric, error) {
	const kind = "star"
	b, err := newBuilder(net, kind, q)
	if err != nil {
		return nil, err
	}
	if err := checkCount(kind, "hosts", len(rates), 1); err != nil {
		return nil, err
	}
	for i, r := range rates {
		if err := checkRate(kind, "rate of host "+strconv.Itoa(i), r); err != nil {
			return nil, err
		}
	}
	if err := checkDelay(kind, "delay", delay); err != nil {
		return nil, err
	}
	if err := b.checkTotal(len(rates) + 1); err != nil {
		return nil, err
	}
	sw := b.edge("sw")
	for i, r := range rates {
		h := b.host("h" + strconv.Itoa(i))
		b.connect(h.ID(), sw.ID(), r, delay)
	}
	b.endGroup()
	return b.finish(), nil
}
