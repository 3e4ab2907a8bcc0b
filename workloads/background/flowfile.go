package background

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"syncsim/netsim"
)

// A flow file lists flows to replay, in the format the HPCC ns-3 branch
// reads (github.com/alibaba-edu/High-Precision-Congestion-Control,
// simulation/mix/flow.txt, read by ReadFlowInput and ScheduleFlowInputs
// in simulation/scratch/third.cc):
//
//	N
//	src dst priority dport size start_time
//	... (N lines)
//
// src and dst are node ids, priority is the flow's priority group (a
// queue class, 0 to 7, in the branch's switches), dport its destination
// port, size its length in bytes and start_time its start in seconds;
// flows are listed in ascending start time. third.cc reads exactly N
// flows and ignores whatever follows them (the branch's own sample file
// has N = 2 followed by 254 more flow lines and a note), so text after
// the N-th flow is ignored here too. Unlike third.cc, which reads a
// stream of numbers, the file is read a line at a time: a flow line must
// hold exactly the six fields, blank lines are skipped.
const (
	// FlowFilePriorities is the number of priority groups a flow may name
	// (SwitchMmu::qCnt = 8 in the branch's switch-mmu.h).
	FlowFilePriorities = 8
	// FlowFileMaxSize caps a flow's size (1 TB): far beyond any
	// datacenter flow, and small enough that byte counts never overflow.
	FlowFileMaxSize = 1 << 40
	// FlowFileMaxFlows caps the flow count of one file (the file's flows
	// are held in memory).
	FlowFileMaxFlows = 1 << 26
)

// FileFlow is one flow of a flow file.
type FileFlow struct {
	// Line is the flow's line number in the file (from 1), for errors.
	Line int
	// Src and Dst are the file's node ids.
	Src, Dst int
	// Priority is the file's priority group (0 to FlowFilePriorities-1).
	Priority int
	// DPort is the destination port, echoed in the fct.txt output.
	DPort int
	// Size is the flow's length in bytes (positive).
	Size netsim.Bytes
	// Start is the start time, the file's seconds rounded to the
	// nanosecond (ns-3's default time resolution, which third.cc's
	// Seconds(start_time) rounds to).
	Start netsim.Time
}

// FlowFile is a parsed flow file.
type FlowFile struct {
	// Name is the file's name, used in errors.
	Name string
	// Flows are the file's flows in file order (ascending start time).
	Flows []FileFlow
}

// Errorf formats an error about line of the file, as every refusal of a
// flow file is worded: flows_file "NAME" line N: what is wrong.
func (ff *FlowFile) Errorf(line int, format string, args ...any) error {
	return fmt.Errorf("flows_file %q line %d: %s", ff.Name, line, fmt.Sprintf(format, args...))
}

// ReadFlowFile reads and parses the flow file at path.
func ReadFlowFile(path string) (*FlowFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("flows_file: %w", err)
	}
	return ParseFlowFile(path, bytes.NewReader(b))
}

// ParseFlowFile parses a flow file; name labels errors. It refuses, in one
// line naming the file and the line: a first line that is not a flow count
// (a whole number from 0 to FlowFileMaxFlows), fewer flow lines than the
// count, a flow line without exactly six fields, a field that is not a
// number of its kind (node ids, priority, port and size whole numbers,
// start time a decimal number of seconds), src == dst, a priority outside
// 0 to 7, a port outside 0 to 65535, a size of 0 or above FlowFileMaxSize,
// a negative start and a start before the previous flow's. Whether the
// node ids exist is checked against the topology (see HostMap).
func ParseFlowFile(name string, r io.Reader) (*FlowFile, error) {
	ff := &FlowFile{Name: name}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	line, count := 0, -1
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if count < 0 {
			n, err := strconv.ParseInt(f[0], 10, 64)
			if len(f) != 1 || err != nil || n < 0 || n > FlowFileMaxFlows {
				return nil, ff.Errorf(line, "first line %q is not a flow count (a whole number from 0 to %d)", clip(sc.Text()), FlowFileMaxFlows)
			}
			count = int(n)
			ff.Flows = make([]FileFlow, 0, min(count, 1<<16))
			if count == 0 {
				return ff, nil
			}
			continue
		}
		fl, err := ff.parseFlow(line, f)
		if err != nil {
			return nil, err
		}
		if k := len(ff.Flows); k > 0 && fl.Start < ff.Flows[k-1].Start {
			return nil, ff.Errorf(line, "start %s s is before the previous flow's (line %d, %s s); flows must be in ascending start time",
				f[5], ff.Flows[k-1].Line, strconv.FormatFloat(ff.Flows[k-1].Start.Seconds(), 'g', -1, 64))
		}
		ff.Flows = append(ff.Flows, fl)
		if len(ff.Flows) == count {
			return ff, nil // third.cc reads count flows and no more
		}
	}
	if err := sc.Err(); err != nil {
		return nil, ff.Errorf(line+1, "%v", err)
	}
	if count < 0 {
		return nil, ff.Errorf(max(line, 1), "no flow count: the file is empty")
	}
	return nil, ff.Errorf(line, "the first line counts %d flows but the file has %d", count, len(ff.Flows))
}

