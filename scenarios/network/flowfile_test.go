package network

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"syncsim/experiments"
	"syncsim/experiments/exptest"
	"syncsim/netsim"
)

// smallFabric is the idle fabric of the flow-file tests: 2 spines, 2
// leaves of 4 hosts, 100 Gbps, 2 us per cable.
var smallFabric = []string{"spines=2", "leaves=2", "hosts_per_leaf=4", "host_gbps=100", "fabric_gbps=100", "delay_us=2", "warmup_ms=0"}

// runFlows runs the background experiment on flow file text at threads,
// and returns its metrics and its fct.txt.
func runFlows(t *testing.T, text string, threads int, sets ...string) (map[string]float64, string) {
	t.Helper()
	dir := t.TempDir()
	in, out := filepath.Join(dir, "flow.txt"), filepath.Join(dir, "fct.txt")
	if err := os.WriteFile(in, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	e := lookup(t, "background")
	ps, err := e.Resolve(append(append([]string{"flows_file=" + in, "fct_out=" + out}, smallFabric...), sets...))
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(&experiments.Run{Exp: e, Params: ps, Seed: 1, Check: true, Threads: threads})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return res.Metrics, string(b)
}

// fctLine is one line of fct.txt read as analysis/fct_analysis.py of the
// HPCC branch reads it (awk fields $1-$8: sip dip sport dport size
// start fct standalone; the ids by its ip_to_node_id, (ip >> 8) & 0xffff).
type fctLine struct {
	src, dst, sport, dport  int
	size, start, fct, ideal int64
}

func parseFCT(t *testing.T, text string) []fctLine {
	t.Helper()
	var out []fctLine
	for i, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		f := strings.Fields(l)
		if len(f) != 8 {
			t.Fatalf("fct.txt line %d: %d fields: %q", i+1, len(f), l)
		}
		var v [8]int64
		for j, s := range f {
			base := 10
			if j < 2 {
				if len(s) != 8 {
					t.Fatalf("fct.txt line %d: address %q is not eight hex digits", i+1, s)
				}
				base = 16
			}
			x, err := strconv.ParseInt(s, base, 64)
			if err != nil {
				t.Fatalf("fct.txt line %d field %d: %v", i+1, j+1, err)
			}
			v[j] = x
		}
		out = append(out, fctLine{src: int(v[0]>>8) & 0xffff, dst: int(v[1]>>8) & 0xffff, sport: int(v[2]), dport: int(v[3]),
			size: v[4], start: v[5], fct: v[6], ideal: v[7]})
	}
	return out
}

