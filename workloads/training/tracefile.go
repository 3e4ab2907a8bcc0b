package training

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"syncsim/netsim"
)

// ReadTrace reads measured per-iteration compute times, one number of
// seconds per line (blank lines and lines starting with '#' are skipped),
// and returns them as an Empirical distribution that trusts its data from
// the first sample. It is how users replace the parametric CNN and
// Transformer approximations with their own traces. Every time must be
// one the simulated clock holds (netsim.CheckSeconds).
func ReadTrace(r io.Reader) (*Empirical, error) {
	e := NewEmpirical(1, nil)
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		x, err := strconv.ParseFloat(t, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || x <= 0 {
			return nil, fmt.Errorf("trace line %d: %q is not a positive number of seconds", line, t)
		}
		if err := netsim.CheckSeconds(x); err != nil {
			return nil, fmt.Errorf("trace line %d: %w", line, err)
		}
		e.Observe(x)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("trace: %w", err)
	}
	if e.Len() == 0 {
		return nil, fmt.Errorf("trace: no samples")
	}
	return e, nil
}

// ReadTraceFile reads the trace file at path (see ReadTrace). Errors name
// the file.
func ReadTraceFile(path string) (*Empirical, error) {
	return readFile(path, ReadTrace)
}

// readFile opens path and parses it with read; a parse error names the
// file.
func readFile[T any](path string, read func(io.Reader) (T, error)) (T, error) {
	f, err := os.Open(path)
	if err != nil {
		var zero T
		return zero, err
	}
	defer f.Close()
	v, err := read(f)
	if err != nil {
		return v, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}
