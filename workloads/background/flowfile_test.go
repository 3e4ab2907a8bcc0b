package background

import (
	"strings"
	"testing"

	"syncsim/internal/fuzzcheck"
	"syncsim/netsim"
)

// TestParseFlowFile reads a file in the HPCC branch's layout, trailing
// lines included (its sample has a count of 2 followed by more flows and
// a note, of which third.cc reads two).
func TestParseFlowFile(t *testing.T) {
	const text = "2\n2 1 3 100 200000000 2\n\n3 1 0 200 1500 2.0000000016\n4 1 3 100 150000000 2\n\nFirst line: # of flows\n"
	ff, err := ParseFlowFile("f.txt", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	want := []FileFlow{
		{Line: 2, Src: 2, Dst: 1, Priority: 3, DPort: 100, Size: 200000000, Start: 2 * netsim.Second},
		{Line: 4, Src: 3, Dst: 1, Priority: 0, DPort: 200, Size: 1500, Start: 2*netsim.Second + 2*netsim.Nanosecond},
	}
	if len(ff.Flows) != len(want) {
		t.Fatalf("%d flows, want %d: %+v", len(ff.Flows), len(want), ff.Flows)
	}
	for i := range want {
		if ff.Flows[i] != want[i] {
			t.Errorf("flow %d: %+v, want %+v", i, ff.Flows[i], want[i])
		}
	}
	if ff, err := ParseFlowFile("crlf.txt", strings.NewReader("1\r\n0 1 3 100 10 0\r\n")); err != nil || len(ff.Flows) != 1 {
		t.Errorf("CRLF lines: %v, %v", ff, err)
	}
	if ff, err := ParseFlowFile("e.txt", strings.NewReader("0\n")); err != nil || len(ff.Flows) != 0 {
		t.Errorf("empty count: %v, %v", ff, err)
	}
}

// TestParseFlowFileRefuses: every bad file is refused in one line that
// names the file and the offending line.
func TestParseFlowFileRefuses(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"empty", "", `line 1: no flow count`},
		{"count not a number", "two\n0 1 3 100 10 0\n", `line 1: first line "two"`},
		{"negative count", "-1\n", `line 1: first line`},
		{"count with more fields", "1 0\n0 1 3 100 10 0\n", `line 1: first line`},
		{"too few flows", "3\n0 1 3 100 10 0\n\n1 0 3 100 10 0\n", `line 4: the first line counts 3 flows but the file has 2`},
		{"five fields", "1\n0 1 3 100 10\n", `line 2: 5 fields`},
		{"non-numeric src", "1\nA 1 3 100 10 0\n", `line 2: src "A"`},
		{"non-numeric size", "1\n0 1 3 100 1e3 0\n", `line 2: size "1e3"`},
		{"non-numeric start", "1\n0 1 3 100 10 soon\n", `line 2: start_time "soon"`},
		{"NaN start", "1\n0 1 3 100 10 NaN\n", `line 2: start_time "NaN"`},
		{"src == dst", "2\n0 1 3 100 10 0\n4 4 3 100 10 0\n", `line 3: src and dst are both node 4`},
		{"negative host", "1\n-1 1 3 100 10 0\n", `line 2: src "-1"`},
		{"priority 8", "1\n0 1 8 100 10 0\n", `line 2: priority "8"`},
		{"port", "1\n0 1 3 65536 10 0\n", `line 2: dport "65536"`},
		{"zero size", "1\n0 1 3 100 0 0\n", `line 2: size "0"`},
		{"negative start", "1\n0 1 3 100 10 -0.5\n", `line 2: start_time -0.5 s is negative`},
		{"infinite start", "1\n0 1 3 100 10 1e400\n", `line 2: start_time 1e400 s is beyond`},
		{"descending", "2\n0 1 3 100 10 0.2\n1 0 3 100 10 0.1\n", `line 3: start 0.1 s is before the previous flow's (line 2, 0.2 s)`},
		{"control character", "1\n0\x01 1 3 100 10 0\n", `line 2: src "0\x01"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseFlowFile("bad.txt", strings.NewReader(c.text))
			if err == nil {
				t.Fatal("accepted")
			}
			msg := err.Error()
			if strings.ContainsAny(msg, "\n\r") || !strings.HasPrefix(msg, `flows_file "bad.txt" `) || !strings.Contains(msg, c.want) {
				t.Fatalf("message %q; want one line naming the file and containing %q", msg, c.want)
			}
		})
	}
}

// TestReplaysMapHosts: host indices map onto the fabric's hosts; an id
// past them, or a flow starting at the end of the run, is refused naming
// the line.
func TestReplaysMapHosts(t *testing.T) {
	hosts := []netsim.NodeID{10, 11, 12, 13}
	ff, err := ParseFlowFile("m.txt", strings.NewReader("2\n0 3 3 100 10 0\n2 1 0 7 20 0.001\n"))
	if err != nil {
		t.Fatal(err)
	}
	rs, err := ff.Replays(IndexHostMap(hosts), netsim.Second)
	if err != nil {
		t.Fatal(err)
	}
	want := []Replay{{Src: 10, Dst: 13, Size: 10, DPort: 100, Priority: 3}, {Src: 12, Dst: 11, Size: 20, Start: netsim.Millisecond, DPort: 7}}
	for i := range want {
		if rs[i] != want[i] {
			t.Errorf("replay %d: %+v, want %+v", i, rs[i], want[i])
		}
	}
	if _, err := ff.Replays(IndexHostMap(hosts[:3]), netsim.Second); err == nil || !strings.Contains(err.Error(), `"m.txt" line 2: dst 3 is not a host (the fabric's 3 hosts, numbered 0 to 2`) {
		t.Errorf("host out of range: %v", err)
	}
	if _, err := ff.Replays(IndexHostMap(hosts), netsim.Millisecond); err == nil || !strings.Contains(err.Error(), `line 3: start 0.001 s is not before the end of the run`) {
		t.Errorf("start at the end: %v", err)
	}
	// A topology file's ids: hosts named by their node ids.
	m := &HostMap{Hosts: hosts, IDs: []int{4, 5, 6, 7}}
	if h, ok := m.Node(6); !ok || h != 12 {
		t.Errorf("Node(6) = %d, %v", h, ok)
	}
	if _, ok := m.Node(0); ok {
		t.Error("Node(0) found in a map of ids 4-7")
	}
	if id, ok := m.FileID(13); !ok || id != 7 {
		t.Errorf("FileID(13) = %d, %v", id, ok)
	}
}

// FuzzParseFlowFile: any flow file is refused in one line naming it, or
// read as flows with distinct hosts, sizes in range, priorities and ports
// in range and starts non-negative and non-decreasing, no more than the
// count.
func FuzzParseFlowFile(f *testing.F) {
	fuzzcheck.Seeds(f,
		"2\n2 1 3 100 200000000 2\n3 1 3 100 200000000 2\n4 1 3 100 150000000 2\n",
		"0\n",
		"1\n0 1 3 100 10 0\n",
		"3\n0 1 3 100 10 0\n",
		"1\n0 0 3 100 10 0\n",
		"1\n0 1 3 100 10 -1\n",
		"2\n0 1 3 100 10 1\n0 1 3 100 10 0.5\n",
		"1\n0 1 3 100 10 1e400\n",
		"x\n",
		"",
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		ff, err := ParseFlowFile("fuzz", strings.NewReader(string(data)))
		if fuzzcheck.Refused(t, err, `flows_file "fuzz" line `) {
			return
		}
		prev := netsim.Time(0)
		for _, fl := range ff.Flows {
			if fl.Src == fl.Dst || fl.Src < 0 || fl.Dst < 0 || fl.Size <= 0 || fl.Size > FlowFileMaxSize ||
				fl.Priority < 0 || fl.Priority >= FlowFilePriorities || fl.DPort < 0 || fl.DPort > 65535 || fl.Start < prev {
				t.Fatalf("accepted a bad flow %+v (previous start %v)", fl, prev)
			}
			prev = fl.Start
		}
	})
}
