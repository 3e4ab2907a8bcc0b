// Package examples holds the worked example of docs/extending.md, "Adding
// an experiment": fanin, written as it would be in a scenario family
// (fanin.go and its describe text fanin.md), compiled and run by go test
// (fanin_example_test.go) but registered nowhere, so the guide cannot
// drift from the code. The guide's steps copy both files into
// scenarios/network; cmd/syncsim's TestExtendingGuideSteps does so on a
// scratch copy of the repository and runs the suite there.
package examples
