package learn

import (
	"fmt"
	"math/rand/v2"
)

// Dataset is a labelled data set held in memory: N rows of Dim features
// and a label in [0, Classes). Features are stored either as bytes with a
// common scale (MNIST pixels, scale 1/255) or as float64.
type Dataset struct {
	Name    string
	Dim     int
	Classes int
	Labels  []int
	bytes   []uint8   // N x Dim, row-major (nil when floats is used)
	scale   float64   // feature = scale * byte
	floats  []float64 // N x Dim, row-major
}

// N is the number of rows.
func (d *Dataset) N() int { return len(d.Labels) }

// Row writes the features of row i into dst (len Dim).
func (d *Dataset) Row(i int, dst []float64) {
	o := i * d.Dim
	if d.floats != nil {
		copy(dst, d.floats[o:o+d.Dim])
		return
	}
	for k, b := range d.bytes[o : o+d.Dim] {
		dst[k] = d.scale * float64(b)
	}
}

// check verifies the dataset's shape and labels.
func (d *Dataset) check() error {
	if d.Dim < 1 || d.Classes < 2 {
		return fmt.Errorf("dataset %s: %d features and %d classes (need at least 1 and 2)", d.Name, d.Dim, d.Classes)
	}
	n := len(d.Labels)
	if n == 0 {
		return fmt.Errorf("dataset %s has no rows", d.Name)
	}
	if d.floats != nil && len(d.floats) != n*d.Dim || d.floats == nil && len(d.bytes) != n*d.Dim {
		return fmt.Errorf("dataset %s: features do not fill %d rows of %d", d.Name, n, d.Dim)
	}
	for i, y := range d.Labels {
		if y < 0 || y >= d.Classes {
			return fmt.Errorf("dataset %s: row %d has label %d outside [0, %d)", d.Name, i, y, d.Classes)
		}
	}
	return nil
}

// Split is a train and a test set: index lists into one or two datasets.
type Split struct {
	Train, Test       *Dataset
	TrainIdx, TestIdx []int
}

// Dim is the number of features.
func (s *Split) Dim() int { return s.Train.Dim }

// Classes is the number of classes.
func (s *Split) Classes() int { return s.Train.Classes }

// allIdx lists 0..n-1.
func allIdx(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// MNISTTrainRows is the size of MNIST's training set.
const MNISTTrainRows = 60000

// SplitSizes is how many of n rows RandomSplit holds out as the test set
// at testFrac (round(testFrac n)), and how many it leaves for training.
func SplitSizes(n int, testFrac float64) (test, train int) {
	nt := int(testFrac*float64(n) + 0.5)
	return nt, n - nt
}

// CheckRows reports, in one line naming what (the file, or the
// parameter that sets the rows), a data set of n rows that a split at
// testFrac leaves without a test row, or without a training row for each
// of workers workers (Shards needs one each). testFrac 0 means a data set
// with its own test set, whose n rows are all for training.
func CheckRows(what string, n int, testFrac float64, workers int) error {
	test, train := n, n
	if testFrac > 0 {
		test, train = SplitSizes(n, testFrac)
	}
	if test < 1 || train < 1 {
		return fmt.Errorf("%s: %d rows leave %d test and %d training rows at test_frac %g (need at least one of each)", what, n, test, train, testFrac)
	}
	if train < workers {
		return fmt.Errorf("%s: %d training rows cannot give each of %d workers one", what, train, workers)
	}
	return nil
}

// RandomSplit splits d into a test set of round(testFrac N) rows drawn
// with rng and a train set of the rest (both in row order).
func RandomSplit(d *Dataset, testFrac float64, rng *rand.Rand) (*Split, error) {
	if !(testFrac > 0 && testFrac < 1) {
		return nil, fmt.Errorf("test_frac %g, want 0 < test_frac < 1", testFrac)
	}
	n := d.N()
	nt, _ := SplitSizes(n, testFrac)
	if nt < 1 || nt >= n {
		return nil, fmt.Errorf("test_frac %g of %d rows leaves %d test and %d train rows (need at least one of each)", testFrac, n, nt, n-nt)
	}
	perm := rng.Perm(n)
	test := make([]bool, n)
	for _, i := range perm[:nt] {
		test[i] = true
	}
	s := &Split{Train: d, Test: d}
	for i := range n {
		if test[i] {
			s.TestIdx = append(s.TestIdx, i)
		} else {
			s.TrainIdx = append(s.TrainIdx, i)
		}
	}
	return s, nil
}
