package topologies

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"syncsim/netsim"
)

// TopologyFile is a topology read from a file in the format of the HPCC
// ns-3 branch (github.com/alibaba-edu/High-Precision-Congestion-Control,
// simulation/mix/*.txt, read by simulation/scratch/third.cc, main(),
// "topof >> node_num >> switch_num >> link_num" and the loop after it):
//
//	node_num switch_num link_num
//	switch ids (switch_num of them)
//	src dst rate delay error_rate    (link_num lines)
//
// Nodes are numbered 0..node_num-1; those not listed as switches are
// hosts. Rates are ns-3 DataRate strings (100Gbps, 25Gb/s, 12.5GBps),
// delays ns-3 Time strings (1000ns, 0.001ms, 1us; a bare number is in
// seconds). ns-3 reads the file as a stream of words; syncsim also reads
// the links one per line, so that an error can name its line. Blank
// lines are skipped and the switch ids may wrap over several lines.
//
// syncsim refuses what the ns-3 program would accept silently or crash
// on: ids out of range, a switch listed twice, a link from a node to
// itself, the same pair of nodes joined twice, a link between two
// hosts, a host attached to two switches or to none (ns-3's hosts have
// one NIC; a multi-homed host would need a policy for which NIC a flow
// leaves by), a node the hosts cannot reach, and a non-zero error_rate
// (syncsim's links do not lose packets at random; ns-3 drops that
// fraction of packets at the receiving NIC).
type TopologyFile struct {
	// Nodes is node_num.
	Nodes int
	// Switch[i] says whether node i is a switch.
	Switch []bool
	// Links in file order.
	Links []FileLink
}

// FileLink is one link of a topology file: a full-duplex cable between
// nodes A and B at Rate each way with propagation delay Delay.
type FileLink struct {
	A, B  int
	Rate  netsim.Rate
	Delay netsim.Time
	Line  int // line of the file that declares it
}

// maxFileDelay bounds a link's delay (an hour), far beyond any network
// and far below the simulated clock's range.
const maxFileDelay = 3600 * netsim.Second

// ReadTopologyFile reads path; errors name it and the offending line
// ("topology_file PATH:LINE: ...").
func ReadTopologyFile(path string) (*TopologyFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("topology_file: %w", err)
	}
	defer f.Close()
	tf, err := ReadTopology(f)
	if err != nil {
		msg := err.Error()
		if strings.HasPrefix(msg, "line ") {
			return nil, fmt.Errorf("topology_file %s:%s", path, strings.TrimPrefix(msg, "line "))
		}
		return nil, fmt.Errorf("topology_file %s: %s", path, msg)
	}
	return tf, nil
}

// lineReader hands out the non-blank lines of a file with their numbers.
type lineReader struct {
	sc   *bufio.Scanner
	line int
}

// next returns the fields of the next non-blank line, or nil at the end.
func (lr *lineReader) next() ([]string, error) {
	for lr.sc.Scan() {
		lr.line++
		if f := strings.Fields(lr.sc.Text()); len(f) > 0 {
			return f, nil
		}
	}
	if err := lr.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("line %d: longer than 1 MB", lr.line+1)
		}
		return nil, fmt.Errorf("line %d: %w", lr.line+1, err)
	}
	return nil, nil
}

