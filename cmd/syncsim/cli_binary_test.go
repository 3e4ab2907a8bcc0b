package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
	binDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// binary builds the syncsim binary once for the tests that run it as a
// process (signals, exit codes, completion, the Slurm check).
func binary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool")
	}
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "syncsim-bin-"); binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "syncsim")
		// The commit is set as a release build sets it, so a build
		// without VCS stamps (GOFLAGS=-buildvcs=false, a source
		// archive) does not add its warning (TestWarnsWithoutCommit)
		// to the stderr these tests read.
		build := exec.Command(gobin, "build", "-ldflags", "-X main.commit=test-binary", "-o", binPath, ".")
		if out, err := build.CombinedOutput(); err != nil {
			binErr = errors.New(err.Error() + "\n" + string(out))
		}
	})
	if binErr != nil {
		t.Fatalf("build: %v", binErr)
	}
	return binPath
}

// TestBinaryExitCodes runs the real binary and checks its exit status
// and stderr for a success and for bad input.
func TestBinaryExitCodes(t *testing.T) {
	bin := binary(t)
	for _, tc := range []struct {
		args     []string
		code     int
		inStderr string
	}{
		{nil, 0, ""},
		{[]string{"list"}, 0, ""},
		{[]string{"run", "nosuch"}, 1, `syncsim: unknown experiment "nosuch"`},
		{[]string{"sweep", "--bogus", "x"}, 1, "flag provided but not defined: --bogus"},
		{[]string{"run", "--trials", "0", "nosuch"}, 1, "syncsim: "},
		{[]string{"run", "sr-example", "--parallel", "9223372036854775807"}, 1, "--parallel must be at most 1024"},
		{[]string{"run", "sr-example", "--trials", "1000000000"}, 1, "--trials must be at most 1000000"},
	} {
		cmd := exec.Command(bin, tc.args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tc.code || !strings.Contains(stderr.String(), tc.inStderr) || strings.Contains(stderr.String(), "goroutine ") {
			t.Errorf("syncsim %v: exit %d, stderr %q; want exit %d with %q", tc.args, code, stderr.String(), tc.code, tc.inStderr)
		}
		if tc.code != 0 && strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("syncsim %v: stderr is not one line: %q", tc.args, stderr.String())
		}
	}
}
