package mixed

import (
	"slices"
	"testing"
)

// TestPRSchemeRegistry: pr_scheme offers the registered names, each with
// its own check (selective reduce refuses p = n, partial reduce accepts
// it); an entry without a constructor or a check, or registered twice,
// stops the experiment's construction; an unknown name is an error.
func TestPRSchemeRegistry(t *testing.T) {
	e := lookup(t, "mixed-fabric")
	var choices []string
	for _, p := range e.Params {
		if p.Name == "pr_scheme" {
			choices = p.Choices
		}
	}
	if !slices.Equal(choices, prSchemeNames()) || !slices.Equal(choices, []string{"partial-reduce", "selective-reduce"}) {
		t.Errorf("pr_scheme offers %v", choices)
	}
	if checkPRP("partial-reduce", 4, 4) != nil || checkPRP("selective-reduce", 4, 4) == nil || checkPRP("selective-reduce", 3, 4) != nil {
		t.Error("the schemes' checks of p against the workers are wrong")
	}
	if checkPRP("paired-reduce", 2, 4) == nil {
		t.Error("an unknown scheme passed")
	}
	saved := prSchemes
	defer func() { prSchemes = saved }()
	for _, bad := range [][]prScheme{
		{saved[0], {name: "x", ctl: saved[0].ctl}},
		{saved[0], {name: "x", check: saved[0].check}},
		{saved[0], saved[0]},
	} {
		prSchemes = bad
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("a bad registration %+v was accepted", bad[1])
				}
			}()
			prSchemeNames()
		}()
	}
}