// ReadTopology reads a topology file (see TopologyFile); an error starts
// "line N: " when it concerns one line.
func ReadTopology(r io.Reader) (*TopologyFile, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	lr := &lineReader{sc: sc}
	head, err := lr.next()
	if err != nil {
		return nil, err
	}
	if head == nil {
		return nil, errors.New("empty file: want a first line node_num switch_num link_num")
	}
	if len(head) != 3 {
		return nil, fmt.Errorf("line %d: %d fields, want node_num switch_num link_num", lr.line, len(head))
	}
	var nums [3]int
	for i, what := range []string{"node_num", "switch_num", "link_num"} {
		v, err := strconv.Atoi(head[i])
		if err != nil || v < 0 || v > MaxNodes {
			return nil, fmt.Errorf("line %d: %s %q is not an integer in [0, %d]", lr.line, what, head[i], MaxNodes)
		}
		nums[i] = v
	}
	n, ns, nl := nums[0], nums[1], nums[2]
	if ns > n {
		return nil, fmt.Errorf("line %d: %d switches among %d nodes", lr.line, ns, n)
	}
	tf := &TopologyFile{Nodes: n, Switch: make([]bool, n)}
	for got := 0; got < ns; {
		f, err := lr.next()
		if err != nil {
			return nil, err
		}
		if f == nil {
			return nil, fmt.Errorf("line %d: the file ends after %d of %d switch ids", lr.line+1, got, ns)
		}
		if got+len(f) > ns {
			return nil, fmt.Errorf("line %d: %d switch ids where %d remain to be listed (switch_num %d)", lr.line, len(f), ns-got, ns)
		}
		for _, w := range f {
			id, err := nodeID(w, n)
			if err != nil {
				return nil, fmt.Errorf("line %d: switch %w", lr.line, err)
			}
			if tf.Switch[id] {
				return nil, fmt.Errorf("line %d: switch %d listed twice", lr.line, id)
			}
			tf.Switch[id] = true
		}
		got += len(f)
	}
	type pair struct{ a, b int }
	seen := map[pair]int{}
	edgeOf := make([]int, n) // host -> line of its link, 0 if none
	for len(tf.Links) < nl {
		f, err := lr.next()
		if err != nil {
			return nil, err
		}
		if f == nil {
			return nil, fmt.Errorf("line %d: the file ends after %d of %d links", lr.line+1, len(tf.Links), nl)
		}
		ln := lr.line
		if len(f) != 5 {
			return nil, fmt.Errorf("line %d: %d fields, want src dst rate delay error_rate", ln, len(f))
		}
		a, err := nodeID(f[0], n)
		if err != nil {
			return nil, fmt.Errorf("line %d: src %w", ln, err)
		}
		b, err := nodeID(f[1], n)
		if err != nil {
			return nil, fmt.Errorf("line %d: dst %w", ln, err)
		}
		if a == b {
			return nil, fmt.Errorf("line %d: link from node %d to itself", ln, a)
		}
		if !tf.Switch[a] && !tf.Switch[b] {
			return nil, fmt.Errorf("line %d: link between hosts %d and %d; hosts attach to switches", ln, a, b)
		}
		p := pair{min(a, b), max(a, b)}
		if prev, dup := seen[p]; dup {
			return nil, fmt.Errorf("line %d: nodes %d and %d are already joined on line %d", ln, a, b, prev)
		}
		seen[p] = ln
		for _, h := range []int{a, b} {
			if tf.Switch[h] {
				continue
			}
			if prev := edgeOf[h]; prev != 0 {
				return nil, fmt.Errorf("line %d: host %d is already attached on line %d; multi-homed hosts are not supported", ln, h, prev)
			}
			edgeOf[h] = ln
		}
		rate, err := ParseDataRate(f[2])
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", ln, err)
		}
		delay, err := ParseNS3Time(f[3])
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", ln, err)
		}
		e, err := strconv.ParseFloat(f[4], 64)
		if err != nil || math.IsNaN(e) || e < 0 || e > 1 {
			return nil, fmt.Errorf("line %d: error_rate %q is not a number in [0, 1]", ln, f[4])
		}
		if e != 0 {
			return nil, fmt.Errorf("line %d: error_rate %s: syncsim's links do not lose packets at random; set it to 0", ln, f[4])
		}
		tf.Links = append(tf.Links, FileLink{A: a, B: b, Rate: rate, Delay: delay, Line: ln})
	}
	// Whatever follows the link_num links is not read, as third.cc reads
	// exactly link_num of them: the branch's own mix/topology.txt ends
	// with lines describing the topology.
	if err := tf.checkConnected(edgeOf); err != nil {
		return nil, err
	}
	return tf, nil
}

// checkConnected refuses a file without hosts, a host without a link and
// a node the first host cannot reach (through switches only, as packets
// never transit a host).
func (tf *TopologyFile) checkConnected(edgeOf []int) error {
	first := -1
	for i := 0; i < tf.Nodes; i++ {
		if tf.Switch[i] {
			continue
		}
		if edgeOf[i] == 0 {
			return fmt.Errorf("host %d has no link", i)
		}
		if first < 0 {
			first = i
		}
	}
	if first < 0 {
		return fmt.Errorf("no hosts: all %d nodes are switches", tf.Nodes)
	}
	adj := tf.adjacency()
	seen := make([]bool, tf.Nodes)
	seen[first] = true
	queue := []int{first}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if u != first && !tf.Switch[u] {
			continue // hosts do not forward
		}
		for _, v := range adj[u] {
			if !seen[v] {
				seen[v] = true
				queue = append(queue, v)
			}
		}
	}
	for i, ok := range seen {
		if ok {
			continue
		}
		if tf.Switch[i] {
			return fmt.Errorf("switch %d is not connected to host %d", i, first)
		}
		return fmt.Errorf("line %d: host %d cannot reach host %d", edgeOf[i], i, first)
	}
	return nil
}

// adjacency lists each node's neighbours in link order.
func (tf *TopologyFile) adjacency() [][]int {
	adj := make([][]int, tf.Nodes)
	for _, l := range tf.Links {
		adj[l.A] = append(adj[l.A], l.B)
		adj[l.B] = append(adj[l.B], l.A)
	}
	return adj
}

// nodeID parses a node id in [0, n).
func nodeID(w string, n int) (int, error) {
	id, err := strconv.Atoi(w)
	if err != nil {
		return 0, fmt.Errorf("id %q is not an integer", w)
	}
	if id < 0 || id >= n {
		return 0, fmt.Errorf("id %d out of range [0, %d)", id, n)
	}
	return id, nil
}
