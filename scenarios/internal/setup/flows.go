package setup

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/topologies"
	"syncsim/transport"
	"syncsim/workloads/background"
)

// FlowsFileHelp and FCTOutHelp describe the flow-file parameters in every
// experiment that takes them.
const (
	FlowsFileHelp = "replay the flows of a file in the HPCC ns-3 branch's flow.txt format (first line the flow count, " +
		"then 'src dst priority dport size start_time' per flow, size in bytes, start in seconds, ascending) instead of " +
		"drawing background flows (empty: draw them): src and dst are host indices, 0 to hosts-1 in group-major order (host i is the i-th host " +
		"of the fabric); priority is read but every port has one FIFO queue; every flow must start before the run's end"
	FCTOutHelp = "write one line per flow the sender saw fully acknowledged to this file, in the HPCC branch's fct.txt " +
		"layout (empty: none; sip dip sport dport size start_ns fct_ns standalone_fct_ns; ip 11.0.x.1 from the host index), which its " +
		"analysis/fct_analysis.py reads; trial t > 0 writes NAME.t<t> before the extension; with a flows_file and --csv FILE.csv, empty writes FILE.fct.txt beside the CSV"
)

// FlowsParams are the flows_file and fct_out parameters.
func FlowsParams() []experiments.Param {
	return []experiments.Param{
		experiments.TextParam("flows_file", "", FlowsFileHelp),
		experiments.TextParam("fct_out", "", FCTOutHelp),
	}
}

// HostMap is the map from a flow file's node ids to the hosts of fab,
// the one place a fabric's host numbering is decided: for the built-in
// fabrics the ids are host indices, the i-th host of fab.HostIDs()
// (group-major: on a leaf-spine hosts 0 to hosts_per_leaf-1 sit under the
// first leaf); for a fabric read from a topology file (HPCC's
// topology.txt, whose hosts are the ids that are not switches) they are
// the file's node ids, which topologies.FromFile keeps in the hosts'
// names ("h<id>"), so that a flow file written for that topology names
// the same hosts and fct.txt's addresses carry the file's ids.
func HostMap(fab *topologies.Fabric) *background.HostMap {
	m := background.IndexHostMap(fab.HostIDs())
	if fab.Kind != topologies.KindFile {
		return m
	}
	m.IDs = make([]int, len(fab.Hosts))
	for i, h := range fab.Hosts {
		id, err := strconv.Atoi(strings.TrimPrefix(h.Name(), "h"))
		if err != nil {
			id = -1 // FromFile names every host h<id>; no file id matches -1
		}
		m.IDs[i] = id
	}
	m.Describe = fmt.Sprintf("the %d hosts of the topology file, by its node ids", len(fab.Hosts))
	return m
}

// Replays reads flows_file (nil, nil when it is not set) and maps its
// flows onto m's hosts; every flow must start before end.
func Replays(ps experiments.Params, m *background.HostMap, end netsim.Time) ([]background.Replay, error) {
	path := ps.Str("flows_file")
	if path == "" {
		return nil, nil
	}
	ff, err := background.ReadFlowFile(path)
	if err != nil {
		return nil, err
	}
	rs, err := ff.Replays(m, end)
	if err != nil {
		return nil, err
	}
	if rs == nil {
		rs = []background.Replay{} // a file of no flows replays none
	}
	return rs, nil
}

// ValidateFlowsFile reads flows_file, when set, so that a bad file is
// refused before any run (--dry-run included); whether its hosts exist is
// checked by each run against its fabric (Replays).
func ValidateFlowsFile(ps experiments.Params) error {
	if !ps.Has("flows_file") || ps.Str("flows_file") == "" {
		return nil
	}
	_, err := background.ReadFlowFile(ps.Str("flows_file"))
	return err
}

// ValidateWindowFlows is ValidateWindow and ValidateFlowsFile.
func ValidateWindowFlows(ps experiments.Params) error {
	if err := ValidateWindow(ps); err != nil {
		return err
	}
	return ValidateFlowsFile(ps)
}

// FCTPath is the file fct_out names for trial (the value itself for
// trial 0; ".t<trial>" before the extension for later trials).
func FCTPath(out string, trial int) string {
	if trial == 0 {
		return out
	}
	ext := filepath.Ext(out)
	return fmt.Sprintf("%s.t%d%s", strings.TrimSuffix(out, ext), trial, ext)
}

// FCTFile is the file run r writes its flows to in the fct.txt layout:
// fct_out's for the run's trial (FCTPath) when it is set, else the one
// the command chose (Run.FCTFile, FILE.fct.txt beside its CSV); empty:
// none.
func FCTFile(r *experiments.Run) string {
	if r.Params.Has("fct_out") && r.Params.Str("fct_out") != "" {
		return FCTPath(r.Params.Str("fct_out"), r.Trial)
	}
	return r.FCTFile
}

// RecordFCT makes gen keep the per-flow records the run's fct.txt needs,
// when it writes one (FCTFile).
func RecordFCT(r *experiments.Run, gen *background.Generator) error {
	if FCTFile(r) == "" {
		return nil
	}
	return gen.RecordFlows()
}

// WriteFCT writes gen's flows to the run's fct.txt (FCTFile), when it
// has one, with each flow's standalone FCT computed from its path in net
// as the HPCC branch computes it (background.IdealFCT) with tc's MSS as
// the payload and its header bytes per packet.
func WriteFCT(r *experiments.Run, net *netsim.Network, tc transport.Config, m *background.HostMap, gen *background.Generator) error {
	path := FCTFile(r)
	if path == "" {
		return nil
	}
	ideal := func(f *background.FlowRecord) int64 {
		path, err := net.Path(f.Src, f.Dst, 0)
		if err != nil || len(path) == 0 {
			return 0
		}
		hops := make([]background.Hop, len(path))
		for i, id := range path {
			l := net.Link(id)
			hops[i] = background.Hop{Delay: l.Delay, Rate: l.Rate}
		}
		return background.IdealFCT(hops, f.Size, tc.MSS, tc.HeaderBytes)
	}
	lines, err := background.FCTLines(gen.Records(), m, ideal)
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("fct_out: %w", err)
	}
	if err := background.WriteFCT(f, lines); err != nil {
		f.Close()
		return fmt.Errorf("fct_out: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("fct_out: %w", err)
	}
	return nil
}

// ValidateBackground checks the measurement window, the fabric
// (topology, k, topology_file) and flows_file before any run.
func ValidateBackground(ps experiments.Params) error {
	if err := ValidateWindowAndFabric(ps); err != nil {
		return err
	}
	return ValidateFlowsFile(ps)
}
