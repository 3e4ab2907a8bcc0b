package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"syncsim/netsim"
	"syncsim/topologies"
)

// TestWrites: the command writes a fat-tree that reads back with the
// sizes, rates and delay asked for, to standard output or a file, and
// refuses an odd k and stray arguments.
func TestWrites(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-k", "4", "-hosts-per-edge", "3", "-host-gbps", "25", "-delay-us", "1.5"}, &out); err != nil {
		t.Fatal(err)
	}
	tf, err := topologies.ReadTopology(&out)
	if err != nil {
		t.Fatal(err)
	}
	// 8 edges x 3 hosts, 8 edge + 8 aggregation + 4 core switches.
	if tf.Nodes != 24+20 || len(tf.Links) != 24+16+16 {
		t.Fatalf("%d nodes, %d links", tf.Nodes, len(tf.Links))
	}
	if l := tf.Links[0]; l.Rate != 25*netsim.Gbps || l.Delay != 1500*netsim.Nanosecond {
		t.Errorf("host link %+v", l)
	}
	if l := tf.Links[len(tf.Links)-1]; l.Rate != 100*netsim.Gbps {
		t.Errorf("core link %+v", l)
	}
	path := filepath.Join(t.TempDir(), "ft.txt")
	if err := run([]string{"-k", "2", "-o", path}, nil); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || !strings.HasPrefix(string(b), "7 5 6\n") {
		t.Errorf("k = 2 file: %q, %v", b, err)
	}
	if err := run([]string{"-k", "5"}, &out); err == nil || !strings.Contains(err.Error(), "odd") {
		t.Errorf("k = 5: %v", err)
	}
	if err := run([]string{"-k", "4", "extra"}, &out); err == nil {
		t.Error("stray argument accepted")
	}
}
