package learn

import "fmt"

// Replay applies a recorded schedule (Fleet.Schedule of another fleet of
// the same Config, split and streams) to f, op by op. A schedule that
// does not fit f (a worker, peer or piece out of range, a message never
// sent) is reported as an error.
func (f *Fleet) Replay(ops []Op) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("replay: %v", r)
		}
	}()
	for _, op := range ops {
		f.Do(op)
	}
	return nil
}
