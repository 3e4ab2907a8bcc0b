package experiments

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Resume records the (point, trial) rows already present in a CSV, so a
// sweep can be continued without repeating them.
type Resume struct {
	done map[string]bool
	rows int
}

// Rows returns the number of data rows found.
func (rs *Resume) Rows() int { return rs.rows }

// Has reports whether the row of (ps, trial, seed) is present.
func (rs *Resume) Has(ps Params, trial int, seed uint64) bool {
	return rs.done[rowKey(ps.Values(), strconv.Itoa(trial), strconv.FormatUint(seed, 10))]
}

func rowKey(params []string, trial, seed string) string {
	return strings.Join(params, "\x00") + "\x00" + trial + "\x00" + seed
}

// OpenResume opens path for appending the rows of a resumed sweep. A
// missing or empty file is created and gets the header. An existing file
// must have exactly the header CSVHeader(e, timing) and rows of e; a last
// line cut short by an interruption is removed. The caller writes the
// header when header is true.
func OpenResume(path string, e *Experiment, timing bool) (f *os.File, rs *Resume, header bool, err error) {
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, false, err
	}
	defer func() {
		if err != nil {
			f.Close()
			f = nil
		}
	}()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, nil, false, err
	}
	rs = &Resume{done: map[string]bool{}}
	if len(data) == 0 {
		return f, rs, true, nil
	}
	// Check the complete lines before touching the file; then drop a
	// last row cut short by an interruption.
	cut := bytes.LastIndexByte(data, '\n') + 1
	if cut == 0 {
		return nil, nil, false, fmt.Errorf("cannot resume %s: it has no complete header line", path)
	}
	if err := rs.read(data[:cut], e, timing); err != nil {
		return nil, nil, false, fmt.Errorf("cannot resume %s: %w", path, err)
	}
	if cut < len(data) {
		if err := f.Truncate(int64(cut)); err != nil {
			return nil, nil, false, err
		}
	}
	if _, err := f.Seek(int64(cut), io.SeekStart); err != nil {
		return nil, nil, false, err
	}
	return f, rs, false, nil
}

func (rs *Resume) read(data []byte, e *Experiment, timing bool) error {
	cr := csv.NewReader(bytes.NewReader(data))
	want := CSVHeader(e, timing)
	got, err := cr.Read()
	if err != nil {
		return err
	}
	if !slices.Equal(got, want) {
		return errors.New("its header differs from this experiment's columns (other experiment, parameters or --timing); write to a new file")
	}
	np := len(e.Params)
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if rec[0] != e.Name {
			return fmt.Errorf("line %d holds experiment %q, not %s", rs.rows+2, rec[0], e.Name)
		}
		rs.done[rowKey(rec[1:1+np], rec[1+np], rec[2+np])] = true
		rs.rows++
	}
}
