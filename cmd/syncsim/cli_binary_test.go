package main

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBinaryExitCodes builds the real binary and checks its exit status
// and stderr for a success and for bad input.
func TestBinaryExitCodes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool")
	}
	bin := filepath.Join(t.TempDir(), "syncsim")
	if out, err := exec.Command(gobin, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		args     []string
		code     int
		inStderr string
	}{
		{nil, 0, ""},
		{[]string{"list"}, 0, ""},
		{[]string{"run", "nosuch"}, 1, `syncsim: unknown experiment "nosuch"`},
		{[]string{"sweep", "--bogus", "x"}, 1, "flag provided but not defined: -bogus"},
		{[]string{"run", "--trials", "0", "nosuch"}, 1, "syncsim: "},
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
