package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// interruptAfter starts the binary with args, sends sig once (twice when
// twice is set) after delay, and returns its exit code, stderr and how
// long it took to end after the first signal. A process that does not
// end within limit is killed and fails the test.
func interruptAfter(t *testing.T, args []string, delay time.Duration, sig syscall.Signal, twice bool, limit time.Duration) (int, string, time.Duration) {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// A command that writes a CSV has installed its signal handler and
	// started its runs once the header is there; wait for it, so that a
	// slow start on a loaded machine is not taken for a failure.
	if csv := flagValue(args, "--csv"); csv != "" {
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			if st, err := os.Stat(csv); err == nil && st.Size() > 0 {
				break
			}
		}
	} else {
		// No file to watch: wait until the process has had some CPU, so
		// that it has installed its handler however loaded the machine.
		waitForCPU(cmd.Process.Pid, 100*time.Millisecond, time.Minute)
	}
	time.Sleep(delay)
	sent := time.Now()
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	if twice {
		time.Sleep(20 * time.Millisecond)
		cmd.Process.Signal(sig)
	}
	select {
	case err := <-done:
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		}
		return code, stderr.String(), time.Since(sent)
	case <-time.After(limit):
		cmd.Process.Kill()
		<-done
		t.Fatalf("syncsim %v still running %v after %v; stderr %q", args, limit, sig, stderr.String())
	}
	return 0, "", 0
}

// TestInterruptStopsRunsInProgress: SIGINT or SIGTERM during a long run
// ends the process within a fraction of a second with 128 + the signal
// number, keeps the complete rows (and nothing half-done), and says how
// to continue; the old program ran each run to its end.
func TestInterruptStopsRunsInProgress(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		sig   syscall.Signal
		code  int
		args  []string
		rows  int
		wants []string
	}{
		{"sweep SIGINT", syscall.SIGINT, 130,
			[]string{"sweep", "incast", "--vary", "duration_ms=1,600000", "--parallel", "1", "--quiet", "--csv", filepath.Join(dir, "a.csv")},
			1, []string{"syncsim: interrupted by SIGINT after 1 of 2 runs; ", "a.csv keeps 1 complete rows; continue with: syncsim sweep incast --vary duration_ms=1,600000 --parallel 1 --quiet --csv ", "--resume"}},
		{"run SIGTERM", syscall.SIGTERM, 143,
			[]string{"run", "incast", "--set", "duration_ms=600000", "--trials", "2", "--parallel", "2", "--quiet"},
			-1, []string{"syncsim: interrupted by SIGTERM after 0 of 2 trials; nothing was written"}},
		{"ina run SIGINT", syscall.SIGINT, 130,
			[]string{"run", "ina-leafspine", "--set", "protocol=atp", "--set", "gradient_scale=0.05", "--quiet", "--csv", filepath.Join(dir, "b.csv")},
			-1, []string{"interrupted by SIGINT after 0 of 1 trials", "no run had finished, so ", "b.csv was not kept; run it again with: syncsim run ina-leafspine"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stderr, took := interruptAfter(t, tc.args, 700*time.Millisecond, tc.sig, false, 10*time.Second)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tc.code, stderr)
			}
			if took > 2*time.Second {
				t.Errorf("took %v to stop after the signal", took)
			}
			for _, w := range tc.wants {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
			if strings.Count(stderr, "\n") != 1 {
				t.Errorf("stderr is not one line: %q", stderr)
			}
			if csvPath := tc.args[len(tc.args)-1]; tc.rows < 0 && strings.HasSuffix(csvPath, ".csv") {
				// Nothing finished: the command leaves no file behind.
				for _, p := range []string{csvPath, csvPath + ".json"} {
					if _, err := os.Stat(p); err == nil {
						t.Errorf("%s was left behind", p)
					}
				}
			}
			if tc.rows >= 0 {
				csvPath := tc.args[len(tc.args)-1]
				data, err := os.ReadFile(csvPath)
				if err != nil {
					t.Fatal(err)
				}
				if n := strings.Count(string(data), "\n") - 1; n != tc.rows || !strings.HasSuffix(string(data), "\n") {
					t.Errorf("%s holds %d rows (want %d complete ones):\n%s", csvPath, n, tc.rows, data)
				}
			}
		})
	}
}

// TestSecondInterruptEndsAtOnce: a second SIGINT ends the process at
// once, whatever it was doing.
func TestSecondInterruptEndsAtOnce(t *testing.T) {
	csv := filepath.Join(t.TempDir(), "twice.csv")
	code, _, took := interruptAfter(t, []string{"run", "incast", "--set", "duration_ms=600000", "--quiet", "--csv", csv}, 200*time.Millisecond, syscall.SIGINT, true, 5*time.Second)
	if code != 130 || took > time.Second {
		t.Errorf("exit %d after %v, want 130 at once", code, took)
	}
}

// waitForCPU waits until process pid has used at least cpu of CPU time
// (from /proc; it returns at once where /proc is not there), or until
// limit has passed.
func waitForCPU(pid int, cpu, limit time.Duration) {
	const tick = 10 * time.Millisecond // USER_HZ 100
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return
		}
		// Fields after the command name (which may hold spaces): state is
		// field 3, utime 14 and stime 15.
		f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
		if len(f) < 13 {
			return
		}
		u, _ := strconv.Atoi(f[11])
		s, _ := strconv.Atoi(f[12])
		if time.Duration(u+s)*tick >= cpu {
			return
		}
	}
}
