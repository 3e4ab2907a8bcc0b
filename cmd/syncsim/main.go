// Command syncsim runs the simulator's named experiments: it lists and
// describes them, runs one parameter point over several trials, and sweeps
// a grid of points into a tidy CSV.
//
// Flags may come before or after the experiment name:
//
//	syncsim sweep incast --vary senders=2,4,8 --trials 5 --csv incast.csv
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop() // a second interrupt ends the process at once
	}()
	code := run(ctx, os.Args, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
