package layers

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"syncsim/netsim"
)

// maxLayerBytes bounds one layer's size (1 TB) so sums cannot overflow.
const maxLayerBytes = 1e12

// maxLayerMs bounds one layer's time (one day) for the same reason.
const maxLayerMs = 86400e3

// Read reads a user's layer table: CSV with a header naming the columns
// layer, params or bytes (one of the two), forward_ms and backward_ms, in
// any order, then one row per layer, input side first. params counts fp32
// parameters (4 bytes each); bytes is the gradient size. Lines starting
// with '#' are comments. Errors name the line: a missing or unknown
// column, a size that is not a non-negative whole number, a time that is
// negative or not finite, no layers, layers whose compute adds up past
// the simulated clock's end.
func Read(r io.Reader, name string) (Model, error) {
	cr := csv.NewReader(r)
	cr.Comment = '#'
	cr.TrimLeadingSpace = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return Model{}, fmt.Errorf("no header: want layer,params|bytes,forward_ms,backward_ms")
	}
	if err != nil {
		return Model{}, csvErr(err)
	}
	hline, _ := cr.FieldPos(0)
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(h))
		switch h {
		case "layer", "params", "bytes", "forward_ms", "backward_ms":
		default:
			return Model{}, fmt.Errorf("line %d: unknown column %q (want layer,params|bytes,forward_ms,backward_ms)", hline, h)
		}
		if _, dup := col[h]; dup {
			return Model{}, fmt.Errorf("line %d: column %q twice", hline, h)
		}
		col[h] = i
	}
	_, hasP := col["params"]
	_, hasB := col["bytes"]
	if hasP == hasB {
		return Model{}, fmt.Errorf("line %d: want exactly one of the columns params and bytes", hline)
	}
	for _, c := range []string{"layer", "forward_ms", "backward_ms"} {
		if _, ok := col[c]; !ok {
			return Model{}, fmt.Errorf("line %d: missing column %q (want layer,params|bytes,forward_ms,backward_ms)", hline, c)
		}
	}
	sizeCol := "bytes"
	if hasP {
		sizeCol = "params"
	}
	m := Model{Name: name, Source: "file " + name}
	var bytes, compute float64 // running totals, bytes and seconds
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Model{}, csvErr(err)
		}
		line, _ := cr.FieldPos(0)
		l, err := parseRow(rec, col, sizeCol)
		if err != nil {
			return Model{}, fmt.Errorf("line %d: %w", line, err)
		}
		// Each layer is bounded; their sums must fit too (107 layers
		// of a day each pass the simulated clock's end).
		bytes += float64(l.Bytes)
		compute += (l.Forward + l.Backward).Seconds()
		if err := netsim.CheckBytes(bytes); err != nil {
			return Model{}, fmt.Errorf("line %d: the layers' bytes so far: %w", line, err)
		}
		if err := netsim.CheckSeconds(compute); err != nil {
			return Model{}, fmt.Errorf("line %d: the layers' compute so far: %w", line, err)
		}
		m.Layers = append(m.Layers, l)
	}
	if len(m.Layers) == 0 {
		return Model{}, fmt.Errorf("no layers after the header")
	}
	if m.Bytes() == 0 {
		return Model{}, fmt.Errorf("every layer has 0 bytes: nothing to synchronise")
	}
	return m, nil
}

// csvErr words encoding/csv's error as "line N: what".
func csvErr(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("line %d: %v", pe.Line, pe.Err)
	}
	return err
}

// parseRow reads one layer.
func parseRow(rec []string, col map[string]int, sizeCol string) (Layer, error) {
	get := func(c string) string { return strings.TrimSpace(rec[col[c]]) }
	name := get("layer")
	if name == "" {
		return Layer{}, fmt.Errorf("empty layer name")
	}
	s := get(sizeCol)
	n, err := strconv.ParseFloat(s, 64)
	if err != nil || !(n >= 0) || n != math.Trunc(n) || n > maxLayerBytes {
		return Layer{}, fmt.Errorf("layer %q: %s %q is not a whole number in 0..1e12", name, sizeCol, s)
	}
	if sizeCol == "params" {
		n *= 4
		if n > maxLayerBytes {
			return Layer{}, fmt.Errorf("layer %q: %s %q is more than 1e12 bytes", name, sizeCol, s)
		}
	}
	l := Layer{Name: name, Bytes: netsim.Bytes(n)}
	for _, c := range []string{"forward_ms", "backward_ms"} {
		s := get(c)
		ms, err := strconv.ParseFloat(s, 64)
		if err != nil || !(ms >= 0) || ms > maxLayerMs {
			return Layer{}, fmt.Errorf("layer %q: %s %q is not a finite time in 0..86400000 ms", name, c, s)
		}
		if c == "forward_ms" {
			l.Forward = netsim.FromMillis(ms)
		} else {
			l.Backward = netsim.FromMillis(ms)
		}
	}
	return l, nil
}

// ReadFile reads the layer table at path (see Read); errors name the file
// and the line, as "PATH:LINE: what".
func ReadFile(path string) (Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return Model{}, fmt.Errorf("model_file: %w", err)
	}
	defer f.Close()
	m, err := Read(f, path)
	if err != nil {
		msg := err.Error()
		if strings.HasPrefix(msg, "line ") {
			return Model{}, fmt.Errorf("model_file %s:%s", path, strings.TrimPrefix(msg, "line "))
		}
		return Model{}, fmt.Errorf("model_file %s: %s", path, msg)
	}
	return m, nil
}
