package mixed

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"syncsim/experiments"
)

// TestMixedFabricFlowFile replays a flow file beside an INA job and a
// ring job (mixedTiny without its drawn background) on the parallel
// engine at one thread and at two: every flow of the file starts and
// completes, fct.txt has one line per flow with the file's hosts (by the
// analysis script's ip-to-id conversion), size and start, and the two
// runs write the same bytes.
func TestMixedFabricFlowFile(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "flow.txt")
	// 12 flows around the jobs' start (bg_warmup_ms = 12 ms), crossing
	// the hosts the jobs use.
	var b strings.Builder
	const n = 12
	fmt.Fprintf(&b, "%d\n", n)
	type flow struct{ src, dst, size, startNs int }
	var flows []flow
	for i := 0; i < n; i++ {
		f := flow{src: i % 8, dst: (i*3 + 1 + i%8) % 8, size: 2000 + 37000*i, startNs: 11_950_000 + 20_000*i}
		if f.dst == f.src {
			f.dst = (f.src + 5) % 8
		}
		flows = append(flows, f)
		fmt.Fprintf(&b, "%d %d 3 100 %d %s\n", f.src, f.dst, f.size, strconv.FormatFloat(float64(f.startNs)/1e9, 'f', 9, 64))
	}
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var fct [2]string
	for k, threads := range []int{1, 2} {
		out := filepath.Join(dir, fmt.Sprintf("fct%d.txt", threads))
		m := runMixed(t, threads, mixedSets("flows_file="+in, "fct_out="+out, "engine=partitioned", "warmup_ms=0")...).Metrics
		if m["flows_started"] != n || m["flows_done"] != n {
			t.Fatalf("threads %d: %v flows started, %v done; want %d", threads, m["flows_started"], m["flows_done"], n)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		fct[k] = string(data)
	}
	if fct[0] != fct[1] {
		t.Error("fct.txt differs between one thread and two")
	}
	lines := strings.Split(strings.TrimSpace(fct[0]), "\n")
	if len(lines) != n {
		t.Fatalf("%d lines, want %d", len(lines), n)
	}
	seen := map[int]bool{}
	for _, l := range lines {
		f := strings.Fields(l)
		sip, _ := strconv.ParseUint(f[0], 16, 32)
		dip, _ := strconv.ParseUint(f[1], 16, 32)
		size, _ := strconv.Atoi(f[4])
		start, _ := strconv.Atoi(f[5])
		src, dst := int(sip>>8)&0xffff, int(dip>>8)&0xffff
		found := false
		for i, fl := range flows {
			if !seen[i] && fl.src == src && fl.dst == dst && fl.size == size && fl.startNs == start {
				seen[i], found = true, true
				break
			}
		}
		if !found {
			t.Errorf("line %q matches no flow of the file", l)
		}
	}
}

// TestMixedFabricFCTNeedsBackground: fct_out without background flows is
// refused, not silently empty.
func TestMixedFabricFCTNeedsBackground(t *testing.T) {
	e := MixedFabric()
	sets := append([]string{"fct_out=" + filepath.Join(t.TempDir(), "f.txt")}, mixedTiny[:len(mixedTiny)-1]...)
	ps, err := e.Resolve(append(sets, "load=0"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(&experiments.Run{Exp: e, Params: ps, Seed: 1}); err == nil || !strings.Contains(err.Error(), "fct_out") {
		t.Errorf("fct_out without background: %v", err)
	}
}
