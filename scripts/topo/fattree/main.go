// Command fattree writes a k-ary three-tier fat-tree as a topology file in
// the HPCC ns-3 branch's topology.txt format (see topologies.TopologyFile),
// the fat-tree syncsim's topology=fattree builds, so that syncsim's
// topology_file= and an ns-3 program reading the same file run one network:
//
//	go run ./scripts/topo/fattree -k 8 > fattree-k8.txt
//	go run ./scripts/topo/fattree -k 4 -hosts-per-edge 4 -host-gbps 25 -o ft4.txt
//
// Hosts are nodes 0..H-1 (edge-major), then the edge, aggregation and core
// switches; every link has error rate 0.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"

	"syncsim/netsim"
	"syncsim/topologies"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "fattree:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("fattree", flag.ContinueOnError)
	k := fs.Int("k", 8, "arity: ports per switch (even, 2.."+fmt.Sprint(topologies.MaxFatTreeK)+")")
	perEdge := fs.Int("hosts-per-edge", 0, "hosts under each edge switch (0: k/2, no oversubscription)")
	hostGbps := fs.Float64("host-gbps", 100, "host link rate, Gbit/s")
	fabricGbps := fs.Float64("fabric-gbps", 100, "switch-to-switch link rate, Gbit/s")
	delayUs := fs.Float64("delay-us", 2, "propagation delay of every cable, us")
	out := fs.String("o", "", "output file (default: standard output)")
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		return nil
	} else if err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	c := topologies.FatTreeConfig{
		K: *k, HostsPerEdge: *perEdge,
		HostRate:   netsim.Rate(math.Round(*hostGbps * float64(netsim.Gbps))),
		FabricRate: netsim.Rate(math.Round(*fabricGbps * float64(netsim.Gbps))),
		Delay:      netsim.FromMicros(*delayUs),
	}
	if c.HostsPerEdge == 0 {
		c.HostsPerEdge = c.K / 2
	}
	if *out == "" {
		return topologies.WriteFatTree(stdout, c)
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := topologies.WriteFatTree(f, c); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
