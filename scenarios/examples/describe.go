package examples

import (
	"embed"
	"strings"
)

// docFiles holds each experiment's describe text, one Markdown file per
// experiment beside its scenario (NAME.md).
//
//go:embed *.md
var docFiles embed.FS

// doc returns the describe text of the named experiment from NAME.md. A
// missing file is a build defect, caught by the family's lookup test.
func doc(name string) string {
	b, err := docFiles.ReadFile(name + ".md")
	if err != nil {
		panic("scenarios/examples: no describe text " + name + ".md: " + err.Error())
	}
	return strings.TrimSpace(string(b))
}