// TestFlowFileIdleClosedForm replays four flows, each alone on the idle
// fabric and within DCTCP's initial window of 10 segments, and checks
// every FCT in fct.txt against the closed form of a window sent back to
// back: the sender's last ACK comes after every packet's serialisation
// at the host (payload plus the 40-byte header each), the store-and-
// forward of the train's largest packet at each of the h-1 switches (a
// train sent back to back leaves a switch, departure_k = max(arrival_k,
// departure_k-1) + tx_k, one largest packet later than it arrived: a
// short last segment waits behind the full one before it), h
// propagation delays, and the
// 40-byte ACK's serialisation and propagation over the h links back. The
// standalone FCT is checked against qp_finish's formula worked by hand
// for these paths.
func TestFlowFileIdleClosedForm(t *testing.T) {
	const (
		mss, hdr = 1460, 40
		rate     = 100 * netsim.Gbps
		delay    = 2 * netsim.Microsecond
	)
	flows := []struct {
		src, dst, hops int
		size           int64
		start          string
	}{
		{0, 1, 2, 1000, "0.0001"},   // same leaf: host, leaf, host
		{2, 5, 4, 14600, "0.00015"}, // across the spines: ten full segments
		{3, 7, 4, 1, "0.0002"},
		{6, 4, 2, 5000, "0.00025"}, // three full segments and 620 bytes
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d\n", len(flows))
	for _, f := range flows {
		fmt.Fprintf(&b, "%d %d 3 100 %d %s\n", f.src, f.dst, f.size, f.start)
	}
	m, text := runFlows(t, b.String(), 1, "duration_ms=2")
	lines := parseFCT(t, text)
	if len(lines) != len(flows) || m["flows_started"] != float64(len(flows)) || m["flows_done"] != float64(len(flows)) {
		t.Fatalf("%d lines, %v started, %v done; want %d", len(lines), m["flows_started"], m["flows_done"], len(flows))
	}
	for i, f := range flows {
		l := lines[i]
		n := (f.size + mss - 1) / mss
		largest := netsim.Bytes(min(f.size, mss) + hdr)
		want := netsim.TxTime(netsim.Bytes(f.size+n*hdr), rate) + netsim.Time(f.hops-1)*netsim.TxTime(largest, rate) +
			netsim.Time(f.hops)*(2*delay+netsim.TxTime(hdr, rate))
		wantNs := int64(want / netsim.Nanosecond)
		// qp_finish: 2 * h * delay + h * floor(1460 B at 100 Gbps = 116.8 ns)
		// + floor((size + n * 40) * 8 / 100) ns.
		ideal := int64(2*f.hops*2000+f.hops*116) + (f.size+n*hdr)*8/100
		if l.src != f.src || l.dst != f.dst || l.size != f.size || l.dport != 100 || l.sport != 10000 {
			t.Errorf("flow %d: line %+v does not echo %+v", i, l, f)
		}
		if d := l.fct - wantNs; d < -1 || d > 1 {
			t.Errorf("flow %d (%d B, %d hops): FCT %d ns, closed form %d ns", i, f.size, f.hops, l.fct, wantNs)
		}
		t.Logf("flow %d (%d B, %d hops): FCT %d ns, standalone %d ns, ratio %.3f", i, f.size, f.hops, l.fct, l.ideal, float64(l.fct)/float64(l.ideal))
		if l.ideal != ideal {
			t.Errorf("flow %d: standalone FCT %d ns, qp_finish's formula %d ns", i, l.ideal, ideal)
		}
	}
}

// randomFlowFile writes n flows between the 8 hosts of smallFabric, sizes
// 1 B to 300 KB, starting over the first 2 ms in ascending order, every
// fifth flow to port 200 (the analysis script's incast class).
func randomFlowFile(n int) (string, [][4]int64) {
	rng := rand.New(rand.NewPCG(7, 43))
	var b strings.Builder
	fmt.Fprintf(&b, "%d\n", n)
	flows := make([][4]int64, n) // src, dst, size, start ns
	t := 0.0
	for i := range flows {
		src := rng.IntN(8)
		dst := (src + 1 + rng.IntN(7)) % 8
		size := 1 + rng.Int64N(300000)
		t += rng.Float64() * 4e-5
		port := 100
		if i%5 == 4 {
			port = 200
		}
		s := strconv.FormatFloat(t, 'f', 9, 64)
		fmt.Fprintf(&b, "%d %d %d %d %d %s\n", src, dst, rng.IntN(8), port, size, s)
		ns, _ := strconv.ParseFloat(s, 64)
		flows[i] = [4]int64{int64(src), int64(dst), size, int64(ns*1e9 + 0.5)}
	}
	return b.String(), flows
}

// TestFlowFileReplayExact replays 60 flows that overlap (the fabric is
// loaded) and checks, from fct.txt read as the analysis script reads it,
// that every flow of the file ran once with its hosts, size and start,
// numbered by source port per host in file order as third.cc numbers
// them; and that the run is the same bytes on one thread and on two.
func TestFlowFileReplayExact(t *testing.T) {
	const n = 60
	text, flows := randomFlowFile(n)
	m1, fct1 := runFlows(t, text, 1, "duration_ms=20")
	m2, fct2 := runFlows(t, text, 2, "duration_ms=20")
	if fct1 != fct2 {
		t.Error("fct.txt differs between one thread and two")
	}
	for k, v := range m1 {
		if v != m2[k] && !(v != v && m2[k] != m2[k]) {
			t.Errorf("metric %s: %v on one thread, %v on two", k, v, m2[k])
		}
	}
	if m1["flows_started"] != n || m1["flows_done"] != n {
		t.Fatalf("%v flows started, %v done; want %d", m1["flows_started"], m1["flows_done"], n)
	}
	lines := parseFCT(t, fct1)
	if len(lines) != n {
		t.Fatalf("%d lines in fct.txt, want %d", len(lines), n)
	}
	// The k-th flow of a source in the file has source port 10000 + k.
	bySrcPort := map[[2]int]int{}
	count := map[int]int{}
	for i, f := range flows {
		bySrcPort[[2]int{int(f[0]), FirstSPortTest + count[int(f[0])]}] = i
		count[int(f[0])]++
	}
	seen := map[int]bool{}
	normal := 0
	for _, l := range lines {
		i, ok := bySrcPort[[2]int{l.src, l.sport}]
		if !ok || seen[i] {
			t.Fatalf("line %+v matches no flow of the file, or one already seen", l)
		}
		seen[i] = true
		f := flows[i]
		if int64(l.dst) != f[1] || l.size != f[2] || l.start != f[3] {
			t.Errorf("flow %d: line %+v, file src %d dst %d size %d start %d ns", i, l, f[0], f[1], f[2], f[3])
		}
		if want := 100 + 100*(i%5/4); l.dport != want {
			t.Errorf("flow %d: dport %d, want %d", i, l.dport, want)
		}
		if l.fct <= 0 || l.ideal <= 0 {
			t.Errorf("flow %d: fct %d, standalone %d", i, l.fct, l.ideal)
		}
		if l.dport == 100 {
			normal++
		}
	}
	if normal != n-n/5 {
		t.Errorf("%d flows at port 100 (the script's -t 0), want %d", normal, n-n/5)
	}
	if m1["mean_flow_kb"] <= 0 {
		t.Errorf("mean flow %v KB", m1["mean_flow_kb"])
	}
}

// FirstSPortTest is third.cc's first source port (portNumder starts at
// 10000), written out here so the test does not read it from the code
// it checks.
const FirstSPortTest = 10000

// TestFlowFileRefusedInRun: a file naming a host the fabric lacks, or a
// flow starting after the run's end, is refused in one line naming the
// file and the line; so is a file that cannot be read.
func TestFlowFileRefusedInRun(t *testing.T) {
	e := lookup(t, "background")
	dir := t.TempDir()
	for _, c := range []struct{ text, want string }{
		{"2\n0 1 3 100 10 0\n0 8 3 100 10 0\n", `line 3: dst 8 is not a host (the fabric's 8 hosts, numbered 0 to 7`},
		{"1\n0 1 3 100 10 0.5\n", `line 2: start 0.5 s is not before the end of the run (0.001 s)`},
		{"2\n0 1 3 100 10 0\n", `line 2: the first line counts 2 flows but the file has 1`},
	} {
		in := filepath.Join(dir, "f.txt")
		if err := os.WriteFile(in, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		ps, err := e.Resolve(append([]string{"flows_file=" + in, "duration_ms=1"}, smallFabric...))
		if err != nil {
			t.Fatal(err)
		}
		_, err = e.Run(&experiments.Run{Exp: e, Params: ps, Seed: 1})
		if err == nil || strings.ContainsAny(err.Error(), "\n\r") || !strings.Contains(err.Error(), fmt.Sprintf("flows_file %q %s", in, c.want)) {
			t.Errorf("%q: %v; want one line with %q", c.text, err, c.want)
		}
	}
	_, err := exptest.Try(e, 1, "flows_file="+filepath.Join(dir, "missing.txt"))
	if err == nil || !strings.HasPrefix(err.Error(), "flows_file: ") || !strings.Contains(err.Error(), "missing.txt") {
		t.Errorf("missing file: %v", err)
	}
}

// TestFlowFileOnTopologyFile: on a fabric read from a topology file, a
// flow file names hosts by the topology file's node ids (here the hosts
// are ids 2 to 5, the switches 0 and 1), and fct.txt's addresses carry
// them back; with host indices instead, id 5 would not exist and id 2
// would be the third host.
func TestFlowFileOnTopologyFile(t *testing.T) {
	dir := t.TempDir()
	topo := filepath.Join(dir, "topology.txt")
	text := "6 2 5\n0 1\n2 0 10Gbps 0.001ms 0\n3 0 10Gbps 0.001ms 0\n4 1 10Gbps 0.001ms 0\n5 1 10Gbps 0.001ms 0\n0 1 10Gbps 0.001ms 0\n"
	if err := os.WriteFile(topo, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	flows := "3\n2 5 3 100 20000 0.000001\n5 2 3 100 3000 0.000002\n4 3 3 100 1000 0.000003\n"
	m, fct := runFlows(t, flows, 1, "topology_file="+topo, "duration_ms=5")
	if m["flows_started"] != 3 || m["flows_done"] != 3 {
		t.Fatalf("%v flows started, %v done; want 3", m["flows_started"], m["flows_done"])
	}
	got := map[[2]int]int64{}
	for _, l := range parseFCT(t, fct) {
		got[[2]int{l.src, l.dst}] = l.size
	}
	want := map[[2]int]int64{{2, 5}: 20000, {5, 2}: 3000, {4, 3}: 1000}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("flow %d -> %d: size %d in fct.txt, want %d (all: %v)", k[0], k[1], got[k], v, got)
		}
	}
}
