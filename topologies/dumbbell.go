package topologies

import (
	"strconv"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

// Dumbbell builds two edge switches, "s1" (left) and "s2" (right), joined
// by paths parallel paths. Path i runs s1 - "p<i>" - s2 through its own
// middle switch, so the paths are distinct equal-cost routes and ECMP
// spreads flows over them. Left hosts "l0".. attach to s1 at hostRate,
// right hosts "r0".. to s2; every cable has the same propagation delay.
//
// This is the PA-ATP testbed (Sec. V-A: 8 servers on S1, 3 on S2, 4 x 40
// Gbps paths, aggregation on S2) and the Fig. 8 basic dumbbell (3 paths).
// Groups: 0 = left (Edge[0] = s1), 1 = right (Edge[1] = s2); Core[i] is
// path i's middle switch. Use FlowForPath to pin a flow to a path.
func Dumbbell(net *netsim.Network, leftHosts, rightHosts, paths int, hostRate, pathRate netsim.Rate, delay netsim.Time, q switchmodel.QueueConfig) (*Fabric, error) {
	const kind = "dumbbell"
	b, err := newBuilder(net, kind, q)
	if err != nil {
		return nil, err
	}
	for _, c := range []struct {
		what string
		n    int
	}{{"left hosts", leftHosts}, {"right hosts", rightHosts}, {"paths", paths}} {
		if err := checkCount(kind, c.what, c.n, 1); err != nil {
			return nil, err
		}
	}
	if err := checkRate(kind, "host rate", hostRate); err != nil {
		return nil, err
	}
	if err := checkRate(kind, "path rate", pathRate); err != nil {
		return nil, err
	}
	if err := checkDelay(kind, "delay", delay); err != nil {
		return nil, err
	}
	if err := b.checkTotal(leftHosts + rightHosts + paths + 2); err != nil {
		return nil, err
	}
	s1, s2 := b.edge("s1"), b.edge("s2")
	for i := 0; i < leftHosts; i++ {
		h := b.host("l" + strconv.Itoa(i))
		b.connect(h.ID(), s1.ID(), hostRate, delay)
	}
	b.endGroup()
	for i := 0; i < rightHosts; i++ {
		h := b.host("r" + strconv.Itoa(i))
		b.connect(h.ID(), s2.ID(), hostRate, delay)
	}
	b.endGroup()
	for i := 0; i < paths; i++ {
		m := b.core("p" + strconv.Itoa(i))
		b.connect(s1.ID(), m.ID(), pathRate, delay)
		b.connect(m.ID(), s2.ID(), pathRate, delay)
	}
	return b.finish(), nil
}
