package background

import (
	"embed"
	"fmt"
	"strings"
)

// data holds the flow-size CDFs, byte-for-byte copies of public files; see
// data/SOURCES.md for their origin and data/ATTRIBUTION.md for how they are
// used here.
//
//go:embed data/*.cdf
var data embed.FS

// workloadFiles maps workload names to embedded files, in the order Names
// lists them.
var workloadFiles = []struct{ name, file, summary string }{
	{"hadoop", "hadoop.cdf", "Facebook Hadoop (Roy et al., SIGCOMM 2015), HPCC's digitisation; mean ~120 KB, max 10 MB"},
	{"cachefollower", "cachefollower.cdf", "Facebook cache follower, intra-cluster (Roy et al., SIGCOMM 2015), Homa's dense file; mean ~687 KB, max 3.84 MB"},
	{"websearch", "websearch.cdf", "web search (Alizadeh et al., DCTCP, SIGCOMM 2010), HPCC's copy; mean ~1.71 MB, max 30 MB"},
	{"hadoop-homa", "hadoop_homa.cdf", "Facebook Hadoop, Homa's dense digitisation (a variant of hadoop); mean ~122 KB, max 10 MB"},
	{"cachefollower-coarse", "cachefollower_coarse.cdf", "cache follower, Homa's original 66 digitised points (a variant of cachefollower)"},
}

// Names lists the embedded workloads: "hadoop", "cachefollower" and
// "websearch", then the variants "hadoop-homa" and "cachefollower-coarse".
func Names() []string {
	out := make([]string, len(workloadFiles))
	for i, w := range workloadFiles {
		out[i] = w.name
	}
	return out
}

// WorkloadSummary is a one-line description of the named workload, or "" if there is
// no such workload.
func WorkloadSummary(name string) string {
	for _, w := range workloadFiles {
		if w.name == name {
			return w.summary
		}
	}
	return ""
}

// Workload returns a fresh copy of the named embedded flow-size CDF. An
// unknown name is an error that lists the known ones.
func Workload(name string) (*CDF, error) {
	for _, w := range workloadFiles {
		if w.name != name {
			continue
		}
		b, err := data.ReadFile("data/" + w.file)
		if err != nil {
			return nil, fmt.Errorf("workload %q: %w", name, err)
		}
		return ParseBytes(name, b)
	}
	return nil, fmt.Errorf("unknown background workload %q (known: %s)", name, strings.Join(Names(), ", "))
}
