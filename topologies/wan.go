package topologies

import (
	"fmt"
	"strconv"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

// WAN builds a full mesh of n = len(rates) sites (CREW, Sec. II-A and V-A: workers in
// different clouds with pairwise bandwidth b_ij != b_ji). Site i is one host
// "w<i>" behind its own site switch "site<i>"; sites i and j are joined by
// one cable carrying rates[i][j] from i to j and rates[j][i] back, with
// propagation delay delays[i][j], which must equal delays[j][i]. Diagonal
// entries are ignored.
//
// The access cable between a host and its site switch is not meant to be a
// bottleneck: it carries the sum of the site's outgoing WAN rates upward and
// the sum of its incoming rates downward, with zero delay, so each pair's
// WAN link alone limits that pair and the path latency is delays[i][j].
// Group i is site i (Edge[i] = its switch); there are no Core switches.
func WAN(net *netsim.Network, rates [][]netsim.Rate, delays [][]netsim.Time, q switchmodel.QueueConfig) (*Fabric, error) {
	return WANWith(net, rates, delays, q, WANOptions{})
}

// WANOptions adjust WANWith.
type WANOptions struct {
	// AccessHeadroom (>= 1; 0 means 1) rates the access cables at this
	// multiple of the site's WAN total. With 1 a host that sends (or
	// receives) on every WAN link at once fills its access cable exactly,
	// so at packet level the queue can build in the host's NIC, which
	// does not mark ECN, rather than at the site switch's WAN port; above
	// 1 (2, say) every queue stays at a WAN port, as when a site's LAN is
	// much faster than its WAN links.
	AccessHeadroom float64
	// PairQueue, if set, gives the queue configuration of the WAN port
	// from site i towards site j (for example a DCTCP threshold fitted to
	// that pair's rate and round trip); the other ports use the q passed
	// to WANWith.
	PairQueue func(i, j int) switchmodel.QueueConfig
}

// WANWith is WAN with options.
func WANWith(net *netsim.Network, rates [][]netsim.Rate, delays [][]netsim.Time, q switchmodel.QueueConfig, o WANOptions) (*Fabric, error) {
	const kind = "wan"
	headroom := o.AccessHeadroom
	if headroom == 0 {
		headroom = 1
	}
	if !(headroom >= 1 && headroom <= 1e6) {
		return nil, errorf(kind, "access headroom %v must lie in [1, 1e6]", headroom)
	}
	b, err := newBuilder(net, kind, q)
	if err != nil {
		return nil, err
	}
	n := len(rates)
	if err := checkCount(kind, "sites", n, 2); err != nil {
		return nil, err
	}
	if n > 1<<12 {
		return nil, errorf(kind, "%d sites exceed the full-mesh limit of %d", n, 1<<12)
	}
	if len(delays) != n {
		return nil, errorf(kind, "delay matrix has %d rows, want %d", len(delays), n)
	}
	up := make([]netsim.Rate, n)
	down := make([]netsim.Rate, n)
	for i := 0; i < n; i++ {
		if len(rates[i]) != n || len(delays[i]) != n {
			return nil, errorf(kind, "row %d has %d rates and %d delays, want %d", i, len(rates[i]), len(delays[i]), n)
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i == j {
				continue
			}
			pair := fmt.Sprintf("rate from site %d to site %d", i, j)
			if err := checkRate(kind, pair, rates[i][j]); err != nil {
				return nil, err
			}
			if err := checkDelay(kind, fmt.Sprintf("delay between sites %d and %d", i, j), delays[i][j]); err != nil {
				return nil, err
			}
			if delays[i][j] != delays[j][i] {
				return nil, errorf(kind, "delay %d->%d (%v) differs from %d->%d (%v); cables have one delay", i, j, delays[i][j], j, i, delays[j][i])
			}
			if up[i] > netsim.Rate(1<<62)-rates[i][j] || down[j] > netsim.Rate(1<<62)-rates[i][j] {
				return nil, errorf(kind, "site %d's total WAN rate overflows", i)
			}
			up[i] += rates[i][j]
			down[j] += rates[i][j]
		}
	}
	sites := make([]*switchmodel.Switch, n)
	for i := range sites {
		sites[i] = b.edge("site" + strconv.Itoa(i))
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if o.PairQueue == nil {
				b.connectAsym(sites[i].ID(), sites[j].ID(), rates[i][j], rates[j][i], delays[i][j])
				continue
			}
			qij, qji := o.PairQueue(i, j), o.PairQueue(j, i)
			for _, c := range []switchmodel.QueueConfig{qij, qji} {
				if c.Shared != nil {
					return nil, errorf(kind, "pair queues cannot draw from a shared buffer")
				}
				if err := c.Validate(); err != nil {
					return nil, errorf(kind, "queue between sites %d and %d: %v", i, j, err)
				}
			}
			a, z := sites[i].ID(), sites[j].ID()
			b.net.ConnectAsym(a, z, rates[i][j], rates[j][i], delays[i][j],
				switchmodel.NewNamedQueue(net.Sim, qij, "site"+strconv.Itoa(i)+"->site"+strconv.Itoa(j)),
				switchmodel.NewNamedQueue(net.Sim, qji, "site"+strconv.Itoa(j)+"->site"+strconv.Itoa(i)))
		}
	}
	scale := func(r netsim.Rate) netsim.Rate {
		if headroom == 1 {
			return r
		}
		if float64(r)*headroom >= float64(netsim.Rate(1)<<62) {
			return netsim.Rate(1) << 62
		}
		return netsim.Rate(float64(r) * headroom)
	}
	for i, s := range sites {
		h := b.host("w" + strconv.Itoa(i))
		b.connectAsym(h.ID(), s.ID(), scale(up[i]), scale(down[i]), 0)
		b.endGroup()
	}
	return b.finish(), nil
}
