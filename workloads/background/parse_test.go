package background

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseFormats(t *testing.T) {
	want := []Point{{0, 0}, {100, 0.5}, {300, 1}}
	cases := []struct {
		name       string
		text       string
		headerMean float64
	}{
		{"hpcc percent", "0 0\n100 50\n300 100\n", 0},
		{"hpcc without final newline", "0 0\n100 50\n300 100", 0},
		// Step mean: 100*0.5 + 300*0.5 = 200.
		{"homa fraction with header", "200\n0 0\n100 0.5\n300 1\n", 200},
		{"homa header rounded within 0.1%", "200.1\n0 0\n100 0.5\n300 1.0\n", 200.1},
		{"tabs, runs of spaces, comments, blank lines", "# flow sizes\n\n200   # mean\n0\t0\n100    0.5\n\n300 1 # last\n", 200},
		{"crlf line ends", "0 0\r\n100 50\r\n300 100\r\n", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParseBytes("x", []byte(tc.text))
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Points(); !slices.Equal(got, want) {
				t.Errorf("points = %v, want %v", got, want)
			}
			if c.HeaderMean() != tc.headerMean {
				t.Errorf("HeaderMean = %v, want %v", c.HeaderMean(), tc.headerMean)
			}
			if c.Mean() != 125 {
				t.Errorf("Mean = %v, want 125 (linear reading, whatever the format)", c.Mean())
			}
		})
	}
}

func TestParseRejectsMalformedFiles(t *testing.T) {
	cases := []struct {
		name, text, want string
	}{
		{"empty", "", "no data points"},
		{"only comments", "# nothing\n\n", "no data points"},
		{"header only", "123.4\n", "no data points"},
		{"three fields", "0 0\n100 50 7\n300 100\n", "line 2: want two fields"},
		{"second single-field line", "200\n0 0\n7\n300 1\n", "line 3: want two fields"},
		{"size not a number", "0 0\nabc 50\n300 100\n", "line 2: size"},
		{"probability not a number", "0 0\n100 half\n300 100\n", "line 2: cumulative probability"},
		{"nan size", "0 0\nNaN 50\n300 100\n", "not a finite number"},
		{"infinite probability", "0 0\n100 +Inf\n", "not a finite number"},
		{"zero header", "0\n0 0\n300 1\n", "not a positive mean"},
		{"negative header", "-5\n0 0\n300 1\n", "not a positive mean"},
		{"header disagrees with points", "250\n0 0\n100 0.5\n300 1\n", "disagrees with the step mean"},
		{"percent not reaching 100", "0 0\n100 50\n300 90\n", "want 1"},
		{"fractions without header", "0 0\n100 0.5\n300 1\n", "without a mean header line"},
		{"percent above 100", "0 0\n100 50\n300 120\n", "outside [0, 1]"},
		{"homa fractions above 1", "200\n0 0\n100 50\n300 100\n", "fraction, Homa format"},
		{"decreasing sizes", "0 0\n300 50\n100 100\n", "below the previous size"},
		{"decreasing cdf", "0 0\n100 60\n200 50\n300 100\n", "must not decrease"},
		{"negative size", "-1 0\n300 100\n", "non-negative"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseBytes("bad", []byte(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
			if !strings.Contains(err.Error(), `"bad"`) {
				t.Errorf("err = %v does not name the file", err)
			}
		})
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mine.cdf")
	if err := os.WriteFile(path, []byte("0 0\n1000 100\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.Name() != "mine" || c.Mean() != 500 {
		t.Errorf("name %q mean %v, want mine, 500", c.Name(), c.Mean())
	}
	if _, err := ReadFile(filepath.Join(dir, "missing.cdf")); err == nil {
		t.Error("missing file: no error")
	}
}

func TestWorkloadNames(t *testing.T) {
	want := []string{"hadoop", "cachefollower", "websearch", "hadoop-homa", "cachefollower-coarse"}
	if got := Names(); !slices.Equal(got, want) {
		t.Fatalf("Names = %v, want %v", got, want)
	}
	for _, n := range want {
		c, err := Workload(n)
		if err != nil {
			t.Fatalf("Workload(%q): %v", n, err)
		}
		if c.Name() != n || WorkloadSummary(n) == "" {
			t.Errorf("Workload(%q): name %q, summary %q", n, c.Name(), WorkloadSummary(n))
		}
	}
	_, err := Workload("memcache")
	if err == nil {
		t.Fatal("unknown workload: no error")
	}
	for _, n := range want {
		if !strings.Contains(err.Error(), n) {
			t.Errorf("error %q does not list %q", err, n)
		}
	}
}

// The coarse cache-follower file has no "0 0" point: it starts at 68 B with
// CDF 0.0204, which becomes a point mass of 0.0204 at 68 B.
func TestCoarseFileLowerEnd(t *testing.T) {
	c, err := Workload("cachefollower-coarse")
	if err != nil {
		t.Fatal(err)
	}
	if c.Min() != 68 || !near(c.Prob(68), 0.0204, 1e-12) || c.Prob(67) != 0 {
		t.Errorf("Min %v, Prob(68) %v, Prob(67) %v; want 68, 0.0204, 0", c.Min(), c.Prob(68), c.Prob(67))
	}
	if c.HeaderMean() != 718204.9 {
		t.Errorf("HeaderMean = %v, want 718204.9", c.HeaderMean())
	}
}

// The embedded files are byte-for-byte the files SOURCES.md describes: their
// SHA-256 digests match the table there.
func TestEmbeddedFilesMatchSources(t *testing.T) {
	f, err := os.Open("data/SOURCES.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	digests := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "|")
		if len(cols) < 8 || !strings.HasSuffix(strings.TrimSpace(cols[1]), ".cdf`") {
			continue
		}
		file := strings.Trim(strings.TrimSpace(cols[1]), "`")
		digests[file] = strings.TrimSpace(cols[len(cols)-2])
	}
	for _, w := range workloadFiles {
		b, err := data.ReadFile("data/" + w.file)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		if got, want := hex.EncodeToString(sum[:]), digests[w.file]; got != want {
			t.Errorf("%s: sha256 %s, SOURCES.md says %q", w.file, got, want)
		}
	}
}
