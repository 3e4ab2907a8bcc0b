//go:build unix

package main

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// A lock is an exclusive advisory lock (flock(2)) on an output, a CSV
// file or a series directory, held from before the first byte is written
// until the command ends, so that two commands writing the same output at
// once cannot interleave their rows: the second is refused, naming the
// first. The lock lives on an open file description of its own, so the
// command may open and close the file again meanwhile; the kernel drops
// it when the process ends, however it ends, and nothing is left on disk.
type lock struct {
	f       *os.File
	path    string
	created bool // the lock created the file (it did not exist)
}

// errLocked marks an output another process is writing.
var errLocked = errors.New("locked")

// lockCSV opens path (creating it empty when missing, never truncating)
// and locks it. A CSV another process holds is refused with a message
// naming that process.
func lockCSV(path string) (*lock, error) {
	created := true
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		created = false
		if st, serr := os.Stat(path); serr == nil && st.IsDir() {
			return nil, fmt.Errorf("%s is a directory; --csv names a file", path)
		}
		f, err = os.OpenFile(path, os.O_RDWR, 0)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot write CSV %s: %w", path, bareError(err))
	}
	return take(f, path, created, "")
}

// lockDir locks the directory dir, which must exist.
func lockDir(dir string) (*lock, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("--series-dir %s: %w", dir, bareError(err))
	}
	return take(f, dir, false, "--series-dir ")
}

// take locks f without waiting; what prefixes the path in messages.
func take(f *os.File, path string, created bool, what string) (*lock, error) {
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder := lockHolder(f)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: %s%s is being written by %s; wait for it to end, or write to another file", errLocked, what, path, holder)
		}
		return nil, fmt.Errorf("cannot lock %s%s: %w", what, path, err)
	}
	return &lock{f: f, path: path, created: created}, nil
}

// isLocked reports, without taking it, whether another process holds the
// lock of path, and if so who. A missing or unreadable path is not locked.
func isLocked(path string) (bool, string) {
	f, err := os.Open(path)
	if err != nil {
		return false, ""
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		return errors.Is(err, syscall.EWOULDBLOCK), lockHolder(f)
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false, ""
}

// release drops the lock. Releasing twice, or a nil lock, is harmless.
func (l *lock) release() {
	if l == nil || l.f == nil {
		return
	}
	l.f.Close()
	l.f = nil
}

// lockHolder names the process that holds the flock of f, from Linux's
// /proc/locks and the holder's command line; elsewhere, or when the
// holder cannot be read, "another process".
func lockHolder(f *os.File) string {
	st, err := f.Stat()
	if err != nil {
		return "another process"
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return "another process"
	}
	dev := uint64(sys.Dev)
	major := (dev>>8)&0xfff | (dev>>32)&^uint64(0xfff)
	minor := dev&0xff | (dev>>12)&^uint64(0xff)
	id := fmt.Sprintf("%02x:%02x:%d", major, minor, sys.Ino)
	locks, err := os.Open("/proc/locks")
	if err != nil {
		return "another process"
	}
	defer locks.Close()
	sc := bufio.NewScanner(locks)
	for sc.Scan() {
		// "1: FLOCK  ADVISORY  WRITE 4242 08:01:1234 0 EOF"; waiters
		// have "->" after the number.
		fs := strings.Fields(sc.Text())
		if len(fs) < 6 || fs[1] == "->" || fs[1] != "FLOCK" || fs[5] != id {
			continue
		}
		pid, err := strconv.Atoi(fs[4])
		if err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		return describeProcess(pid)
	}
	return "another process"
}

// describeProcess is "process PID (its command line)", shortened.
func describeProcess(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || len(b) == 0 {
		return fmt.Sprintf("process %d", pid)
	}
	args := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
	args[0] = filepath.Base(args[0])
	cmd := strings.Join(args, " ")
	if len(cmd) > 120 {
		cmd = cmd[:117] + "..."
	}
	return fmt.Sprintf("process %d (%s)", pid, cmd)
}

// bareError drops the path an *os.PathError repeats.
func bareError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
