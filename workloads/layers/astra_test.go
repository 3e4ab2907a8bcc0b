package layers

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"syncsim/internal/fuzzcheck"
	"syncsim/netsim"
)

// TestReadAstraTable: the hand-written file reads to the table worked out
// by hand (cycles at 1 GHz are nanoseconds; each layer's backward is its
// weight gradient plus the next layer's input gradient; conv1's input
// gradient is dropped), and to exactly the model its CSV twin reads to.
func TestReadAstraTable(t *testing.T) {
	m, err := ReadAstraFile("testdata/astra_data.txt", DefaultWorkloadGHz)
	if err != nil {
		t.Fatal(err)
	}
	ms := func(x float64) netsim.Time { return netsim.FromMillis(x) }
	want := []Layer{
		{Name: "conv1", Bytes: 37632, Forward: ms(2), Backward: ms(3.5)},
		{Name: "relu1", Bytes: 0, Forward: ms(0.5), Backward: ms(0.7)},
		{Name: "fc", Bytes: 4004000, Forward: ms(1), Backward: ms(1.2)},
	}
	if len(m.Layers) != len(want) {
		t.Fatalf("%d layers, want %d", len(m.Layers), len(want))
	}
	for i, l := range m.Layers {
		if l != want[i] {
			t.Errorf("layer %d = %+v, want %+v", i, l, want[i])
		}
	}
	// Forward 2 + 0.5 + 1 = 3.5 ms; backward the file's 6.9 ms of
	// gradient cycles less conv1's 1.5 ms input gradient, 5.4 ms.
	if m.Forward() != ms(3.5) || m.Backward() != ms(5.4) {
		t.Errorf("forward %v backward %v, want 3.5ms 5.4ms", m.Forward(), m.Backward())
	}
	csv, err := ReadFile("testdata/astra_data.csv")
	if err != nil {
		t.Fatal(err)
	}
	for i := range csv.Layers {
		if csv.Layers[i] != m.Layers[i] {
			t.Errorf("layer %d: CSV %+v, workload %+v", i, csv.Layers[i], m.Layers[i])
		}
	}
	// At 2 GHz every time halves.
	h, err := ReadAstraFile("testdata/astra_data.txt", 2)
	if err != nil || 2*h.Compute() != m.Compute() || h.Bytes() != m.Bytes() {
		t.Errorf("2 GHz: compute %v (1 GHz %v), %v", h.Compute(), m.Compute(), err)
	}
}

func TestReadAstraErrors(t *testing.T) {
	line := "l -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 8 1"
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "empty"},
		{"unknown parallelism", "DATUM\n1\n" + line, `line 1: unknown parallelism "DATUM"`},
		{"hybrid", "HYBRID_TRANSFORMER model_parallel_NPU_group: 8\n1\n" + line, "line 1: parallelism HYBRID_TRANSFORMER is not read"},
		{"no count", "DATA\n", "line 1: no layer count"},
		{"bad count", "DATA\nthree\n" + line, `line 2: layer count "three"`},
		{"too few layers", "DATA\n2\n" + line + "\n", "line 3: 1 layer lines, but line 2 counts 2"},
		{"too many layers", "DATA\n1\n" + line + "\n\n" + line + "\n", "line 5: 2 layer lines, but line 2 counts 1"},
		{"missing field", "DATA\n1\nl -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 8\n", "line 3: 11 fields, want 12"},
		{"negative time", "DATA\n1\nl -1 1 NONE 0 -4 NONE 0 1 ALLREDUCE 8 1\n", `line 3: layer "l": input-gradient compute "-4" is negative`},
		{"fractional bytes", "DATA\n1\nl -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 8.5 1\n", `weight-gradient bytes "8.5" is not a whole number`},
		{"unknown comm", "DATA\n1\nl -1 1 NONE 0 1 NONE 0 1 ALLREDUSE 8 1\n", `weight-gradient communication "ALLREDUSE" is not a communication type`},
		{"forward comm", "DATA\n1\nl -1 1 ALLGATHER 64 1 NONE 0 1 ALLREDUCE 8 1\n", "forward communication ALLGATHER of 64 bytes: DATA parallelism communicates only weight gradients"},
		{"wg alltoall", "DATA\n1\nl -1 1 NONE 0 1 NONE 0 1 ALLTOALL 8 1\n", "weight-gradient communication ALLTOALL: DATA parallelism all-reduces"},
		{"no gradient", "DATA\n1\nl -1 1 NONE 0 1 NONE 0 1 NONE 8 1\n", "nothing to synchronise"},
		{"too long", "DATA\n1\nl -1 1 NONE 0 1 NONE 0 99999999999999999 ALLREDUCE 8 1\n", "more than a day"},
		{"control name", "DATA\n1\n\"a\x01\" -1 -1 NONE 0 1 NONE 0 1 ALLREDUCE 8 1\n", `forward compute "-1" is negative`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadAstra(strings.NewReader(tc.in), "x", 1)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Errorf("error spans lines: %q", err)
			}
		})
	}
	if _, err := ReadAstra(strings.NewReader("DATA\n1\n"+line), "x", 0); err == nil {
		t.Error("0 GHz accepted")
	}
}

// TestReadAstraFileNamesFileAndLine: errors read "workload_file PATH:LINE:".
func TestReadAstraFileNamesFileAndLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "w.txt")
	if err := os.WriteFile(p, []byte("DATA\n1\nl -1 1 NONE 0 1 NONE 0 1 ALLREDUCE\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadAstraFile(p, 1)
	if err == nil || !strings.HasPrefix(err.Error(), "workload_file "+p+":3: ") {
		t.Fatalf("error %v", err)
	}
	if _, err := ReadAstraFile(filepath.Join(t.TempDir(), "absent"), 1); err == nil || !strings.HasPrefix(err.Error(), "workload_file: open ") {
		t.Fatalf("absent file: %v", err)
	}
	if _, _, err := LoadFile("a.csv", p, 1); err == nil || !strings.Contains(err.Error(), "both") {
		t.Fatalf("both files: %v", err)
	}
	if _, ok, err := LoadFile(" ", "", 1); ok || err != nil {
		t.Fatalf("neither file: %v %v", ok, err)
	}
}

// FuzzReadAstra: any input is refused with a one-line error, or read into
// a model that passes Check, with non-negative times whose sum fits the
// simulated clock.
func FuzzReadAstra(f *testing.F) {
	fuzzcheck.Seeds(f,
		"DATA\n1\nl -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 8 1\n",
		"DATA\n2\na -1 5 NONE 0 5 NONE 0 5 ALLREDUCE 1048576 5\nb -1 0 NONE 0 0 NONE 0 0 NONE 0 0\n",
		"MICRO\n1\nconv1 -1 5 NONE 0 5 NONE 0 5  ALLREDUCE 64 5\n",
		"DATA\n1\nl -1 1 NONE 0 -1 NONE 0 1 ALLREDUCE 8 1\n",
		"DATA\n0\n",
		"",
		"DATA\n1\nl -1 86400000000000 NONE 0 86400000000000 NONE 0 86400000000000 ALLREDUCE 1000000000000 1\n",
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadAstra(bytes.NewReader(data), "fuzz", 1)
		if fuzzcheck.Refused(t, err, "") {
			return
		}
		if c := m.Compute(); c < 0 || c >= netsim.Never {
			t.Fatalf("compute %v past the clock", c)
		}
		if err := m.Check(); err != nil {
			t.Fatalf("accepted a model that fails Check: %v", err)
		}
	})
}
