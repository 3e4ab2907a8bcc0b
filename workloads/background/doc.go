// Package background generates datacenter background traffic: flows whose
// sizes follow a measured flow-size CDF (Hadoop and Cache Follower from Roy
// et al., "Inside the Social Network's (Datacenter) Network", SIGCOMM 2015;
// web search from the DCTCP paper, SIGCOMM 2010), arriving as a Poisson
// process at a target load between random host pairs, and the flow-completion
// statistics (FCT and slowdown by size bucket) that datacenter papers report.
//
// The CDF data are embedded (see data/SOURCES.md and data/ATTRIBUTION.md).
// Flows are started through a netsim.Bulk, so the same generator drives the
// packet engine (DCTCP flows) and the flow engine (fluid flows).
package background

// LoadDefinition is the definition of background load used by Generator,
// worded for the command line's describe output.
const LoadDefinition = "load = offered background bytes/s divided by the aggregate NIC " +
	"capacity of the sending hosts (sum over those hosts of NIC rate/8); flows arrive " +
	"as a Poisson process with rate lambda = load * sum(NIC rates)/8 / mean flow size, " +
	"between uniformly random host pairs with src != dst"
