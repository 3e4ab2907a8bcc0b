package ina

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"syncsim/experiments"
)

// TestLeafSpineFlowFile replays a flow file as ina-leafspine's background
// on the parallel engine at one thread and at two: every flow, all
// starting before the job does (bg_warmup_ms), has one fct.txt line with
// the file's hosts, size and start, host_load is NaN (a file, not a
// load), and the two runs write the same bytes.
func TestLeafSpineFlowFile(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "flow.txt")
	const n = 10
	var b strings.Builder
	fmt.Fprintf(&b, "%d\n", n)
	want := map[string]bool{}
	for i := 0; i < n; i++ {
		src, dst, size, start := i%8, (i+3)%8, 1000+20000*i, 100_000+150_000*i // ns
		fmt.Fprintf(&b, "%d %d 3 100 %d %s\n", src, dst, size, strconv.FormatFloat(float64(start)/1e9, 'f', 9, 64))
		want[fmt.Sprintf("%08x %08x %d %d", 0x0b000001+src*0x100, 0x0b000001+dst*0x100, size, start)] = true
	}
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	e := lookup(t, "ina-leafspine")
	var out [2]string
	for k, threads := range []int{1, 2} {
		path := filepath.Join(dir, fmt.Sprintf("fct%d.txt", threads))
		ps, err := e.Resolve([]string{"spines=2", "leaves=2", "hosts_per_leaf=4", "jobs=1", "workers=4", "run_length=quick",
			"bg_warmup_ms=2", "engine=partitioned", "flows_file=" + in, "fct_out=" + path})
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Run(&experiments.Run{Exp: e, Params: ps, Seed: 1, Check: true, Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		if h := res.Metrics["host_load"]; h == h {
			t.Errorf("host_load %v with a flow file; want NaN", h)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out[k] = string(data)
	}
	if out[0] != out[1] {
		t.Error("fct.txt differs between one thread and two")
	}
	lines := strings.Split(strings.TrimSpace(out[0]), "\n")
	if len(lines) != n {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), n, out[0])
	}
	for _, l := range lines {
		f := strings.Fields(l)
		key := strings.Join([]string{f[0], f[1], f[4], f[5]}, " ")
		if !want[key] {
			t.Errorf("line %q matches no flow of the file", l)
		}
		delete(want, key)
	}
}
