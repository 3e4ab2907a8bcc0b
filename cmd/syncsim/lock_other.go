//go:build !unix

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// lock stands for an output lock where flock(2) does not exist: outputs
// are not locked there, so two commands must not write one output at once.
type lock struct {
	path    string
	created bool
}

var errLocked = errors.New("locked")

func lockCSV(path string) (*lock, error) {
	created := true
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		created = false
		f, err = os.OpenFile(path, os.O_RDWR, 0)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot write CSV %s: %w", path, bareError(err))
	}
	f.Close()
	return &lock{path: path, created: created}, nil
}

func lockDir(dir string) (*lock, error) { return &lock{path: dir}, nil }

func isLocked(string) (bool, string) { return false, "" }

func (l *lock) release() {}

func bareError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
