package topologies

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"syncsim/netsim"
)

// WriteFatTree writes the fat-tree FatTree builds from c as a topology
// file (see TopologyFile): hosts are nodes 0..H-1, then the edge,
// aggregation and core switches, each tier in FatTree's order, and the
// links in FatTree's wiring order, so FromFile on the file read back
// builds the same network node for node and port for port. Every link
// has error rate 0. It fails for a configuration FatTree refuses.
func WriteFatTree(w io.Writer, c FatTreeConfig) error {
	if err := CheckFatTreeK(c.K); err != nil {
		return err
	}
	if err := checkCount("fat-tree", "hosts per edge", c.HostsPerEdge, 1); err != nil {
		return err
	}
	for _, r := range []netsim.Rate{c.HostRate, c.FabricRate} {
		if err := checkRate("fat-tree", "rate", r); err != nil {
			return err
		}
	}
	if err := checkDelay("fat-tree", "delay", c.Delay); err != nil {
		return err
	}
	h := c.K / 2
	edges := c.K * h
	hosts := edges * c.HostsPerEdge
	if hosts > MaxNodes {
		return errorf("fat-tree", "%d hosts exceed the limit of %d nodes", hosts, MaxNodes)
	}
	edge0, agg0, core0 := hosts, hosts+edges, hosts+2*edges
	nodes := core0 + h*h
	links := hosts + edges*h + edges*h
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%d %d %d\n", nodes, nodes-hosts, links)
	for s := hosts; s < nodes; s++ {
		if s > hosts {
			bw.WriteByte(' ')
		}
		bw.WriteString(strconv.Itoa(s))
	}
	bw.WriteByte('\n')
	host, fabric, delay := ns3Rate(c.HostRate), ns3Rate(c.FabricRate), ns3Time(c.Delay)
	link := func(a, b int, rate string) {
		fmt.Fprintf(bw, "%d %d %s %s 0\n", a, b, rate, delay)
	}
	for i := 0; i < hosts; i++ {
		link(i, edge0+i/c.HostsPerEdge, host)
	}
	for p := 0; p < c.K; p++ {
		for e := p * h; e < (p+1)*h; e++ {
			for a := p * h; a < (p+1)*h; a++ {
				link(edge0+e, agg0+a, fabric)
			}
		}
	}
	for a := 0; a < edges; a++ {
		for j := 0; j < h; j++ {
			link(agg0+a, core0+(a%h)*h+j, fabric)
		}
	}
	return bw.Flush()
}

// ns3Rate writes r as an ns-3 DataRate string in whole bits per second
// when it is not a whole number of Gbps ("100Gbps", "2500000bps").
func ns3Rate(r netsim.Rate) string {
	if r%netsim.Gbps == 0 {
		return strconv.FormatInt(int64(r/netsim.Gbps), 10) + "Gbps"
	}
	return strconv.FormatInt(int64(r), 10) + "bps"
}

// ns3Time writes d as an ns-3 Time string in nanoseconds (ns-3's default
// resolution), or picoseconds when d is not a whole number of them.
func ns3Time(d netsim.Time) string {
	if d%netsim.Nanosecond == 0 {
		return strconv.FormatInt(int64(d/netsim.Nanosecond), 10) + "ns"
	}
	return strconv.FormatInt(int64(d), 10) + "ps"
}
