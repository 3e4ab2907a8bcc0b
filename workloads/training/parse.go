package training

import (
	"fmt"
	"math"
	"strings"
)

// DistNames lists the names ParseDist accepts.
var DistNames = []string{"constant", "uniform", "lognormal", "cnn", "transformer", "empirical"}

// ParseDist builds a compute-time distribution from its name and numeric
// arguments (seconds):
//
//	constant T          fixed T
//	uniform LO HI       U[LO, HI]
//	lognormal MED SIG   lognormal with median MED and log-sd SIG
//	cnn                 the CNN trace approximation (see CNN)
//	transformer         the Transformer trace approximation (see Transformer)
//	empirical [MIN]     an online empirical CDF (cold start) with no
//	                    fallback prior; MIN samples before it trusts itself
//	                    (default DefaultMinSamples)
func ParseDist(name string, args ...float64) (Dist, error) {
	for _, a := range args {
		if math.IsNaN(a) || math.IsInf(a, 0) {
			return nil, fmt.Errorf("distribution %s: argument %g is not finite", name, a)
		}
	}
	want := func(k int) error {
		if len(args) != k {
			return fmt.Errorf("distribution %s takes %d arguments, got %d", name, k, len(args))
		}
		return nil
	}
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "constant":
		if err := want(1); err != nil {
			return nil, err
		}
		if !(args[0] > 0) {
			return nil, fmt.Errorf("constant: time %g must be positive", args[0])
		}
		return Constant{T: args[0]}, nil
	case "uniform":
		if err := want(2); err != nil {
			return nil, err
		}
		if !(args[0] > 0) || !(args[1] > args[0]) {
			return nil, fmt.Errorf("uniform: want 0 < lo < hi, got %g, %g", args[0], args[1])
		}
		return Uniform{Lo: args[0], Hi: args[1]}, nil
	case "lognormal":
		if err := want(2); err != nil {
			return nil, err
		}
		if !(args[0] > 0) || args[1] < 0 {
			return nil, fmt.Errorf("lognormal: want median > 0 and sigma >= 0, got %g, %g", args[0], args[1])
		}
		return LogNormal{Median: args[0], Sigma: args[1]}, nil
	case "cnn":
		if err := want(0); err != nil {
			return nil, err
		}
		return CNN(), nil
	case "transformer":
		if err := want(0); err != nil {
			return nil, err
		}
		return Transformer(), nil
	case "empirical":
		min := DefaultMinSamples
		if len(args) > 1 {
			return nil, fmt.Errorf("empirical takes at most 1 argument, got %d", len(args))
		}
		if len(args) == 1 {
			if args[0] < 1 || args[0] != math.Trunc(args[0]) {
				return nil, fmt.Errorf("empirical: minimum sample count %g must be a positive integer", args[0])
			}
			min = int(args[0])
		}
		return NewEmpirical(min, nil), nil
	}
	return nil, fmt.Errorf("unknown distribution %q (known: %s)", name, strings.Join(DistNames, ", "))
}
