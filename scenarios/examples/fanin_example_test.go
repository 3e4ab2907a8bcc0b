package examples_test

import (
	"context"
	"fmt"
	"os"

	"syncsim/experiments"
	"syncsim/scenarios/examples"
)

// guide:experiment-example

// A family registers its experiments; the runner sweeps them, one CSV row
// per point and trial, in grid order whatever Parallel is.
func Example_fanin() {
	reg := experiments.NewRegistry()
	reg.Register(examples.Fanin())
	e, err := reg.Lookup("fanin")
	if err != nil {
		panic(err)
	}
	grid, err := experiments.Expand(e, []string{"duration_ms=5"}, []string{"senders=2,8", "transport=dctcp,newreno"})
	if err != nil {
		panic(err)
	}
	w := experiments.NewCSVWriter(os.Stdout, e, false)
	w.WriteHeader()
	runner := &experiments.Runner{Exp: e, Points: grid, Trials: 1, BaseSeed: 1, Parallel: 2, Check: true}
	if err := runner.Run(context.Background(), w.Write); err != nil {
		panic(err)
	}
	// Output:
	// experiment,senders,transport,ecn_k_pkts,duration_ms,warmup_ms,trial,seed,goodput_gbps,jain,queue_max_pkts,drops
	// fanin,2,dctcp,65,5,0.5,0,1,9.733333333333334,1,94,0
	// fanin,2,newreno,65,5,0.5,0,1,9.733333333333334,0.6502890173410405,666,704
	// fanin,8,dctcp,65,5,0.5,0,1,9.720355555555555,0.9905859540318083,74,0
	// fanin,8,newreno,65,5,0.5,0,1,6.473315555555557,0.9719608117669708,666,703
}

// Every point is checked before anything runs: values against their
// declarations, then the experiment's own rules between parameters.
func Example_faninRefuses() {
	e := examples.Fanin()
	for _, sets := range [][]string{{"senders=0"}, {"ecn_k_pkts=-1"}, {"warmup_ms=30"}} {
		grid, err := experiments.Expand(e, sets, nil)
		if err == nil {
			err = grid.Validate()
		}
		fmt.Println(err)
	}
	// Output:
	// senders="0": out of range; allowed: integer in [1, 1024]
	// ecn_k_pkts="-1": out of range; allowed: integer in [0, 1048576]
	// warmup_ms=30 must be below duration_ms=20
}

// guide:end
