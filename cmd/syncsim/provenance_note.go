package main

import (
	"fmt"
	"io"

	"syncsim/experiments"
)

// provenanceNote warns on stderr when the sidecar just written records no
// commit: a binary built outside a git checkout (a source archive, or
// -buildvcs=false) does not know its revision, and a result then cannot
// be traced to the code that made it.
func provenanceNote(w io.Writer, p *plan, out *output) {
	if !out.sidecar {
		return
	}
	if prog := experiments.ThisProgram(version, commit); prog.Commit == "unknown" {
		fmt.Fprintf(w, "syncsim: warning: this build does not know its commit, so %s records commit \"unknown\"; "+
			"build from a git checkout, or with -ldflags \"-X main.commit=$(git rev-parse HEAD)\"\n", experiments.SidecarPath(p.csvPath))
	}
}
