package layers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"syncsim/netsim"
)

func TestReadTable(t *testing.T) {
	m, err := Read(strings.NewReader("# a comment\nlayer,params,forward_ms,backward_ms\nconv1,1000,1.5,3\nfc, 250 ,0.5,1\n"), "x")
	if err != nil {
		t.Fatal(err)
	}
	want := []Layer{
		{Name: "conv1", Bytes: 4000, Forward: netsim.FromMillis(1.5), Backward: 3 * netsim.Millisecond},
		{Name: "fc", Bytes: 1000, Forward: netsim.FromMillis(0.5), Backward: netsim.Millisecond},
	}
	if len(m.Layers) != len(want) {
		t.Fatalf("%d layers", len(m.Layers))
	}
	for i, l := range m.Layers {
		if l != want[i] {
			t.Errorf("layer %d = %+v, want %+v", i, l, want[i])
		}
	}
	// bytes instead of params, columns in another order.
	m, err = Read(strings.NewReader("backward_ms,forward_ms,bytes,layer\n2,1,4096,a\n"), "y")
	if err != nil || m.Bytes() != 4096 || m.Forward() != netsim.Millisecond || m.Backward() != 2*netsim.Millisecond {
		t.Fatalf("%+v, %v", m, err)
	}
}

func TestReadTableErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "no header"},
		{"missing column", "layer,params,forward_ms\nx,1,1\n", `line 1: missing column "backward_ms"`},
		{"both sizes", "layer,params,bytes,forward_ms,backward_ms\n", "line 1: want exactly one"},
		{"unknown column", "layer,params,forward_ms,backward_ms,gpu\n", `line 1: unknown column "gpu"`},
		{"negative time", "layer,params,forward_ms,backward_ms\na,1,1,1\nb,1,-1,1\n", `line 3: layer "b": forward_ms "-1"`},
		{"nan", "layer,params,forward_ms,backward_ms\na,1,1,NaN\n", `line 2: layer "a": backward_ms "NaN"`},
		{"inf", "layer,params,forward_ms,backward_ms\na,1,Inf,1\n", `line 2: layer "a": forward_ms "Inf"`},
		{"fraction", "layer,params,forward_ms,backward_ms\na,1.5,1,1\n", `line 2: layer "a": params "1.5"`},
		{"negative size", "layer,bytes,forward_ms,backward_ms\na,-4,1,1\n", `line 2: layer "a": bytes "-4"`},
		{"zero layers", "layer,params,forward_ms,backward_ms\n# none\n", "no layers"},
		{"zero bytes", "layer,params,forward_ms,backward_ms\na,0,1,1\n", "nothing to synchronise"},
		{"short row", "layer,params,forward_ms,backward_ms\na,1,1\n", "line 2: wrong number of fields"},
		{"empty name", "layer,params,forward_ms,backward_ms\n,1,1,1\n", "line 2: empty layer name"},
		{"control character in a name", "layer,params,forward_ms,backward_ms\n0\r0,,,\n", `layer "0\r0": params ""`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.in), "f")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error of more than one line: %q", err)
			}
		})
	}
}

// ReadFile names the file and the line; an unreadable file is one line too.
func TestReadFileNamesFileAndLine(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "m.csv")
	if err := os.WriteFile(p, []byte("layer,params,forward_ms,backward_ms\na,1,1,1\nb,1,1,-2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(p)
	if err == nil || !strings.HasPrefix(err.Error(), "model_file "+p+":3: layer \"b\": backward_ms") {
		t.Fatalf("error %v", err)
	}
	_, err = ReadFile(filepath.Join(dir, "none.csv"))
	if err == nil || !strings.Contains(err.Error(), "none.csv") {
		t.Fatalf("error %v", err)
	}
}

// The example table that the docs point users to reads as written.
func TestExampleFile(t *testing.T) {
	m, err := ReadFile("testdata/example.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Layers) != 5 || m.Params() != 24_507_752 {
		t.Errorf("%d layers, %v params", len(m.Layers), m.Params())
	}
}
