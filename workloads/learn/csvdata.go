package learn

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// ReadCSVFile reads a user's data set: one sample per line,
// "label,feature1,feature2,...", the label an integer from 0, features
// finite numbers; every line has the same number of features. Blank
// lines and lines starting with '#' are skipped, and so is a first line
// whose first field is "label" (a header). Classes is the largest label
// plus one, and every label below it must have a row. Errors name the
// file and the line.
func ReadCSVFile(path string) (*Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("data_file: %w", err)
	}
	defer f.Close()
	d, err := ReadCSV(f, path)
	if err != nil {
		return nil, fmt.Errorf("data_file %w", err)
	}
	return d, nil
}

// ReadCSV reads the format of ReadCSVFile from r; name labels errors.
func ReadCSV(r io.Reader, name string) (*Dataset, error) {
	d := &Dataset{Name: name}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 64<<20)
	line, first := 0, true
	var fields []string
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields = splitCSV(text, fields[:0])
		if first && strings.EqualFold(fields[0], "label") {
			first = false
			continue
		}
		first = false
		if len(fields) < 2 {
			return nil, fmt.Errorf("%s line %d: %q has a label and no features (want label,feature1,feature2,...)", name, line, text)
		}
		y, err := strconv.Atoi(fields[0])
		if err != nil {
			return nil, fmt.Errorf("%s line %d: label %q is not an integer", name, line, fields[0])
		}
		if y < 0 {
			return nil, fmt.Errorf("%s line %d: label %d is out of range (labels are integers from 0)", name, line, y)
		}
		if y > 1<<20 {
			return nil, fmt.Errorf("%s line %d: label %d is out of range (at most %d classes)", name, line, y, 1<<20)
		}
		if d.Dim == 0 {
			d.Dim = len(fields) - 1
		} else if len(fields)-1 != d.Dim {
			return nil, fmt.Errorf("%s line %d: %d features, but the first sample has %d", name, line, len(fields)-1, d.Dim)
		}
		for k, s := range fields[1:] {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%s line %d: feature %d %q is not a finite number", name, line, k+1, s)
			}
			d.floats = append(d.floats, v)
		}
		d.Labels = append(d.Labels, y)
		d.Classes = max(d.Classes, y+1)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s line %d: %w", name, line+1, err)
	}
	if len(d.Labels) == 0 {
		return nil, fmt.Errorf("%s: no samples", name)
	}
	if d.Classes < 2 {
		return nil, fmt.Errorf("%s: every label is 0; need at least two classes", name)
	}
	if err := denseLabels(d.Labels, d.Classes); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return d, d.check()
}

// denseLabels refuses labels that leave a class between 0 and the largest
// label without a row: the model would have an output no sample trains,
// and the class count would be the largest label plus one, not the
// number of classes the file has.
func denseLabels(labels []int, classes int) error {
	seen := make([]bool, classes)
	for _, y := range labels {
		seen[y] = true
	}
	var missing []string
	for c, ok := range seen {
		if !ok {
			missing = append(missing, strconv.Itoa(c))
		}
	}
	switch {
	case len(missing) == 0:
		return nil
	case len(missing) > 3:
		missing = append(missing[:3], fmt.Sprintf("and %d more", len(missing)-3))
	}
	return fmt.Errorf("labels run to %d but no row has label %s (labels must be 0 to K-1, each with a row)", classes-1, strings.Join(missing, ", "))
}

// splitCSV splits a line at commas and trims each field.
func splitCSV(s string, out []string) []string {
	for {
		i := strings.IndexByte(s, ',')
		if i < 0 {
			return append(out, strings.TrimSpace(s))
		}
		out = append(out, strings.TrimSpace(s[:i]))
		s = s[i+1:]
	}
}