// parseFlow reads the six fields of one flow line.
func (ff *FlowFile) parseFlow(line int, f []string) (FileFlow, error) {
	fl := FileFlow{Line: line}
	if len(f) != 6 {
		return fl, ff.Errorf(line, "%d fields; want 6: src dst priority dport size start_time", len(f))
	}
	whole := func(i int, what string, lo, hi int64) (int64, error) {
		v, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil || v < lo || v > hi {
			return 0, ff.Errorf(line, "%s %q is not a whole number from %d to %d", what, clip(f[i]), lo, hi)
		}
		return v, nil
	}
	var v [5]int64
	for i, spec := range []struct {
		what   string
		lo, hi int64
	}{
		{"src", 0, math.MaxInt32}, {"dst", 0, math.MaxInt32}, {"priority", 0, FlowFilePriorities - 1},
		{"dport", 0, math.MaxUint16}, {"size", 1, FlowFileMaxSize},
	} {
		x, err := whole(i, spec.what, spec.lo, spec.hi)
		if err != nil {
			return fl, err
		}
		v[i] = x
	}
	fl.Src, fl.Dst, fl.Priority, fl.DPort, fl.Size = int(v[0]), int(v[1]), int(v[2]), int(v[3]), netsim.Bytes(v[4])
	if fl.Src == fl.Dst {
		return fl, ff.Errorf(line, "src and dst are both node %d", fl.Src)
	}
	s, err := strconv.ParseFloat(f[5], 64)
	switch {
	case err != nil && !isRangeErr(err), math.IsNaN(s):
		return fl, ff.Errorf(line, "start_time %q is not a number of seconds", clip(f[5]))
	case s < 0:
		return fl, ff.Errorf(line, "start_time %s s is negative", clip(f[5]))
	case s >= netsim.Never.Seconds()/2:
		return fl, ff.Errorf(line, "start_time %s s is beyond what the simulator can time (%.3g s)", clip(f[5]), netsim.Never.Seconds()/2)
	}
	fl.Start = netsim.Time(math.Round(s*1e9)) * netsim.Nanosecond
	return fl, nil
}

// isRangeErr reports whether err is strconv's out-of-range error (a
// number too large for a float64).
func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// clip shortens a field quoted in an error to 40 characters.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// HostMap maps the node ids of a flow file onto the hosts of a fabric.
// Hosts lists the fabric's hosts; ID(i) is the node id the file uses for
// Hosts[i]. For a built-in fabric the file's ids are host indices (see
// IndexHostMap); a topology file names its hosts by its own node ids (the
// ids that are not switches), which a topology-file fabric supplies as
// IDs.
type HostMap struct {
	Hosts []netsim.NodeID
	// IDs holds the file's node id of each host; nil means the index.
	IDs []int
	// Describe says, for errors, what the file's ids range over
	// ("the fabric's 16 hosts, 0 to 15").
	Describe string

	byID   map[int]int
	byNode map[netsim.NodeID]int
}

// IndexHostMap is the map of a built-in fabric: host i of the file is the
// i-th host of hosts (topologies.Fabric.HostIDs order: group-major, so on
// a leaf-spine hosts 0 to hosts_per_leaf-1 sit under the first leaf).
func IndexHostMap(hosts []netsim.NodeID) *HostMap {
	return &HostMap{Hosts: hosts, Describe: fmt.Sprintf("the fabric's %d hosts, numbered 0 to %d in group-major order", len(hosts), len(hosts)-1)}
}

func (m *HostMap) build() {
	if m.byNode != nil {
		return
	}
	m.byNode = make(map[netsim.NodeID]int, len(m.Hosts))
	for i, h := range m.Hosts {
		m.byNode[h] = i
	}
	if m.IDs != nil {
		m.byID = make(map[int]int, len(m.IDs))
		for i, id := range m.IDs {
			m.byID[id] = i
		}
	}
}

// Node is the host the file's node id names (ok false: none).
func (m *HostMap) Node(id int) (netsim.NodeID, bool) {
	m.build()
	if m.IDs == nil {
		if id < 0 || id >= len(m.Hosts) {
			return 0, false
		}
		return m.Hosts[id], true
	}
	i, ok := m.byID[id]
	if !ok {
		return 0, false
	}
	return m.Hosts[i], true
}

// FileID is the file's node id of host h (ok false: h is not a host of
// the map).
func (m *HostMap) FileID(h netsim.NodeID) (int, bool) {
	m.build()
	i, ok := m.byNode[h]
	if !ok {
		return 0, false
	}
	if m.IDs == nil {
		return i, true
	}
	return m.IDs[i], true
}

// Replays maps the file's flows onto hosts, for Config.Replay. A node id
// that is not a host is refused naming the file and line; so is a flow
// that starts at or after stop (stop > 0), which the run would not
// replay.
func (ff *FlowFile) Replays(m *HostMap, stop netsim.Time) ([]Replay, error) {
	out := make([]Replay, len(ff.Flows))
	for i, f := range ff.Flows {
		src, ok := m.Node(f.Src)
		if !ok {
			return nil, ff.Errorf(f.Line, "src %d is not a host (%s)", f.Src, m.Describe)
		}
		dst, ok := m.Node(f.Dst)
		if !ok {
			return nil, ff.Errorf(f.Line, "dst %d is not a host (%s)", f.Dst, m.Describe)
		}
		if stop > 0 && f.Start >= stop {
			return nil, ff.Errorf(f.Line, "start %s s is not before the end of the run (%s s); lengthen the run",
				strconv.FormatFloat(f.Start.Seconds(), 'g', -1, 64), strconv.FormatFloat(stop.Seconds(), 'g', -1, 64))
		}
		out[i] = Replay{Src: src, Dst: dst, Size: f.Size, Start: f.Start, DPort: f.DPort, Priority: f.Priority}
	}
	return out, nil
}
