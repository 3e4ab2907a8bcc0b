package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSlurmArraySweep runs scripts/slurm/local-cluster.sh when sbatch is
// on the PATH: a syncsim sweep as a Slurm job array of 2 shards, merged
// by a dependent job, must equal the same sweep run locally byte for byte.
// It uses the cluster sbatch reaches; with no controller answering, and as
// root on a machine whose slurm.conf is the script's own (or absent), it
// brings up the script's one-node cluster for the test and stops it after.
// SYNCSIM_SKIP_SLURM=1 skips it.
func TestSlurmArraySweep(t *testing.T) {
	if testing.Short() {
		t.Skip("submits Slurm jobs")
	}
	if os.Getenv("SYNCSIM_SKIP_SLURM") != "" {
		t.Skip("SYNCSIM_SKIP_SLURM is set")
	}
	if _, err := exec.LookPath("sbatch"); err != nil {
		t.Skip("sbatch is not on the PATH: the Slurm array check (scripts/slurm/local-cluster.sh) is skipped")
	}
	script, err := filepath.Abs(filepath.Join("..", "..", "scripts", "slurm", "local-cluster.sh"))
	if err != nil {
		t.Fatal(err)
	}
	mode := []string{"check", "2"}
	if exec.Command("sinfo", "-h").Run() != nil {
		conf, err := os.ReadFile("/etc/slurm/slurm.conf")
		ours := err == nil && strings.Contains(string(conf), "written by syncsim scripts/slurm/local-cluster.sh")
		if os.Getuid() != 0 || (err == nil && !ours) {
			t.Skip("sbatch is on the PATH but no Slurm controller answers, and this is not a machine the script may configure")
		}
		mode = []string{"all", "2"}
	}
	cmd := exec.Command(script, mode...)
	out, err := cmd.CombinedOutput()
	t.Logf("local-cluster.sh %s:\n%s", strings.Join(mode, " "), out)
	if err != nil {
		t.Fatalf("local-cluster.sh %s: %v", strings.Join(mode, " "), err)
	}
	if !strings.Contains(string(out), "merged from 2 shards) and local.csv are byte-identical") {
		t.Errorf("the check did not report identical files")
	}
}
