package background

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// headerTolerance is the relative slack allowed between a Homa-format file's
// header mean and the step mean of its points. The embedded files agree to
// the printed digit; the slack forgives a header rounded to a few digits.
const headerTolerance = 1e-3

// Parse reads a flow-size CDF in either of the two formats described in
// data/SOURCES.md and tells them apart by the first data line:
//
//   - HPCC format: no header; every line is "<size_bytes> <cdf_percent>",
//     with the CDF in percent, ending at 100.
//   - Homa-simulator format: the first line holds one number, the mean
//     size in bytes; every later line is "<size_bytes> <cdf_fraction>",
//     with the CDF as a fraction, ending at 1. The header is checked
//     against the step mean of the points, sum x_i (p_i - p_{i-1}), which
//     is how Homa computes it.
//
// Fields are separated by any run of spaces or tabs. Blank lines and text
// after '#' are ignored. Both formats are then read as one piecewise-linear
// CDF (see CDF). name labels errors and the result.
func Parse(name string, r io.Reader) (*CDF, error) {
	sc := bufio.NewScanner(r)
	var (
		pts        []Point
		scale      = 0.0 // 0 until the format is known
		headerMean = 0.0
		line       = 0
	)
	for sc.Scan() {
		line++
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		if scale == 0 && len(f) == 1 {
			m, err := parseNumber(f[0])
			if err != nil || m <= 0 {
				return nil, fmt.Errorf("cdf %q line %d: header %q is not a positive mean size in bytes", name, line, f[0])
			}
			headerMean, scale = m, 1
			continue
		}
		if len(f) != 2 {
			return nil, fmt.Errorf("cdf %q line %d: want two fields \"<size_bytes> <cdf>\", got %d", name, line, len(f))
		}
		if scale == 0 {
			scale = 100 // no header: HPCC format, percent
		}
		x, err := parseNumber(f[0])
		if err != nil {
			return nil, fmt.Errorf("cdf %q line %d: size: %w", name, line, err)
		}
		p, err := parseNumber(f[1])
		if err != nil {
			return nil, fmt.Errorf("cdf %q line %d: cumulative probability: %w", name, line, err)
		}
		pts = append(pts, Point{Size: x, P: p / scale})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("cdf %q: %w", name, err)
	}
	if len(pts) == 0 {
		return nil, fmt.Errorf("cdf %q: no data points", name)
	}
	if last := pts[len(pts)-1].P; headerMean == 0 && math.Abs(last-0.01) <= lastTolerance/100 {
		return nil, fmt.Errorf("cdf %q: the CDF ends at 1 but a file without a mean header line is read as percent (HPCC format); end at 100, or add the mean size as the first line (Homa format)", name)
	}
	c := &CDF{name: name, headerMean: headerMean}
	if err := c.setPoints(pts); err != nil {
		unit := "percent, HPCC format"
		if headerMean > 0 {
			unit = "fraction, Homa format"
		}
		return nil, fmt.Errorf("cdf %q (%s): %w", name, unit, err)
	}
	if headerMean > 0 {
		if s := stepMean(c.pts); math.Abs(s-headerMean) > headerTolerance*headerMean {
			return nil, fmt.Errorf("cdf %q: header mean %v disagrees with the step mean of the points %v", name, headerMean, s)
		}
	}
	return c, nil
}

// parseNumber parses a finite decimal number.
func parseNumber(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a finite number", s)
	}
	return v, nil
}

// ParseBytes is Parse over an in-memory file.
func ParseBytes(name string, data []byte) (*CDF, error) {
	return Parse(name, bytes.NewReader(data))
}

// ReadFile loads a CDF file from disk (either format); the CDF is named
// after the file's base name without extension.
func ReadFile(path string) (*CDF, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("flow-size cdf: %w", err)
	}
	base := filepath.Base(path)
	return ParseBytes(strings.TrimSuffix(base, filepath.Ext(base)), data)
}
