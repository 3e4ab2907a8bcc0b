package training

import (
	"fmt"
	"strings"

	"syncsim/netsim"
)

// ModelNames lists the named models, in order of size.
var ModelNames = []string{"resnet50", "alexnet", "vgg11", "vgg19"}

// ModelSize returns the gradient size of a named model, as used by the
// PA-ATP evaluation (ResNet50 98 MB, AlexNet 233 MB, VGG11 491 MB, VGG19
// 548 MB; the sizes of the fp32 parameters). "custom" is not a model: use
// CustomModel with the size you want.
func ModelSize(name string) (netsim.Bytes, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "resnet50":
		return 98 * netsim.Megabyte, nil
	case "alexnet":
		return 233 * netsim.Megabyte, nil
	case "vgg11":
		return 491 * netsim.Megabyte, nil
	case "vgg19":
		return 548 * netsim.Megabyte, nil
	case "custom":
		return 0, fmt.Errorf("model custom has no fixed size: give the size explicitly")
	}
	return 0, fmt.Errorf("unknown model %q (known: %s, custom)", name, strings.Join(ModelNames, ", "))
}

// Model is a training job's per-iteration work: the gradient size it
// synchronises and the compute time of one iteration.
type Model struct {
	Name    string
	Size    netsim.Bytes
	Compute Dist
}

// NamedModel returns the model called name with the given compute-time
// distribution.
func NamedModel(name string, compute Dist) (Model, error) {
	s, err := ModelSize(name)
	if err != nil {
		return Model{}, err
	}
	if compute == nil {
		return Model{}, fmt.Errorf("model %s: nil compute-time distribution", name)
	}
	return Model{Name: strings.ToLower(strings.TrimSpace(name)), Size: s, Compute: compute}, nil
}

// CustomModel returns a model of the given size in megabytes.
func CustomModel(sizeMB float64, compute Dist) (Model, error) {
	if !(sizeMB > 0) || sizeMB > 1e9 {
		return Model{}, fmt.Errorf("custom model: size %g MB, want 0 < size <= 1e9", sizeMB)
	}
	if compute == nil {
		return Model{}, fmt.Errorf("custom model: nil compute-time distribution")
	}
	return Model{Name: "custom", Size: netsim.Bytes(sizeMB * float64(netsim.Megabyte)), Compute: compute}, nil
}
